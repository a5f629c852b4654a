// WRF rsl files read into the run record (tests/data/wrf: bgin/WRFV3's finished WRF 3.8.1 run and the
// YellowSea project's stopped WRF 4.4 run, both copies of WRF under its public-domain notice,
// SOURCES.md there). The values below were summed from the files by hand (a separate script over the
// "Timing for" lines). No public repository found holds rsl files of one case at several task counts
// under a licence that allows copying them, so the series, nest, host and damage cases are edited
// copies of the real WRF 3.8.1 file, written to a temporary folder by the test (what each edit changes
// is said where it is made).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "app_outputs/wrf_rsl.h"
#include "ingest/ingest.h"
#include "reader/series_identity.h"
#include "cube_builder.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kWrf = std::string(QNM_TEST_DATA_DIR) + "/wrf";
const std::string kFinished = kWrf + "/bgin-WRFV3/em_real/rsl.error.0000";
const std::string kStopped = kWrf + "/yellowsea/em_real";
// WRF 3.8.1's parent domain (ids,ide,jds,jde 1 98 1 70), one domain, 480 steps of domain 1.
const std::string kClass = "d01 98x70 1 domain 480 steps 2005-08-28_00:03:00 to 2005-08-29_00:00:00";

// The real WRF 3.8.1 file.
std::string Finished() { return ReadText(kFinished); }

// The real file as if run on x*y tasks: its "Ntasks" line changed and its first step's time set to `first_s`.
std::string AtTasks(int x, int y, const std::string& first_s) {
  std::string text = Replaced(Finished(), " Ntasks in X            1, ntasks in Y            1",
                              " Ntasks in X " + std::to_string(x) + " , ntasks in Y " + std::to_string(y));
  return Replaced(text, "on domain   1:    0.30207 elapsed", "on domain   1: " + first_s + " elapsed");
}

std::string Write(const testing::TempDir& dir, const std::string& folder, const std::string& name,
                  const std::string& text) {
  std::filesystem::create_directories(dir.path / folder);
  return WriteCase(dir, folder + "/" + name, text);
}

}  // namespace

TEST_CASE("WRF rsl: tasks, threads, the timed part of the run, the class, the version and the host",
          "[ingest][wrf]") {
  // bgin/WRFV3 test/em_real/rsl.error.0000: "taskid: 0 hostname: node3", " Ntasks in X 1, ntasks in Y 1",
  // "WRF V3.8.1 MODEL", "WRF NUMBER OF TILES FROM OMP_GET_MAX_THREADS =  24", 480 "Timing for main" lines
  // of domain 1 summing to 33.04555 s, "Timing for processing wrfinput file" 0.04685 s before the first
  // step, "Timing for Writing wrfout_d01_2005-08-29_00:00:00" 0.02586 s after the last.
  std::vector<RunStats> runs = testing::IngestPath(kFinished);
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.app == "wrf");
  CHECK(run.tool_version == "WRF 3.8.1");
  CHECK(run.procs == 1);
  CHECK(run.threads_per_proc == 24);
  CHECK(run.iterations == 480);
  CHECK(run.wall_time_s == Approx(0.04685 + 33.04555 + 0.02586).epsilon(1e-12));
  CHECK(testing::DetailNumber(run, "wrf_main_s") == Approx(33.04555).epsilon(1e-12));
  CHECK(testing::DetailNumber(run, "wrf_first_step_s") == 0.30207);
  CHECK(testing::DetailNumber(run, "wrf_mean_step_s") == Approx(33.04555 / 480).epsilon(1e-9));  // kept to 10 digits
  CHECK(testing::DetailNumber(run, "wrf_mean_step_after_first_s") == Approx((33.04555 - 0.30207) / 479).epsilon(1e-9));
  CHECK(testing::DetailNumber(run, "wrf_initial_input_s") == 0.04685);
  CHECK(testing::DetailNumber(run, "wrf_after_last_step_s") == 0.02586);
  CHECK(testing::DetailNumber(run, "wrf_writing_s") == Approx(0.35026).epsilon(1e-12));  // 13 history writes
  CHECK(testing::DetailNumber(run, "wrf_boundary_s") == Approx(0.04234).epsilon(1e-12));
  CHECK(run.details.at("wrf_domains") == "1");
  CHECK(run.problem_class == kClass);
  CHECK(run.variant == "wrf3.8.1-dm+sm");
  CHECK(run.hosts == std::vector<std::string>{"node3"});
  CHECK(run.mpi_time_mean_s != run.mpi_time_mean_s);  // WRF times no communication: unknown
}

