// PETSc -log_view summaries read into the run record (tests/data/petsc: PetIBM's examples with
// PETSc 3.12.2; SOURCES.md there). The values below are copied from the files by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "app_outputs/petsc_log.h"
#include "ingest/ingest.h"
#include "reader/series_identity.h"
#include "ingest_test_util.h"
#include "temp_dir.h"
#include "util/input_error.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kPetsc = std::string(QNM_TEST_DATA_DIR) + "/petsc/petibm-examples";
const std::string kCylinder = kPetsc + "/cylinder2dRe100-view.log";
const std::string kCavity = kPetsc + "/liddrivencavity2dRe100-view.log";
const std::string kSphere = kPetsc + "/sphere3dRe350-view.log";

std::vector<RunStats> Read(const std::string& path, IngestSummary* summary = nullptr) {
  return testing::IngestPath(path, summary, /*strict=*/false);
}

// The summary table of a PETSc 3.18+ log (the "MPI Msg Count:" names, "processes, by <user> on"),
// its numbers those of a 208-process Firedrake run on Gadi (sghelichkhani/morrow2026, MIT).
const char* const kNewLayout =
    "solver output before the summary\n"
    "------------------------------------------------------------------ PETSc Performance Summary: "
    "------------------------------------------------------------------\n"
    "\n"
    "/scratch/xd2/sg8812/murrumbidgee_3d.py on a default named gadi-cpu-spr-0500.gadi.nci.org.au with 208 processes, "
    "by sg8812 on Fri Aug 28 05:49:39 2026\n"
    "Using PETSc Development Git Revision: ab02c5218b841d6dcf87fa7163a72e0278009638 Git Date: 2026-08-15 17:25:53 "
    "+0000\n"
    "\n"
    "                         Max       Max/Min     Avg       Total\n"
    "Time (sec):           1.700e+03     1.000   1.700e+03\n"
    "Objects:              0.000e+00     0.000   0.000e+00\n"
    "Flops:                1.470e+12     1.131   1.386e+12  1.154e+15\n"
    "Flops/sec:            8.646e+08     1.131   8.156e+08  6.786e+11\n"
    "MPI Msg Count:        2.478e+05     5.268   1.025e+05  8.530e+07\n"
    "MPI Msg Len (bytes):  1.295e+10     2.695   9.876e+04  8.424e+12\n"
    "MPI Reductions:       1.208e+04     1.000\n"
    "\n"
    "Summary of Stages:   ----- Time ------  ----- Flop ------  --- Messages ---  -- Message Lengths --  -- "
    "Reductions --\n"
    "                        Avg     %Total     Avg     %Total    Count   %Total     Avg         %Total    Count   "
    "%Total\n"
    " 0:      Main Stage: 6.7255e+02  39.6%  6.6009e+14  57.2%  2.014e+07  23.6%  1.773e+05       42.4%  8.545e+03  "
    "70.7%\n"
    " 1:        MG Apply: 1.0273e+03  60.4%  4.9343e+14  42.8%  6.516e+07  76.4%  7.450e+04       57.6%  3.519e+03  "
    "29.1%\n"
    "\n"
    "#PETSc Option Table entries:\n"
    "-log_view :profile.txt\n"
    "-snes_monitor\n"
    "-pc_type mg\n"
    "-ksp_type gmres\n"
    "#End of PETSc Option Table entries\n";

}  // namespace

