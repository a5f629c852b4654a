// AMBER mdout files read into the run record (tests/data/amber: batter's Amber 24 pmemd outputs, MIT;
// msander's test outputs of Amber 10 to 22 pmemd and sander, GPL-2.0-or-later; SOURCES.md there). The
// values below are copied from the files by hand. The unfinished, damaged and several-run cases are
// edited copies of the real files, written to a temporary folder by the test (what each edit changes
// is said where it is made).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "app_outputs/amber_mdout.h"
#include "ingest/ingest.h"
#include "reader/series_identity.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kAmber = std::string(QNM_TEST_DATA_DIR) + "/amber";
const std::string kPmemdMpi = kAmber + "/batter/eqnpt_pre.out";
const std::string kPmemdCuda = kAmber + "/batter/eqnpt00.out";
const std::string kMsander = kAmber + "/msander";

// `text` up to (not including) the line holding `marker`.
std::string CutBefore(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  REQUIRE(at != std::string::npos);
  return text.substr(0, text.rfind('\n', at) + 1);
}

RunStats OneRun(const std::string& path) {
  std::vector<RunStats> runs = testing::IngestPath(path);
  REQUIRE(runs.size() == 1);
  return runs[0];
}

}  // namespace

TEST_CASE("AMBER mdout: pmemd.MPI of Amber 24, its tasks, master wall time, class and host", "[ingest][amber]") {
  // "| Running AMBER/MPI version on    4 MPI task", "|  Master Total wall time:   296    seconds".
  const RunStats run = OneRun(kPmemdMpi);
  CHECK(run.app == "amber");
  CHECK(run.tool_version == "Amber 24 PMEMD 2024");
  CHECK(run.procs == 4);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.wall_time_s == 296);
  CHECK(run.app_time_mean_s == 296);
  CHECK(run.iterations == 3000);
  CHECK(testing::DetailNumber(run, "amber_setup_wall_s") == 4);
  CHECK(testing::DetailNumber(run, "amber_nonsetup_wall_s") == 292);
  CHECK(testing::DetailNumber(run, "amber_elapsed_all_steps_s") == 292.55);
  CHECK(testing::DetailNumber(run, "amber_ns_per_day") == 0.89);
  CHECK(testing::DetailNumber(run, "amber_seconds_per_ns") == 97515.36);
  CHECK(run.details.at("amber_executable") == "pmemd.MPI");
  CHECK(run.details.at("amber_defines").find("MPI") != std::string::npos);  // "| Conditional Compilation Defines Used:"
  CHECK(run.problem_class ==
        "full.hmr 79056 atoms md 3000 steps dt 0.001 ps cut 9 ntb 2 igb 0 ntp 3 ntc 2 Langevin PME 96x90x120");
  CHECK(run.variant == "pmemd24");
  CHECK(run.hosts == std::vector<std::string>{"sh03-11n04.int"});  // "|          Hostname: sh03-11n04.int"
  CHECK(!std::string(run.machine).empty());
  CHECK(run.mpi_time_mean_s != run.mpi_time_mean_s);  // runtime only: AMBER times no communication
  CHECK(LooksLikeAmberMdout(ReadText(kPmemdMpi)));
}

TEST_CASE("AMBER mdout: pmemd.cuda, SPFP and DPFP, one GPU; a minimization's cycles", "[ingest][amber]") {
  // Amber 24 pmemd.cuda on an NVIDIA A40, "[SPFP]", "|  Total wall time:    54    seconds".
  RunStats run = OneRun(kPmemdCuda);
  CHECK(run.procs == 1);
  CHECK(run.wall_time_s == 54);
  CHECK(testing::DetailNumber(run, "amber_elapsed_all_steps_s") == 53.03);
  CHECK(testing::DetailNumber(run, "amber_ns_per_day") == 32.59);
  CHECK(run.details.at("amber_gpu") == "cuda");
  CHECK(run.details.at("amber_gpus") == "1");
  CHECK(run.details.at("amber_gpu_name") == "NVIDIA A40");
  CHECK(run.details.at("amber_precision") == "SPFP");
  CHECK(run.details.at("amber_defines") == "PUBFFT BINTRAJ CUDA EMIL");
  CHECK(run.variant == "pmemd24-cuda-spfp");
  CHECK(run.problem_class ==
        "full.hmr 79056 atoms md 20000 steps dt 0.001 ps cut 9 ntb 2 igb 0 ntp 3 ntc 2 Langevin PME 96x84x108");
  // pmemd.cuda_DPFP minimizing (imin = 1, maxcyc = 2000) on a TITAN Xp, gzip-compressed.
  run = OneRun(kAmber + "/batter/mini.in.out.gz");
  CHECK(run.wall_time_s == 77);
  CHECK(run.iterations == 2000);
  CHECK(run.details.at("amber_precision") == "DPFP");
  CHECK(run.variant == "pmemd24-cuda-dpfp");
  CHECK(run.problem_class == "full.hmr 80545 atoms minimization 2000 cycles cut 9 ntb 1 igb 0 PME 96x84x112");
  // Amber 20 pmemd.cuda on a V100 (its banner says 20, its 'PMEMD implementation' line Release 18).
  run = OneRun(kMsander + "/xray/2msi/run.out.gz");
  CHECK(run.tool_version == "Amber 20 PMEMD 2020");
  CHECK(run.wall_time_s == 66);
  CHECK(run.details.at("amber_gpu_name") == "Tesla V100-PCIE-16GB");
  CHECK(run.variant == "pmemd20-cuda-spfp");
}

