// HPCG reports read into run records (tests/data/hpcg: real reports of the reference code, Intel's builds and
// the Arm fork, SOURCES.md there). The values below are copied from the files by hand.
#include "app_outputs/hpcg_output.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "ingest_test_util.h"
#include "reader/series_identity.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kHpcg = std::string(QNM_TEST_DATA_DIR) + "/hpcg";

std::map<int, const RunStats*> ByProcs(const std::vector<RunStats>& runs) {
  std::map<int, const RunStats*> out;
  for (const RunStats& run : runs) out[run.procs] = &run;
  return out;
}

}  // namespace

TEST_CASE("HPCG: a strong-scaling campaign of the Arm fork is one series of one set's time", "[ingest][hpcg]") {
  IngestSummary summary;
  const std::vector<RunStats> runs = testing::IngestPath(kHpcg + "/strong", &summary, /*strict=*/false);
  REQUIRE(runs.size() == 6);
  const auto at = ByProcs(runs);
  REQUIRE(at.size() == 6);
  for (const RunStats& run : runs) {
    CHECK(run.app == "hpcg");
    CHECK(run.problem_class == "480x480x480");  // Global nx, ny, nz
    CHECK(run.threads_per_proc == 3);
    CHECK(run.variant == "hpcg-HPCG-Benchmark_3.0");
    CHECK(run.machine == "f");  // the job's nodes, f0138 ... f1204
    CHECK(run.verification == "SUCCESSFUL");
    CHECK(run.details.at("hpcg.cg_sets") == "1");  // QuickPath: one timed set
  }
  CHECK(GroupIntoSeries(runs, GroupBy::kContent).size() == 1);
  // "Benchmark Time Summary::Total=212.443" (2 ranks) ... "=1.17441" (1000 ranks), one set each.
  CHECK(at.at(2)->wall_time_s == 212.443);
  CHECK(at.at(8)->wall_time_s == 73.6779);
  CHECK(at.at(1000)->wall_time_s == 1.17441);
  CHECK(at.at(1000)->iterations == 51);  // "Optimized CG iterations per set=51"
  CHECK(at.at(1000)->details.at("hpcg.reference_iterations_per_set") == "50");
  CHECK(at.at(1000)->details.at("hpcg.local_domain") == "48x48x48");
  CHECK(at.at(1000)->details.at("hpcg.process_grid") == "10x10x10");
  CHECK(at.at(1000)->details.at("hpcg.ddot_allreduce_max_s") == "0.130133");
  CHECK(at.at(1000)->details.at("hpcg.gflops") == "1709.73");
  // "SLURM VARIABLES::SLURM_JOB_NUM_NODES=42" of 1000 ranks: 42 nodes, ranks per node unknown (uneven).
  CHECK(at.at(1000)->nodes == 42);
  CHECK(at.at(1000)->ranks_per_node == 0);
  CHECK(at.at(8)->nodes == 1);
  CHECK(at.at(8)->ranks_per_node == 8);
  CHECK(at.at(2)->sources.front().find(
            "f1203.nhr.fau.de-2ranks-3threads_HPCG-Benchmark_3.0_2023-05-17_18-52-12.txt:4") != std::string::npos);
  // Its log beside the reports: skipped, said why.
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].path.find("hpcg20230517T183505.txt") != std::string::npos);
  CHECK(summary.skipped[0].reason.find("HPCG's log of a run (its validation residuals)") != std::string::npos);
}

TEST_CASE("HPCG 3.1: Total over its timed sets; an INVALID run says so", "[ingest][hpcg]") {
  // 4 ranks, 256x256x128: "Total number of optimized iterations=2145", "Optimized CG iterations per set=65":
  // 33 sets in "Benchmark Time Summary::Total=127.845".
  const RunStats four = testing::Only(testing::IngestPath(kHpcg + "/HPCG-Benchmark_3.1_2025-04-11_21-05-39.txt"));
  CHECK(four.procs == 4);
  CHECK(four.threads_per_proc == 1);
  CHECK(four.problem_class == "256x256x128");
  CHECK(four.details.at("hpcg.cg_sets") == "33");
  CHECK(four.details.at("hpcg.total_time_s") == "127.845");
  CHECK(std::fabs(four.wall_time_s - 127.845 / 33) < 1e-12);
  CHECK(four.iterations == 65);
  CHECK(four.derivations.at("wall_time_s").find("/ its 33 timed CG set(s)") != std::string::npos);
  CHECK(four.variant == "hpcg-3.1");
  CHECK(four.details.at("setting.version") == "3.1");
  CHECK(four.details.at("hpcg.gflops") == "23.9101");
  // 2 ranks: 4290 / 66 = 65 sets of 129.32 s.
  const RunStats two = testing::Only(testing::IngestPath(kHpcg + "/HPCG-Benchmark_3.1_2025-04-11_22-05-21.txt"));
  CHECK(std::fabs(two.wall_time_s - 129.32 / 65) < 1e-12);
  // "Final Summary::HPCG result is=INVALID." (its reproducibility check FAILED): read, and marked.
  const RunStats invalid = testing::Only(testing::IngestPath(kHpcg + "/HPCG-Benchmark_3.1_2025-04-11_20-46-35.txt"));
  CHECK(invalid.verification == "UNSUCCESSFUL");
  CHECK(invalid.wall_time_s == 0.025219);
  CHECK(invalid.details.count("hpcg.gflops") == 0);
}