TEST_CASE("WRF rsl: a run folder is one run, the other tasks' files its own, not errors", "[ingest][wrf]") {
  // The YellowSea folder: rsl.error.0000 of a 1x2-task WRF 4.4 run that stopped ("FATAL CALLED FROM FILE:
  // <stdin> LINE: 1297" then "NOTE:  Please check and reset these options"), rsl.error.0001 its other task,
  // rsl.error.0002/0003 left by an earlier 8x8-task run, rsl.out.0000. Only process 0's file is read.
  IngestSummary summary;
  CHECK(testing::IngestPath(kStopped, &summary, /*strict=*/false).empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].path == kStopped + "/rsl.error.0000");
  CHECK(summary.skipped[0].reason.find(":42: WRF stopped before it finished (no 'wrf: SUCCESS COMPLETE WRF'): "
                                       "FATAL CALLED: 'NOTE:  Please check and reset these options'") !=
        std::string::npos);
  CHECK(summary.files_seen == 1);
  // Named alone, another task's file says where the run is.
  CHECK(testing::IngestErrorOf(kStopped + "/rsl.error.0001").find(
            "rsl file of MPI task 1: WRF prints its timing in process 0's file") != std::string::npos);
  CHECK(IsWrfRslOfAnchor(kStopped + "/rsl.error.0003"));
  CHECK(IsWrfRslOfAnchor(kStopped + "/rsl.out.0000"));
  CHECK_FALSE(IsWrfRslOfAnchor(kStopped + "/rsl.error.0000"));
}

TEST_CASE("WRF rsl: every task's host, and the rsl files counted against the tasks", "[ingest][wrf]") {
  testing::TempDir dir("qnm-wrf", "hosts");
  // Two tasks (Ntasks edited to 1 x 2) on node3 and node4: rsl.error.0001 opens with its "taskid" line.
  Write(dir, "run", "rsl.error.0000", AtTasks(1, 2, "0.30207"));
  Write(dir, "run", "rsl.error.0001", "taskid: 1 hostname: node4\n Ntasks in X 1 , ntasks in Y 2\n");
  Write(dir, "run", "rsl.out.0000", "Ntasks in X 1 , ntasks in Y 2\n");
  IngestSummary summary;
  std::vector<RunStats> runs = testing::IngestPath((dir.path / "run").string(), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 2);
  CHECK(runs[0].hosts == std::vector<std::string>{"node3", "node4"});
  CHECK(runs[0].nodes == 2);
  CHECK(runs[0].details.at("wrf_rsl_files") == "2");
  CHECK(summary.files_seen == 1);
  // Four tasks, one rsl.error file: WRF's own line gives the tasks, the difference is noted.
  Write(dir, "four", "rsl.error.0000", AtTasks(2, 2, "0.30207"));
  runs = testing::IngestPath((dir.path / "four").string(), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 4);
  CHECK(runs[0].hosts == std::vector<std::string>{"node3"});
  bool noted = false;
  for (const std::string& note : summary.notes)
    noted |= note.find("1 rsl.error.NNNN files beside it for 4 MPI tasks") != std::string::npos;
  CHECK(noted);
  // Process 0's file compressed stands for the others as well.
  Write(dir, "gz", "rsl.error.0000.gz", "");
  CHECK(IsWrfRslOfAnchor(Write(dir, "gz", "rsl.error.0001", "taskid: 1 hostname: node4\n")));
  CHECK_FALSE(IsWrfRslOfAnchor(Write(dir, "gz", "rsl.error.0000.cpu", "")));  // a renamed copy is a run of its own
}