TEST_CASE("PETSc summary: processes, the slowest rank's time, messages, bytes, reductions", "[ingest][petsc]") {
  // "petibm-decoupledibpm on a  named cf2452995ead with 2 processors", PETSc 3.12.2;
  // "Time (sec): 1.530e+03 1.000 1.530e+03", "MPI Messages: 5.501e+05 1.170 5.101e+05 1.020e+06",
  // "MPI Message Lengths: 2.122e+10 1.065 4.033e+04 4.114e+10", "MPI Reductions: 1.576e+06 1.000".
  std::vector<RunStats> runs = Read(kCylinder);
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.app == "petibm-decoupledibpm");
  CHECK(run.tool_version == "PETSc 3.12.2");
  CHECK(run.procs == 2);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.hosts == std::vector<std::string>{"cf2452995ead"});
  CHECK(run.wall_time_s == 1530);
  CHECK(run.app_time_max_s == 1530);
  CHECK(run.app_time_mean_s == 1530);
  CHECK(run.messages_per_rank == 5.101e+05);
  CHECK(run.bytes_sent_per_rank == Approx(4.114e+10 / 2));
  CHECK(run.bytes_per_message == 4.033e+04);
  CHECK_FALSE(Known(run.mpi_time_mean_s));  // PETSc times no MPI call: runtime only
  CHECK(run.details.at("petsc_reductions_per_rank") == "1576000");
  CHECK(run.details.at("petsc_flop_total") == "2.757e+12");
  CHECK(run.details.at("petsc_stage3_solvevelocity_time_mean_s") == "1171.4");
  CHECK(run.details.at("petsc_summary_line") == "5");
  // The option table's solver options key the series; -log_view and -options_left do not.
  CHECK(std::string(run.variant).find("petsc3.12.2-forces_ksp_type=preonly-") != std::string::npos);
  CHECK(std::string(run.variant).find("velocity_pc_type=jacobi") != std::string::npos);
  CHECK(std::string(run.variant).find("log_view") == std::string::npos);
  CHECK(std::string(run.variant).find("options_left") == std::string::npos);

  // One process ("with 1 processor"), no message: 0 per rank.
  runs = Read(kCavity);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].app == "petibm-navierstokes");
  CHECK(runs[0].procs == 1);
  CHECK(runs[0].wall_time_s == 3.538);
  CHECK(runs[0].messages_per_rank == 0);

  // 20 processes on gpu017 (2020): "Time (sec): 2.580e+04", "MPI Messages: ... 5.890e+06 1.178e+08",
  // "MPI Message Lengths: ... 8.317e+04 9.798e+12".
  runs = Read(kSphere);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 20);
  CHECK(runs[0].hosts == std::vector<std::string>{"gpu017"});
  CHECK(runs[0].wall_time_s == 25800);
  CHECK(runs[0].messages_per_rank == 5.890e+06);
  CHECK(runs[0].bytes_sent_per_rank == Approx(9.798e+12 / 20));
  CHECK(runs[0].bytes_per_message == 8.317e+04);
}

TEST_CASE("PETSc summary: the 3.18+ layout after the application's output", "[ingest][petsc]") {
  testing::TempDir dir("qnm-petsc", "new");
  std::vector<RunStats> runs = Read(WriteCase(dir, "job.o1234", kNewLayout));
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.app == "murrumbidgee_3d.py");
  CHECK(run.procs == 208);
  CHECK(run.tool_version == "PETSc dev-ab02c5218b");
  CHECK(run.wall_time_s == 1700);
  CHECK(run.messages_per_rank == 1.025e+05);
  CHECK(run.bytes_sent_per_rank == Approx(8.424e+12 / 208));
  CHECK(run.bytes_per_message == 9.876e+04);
  CHECK(run.details.at("petsc_reductions_per_rank") == "12080");
  CHECK(run.details.at("petsc_stage1_mg_apply_time_mean_s") == "1027.3");
  CHECK(run.hosts == std::vector<std::string>{"gadi-cpu-spr-0500.gadi.nci.org.au"});
  CHECK(std::string(run.variant) == "petscdev-ab02c5218b-default-ksp_type=gmres-pc_type=mg");
}

TEST_CASE("PETSc summaries: a campaign is one series; two summaries in a file are two runs", "[ingest][petsc]") {
  // The 2-process summary as if run at 4 and 8 processes (the header and time edited), beside it.
  testing::TempDir dir("qnm-petsc", "campaign");
  const std::string text = ReadText(kCylinder);
  WriteCase(dir, "view-2.log", text);
  for (int p : {4, 8}) {
    std::string edited = Replaced(text, "with 2 processors", "with " + std::to_string(p) + " processors");
    edited = Replaced(edited, "Time (sec):           1.530e+03     1.000   1.530e+03",
                      "Time (sec):           " + std::to_string(1530 / (p / 2)) + "     1.000   1.0e+02");
    WriteCase(dir, "view-" + std::to_string(p) + ".log", edited);
  }
  std::vector<Series> series = GroupIntoSeries(Read(dir.path.string()), GroupBy::kContent);
  REQUIRE(series.size() == 1);
  std::vector<int> procs;
  std::vector<double> times;
  for (const RunGroup& g : series[0].groups) {
    procs.push_back(g.procs);
    times.push_back(g.median_time_s);
  }
  CHECK(procs == std::vector<int>{2, 4, 8});
  CHECK(times == std::vector<double>{1530, 765, 382});

  // A job's output of two runs: each summary is a run, with its own line.
  testing::TempDir two("qnm-petsc", "two");
  std::vector<RunStats> runs = Read(WriteCase(two, "two.out", text + ReadText(kSphere)));
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].procs == 2);
  CHECK(runs[1].procs == 20);
  CHECK(runs[1].details.at("petsc_summary_line") == std::to_string(5 + std::count(text.begin(), text.end(), '\n')));
  // Solver options differ: two series.
  CHECK(GroupIntoSeries(runs, GroupBy::kContent).size() == 2);
}