TEST_CASE("HPCG 3.0's YAML and Intel's builds: the same keys; two builds are two series", "[ingest][hpcg]") {
  // The reference 3.0 ("HPCG-Benchmark version: 3.0") and Intel MKL's xhpcg_skx ("n104-4p-1t version: V3.0")
  // on one 4-rank 208x208x104 problem: 103.563 s and 34.9641 s.
  const RunStats reference = testing::Only(testing::IngestPath(kHpcg + "/HPCG-Benchmark-3.0_2019.03.27.09.38.13.yaml"));
  CHECK(reference.procs == 4);
  CHECK(reference.problem_class == "208x208x104");
  CHECK(reference.wall_time_s == 103.563);
  CHECK(reference.variant == "hpcg-3.0");
  CHECK(reference.verification == "SUCCESSFUL");
  CHECK(reference.details.at("hpcg.gflops") == "0.773896");
  CHECK(reference.details.at("hpcg.ddot_allreduce_mean_s").size() > 0);
  const RunStats intel = testing::Only(testing::IngestPath(kHpcg + "/intel/n104-4p-1t-V3.0_2019.03.27.09.42.12.yaml"));
  CHECK(intel.wall_time_s == 34.9641);
  CHECK(intel.variant == "hpcg-V3.0");
  CHECK(intel.details.at("hpcg.ddot_allreduce_mean_s") == "1.77421");
  CHECK(GroupIntoSeries({intel, reference}, GroupBy::kContent).size() == 2);
  // Intel's 3.1 report (" Final Summary ::HPCG result is VALID with a GFLOP/s rating of=53.8206"): 100 / 50 =
  // 2 sets of 74.2943 s.
  const RunStats v31 = testing::Only(testing::IngestPath(kHpcg + "/intel/n104-96p-1t_V3.1_2023-08-25_16-18-10.txt"));
  CHECK(v31.procs == 96);
  CHECK(v31.problem_class == "416x416x624");
  CHECK(std::fabs(v31.wall_time_s - 74.2943 / 2) < 1e-12);
  CHECK(v31.verification == "SUCCESSFUL");
  CHECK(v31.details.at("hpcg.gflops") == "53.8206");
  // The job's output that printed the same report (AKRR's appstdout) beside it: one measurement.
  IngestSummary summary;
  const std::vector<RunStats> folder = testing::IngestPath(kHpcg + "/intel", &summary);
  CHECK(folder.size() == 2);
  CHECK(summary.duplicates.copies == 1);
  // The record kept names both files (the job's output at the report's line 38).
  std::string sources;
  for (const RunStats& run : folder)
    for (const std::string& source : run.sources) sources += source + ";";
  CHECK(sources.find("appstdout:38;") != std::string::npos);
  CHECK(sources.find("n104-96p-1t_V3.1_2023-08-25_16-18-10.txt:4;") != std::string::npos);
}