TEST_CASE("AMBER mdout: whole seconds and the more precise figures of older pmemd and of sander", "[ingest][amber]") {
  // pmemd 16 on 4 MPI tasks: "Master Total wall time: 0 seconds", the steps' "Elapsed(s) = 0.16":
  // the longer, precise figure is the run's time.
  RunStats run = OneRun(kMsander + "/4096wat/mdout.pure_wat_midpoint.save");
  CHECK(run.tool_version == "Amber 16 PMEMD 2016");
  CHECK(run.procs == 4);
  CHECK(run.wall_time_s == 0.16);
  CHECK(testing::DetailNumber(run, "amber_total_wall_s") == 0);
  CHECK(run.hosts == std::vector<std::string>{"skylake"});
  // Amber 11's pmemd ("Amber 11 SANDER" then "PMEMD implementation of SANDER, Release 11"): its
  // "Average timings for last 0 steps" prints "Per Step(ms) =   Infinity", read as nothing.
  run = OneRun(kMsander + "/xray/2wcu/eq1.out");
  CHECK(run.variant == "pmemd11");
  CHECK(run.wall_time_s == 63);
  CHECK(testing::DetailNumber(run, "amber_ms_per_step") == 62.12);
  // sander's clock, to the millisecond: "Job began  at 21:54:05.555", "Run   done at 21:54:08.305".
  run = OneRun(kMsander + "/dhfr/mdout.dhfr_ips.save");
  CHECK(run.tool_version == "Amber 10 SANDER 2008");
  CHECK(run.variant == "sander10");
  CHECK(run.procs == 1);
  CHECK(run.wall_time_s == Approx(2.75).margin(1e-9));
  CHECK(testing::DetailNumber(run, "amber_setup_wall_s") == Approx(0.717).margin(1e-9));
  CHECK(testing::DetailNumber(run, "amber_nonsetup_wall_s") == Approx(2.033).margin(1e-9));
  CHECK(run.problem_class == "prmtop 22930 atoms md 1 steps dt 0.001 ps cut 12 ntb 1 igb 0 PME 72x60x54");
  // msander: "MSANDER   2021", 10:09:05.311 to 10:09:07.181.
  run = OneRun(kMsander + "/dhfr/mdout.dhfr.save");
  CHECK(run.variant == "msander2021");
  CHECK(run.wall_time_s == Approx(1.87).margin(1e-9));
  CHECK(testing::DetailNumber(run, "amber_ns_per_day") == 0.98);
  // Amber 22 sander, 14:15:12.512 to 14:15:14.313.
  run = OneRun(kMsander + "/dhfr/mdout.sync.sander");
  CHECK(run.variant == "sander22");
  CHECK(run.wall_time_s == Approx(1.801).margin(1e-9));
}