TEST_CASE("WRF rsl: unfinished runs, real.exe's files and damaged lines are refused with their line",
          "[ingest][wrf]") {
  testing::TempDir dir("qnm-wrf", "refused");
  const std::string finished = Finished();
  // Cut after the last step: no "wrf: SUCCESS COMPLETE WRF"; the last line is quoted.
  std::string cut = finished.substr(0, finished.find("Timing for Writing wrfout_d01_2005-08-29_00:00:00"));
  std::string error = testing::IngestErrorOf(Write(dir, "cut", "rsl.error.0000", cut));
  CHECK(error.find(":553: the run did not finish (no 'wrf: SUCCESS COMPLETE WRF'") != std::string::npos);
  CHECK(error.find("its last line: 'Timing for main: time 2005-08-29_00:00:00 on domain   1:    0.06315 "
                   "elapsed seconds'") != std::string::npos);
  // An empty rsl file.
  CHECK(testing::IngestErrorOf(Write(dir, "empty", "rsl.error.0000", "")).find("empty") != std::string::npos);
  // real.exe's file: its lines up to the first step, closed by real_em's success line.
  const std::string real = finished.substr(0, finished.find("Timing for main")) +
                           "d01 2005-08-29_00:00:00 real_em: SUCCESS COMPLETE REAL_EM INIT\n";
  CHECK(testing::IngestErrorOf(Write(dir, "real", "rsl.error.0000", real))
            .find("an rsl file of real.exe (WRF's initialisation program") != std::string::npos);
  // A step time that is not a number, and a task count that is not one.
  CHECK(testing::IngestErrorOf(Write(dir, "nan", "rsl.error.0000",
                                     Replaced(finished, "1:    0.05671 elapsed", "1:    nan elapsed")))
            .find(":549: 'Timing for ... elapsed seconds' needs a non-negative number, got 'nan'") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(Write(dir, "tasks", "rsl.error.0000",
                                     Replaced(finished, "ntasks in Y            1", "ntasks in Y           -1")))
            .find(":4: ") != std::string::npos);
  // No "Ntasks" line at all: no task count.
  CHECK(testing::IngestErrorOf(Write(dir, "notasks", "rsl.error.0000",
                                     Replaced(finished, " Ntasks in X            1, ntasks in Y            1\n", "")))
            .find("without 'Ntasks in X N , ntasks in Y M'") != std::string::npos);
  // WRF's FATAL banner with the message after its "FATAL CALLED FROM FILE" line.
  const std::string fatal = finished.substr(0, finished.find("Timing for main")) +
                            "-------------- FATAL CALLED ---------------\n"
                            "FATAL CALLED FROM FILE:  <stdin>  LINE:    1085\n"
                            "Ran out of valid boundary conditions in file wrfbdy_d01\n"
                            "-------------------------------------------\n";
  CHECK(testing::IngestErrorOf(Write(dir, "fatal", "rsl.error.0000", fatal))
            .find(":62: WRF stopped before it finished (no 'wrf: SUCCESS COMPLETE WRF'): FATAL CALLED: 'Ran out "
                  "of valid boundary conditions in file wrfbdy_d01'") != std::string::npos);
}

TEST_CASE("WRF rsl: a nest's steps are inside its parent's, and the class counts the domains", "[ingest][wrf]") {
  // Two steps of a nest (domain 2) inside domain 1's first step, and its history write after domain 1's
  // last step (med_last_solve_io): the nest's main lines add nothing, the final write adds its time.
  testing::TempDir dir("qnm-wrf", "nest");
  std::string text = Replaced(Finished(), "Timing for main: time 2005-08-28_00:03:00",
                              "Timing for main: time 2005-08-28_00:01:00 on domain   2:    0.10000 elapsed seconds\n"
                              "Timing for main: time 2005-08-28_00:02:00 on domain   2:    0.10000 elapsed seconds\n"
                              "Timing for main: time 2005-08-28_00:03:00");
  text = Replaced(text, "wrf: SUCCESS COMPLETE WRF",
                  "Timing for Writing wrfout_d02_2005-08-29_00:00:00 for domain        2:    0.50000 elapsed "
                  "seconds\nwrf: SUCCESS COMPLETE WRF");
  std::vector<RunStats> runs = testing::IngestPath(Write(dir, "nest", "rsl.error.0000", text));
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].wall_time_s == Approx(0.04685 + 33.04555 + 0.02586 + 0.5).epsilon(1e-12));
  CHECK(runs[0].details.at("wrf_domains") == "2");
  CHECK(runs[0].details.at("wrf_nest_steps") == "2");
  CHECK(testing::DetailNumber(runs[0], "wrf_nest_main_s") == Approx(0.2).epsilon(1e-12));
  CHECK(runs[0].problem_class == "d01 98x70 2 domains 480 steps 2005-08-28_00:03:00 to 2005-08-29_00:00:00");
}

