// LULESH 2.0 outputs read into run records (tests/data/lulesh: real runs of LLNL/LULESH made for the
// project, SOURCES.md there). The values below are copied from the files by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "app_outputs/lulesh_output.h"
#include "ingest/ingest.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::Only;
using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kLulesh = std::string(QNM_TEST_DATA_DIR) + "/lulesh";

}  // namespace

TEST_CASE("LULESH: the tasks, threads, the time to eight digits, the whole mesh as the class", "[ingest][lulesh]") {
  // "MPI tasks = 8", "Iteration count = 434", "Elapsed time = 9.6 (s)",
  // "Grind time (us/z/c) = 43.368516 (per dom) ( 9.6368312 overall)", Problem size 8.
  const std::vector<RunStats> eight_runs = testing::IngestPath(kLulesh + "/lulesh.s8.np8.out");
  const RunStats& eight = Only(eight_runs);
  CHECK(eight.app == "lulesh");
  CHECK(eight.procs == 8);
  CHECK(eight.threads_per_proc == 1);  // "Num threads: 1"
  CHECK(eight.iterations == 434);
  CHECK(std::fabs(eight.wall_time_s - 43.368516e-6 * 434 * 512) < 1e-9);
  CHECK(std::fabs(eight.wall_time_s - 9.6368312) < 1e-6);  // what the grind line prints as 'overall'
  CHECK(eight.problem_class == "4096 elements, 434 iterations");
  CHECK(eight.details.at("lulesh_domain_size") == "8");
  CHECK(eight.details.at("lulesh_final_origin_energy") == "6.380125e+04");
  CHECK(eight.derivations.at("wall_time_s").find("agrees to its rounding") != std::string::npos);
  // The same mesh on one rank (-s 16): one series with the 8-rank run; with -i 100, another.
  const std::vector<RunStats> one_runs = testing::IngestPath(kLulesh + "/lulesh.s16.np1.out");
  const RunStats& one = Only(one_runs);
  CHECK(one.procs == 1);
  CHECK(one.problem_class == eight.problem_class);
  CHECK(std::fabs(one.wall_time_s - 9.7933517) < 1e-6);
  const std::vector<RunStats> fixed_runs = testing::IngestPath(kLulesh + "/lulesh.s16.np1.i100.out");
  CHECK(Only(fixed_runs).problem_class == "4096 elements, 100 iterations");
  // Two OpenMP threads: the series key's threads.
  const std::vector<RunStats> threaded_runs = testing::IngestPath(kLulesh + "/lulesh.s16.np1.th2.out");
  CHECK(Only(threaded_runs).threads_per_proc == 2);

}

TEST_CASE("LULESH: several runs in one job output, unfinished runs, damaged values", "[ingest][lulesh]") {
  testing::TempDir dir("qnm-lulesh", "cases");
  const std::string one = ReadText(kLulesh + "/lulesh.s16.np1.out");
  const std::string eight = ReadText(kLulesh + "/lulesh.s8.np8.out");
  // A job script that ran both, then a third run killed before it completed.
  const std::string cut = one.substr(0, one.find("Run completed:"));
  IngestSummary summary;
  const std::vector<RunStats> runs =
      testing::IngestPath(WriteCase(dir, "job.out", "srun: job 7 started\n" + one + eight + cut), &summary);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].procs == 1);
  CHECK(runs[1].procs == 8);
  const std::string notes = testing::NotesOf(summary);
  INFO(notes);
  CHECK(notes.find("job.out: 1 of its 3 LULESH runs did not finish (the first at line 56: LULESH run without its "
                   "closing 'Run completed:' block") != std::string::npos);

  // Only an unfinished run: refused with the reason and its line.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "killed.out", cut))
            .find("killed.out:1: LULESH run without its closing 'Run completed:' block") != std::string::npos);
  // Values LULESH prints that do not agree or do not parse: one line naming the file and line.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "tasks.out", Replaced(eight, "MPI tasks           =  8", "MPI tasks           =  4")))
            .find("tasks.out:14: LULESH 'Problem size = 8' on 4 tasks is 2048 elements, its start-up said 4096") !=
        std::string::npos);
  const std::string no_total = Replaced(eight, "Total number of elements: 4096 \n", "");
  CHECK(testing::IngestErrorOf(WriteCase(dir, "procs.out", Replaced(no_total, "MPI tasks           =  8", "MPI tasks           =  4")))
            .find("procs.out:13: LULESH 'MPI tasks = 4' after 'Num processors: 8' of its start-up (line 1)") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "size.out", Replaced(eight, "Problem size        =  8", "Problem size        =  9")))
            .find("size.out:14: LULESH 'Problem size = 9' on 8 tasks is 5832 elements, its start-up said 4096") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "time.out", Replaced(eight, "=        9.6 (s)", "=        x.6 (s)")))
            .find("time.out:24: LULESH 'Elapsed time' needs a non-negative number, got 'x.6'") != std::string::npos);
  // An elapsed time the grind line does not agree with: the printed one is the run's, said so.
  const std::vector<RunStats> edited =
      testing::IngestPath(WriteCase(dir, "edited.out", Replaced(eight, "=        9.6 (s)", "=       12.0 (s)")));
  CHECK(Only(edited).wall_time_s == 12.0);
  CHECK(Only(edited).derivations.at("wall_time_s") == "LULESH 'Elapsed time' (line 24)");
  CHECK(LooksLikeLuleshOutput(one));
  CHECK_FALSE(LooksLikeLuleshOutput("Run completed:\nElapsed time = 1 (s)\n"));
}
