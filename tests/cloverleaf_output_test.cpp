// CloverLeaf and TeaLeaf outputs read into run records (tests/data/cloverleaf: real runs of the
// UK-MAC reference codes made for the project and two of TeaLeaf's own reference outputs,
// SOURCES.md there). The values below are copied from the files by hand.
#include "app_outputs/cloverleaf_output.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::Only;
using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kLeaf = std::string(QNM_TEST_DATA_DIR) + "/cloverleaf";

}  // namespace

TEST_CASE("CloverLeaf: the tasks, threads, the run's wall clock, the mesh, steps and deck as the class",
          "[ingest][cloverleaf]") {
  // "Task Count      2", "Wall clock    3.3767681121826172" after "Clover is finishing", 87 steps.
  const std::vector<RunStats> two_runs = testing::IngestPath(kLeaf + "/clover2d-p2.out");
  const RunStats& two = Only(two_runs);
  CHECK(two.app == "cloverleaf");
  CHECK(two.procs == 2);
  CHECK(two.threads_per_proc == 1);  // " Thread Count:     1"
  CHECK(two.wall_time_s == 3.3767681121826172);
  CHECK(two.iterations == 87);
  CHECK(two.verification == "SUCCESSFUL");  // "This test is considered PASSED"
  CHECK(two.problem_class.str().rfind("960x960 cells, 87 steps, deck ", 0) == 0);
  CHECK(two.details.at("setting.version") == "1.300");
  CHECK(two.details.at("cloverleaf_first_step_overhead_s") == "0.002408027649");
  // The profiler's table: the kernels of the task whose kernels took longest.
  CHECK(two.details.at("cloverleaf_profile.momentum_advection_s") == "0.9482");
  CHECK(two.details.at("cloverleaf_profile.mpi_halo_exchange_s") == "0.1377");
  CHECK(two.details.at("cloverleaf_profile.total_s") == "3.3744");
  CHECK_FALSE(Known(two.mpi_time_mean_s));  // one task's halo exchange is not the ranks' MPI time
  // One task with the profiler on (the repository's clover.in, "energy 1.0") and four without it
  // (clover_bm_short.in, "energy=1.0"): the same problem, one series; two threads, another.
  const RunStats one = Only(testing::IngestPath(kLeaf + "/clover2d-p1.out"));
  const RunStats four = Only(testing::IngestPath(kLeaf + "/clover2d-p4.out"));
  CHECK(one.wall_time_s == 6.3942480087280273);
  CHECK(four.procs == 4);
  CHECK(four.wall_time_s == 3.5445439815521240);
  CHECK(one.problem_class == two.problem_class);
  CHECK(four.problem_class == two.problem_class);
  CHECK(four.details.count("cloverleaf_profile.total_s") == 0);
  const RunStats threaded = Only(testing::IngestPath(kLeaf + "/clover2d-p1-th2.out"));
  CHECK(threaded.threads_per_proc == 2);
  CHECK(threaded.problem_class == two.problem_class);
  IngestSummary summary;
  const std::vector<RunStats> all = testing::IngestPath(kLeaf, &summary, /*strict=*/false);
  CHECK(all.size() == 10);
  CHECK(summary.files_read == 10);  // and SOURCES.md, skipped
  // The 3D code: its mesh has a z extent, and its deck's tiling is a setting, not the problem.
  const RunStats cube = Only(testing::IngestPath(kLeaf + "/clover3d-p2.out"));
  CHECK(cube.app == "cloverleaf3d");
  CHECK(cube.procs == 2);
  CHECK(cube.wall_time_s == 2.4711909294128418);
  CHECK(cube.problem_class.str().rfind("96x96x96 cells, 20 steps, deck ", 0) == 0);
  CHECK(cube.details.at("setting.tiles_per_chunk") == "1");
  CHECK(cube.details.at("setting.version") == "1.100");
  CHECK(cube.verification == "UNSUCCESSFUL");  // 20 of the test problem's 75 steps: "NOT PASSED"
}

