// Quicksilver outputs read into run records (tests/data/quicksilver: real outputs of
// converged-computing's cloud performance study, MIT, SOURCES.md there). The values below are
// copied from the files by hand.
#include "app_outputs/quicksilver_output.h"

#include <catch2/catch.hpp>
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

const std::string kQuicksilver = std::string(QNM_TEST_DATA_DIR) + "/quicksilver";
const std::string kGke = kQuicksilver + "/google-gke-cpu-size32/quicksilver-32-iter-1-7707520139264.out";

}  // namespace

TEST_CASE("Quicksilver: ranks, threads, the slowest rank's main timer, the mean MPI time of its timers",
          "[ingest][quicksilver]") {
  // google-gke-cpu-size32: "Number of MPI ranks : 256", "Number of OpenMP Threads: 7"; cumulative
  // timers (microseconds, min avg max): main 2.210e+08 2.210e+08 2.210e+08 (line 186),
  // cycleTracking_MPI 6.887e+07 8.750e+07 1.102e+08, cycleTracking_Test_Done 5.701e+07 7.802e+07
  // 1.009e+08; "Figure Of Merit 7.145e+08"; four PASS:: checks.
  const RunStats run = Only(testing::IngestPath(kGke));
  CHECK(run.app == "quicksilver");
  CHECK(run.procs == 256);
  CHECK(run.threads_per_proc == 7);
  CHECK(run.wall_time_s == Approx(221.0).epsilon(1e-12));
  CHECK(run.app_time_mean_s == Approx(221.0).epsilon(1e-12));
  CHECK(run.mpi_time_mean_s == Approx(87.50).epsilon(1e-12));  // Test_Done is nested in it
  CHECK(run.problem_class == "Coral2_P1.inp, 64x64x64 cells, 64x64x64 cm, 83886080 particles, 100 steps");
  CHECK(run.verification == "SUCCESSFUL");
  CHECK(run.details.at("quicksilver.domains") == "8x8x4");
  CHECK(run.details.at("quicksilver.merit.figure_of_merit") == "7.145e+08");
  CHECK(run.details.at("setting.git_hash") == "eb68bb8d6fc53de1f65011d4e79ff2ed0dd60f3b");
  CHECK(run.details.at("setting.batches") == "10");
  CHECK(run.sources.front() == kGke + ":5");

  // A GPU build on Azure: 32 ranks, one thread each, main 1.525e+09 us.
  const RunStats gpu =
      Only(testing::IngestPath(kQuicksilver + "/azure-cyclecloud-gpu-size4/quicksilver-4n-99-iter-1.out"));
  CHECK(gpu.procs == 32);
  CHECK(gpu.threads_per_proc == 1);
  CHECK(gpu.wall_time_s == Approx(1525.0).epsilon(1e-12));
  CHECK(gpu.problem_class == "Coral2_P1.inp, 32x32x32 cells, 32x32x32 cm, 52428800 particles, 100 steps");
}

TEST_CASE("Quicksilver: a run that stopped, damaged outputs", "[ingest][quicksilver]") {
  // aws-eks-gpu-size16: its cycles' table heading, then the job was ended (Flux: status 36608).
  CHECK(testing::IngestErrorOf(kQuicksilver + "/aws-eks-gpu-size16/quicksilver-16-iter-1-1630393073664.out")
            .find("quicksilver-16-iter-1-1630393073664.out:6: Quicksilver run without its cumulative timers: it did "
                  "not finish") != std::string::npos);
  testing::TempDir dir("qnm-quicksilver", "cases");
  const std::string text = ReadText(kGke);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "ranks.out", Replaced(text, "MPI ranks     : 256", "MPI ranks     : 2x6")))
            .find("ranks.out:8: Quicksilver 'Number of MPI ranks'") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "avg.out", Replaced(text, "6.887e+07    8.750e+07", "6.887e+07    x8.75")))
            .find("avg.out:190: Quicksilver timer average needs a non-negative number, got 'x8.75'") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "row.out", Replaced(text, "cycleTracking_MPI                36849",
                                                                  "cycleTracking_MPI")))
            .find("row.out:190: Quicksilver timer row needs a name, calls, min, avg, max, stddev and rating") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "main.out", Replaced(text, "\nmain    ", "\nmane    ")))
            .find("main.out:186: Quicksilver cumulative timers without their 'main' timer") != std::string::npos);
  const RunStats failed = Only(testing::IngestPath(
      WriteCase(dir, "fail.out", Replaced(text, "PASS:: No Particles Lost", "FAIL:: No Particles Lost"))));
  CHECK(failed.verification == "UNSUCCESSFUL");
  CHECK(LooksLikeQuicksilverOutput(text));
  CHECK_FALSE(LooksLikeQuicksilverOutput("Quicksilver Version     : 2023\n"));
}
