// Laghos outputs read into run records (tests/data/laghos: real outputs of converged-computing's
// cloud performance study, MIT, SOURCES.md there). The values below are copied from the files by
// hand.
#include "app_outputs/laghos_output.h"

#include <algorithm>
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

const std::string kLaghos = std::string(QNM_TEST_DATA_DIR) + "/laghos/aws-parallel-cluster-cpu";
const std::string kSize128 = kLaghos + "/size128/laghos-128n-11-iter-1.out";

}  // namespace

TEST_CASE("Laghos: the FOM table's ranks, the major kernels' time, the options as class and settings",
          "[ingest][laghos]") {
  // size128: "Major kernels total time (seconds): 220.9949118780" (line 150), "CG (H1) total time:
  // 185.8612737490", FOM table "|  12288|   786432| ...", "--refine-serial 4", "--partial-assembly".
  const RunStats run = Only(testing::IngestPath(kSize128));
  CHECK(run.app == "laghos");
  CHECK(run.procs == 12288);
  CHECK(run.wall_time_s == 220.9949118780);
  CHECK_FALSE(Known(run.mpi_time_mean_s));  // runtime-only
  CHECK(run.problem_class == "cube_311_hex.mesh, 3D, problem 1, refined 4+2, order 3/2, t 0.6, max 400 steps");
  CHECK(run.details.at("laghos.cg_h1_time_s") == "185.8612737");
  CHECK(run.details.at("laghos.zones") == "786432");
  CHECK(run.details.at("laghos.last_printed_step") == "385");
  CHECK(run.details.at("setting.partial-assembly") == "yes");
  CHECK(run.details.at("setting.ode-solver") == "7");
  CHECK(run.details.at("setting.device_configuration") == "cpu");
  CHECK(run.details.count("setting.outputfilename") == 0);  // output only: not a setting
  CHECK(run.details.count("setting.fom") == 0);
  CHECK(run.sources.front() == kSize128 + ":10");
}

TEST_CASE("Laghos: a strong-scaling series on 32 to 128 nodes, and a run that stopped", "[ingest][laghos]") {
  IngestSummary summary;
  std::vector<RunStats> runs = testing::IngestPath(kLaghos, &summary, /*strict=*/false);
  REQUIRE(runs.size() == 3);
  std::sort(runs.begin(), runs.end(), [](const RunStats& a, const RunStats& b) { return a.procs < b.procs; });
  CHECK(runs[0].procs == 3072);
  CHECK(runs[1].procs == 6144);
  CHECK(runs[2].procs == 12288);
  for (const RunStats& run : runs) CHECK(KeyOf(run) == KeyOf(runs[0]));
  // The job's name says its nodes ("laghos-32n-30-iter-1": 32 nodes), as the study's folders (size32):
  // 96 ranks on each of hpc6a's 96 cores.
  for (const RunStats& run : runs) {
    CHECK(run.nodes == run.procs / 96);
    CHECK(run.ranks_per_node == 96);
  }
  CHECK(runs[0].derivations.at("nodes") == "file name '32n'");
  // size256-stopped: the job's output ends after the dof lines (its run on 256 nodes failed).
  REQUIRE(summary.skipped.size() == 1);
  CHECK(testing::IngestErrorOf(kLaghos + "/size256-stopped/laghos-256n-19-iter-3.out")
            .find("laghos-256n-19-iter-3.out:10: Laghos run without its 'Major kernels total time': it did not "
                  "finish") != std::string::npos);
}

TEST_CASE("Laghos: without --fom, damaged outputs", "[ingest][laghos]") {
  testing::TempDir dir("qnm-laghos", "cases");
  const std::string text = ReadText(kSize128);
  // Without its FOM table Laghos prints no process count: the file name must give it.
  const std::string no_fom = text.substr(0, text.find("| Ranks")) + "Energy  diff: 2.69e-15\n";
  CHECK(testing::IngestErrorOf(WriteCase(dir, "nofom.out", no_fom))
            .find("nofom.out:10: Laghos run without its process count: Laghos prints it only in the table of --fom") !=
        std::string::npos);
  CHECK(Only(testing::IngestPath(WriteCase(dir, "laghos-np12288.out", no_fom))).procs == 12288);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "time.out", Replaced(text, "(seconds): 220.99", "(seconds): x220.99")))
            .find("time.out:150: Laghos major kernels time needs a non-negative number") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "ranks.out", Replaced(text, "|  12288|", "|  12x88|")))
            .find("ranks.out:154: Laghos FOM table 'Ranks'") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "step.out", Replaced(text, "step   385,", "step   3z5,")))
            .find("step.out:135: Laghos step needs") != std::string::npos);
  CHECK(LooksLikeLaghosOutput(text));
  CHECK_FALSE(LooksLikeLaghosOutput("Options used:\n   --mesh star.mesh\n"));  // another MFEM program
}