TEST_CASE("PETSc summary: a debug build is its own series, with a note", "[ingest][petsc]") {
  testing::TempDir dir("qnm-petsc", "debug");
  const std::string text = ReadText(kCavity);
  const std::string box =
      "      ##########################################################\n"
      "      #                          WARNING!!!                    #\n"
      "      #   This code was compiled with a debugging option.      #\n"
      "      ##########################################################\n";
  const std::size_t at = text.find("Event                Count");
  REQUIRE(at != std::string::npos);
  IngestSummary summary;
  std::vector<RunStats> runs = Read(WriteCase(dir, "debug.log", text.substr(0, at) + box + text.substr(at)), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(std::string(runs[0].variant).find("petsc3.12.2-debug") == 0);
  CHECK(runs[0].details.at("petsc_debug_build") == "yes");
  std::vector<RunStats> optimised = Read(kCavity);
  runs.push_back(optimised[0]);
  CHECK(GroupIntoSeries(runs, GroupBy::kContent).size() == 2);
}

TEST_CASE("PETSc summary: refused naming file and line", "[ingest][petsc]") {
  testing::TempDir dir("qnm-petsc", "refused");
  const std::string text = ReadText(kCylinder);
  // Cut after its "Time (sec):" row (line 11), before "MPI Reductions:" (line 17): the title's line.
  std::size_t end = 0;
  for (int line = 1; line <= 13; ++line) end = text.find('\n', end) + 1;
  std::string error = testing::IngestErrorOf(WriteCase(dir, "cut.log", text.substr(0, end)));
  CHECK(error.find("cut.log:5") != std::string::npos);
  CHECK(error.find("'MPI Reductions:'") != std::string::npos);
  // Cut before its "Time (sec):" row.
  error = testing::IngestErrorOf(WriteCase(dir, "cut-early.log", text.substr(0, text.find("Time (sec)"))));
  CHECK(error.find("cut-early.log:5") != std::string::npos);
  CHECK(error.find("'Time (sec):'") != std::string::npos);
  // A header without a process count: its line.
  error = testing::IngestErrorOf(WriteCase(dir, "header.log", Replaced(text, "with 2 processors", "with processors")));
  CHECK(error.find("header.log:7") != std::string::npos);
  CHECK(error.find("process count") != std::string::npos);
  // A damaged number: its line.
  error = testing::IngestErrorOf(WriteCase(dir, "damaged.log", Replaced(text, "5.101e+05", "5.1x1e+05")));
  CHECK(error.find("damaged.log:15") != std::string::npos);
  CHECK(error.find("MPI Messages:") != std::string::npos);
  // No summary at all.
  CHECK_THROWS_AS(ParsePetscLog("solver output\nno summary here\n", "plain.log"), InputError);
  CHECK(LooksLikePetscLog(text));
  CHECK_FALSE(LooksLikePetscLog("# parse the \"PETSc Performance Summary:\" of a log\n"));
  CHECK(PetscSolverOptions({"-log_view ascii:view.log", "-ksp_monitor", "-pc_type lu", "-ksp_type cg"}) ==
        std::vector<std::string>{"ksp_type=cg", "pc_type=lu"});
}

TEST_CASE("a summary after megabytes of the application's own output is found", "[petsc][ingest]") {
  // A job's stdout: 1.4 MB of solver monitor lines, then PETSc's summary. The head holds no
  // format's signature, so the file is read whole (within the 16 MiB limit of an unrecognised
  // head) and the PETSc reader, which looks through the whole text, claims it.
  const testing::TempDir dir("petsc", "tail");
  const std::string summary = ReadText(kCylinder);
  std::string job;
  for (int k = 0; k < 30000; ++k) job += "  " + std::to_string(k) + " KSP Residual norm 1.234567890123e-03 \n";
  REQUIRE(job.size() > 4 * 256 * 1024);
  const std::vector<RunStats> runs = Read(WriteCase(dir, "job.out", job + summary));
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 2);
  CHECK(runs[0].wall_time_s == Read(kCylinder).at(0).wall_time_s);
}
