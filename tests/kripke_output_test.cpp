// Kripke outputs read into run records (tests/data/kripke: real outputs of converged-computing's
// cloud performance study, MIT, SOURCES.md there). The values below are copied from the files by
// hand.
#include "app_outputs/kripke_output.h"

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

const std::string kKripke = std::string(QNM_TEST_DATA_DIR) + "/kripke";
const std::string kCpu64 = kKripke + "/google-compute-engine-cpu/size64/kripke-64-iter-1-1673124642816.out";
const std::string kGpu4 = kKripke + "/google-compute-engine-gpu/size4/kripke-4-iter-1-601328975872.out";

}  // namespace

TEST_CASE("Kripke: MPI tasks, rank 0's Generate + Solve, the problem as the class", "[ingest][kripke]") {
  // size64: "Total MPI tasks: 3584", "Spatial decomp: 16 x 14 x 16 MPI tasks"; TIMER_DATA (line 625)
  // Generate 0.586036, Solve 56.686036 (the table prints 0.58604 and 56.68604).
  const RunStats cpu = Only(testing::IngestPath(kCpu64));
  CHECK(cpu.app == "kripke");
  CHECK(cpu.procs == 3584);
  CHECK(cpu.threads_per_proc == 1);
  CHECK(cpu.wall_time_s == Approx(0.586036 + 56.686036).epsilon(1e-15));
  CHECK_FALSE(Known(cpu.mpi_time_mean_s));  // runtime-only: the sweeps' time includes their MPI
  CHECK(cpu.problem_class == "448x168x256 zones, 16 groups, Legendre 2, Dummy S2 with 16 points, 500 iterations");
  CHECK(cpu.details.at("kripke.decomposition") == "16x14x16");
  CHECK(cpu.details.at("kripke.SweepSolver_time_s") == "29.245089");
  CHECK(cpu.details.at("kripke.merit.throughput") == "4.350720e+10");
  CHECK(cpu.details.at("kripke.merit.sweep_efficiency") == "31.25690");
  CHECK(cpu.details.at("setting.version") == "1.2.5-dev");
  CHECK(cpu.details.at("setting.architecture") == "Sequential");
  CHECK(cpu.details.at("setting.layout") == "DGZ");
  CHECK(cpu.details.at("setting.block_solve") == "Sweep");
  CHECK(cpu.sources.front() == kCpu64 + ":11");

  // A GPU build: "Architecture: CUDA", 32 MPI tasks (4 nodes of 8 GPUs), another problem.
  const RunStats gpu = Only(testing::IngestPath(kGpu4));
  CHECK(gpu.procs == 32);
  CHECK(gpu.wall_time_s == Approx(0.605722 + 277.403179).epsilon(1e-15));
  CHECK(gpu.problem_class == "128x128x128 zones, 64 groups, Legendre 8, Dummy S2 with 8 points, 50 iterations");
  CHECK(gpu.details.at("setting.architecture") == "CUDA");
  CHECK(gpu.details.at("setting.layout") == "GDZ");
  CHECK(gpu.details.at("kripke.unknowns") == "1073741824");
}

TEST_CASE("Kripke: a cloud's strong-scaling campaign, and a run that stopped", "[ingest][kripke]") {
  // Google Compute Engine, 32 to 256 nodes of 56 ranks: one problem at 1792 .. 14336 tasks.
  IngestSummary summary;
  std::vector<RunStats> runs = testing::IngestPath(kKripke + "/google-compute-engine-cpu", &summary);
  REQUIRE(runs.size() == 4);
  std::sort(runs.begin(), runs.end(), [](const RunStats& a, const RunStats& b) { return a.procs < b.procs; });
  CHECK(runs[0].procs == 1792);
  CHECK(runs[3].procs == 14336);
  for (const RunStats& run : runs) CHECK(KeyOf(run) == KeyOf(runs[0]));
  CHECK(runs[0].TotalTimeSeconds() > runs[3].TotalTimeSeconds());

  // azure-cyclecloud-gpu: the run's standard output stops in its memory table (the job failed):
  // refused with the reason, at the run's code-number line.
  CHECK(testing::IngestErrorOf(kKripke + "/azure-cyclecloud-gpu/size4/kripke-4n-21-iter-1.out")
            .find("kripke-4n-21-iter-1.out:12: Kripke run without its timers: it did not finish") !=
        std::string::npos);
}

TEST_CASE("Kripke: damaged outputs", "[ingest][kripke]") {
  testing::TempDir dir("qnm-kripke", "cases");
  const std::string text = ReadText(kGpu4);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "tasks.out", Replaced(text, "Total MPI tasks:       32", "Total MPI tasks:       3x2")))
            .find("tasks.out:54: Kripke 'Total MPI tasks'") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "zones.out", Replaced(text, "128 x 128 x 128  (", "128 x 128  (")))
            .find("zones.out:41: Kripke 'Zones' needs 'nx x ny x nz'") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "data.out", Replaced(text, "TIMER_DATA:0.605722,", "TIMER_DATA:")))
            .find("data.out:177: Kripke TIMER_DATA holds 8 values for 9 TIMER_NAMES") != std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "value.out", Replaced(text, "TIMER_DATA:0.605722,", "TIMER_DATA:-0.605722,")))
            .find("value.out:177: Kripke TIMER_DATA value needs a non-negative number, got '-0.605722'") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "row.out", Replaced(text, "  Solve                        1", "  Solve")))
            .find("row.out:171: Kripke timer row needs a timer, its count and seconds") != std::string::npos);
  // Cut after its solver terminated: no timers, not finished (and not said to be before the solver's end).
  const std::string cut = testing::IngestErrorOf(WriteCase(dir, "cut.out", text.substr(0, text.find("Timers\n"))));
  CHECK(cut.find("cut.out:11: Kripke run without its timers: it did not finish") != std::string::npos);
  CHECK(cut.find("before 'Solver terminated'") == std::string::npos);
  CHECK(LooksLikeKripkeOutput(text));
  CHECK_FALSE(LooksLikeKripkeOutput("Kripke is released under the BSD 3-Clause License\n"));
}