TEST_CASE("AMBER mdout: sander.MPI's 'nodes' are its MPI tasks; MULTISANDER groups", "[ingest][amber]") {
  // Amber 14 sander.MPI: "|  Running AMBER/MPI version on    2 nodes", 11:53:15.718 to 11:53:17.364.
  RunStats run = OneRun(kMsander + "/4096wat/mdout.column_fft.save");
  CHECK(run.procs == 2);
  CHECK(run.variant == "sander14");
  CHECK(run.wall_time_s == Approx(1.646).margin(1e-9));
  // Thermodynamic integration by msander.MPI, whose banner then said "Amber 18 SANDER": "4 nodes" of "MULTISANDER:    2 groups.    4 processors out of    8 total."
  run = OneRun(kMsander + "/softcore/short_md/out.0.save");
  CHECK(run.procs == 4);
  CHECK(run.details.at("amber_multisander_groups") == "2");
  CHECK(run.details.at("amber_multisander_processes") == "8");
  CHECK(run.wall_time_s == Approx(0.25).margin(1e-9));
  CHECK(run.details.at("amber_setup_wall_s") == "0.041");  // 15:53:40.425 to 15:53:40.466, to the millisecond
  CHECK(run.details.at("amber_nonsetup_wall_s") == "0.209");
  CHECK(run.problem_class == "prmtop.0 2715 atoms md 20 steps dt 0.002 ps cut 9 ntb 1 igb 0 ntc 2 Langevin PME 30x30x30");
}

TEST_CASE("AMBER mdout: the same system at 1 and 2 processes is one series", "[ingest][amber][cli]") {
  // Amber 18 sander with 3D-RISM on alanine dipeptide (22 atoms, 3 steps): serial (ala.np0), and
  // sander.MPI on 1 and 2 "nodes" (ala.np1, ala.np2), at metropolis.csun.edu.
  std::vector<RunStats> runs = testing::IngestPath(kMsander + "/rism3d/ala");
  REQUIRE(runs.size() == 3);
  std::map<int, std::vector<double>> times;
  for (const RunStats& run : runs) {
    times[run.procs].push_back(run.wall_time_s);
    // "ns/day =       0.01   seconds/ns = **********" (ala.np0): the overflowed field is left out.
    CHECK(run.details.count("amber_seconds_per_ns") == 0);
    CHECK(run.details.count("amber_ns_per_day") == 1);
  }
  REQUIRE(times.size() == 2);
  REQUIRE(times[1].size() == 2);
  CHECK(std::min(times[1][0], times[1][1]) == Approx(37.463).margin(1e-9));  // 23:02:47.997 to 23:03:25.460
  CHECK(std::max(times[1][0], times[1][1]) == Approx(192.244).margin(1e-9));  // 00:06:01.824 to 00:09:14.068
  CHECK(times[2][0] == Approx(66.707).margin(1e-9));  // 23:58:46.028 to 23:59:52.735
  std::vector<Series> series = GroupIntoSeries(runs, GroupBy::kContent);
  REQUIRE(series.size() == 1);
  CHECK(series[0].groups.size() == 2);
  CHECK(series[0].name.find("amber.ala 22 atoms md 3 steps") == 0);
  CHECK(series[0].name.find("(sander18)") != std::string::npos);
}

TEST_CASE("AMBER mdout: equilibration and production runs, CPU and GPU, are different series", "[ingest][amber][cli]") {
  testing::TempDir dir("qnm-amber", "series");
  const std::string text = ReadText(kPmemdMpi);
  // The real 4-task run, and copies as if run on 8 and 16 tasks (the MPI line, the master's total
  // wall time and the all-steps Elapsed(s) changed).
  auto at = [&](int tasks, const std::string& total, const std::string& elapsed) {
    std::string t = Replaced(text, "Running AMBER/MPI version on    4 MPI task",
                             "Running AMBER/MPI version on " + std::string(tasks < 10 ? "   " : "  ") +
                                 std::to_string(tasks) + " MPI task");
    t = Replaced(t, "Elapsed(s) =     292.55", "Elapsed(s) =     " + elapsed);
    return Replaced(t, "Master Total wall time:         296", "Master Total wall time:         " + total);
  };
  WriteCase(dir, "eq_p4.out", text);
  WriteCase(dir, "eq_p8.out", at(8, "160", "156.31"));
  WriteCase(dir, "eq_p16.out", at(16, " 95", " 91.12"));
  WriteCase(dir, "prod_gpu.out", ReadText(kPmemdCuda));
  std::vector<Series> series = GroupIntoSeries(testing::IngestPath(dir.path.string()), GroupBy::kContent);
  std::map<std::string, std::vector<int>> procs;
  std::map<std::string, std::vector<double>> times;
  for (const Series& s : series)
    for (const RunGroup& g : s.groups) procs[s.name].push_back(g.procs), times[s.name].push_back(g.median_time_s);
  REQUIRE(procs.size() == 2);
  std::vector<int> cpu, gpu;
  std::vector<double> cpu_times;
  for (const auto& [name, p] : procs) {
    if (name.find("cuda") != std::string::npos) {
      gpu = p;
    } else {
      cpu = p;
      cpu_times = times[name];
    }
  }
  CHECK(cpu == std::vector<int>{4, 8, 16});
  CHECK(cpu_times == std::vector<double>{296, 160, 95});
  CHECK(gpu == std::vector<int>{1});
}