TEST_CASE("a folder of WRF runs of one case is one series by tasks", "[ingest][wrf][cli]") {
  // run_1 is the real file; run_2 and run_4 its copies with their task counts and first step edited
  // (the first step's time differs, so each is a measurement of its own).
  testing::TempDir dir("qnm-wrf", "series");
  Write(dir, "run_1", "rsl.error.0000", Finished());
  Write(dir, "run_2", "rsl.error.0000", AtTasks(1, 2, "0.20000"));
  Write(dir, "run_2", "rsl.error.0001", "taskid: 1 hostname: node3\n");
  Write(dir, "run_4", "rsl.error.0000", AtTasks(2, 2, "0.10000"));
  std::vector<Series> series = GroupIntoSeries(testing::IngestPath(dir.path.string()), GroupBy::kContent);
  REQUIRE(series.size() == 1);
  std::vector<int> procs;
  for (const RunGroup& g : series[0].groups) procs.push_back(g.procs);
  CHECK(procs == std::vector<int>{1, 2, 4});
  CHECK(series[0].name.find("wrf." + kClass) == 0);
  // The same campaign packed in a tar: the other task's file is left to process 0's there too.
  WriteCase(dir, "campaign.tar",
            testing::TarArchive({{"run_1/rsl.error.0000", Finished()},
                                 {"run_2/rsl.error.0000", AtTasks(1, 2, "0.20000")},
                                 {"run_2/rsl.error.0001", "taskid: 1 hostname: node3\n"},
                                 {"run_2/rsl.out.0000", "Ntasks in X 1 , ntasks in Y 2\n"}}));
  IngestSummary summary;
  std::vector<RunStats> archived = testing::IngestPath((dir.path / "campaign.tar").string(), &summary);
  REQUIRE(archived.size() == 2);
  CHECK(summary.skipped.empty());
}

TEST_CASE("WRF rsl: rsl.out.0000 is the run when there is no rsl.error.0000, and an adaptive time step",
          "[ingest][wrf]") {
  // A run folder of rsl.out files only (the WRF 3.8.1 file as rsl.out.0000 with 1 x 2 tasks, and its other
  // task's rsl.out.0001), its second step printed as WRF prints steps of an adaptive time step.
  testing::TempDir dir("qnm-wrf", "out");
  Write(dir, "run", "rsl.out.0000",
        Replaced(AtTasks(1, 2, "0.30207"), "Timing for main: time 2005-08-28_00:06:00",
                 "Timing for main (dt=180.00): time 2005-08-28_00:06:00"));
  Write(dir, "run", "rsl.out.0001", " Ntasks in X 1 , ntasks in Y 2\n");
  IngestSummary summary;
  std::vector<RunStats> runs = testing::IngestPath((dir.path / "run").string(), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(summary.files_seen == 1);
  CHECK(runs[0].procs == 2);
  CHECK(runs[0].details.at("wrf_rsl_files") == "2");
  CHECK(runs[0].details.at("wrf_adaptive_time_step") == "yes");
  CHECK(runs[0].iterations == 480);
  CHECK(runs[0].wall_time_s == Approx(0.04685 + 33.04555 + 0.02586).epsilon(1e-12));
  CHECK(runs[0].problem_class ==
        "d01 98x70 1 domain adaptive dt 480 steps 2005-08-28_00:03:00 to 2005-08-29_00:00:00");
}
