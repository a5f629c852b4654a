// NAMD logs read into the run record (tests/data/namd: pestifer's NAMD 3.0.1 and 3.0.2 logs, MIT,
// SOURCES.md there). The values below are copied from the files by hand. No public repository
// found holds NAMD logs of one input at several process counts under a licence that allows copying
// them, so the series and build-layout cases are edited copies of the real 16-PE log, written to a
// temporary folder by the test (what each edit changes is said where it is made).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "app_outputs/namd_log.h"
#include "ingest/ingest.h"
#include "reader/series_identity.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kNamd = std::string(QNM_TEST_DATA_DIR) + "/namd";
const std::string kFinished = kNamd + "/pestifer/test_namd.testlog";
const std::string kBilayer =
    "06-00-00-05-test_bilayer_task-patchB-equilibrateB-md-NPT 44200 atoms 8000 steps dt 2 fs PME 72 72 96";

// The real 16-PE multicore log as if run on `pes` PEs (the start-up lines and the WallClock changed).
std::string AtPes(int pes, const std::string& wallclock) {
  std::string text = ReadText(kFinished);
  const std::string p = std::to_string(pes);
  text = Replaced(text, "charmrun> namd3 +p 16", "charmrun> namd3 +p " + p);
  text = Replaced(text, "Multicore mode: 16 threads", "Multicore mode: " + p + " threads");
  text = Replaced(text, "Info: Running on 16 processors", "Info: Running on " + p + " processors");
  return Replaced(text, "WallClock: 281.382935", "WallClock: " + wallclock);
}

}  // namespace

TEST_CASE("NAMD log: PEs, WallClock, the problem, the build and the host", "[ingest][namd]") {
  // NAMD 3.0.1 multicore: "Running in Multicore mode: 16 threads (PEs)", "Info: Running on 16 processors,
  // 1 nodes, 1 physical nodes.", "WallClock: 281.382935  CPUTime: 268.385834  Memory: 232.488873 MB".
  std::vector<RunStats> runs = testing::IngestPath(kFinished);
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.app == "namd");
  CHECK(run.tool_version == "NAMD 3.0.1");
  CHECK(run.procs == 16);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.nodes == 1);
  CHECK(run.wall_time_s == 281.382935);
  CHECK(run.app_time_mean_s == 281.382935);
  CHECK(run.iterations == 8000);  // "TCL: Running for 8000 steps"
  CHECK(testing::DetailNumber(run, "namd_cpu_time_s") == 268.385834);
  CHECK(testing::DetailNumber(run, "namd_memory_mb") == 232.488873);
  CHECK(run.details.at("namd_end_of_program") == "yes");
  CHECK(run.details.at("namd_network") == "multicore");
  CHECK(run.details.at("namd_charm_machine") == "multicore-linux-x86_64");
  // Six "Info: Benchmark time: 16 CPUs <s/step> s/step <days/ns> days/ns" lines, their mean.
  CHECK(run.details.at("namd_benchmark_lines") == "6");
  CHECK(testing::DetailNumber(run, "namd_benchmark_s_per_step") == Approx(0.02973318333).epsilon(1e-9));
  CHECK(testing::DetailNumber(run, "namd_benchmark_days_per_ns") == Approx(0.172067).epsilon(1e-9));
  CHECK(run.problem_class == kBilayer);
  CHECK(run.variant == "namd3.0.1-multicore");
  CHECK(std::string(run.machine) == "panacea");  // "Info: 1 NAMD  3.0.1  Linux-x86_64-multicore  16    panacea  cfa"
  CHECK(run.mpi_time_mean_s != run.mpi_time_mean_s);  // runtime only: NAMD times no communication
  CHECK(LooksLikeNamdLog(ReadText(kFinished)));
}