TEST_CASE("HPCG: several reports in one job log, cut and damaged reports", "[ingest][hpcg]") {
  testing::TempDir dir("qnm-hpcg", "cases");
  const std::string report = ReadText(kHpcg + "/HPCG-Benchmark_3.1_2025-04-11_21-05-39.txt");
  const std::string other = ReadText(kHpcg + "/HPCG-Benchmark_3.1_2025-04-11_22-05-21.txt");
  // A job that ran twice and printed each report (cat HPCG-Benchmark*.txt) among its other lines.
  const std::vector<RunStats> both = testing::IngestPath(
      WriteCase(dir, "job.out", "srun ./xhpcg\n" + report + "\nsrun -n 2 ./xhpcg\n" + other + "job done\n"));
  REQUIRE(both.size() == 2);
  CHECK(both[0].procs + both[1].procs == 6);
  // Cut before its times: one line naming the file and the report's line.
  const std::string cut = report.substr(0, report.find("Benchmark Time Summary="));
  CHECK(testing::IngestErrorOf(WriteCase(dir, "cut.txt", cut))
            .find("cut.txt:4: HPCG report without its 'Benchmark Time Summary::Total': the report is cut") !=
        std::string::npos);
  // A job log whose first report is whole and the second cut: the first is read, the second noted.
  IngestSummary summary;
  const std::vector<RunStats> one = testing::IngestPath(WriteCase(dir, "two.out", report + "\n" + cut), &summary);
  CHECK(one.size() == 1);
  CHECK(testing::NotesOf(summary).find("two.out: 1 of its 2 HPCG reports were not read") != std::string::npos);
  // A line that is none of its keys before its times (a job's output interleaved): said where.
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "broken.txt",
                      Replaced(report, "Benchmark Time Summary=\n", "Benchmark Time Summary=\nslurmstepd: error\n")))
            .find("broken.txt:85: HPCG report broken off by a line that is none of its keys ('slurmstepd: error') "
                  "before its 'Benchmark Time Summary::Total'") != std::string::npos);
  // A key given twice with two values; the same line twice is harmless.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "twice.txt",
                                         Replaced(report, "Summary::Total=127.845\n",
                                                  "Summary::Total=127.845\nBenchmark Time Summary::Total=12.7845\n")))
            .find("twice.txt:91: HPCG report gives 'Benchmark Time Summary::Total' twice, with two values (first at "
                  "line 90: '127.845')") != std::string::npos);
  CHECK(testing::Only(
            testing::IngestPath(WriteCase(dir, "same.txt",
                                          Replaced(report, "Summary::Total=127.845\n",
                                                   "Summary::Total=127.845\nBenchmark Time Summary::Total=127.845\n"))))
            .details.at("hpcg.total_time_s") == "127.845");
  // A key the record does not take may repeat with other values (the Arm fork's MG counters, one per level).
  const std::vector<RunStats> counters = testing::IngestPath(WriteCase(
      dir, "counters.txt",
      Replaced(report, "Final Summary=\n",
               "MG Counters=\nMG Counters::MG Counter level=0\nMG Counters::MG Counter level=1\nFinal Summary=\n")));
  CHECK(counters.size() == 1);
  // Outside a Slurm job the fork prints each variable's name: no nodes, no hosts, no error.
  const std::string arm = ReadText(kHpcg + "/strong/f0308.nhr.fau.de-8ranks-3threads_HPCG-Benchmark_3.0_2023-05-17_18-50-42.txt");
  std::string unset = arm.substr(0, arm.find("SLURM VARIABLES::SLURM_JOB_ID="));
  unset += "SLURM VARIABLES::SLURM_JOB_NODELIST=SLURM_JOB_NODELIST\nSLURM VARIABLES::SLURM_JOB_NUM_NODES=SLURM_JOB_NUM_NODES\n";
  const RunStats outside = testing::Only(testing::IngestPath(WriteCase(dir, "f0308-8ranks-3threads_unset.txt", unset)));
  CHECK(outside.nodes == 0);
  CHECK(outside.machine == "f");  // from the report's name line, f0308.nhr.fau.de
  CHECK(testing::IngestErrorOf(WriteCase(dir, "nodes.txt", Replaced(arm, "SLURM_JOB_NUM_NODES=1", "SLURM_JOB_NUM_NODES=one")))
            .find("nodes.txt:") != std::string::npos);
  // Numbers that do not parse, and iterations that are no whole number of sets.
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "procs.txt", Replaced(report, "Distributed Processes=4", "Distributed Processes=four")))
            .find("procs.txt:5: HPCG 'Distributed Processes' needs") != std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "total.txt", Replaced(report, "Summary::Total=127.845", "Summary::Total=-1")))
            .find("total.txt:90: HPCG 'Benchmark Time Summary::Total' needs a non-negative number") !=
        std::string::npos);
  CHECK(
      testing::IngestErrorOf(
          WriteCase(dir, "sets.txt", Replaced(report, "optimized iterations=2145", "optimized iterations=2146")))
          .find(
              "sets.txt:77: HPCG 'Total number of optimized iterations' (2146) is not a whole number of sets of 65") !=
      std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "nx.txt", Replaced(report, "Global Problem Dimensions::Global nx=256\n", "")))
            .find("nx.txt:4: HPCG report without its 'Global Problem Dimensions::Global nx'") != std::string::npos);
  // The log alone, and a text that only mentions HPCG, are no reports.
  CHECK(LooksLikeHpcgReport(report));
  CHECK_FALSE(LooksLikeHpcgReport("Machine Summary=\nsomething else\n"));
  CHECK(LooksLikeHpcgLog(ReadText(kHpcg + "/hpcg20250411T215837.txt")));
  CHECK_FALSE(LooksLikeHpcgLog(report));
}