TEST_CASE("AMBER mdout: an unfinished run is refused with its reason and line", "[ingest][amber]") {
  testing::TempDir dir("qnm-amber", "unfinished");
  const std::string text = ReadText(kPmemdMpi);
  // Cut before the timings (killed, out of time): the banner's line is named.
  std::string error = testing::IngestErrorOf(WriteCase(dir, "cut.out", CutBefore(text, "A V E R A G E S")));
  CHECK(error.find("cut.out:3") != std::string::npos);
  CHECK(error.find("did not finish") != std::string::npos);
  // pmemd's own reason, quoted with its line (the step after NSTEP = 1000 replaced by it).
  const std::string halted = CutBefore(text, "A V E R A G E S") +
                             "ERROR: Calculation halted.  Periodic box dimensions have changed too much from their "
                             "initial values.\n";
  error = testing::IngestErrorOf(WriteCase(dir, "halted.out", halted));
  CHECK(error.find("Calculation halted") != std::string::npos);
  CHECK(error.find("halted.out:" + std::to_string(std::count(halted.begin(), halted.end(), '\n'))) !=
        std::string::npos);
  // sander cut after its 'Final Performance Info' but before 'Run done at'.
  const std::string sander = ReadText(kMsander + "/dhfr/mdout.dhfr.save");
  error = testing::IngestErrorOf(WriteCase(dir, "sander_cut.out", CutBefore(sander, "Run   done at")));
  CHECK(error.find("sander_cut.out:3") != std::string::npos);
  // sander's "vlimit exceeded" is a warning the run goes on after: the error that stopped it is quoted.
  const std::string bomb = CutBefore(sander, "A V E R A G E S") + "vlimit exceeded for step     15; vmax =    21.3\n" +
                           "SANDER BOMB in subroutine nonbond_list\n";
  error = testing::IngestErrorOf(WriteCase(dir, "bomb.out", bomb));
  CHECK(error.find("SANDER BOMB in subroutine nonbond_list") != std::string::npos);
  CHECK(error.find("bomb.out:" + std::to_string(std::count(bomb.begin(), bomb.end(), '\n'))) != std::string::npos);
  // Two runs in one file (a job's output holding both), the first cut: the second is read and the
  // summary names the first.
  IngestSummary summary;
  const std::vector<RunStats> runs =
      testing::IngestPath(WriteCase(dir, "two.out", CutBefore(text, "A V E R A G E S") + ReadText(kPmemdCuda)), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].wall_time_s == 54);
  bool said = false;
  for (const std::string& note : summary.notes)
    said |= note.find("1 of its 2 AMBER runs did not finish") != std::string::npos &&
            note.find("the first at line 3:") != std::string::npos;
  CHECK(said);
}

TEST_CASE("AMBER mdout: malformed numbers and clocks are refused with their line", "[ingest][amber]") {
  testing::TempDir dir("qnm-amber", "damaged");
  const std::string text = ReadText(kPmemdMpi);
  std::string error = testing::IngestErrorOf(
      WriteCase(dir, "wall.out", Replaced(text, "Master Total wall time:         296", "Master Total wall time:         2x6")));
  CHECK(error.find("wall.out:399") != std::string::npos);
  error = testing::IngestErrorOf(
      WriteCase(dir, "tasks.out", Replaced(text, "version on    4 MPI task", "version on    x MPI task")));
  CHECK(error.find("tasks.out:217") != std::string::npos);
  const std::string sander = ReadText(kMsander + "/dhfr/mdout.dhfr.save");
  error = testing::IngestErrorOf(
      WriteCase(dir, "clock.out", Replaced(sander, "Run   done at 10:09:07.181", "Run   done at 10:69:07.181")));
  CHECK(error.find("clock.out:332") != std::string::npos);
  // A run that 'ended' before it began.
  error = testing::IngestErrorOf(
      WriteCase(dir, "backwards.out", Replaced(sander, "Run   done at 10:09:07.181", "Run   done at 09:09:07.181")));
  CHECK(error.find("backwards.out:332") != std::string::npos);
  // No AMBER banner: not an mdout.
  CHECK(!LooksLikeAmberMdout("NSTEP =    1000   TIME(PS) =   1.000\n"));
}