TEST_CASE("NAMD log: an unfinished run and a log cut short are refused with their line", "[ingest][namd]") {
  // NAMD 3.0.1 multicore-CUDA on one PE, stopped after step 126800 of 1000000: no WallClock line.
  std::string error = testing::IngestErrorOf(kNamd + "/pestifer/test_namd-incomplete.testlog.gz");
  CHECK(error.find("test_namd-incomplete.testlog.gz:1") != std::string::npos);
  CHECK(error.find("did not finish") != std::string::npos);
  // NAMD 3.0.2 on 24 PEs, the log cut after step 24100.
  error = testing::IngestErrorOf(kNamd + "/pestifer/npt_run.log");
  CHECK(error.find("npt_run.log:1") != std::string::npos);
  CHECK(error.find("'WallClock:'") != std::string::npos);
  // The CUDA build is read as one: 'Pe 0 physical rank 0 binding to CUDA device 0'.
  const std::vector<NamdExecution> executions =
      ParseNamdLog(Replaced(ReadText(kFinished), "Info: NAMD 3.0.1 for Linux-x86_64-multicore",
                            "Info: NAMD 3.0.1 for Linux-x86_64-multicore-CUDA"),
                   "cuda.log");
  REQUIRE(executions.size() == 1);
  CHECK(executions[0].cuda);
}

TEST_CASE("NAMD log: a damaged WallClock, a missing process count, a FATAL ERROR", "[ingest][namd]") {
  testing::TempDir dir("qnm-namd", "damaged");
  const std::string text = ReadText(kFinished);
  std::string error = testing::IngestErrorOf(
      WriteCase(dir, "wallclock.log", Replaced(text, "WallClock: 281.382935", "WallClock: 281.3x2935")));
  CHECK(error.find("wallclock.log:606") != std::string::npos);
  CHECK(error.find("'WallClock:'") != std::string::npos);
  // Neither Charm++'s mode line nor NAMD's 'Info: Running on' line: the banner's line is named.
  std::string no_count = Replaced(text, "Charm++> Running in Multicore mode: 16 threads (PEs)\n", "");
  no_count = Replaced(no_count, "Info: Running on 16 processors, 1 nodes, 1 physical nodes.\n", "");
  error = testing::IngestErrorOf(WriteCase(dir, "nocount.log", no_count));
  CHECK(error.find("nocount.log:9") != std::string::npos);
  CHECK(error.find("process count") != std::string::npos);
  // NAMD's own reason is quoted when it stopped with one.
  std::string fatal = Replaced(text, "TCL: Running for 8000 steps", "FATAL ERROR: Unable to open text file x.psf");
  fatal = fatal.substr(0, fatal.find("WallClock:"));
  error = testing::IngestErrorOf(WriteCase(dir, "fatal.log", fatal));
  CHECK(error.find("fatal.log:218") != std::string::npos);
  CHECK(error.find("Unable to open text file x.psf") != std::string::npos);
  // A process that crashed: Charm++'s stack traceback is named (rodrigorusa/namd-mo833a's 16-process
  // runs of NAMD 2.14b1 stop so after start-up; their logs are not ours to copy).
  const std::string crashed = text.substr(0, text.find("TCL: Running for")) +
                              "[9] Stack Traceback:\n  [9:0] namd2 0x561fbad93f6b \n  [9:2] libc.so.6 0x7ff11271ae97 gsignal\n";
  error = testing::IngestErrorOf(WriteCase(dir, "crashed.log", crashed));
  CHECK(error.find("crashed.log:218") != std::string::npos);
  CHECK(error.find("stack traceback") != std::string::npos);
}