TEST_CASE("TeaLeaf: its own reference outputs and runs made here", "[ingest][cloverleaf]") {
  // UK-MAC's reference output of benchmark 5: "Task Count     24", the closing "Wall clock" after
  // "First step overhead  -11.0910072326660" (TeaLeaf prints them in the other order).
  const RunStats bm5 = Only(testing::IngestPath(kLeaf + "/tea_bm_5.out"));
  CHECK(bm5.app == "tealeaf");
  CHECK(bm5.procs == 24);
  CHECK(bm5.wall_time_s == 574.011190891266);
  CHECK(bm5.iterations == 10);
  CHECK(bm5.details.at("tealeaf_first_step_overhead_s") == "-11.09100723");
  CHECK(bm5.details.at("tealeaf_profile.tea_solve_s") == "567.1188");
  CHECK(bm5.problem_class.str().rfind("4000x4000 cells, 10 steps, deck ", 0) == 0);
  CHECK(bm5.details.at("setting.version") == "1.402");
  const RunStats p1 = Only(testing::IngestPath(kLeaf + "/tea-p1.out"));
  const RunStats p2 = Only(testing::IngestPath(kLeaf + "/tea-p2.out"));
  CHECK(p1.wall_time_s == 0.39933586120605469);
  CHECK(p2.procs == 2);
  CHECK(p2.problem_class == p1.problem_class);
  CHECK(p1.problem_class != bm5.problem_class);
  CHECK(Only(testing::IngestPath(kLeaf + "/tea_bm_1.out")).wall_time_s == 7.550716400146484E-004);
}

TEST_CASE("CloverLeaf: several runs in one job output, unfinished runs, damaged values", "[ingest][cloverleaf]") {
  testing::TempDir dir("qnm-cloverleaf", "cases");
  const std::string one = ReadText(kLeaf + "/clover2d-p1.out");
  const std::string two = ReadText(kLeaf + "/clover2d-p2.out");
  // A port writing its output to the job's standard output: two runs, then a third killed at step 87.
  const std::string cut = two.substr(0, two.find(" Time   0.50297235683269470"));
  IngestSummary summary;
  const std::vector<RunStats> runs =
      testing::IngestPath(WriteCase(dir, "job.out", "srun: job 7 started\n" + one + two + cut), &summary);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].procs == 1);
  CHECK(runs[1].procs == 2);
  const std::string notes = testing::NotesOf(summary);
  INFO(notes);
  CHECK(notes.find("job.out: 1 of its 3 CloverLeaf/TeaLeaf runs did not finish (the first at line 1003: CloverLeaf "
                   "run without its closing 'Clover is finishing' and 'Wall clock': it did not finish (killed, out of "
                   "time, or the output was cut); its last step 87 at 3.335 s") != std::string::npos);

  // Only an unfinished run: refused with the reason and its line.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "killed.out", cut))
            .find("killed.out:2: CloverLeaf run without its closing 'Clover is finishing' and 'Wall clock'") !=
        std::string::npos);
  // Values that do not parse or do not agree: one line naming the file and the line.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "tasks.out", Replaced(two, "Task Count      2", "Task Count      x")))
            .find("tasks.out:5: CloverLeaf 'Task Count' needs") != std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "clock.out", Replaced(two, "Wall clock    3.3767681121826172", "Wall clock    1.5")))
            .find("clock.out:480: CloverLeaf 'Wall clock' of the whole run, 1.5 s, is below its last step's, "
                  "3.33488 s") != std::string::npos);
  CHECK(
      testing::IngestErrorOf(WriteCase(dir, "cells.out", Replaced(two, "x_cells         960", "x_cells         -960")))
          .find("cells.out:52: CloverLeaf x_cells needs") != std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "twice.out", Replaced(two, " Calculation complete\n", " Clover is finishing\n")))
            .find("twice.out:479: a second 'Clover is finishing' in one CloverLeaf run") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "profile.out", Replaced(two, "0.9482", "0.9x82")))
            .find("profile.out:492: profiler row 'momentum advection' needs a time in seconds, got '0.9x82'") !=
        std::string::npos);
  // The program's standard output (here with standard error merged, as a batch job keeps them): the
  // banner, then the per-step clocks; the run itself is in clover.out.
  const std::string banner = two.substr(0, two.find(" Clover will run"));
  const std::string steps = two.substr(two.find(" Step       1 time"),
                                       two.find(" Time   0.50297235683269470") - two.find(" Step       1 time"));
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "slurm-7.out",
                      banner + "\n Output file clover.out opened. All output will go there.\n" + steps))
            .find("slurm-7.out:9: CloverLeaf's standard output, not its output file: the run wrote its deck, mesh and "
                  "closing wall clock to clover.out") != std::string::npos);
  CHECK(LooksLikeLeafOutput(two));
  CHECK_FALSE(LooksLikeLeafOutput(" Wall clock    3.3767681121826172\n First step overhead 0.1\n"));
}