TEST_CASE("NAMD log: SMP and MPI builds, and two executions in one job output", "[ingest][namd]") {
  testing::TempDir dir("qnm-namd", "builds");
  const std::string text = ReadText(kFinished);
  // An SMP build over UCX: 2 processes of 7 worker threads and a comm thread, on 2 hosts.
  std::string smp = Replaced(text, "Charm++> Running in Multicore mode: 16 threads (PEs)",
                             "Charm++> Running in SMP mode: 2 processes, 7 worker threads (PEs) + 1 comm threads per "
                             "process, 14 PEs total");
  smp = Replaced(smp, "Info: NAMD 3.0.1 for Linux-x86_64-multicore", "Info: NAMD 3.0.1 for Linux-x86_64-ucx-smp");
  smp = Replaced(smp, "for multicore-linux-x86_64", "for ucx-linux-x86_64-smp");
  smp = Replaced(smp, "Info: Running on 16 processors, 1 nodes, 1 physical nodes.",
                 "Info: Running on 14 processors, 2 nodes, 2 physical nodes.");
  std::vector<RunStats> runs = testing::IngestPath(WriteCase(dir, "smp.log", smp));
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 2);
  CHECK(runs[0].threads_per_proc == 7);
  CHECK(runs[0].nodes == 2);
  CHECK(runs[0].variant == "namd3.0.1-ucx-smp");
  // An MPI build (non-SMP): 64 PEs, one MPI rank each.
  std::string mpi = Replaced(text, "Charm++> Running in Multicore mode: 16 threads (PEs)",
                             "Charm++> Running on MPI version: 3.1\nCharm++> Running in non-SMP mode: 64 processes (PEs)");
  mpi = Replaced(mpi, "Info: NAMD 3.0.1 for Linux-x86_64-multicore", "Info: NAMD 3.0.1 for Linux-x86_64-MPI");
  mpi = Replaced(mpi, "for multicore-linux-x86_64", "for mpi-linux-x86_64");
  mpi = Replaced(mpi, "Info: Running on 16 processors, 1 nodes, 1 physical nodes.",
                 "Info: Running on 64 processors, 64 nodes, 1 physical nodes.");
  runs = testing::IngestPath(WriteCase(dir, "mpi.log", mpi));
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 64);
  CHECK(runs[0].threads_per_proc == 1);
  CHECK(runs[0].variant == "namd3.0.1-mpi");
  // A job's output of two executions, the first cut before its WallClock: the second is read, and
  // ingest's summary names the first.
  IngestSummary summary;
  const std::string cut = text.substr(0, text.find("WallClock:"));
  runs = testing::IngestPath(WriteCase(dir, "two.log", cut + AtPes(8, "500.25")), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 8);
  CHECK(runs[0].wall_time_s == 500.25);
  bool said = false;
  for (const std::string& note : summary.notes)
    said |= note.find("1 of its 2 NAMD executions did not finish") != std::string::npos &&
            note.find("the first at line 1:") != std::string::npos;
  CHECK(said);
}

TEST_CASE("a folder of NAMD logs of one input is one series by PEs; a GPU build is another", "[ingest][namd][cli]") {
  testing::TempDir dir("qnm-namd", "series");
  WriteCase(dir, "bilayer_p8.log", AtPes(8, "530.5"));
  WriteCase(dir, "bilayer_p16.log", ReadText(kFinished));
  WriteCase(dir, "bilayer_p32.log", AtPes(32, "160.75"));
  WriteCase(dir, "bilayer_p4_cuda.log",
            Replaced(AtPes(4, "90.5"), "Info: NAMD 3.0.1 for Linux-x86_64-multicore",
                     "Info: NAMD 3.0.1 for Linux-x86_64-multicore-CUDA"));
  std::vector<Series> series = GroupIntoSeries(testing::IngestPath(dir.path.string()), GroupBy::kContent);
  std::map<std::string, std::vector<int>> procs;
  for (const Series& s : series)
    for (const RunGroup& g : s.groups) procs[s.name].push_back(g.procs);
  CHECK(procs.size() == 2);
  CHECK(procs.at("namd." + kBilayer + " @panacea (namd3.0.1-multicore)") == std::vector<int>{8, 16, 32});
  CHECK(procs.at("namd." + kBilayer + " @panacea (namd3.0.1-multicore-cuda)") == std::vector<int>{4});
}
