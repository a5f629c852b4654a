// Load imbalance I = max - mean of the ranks' compute (models/decomposition.h)
// on the SP-MZ class C campaign (bench/data/mpip-scaling: mpiP at P = 1..128,
// one folder per run), and the node-boundary regime split
// (models/node_regime.h) on a real hecbiosim series.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "ingest/ingest.h"
#include "models/decomposition.h"
#include "models/machine_profile.h"
#include "models/node_regime.h"
#include "models/prediction.h"
#include "pipeline/series_loading.h"
#include "tests/profiled_run.h"

namespace {

std::string SpMz() { return std::string(QNM_TEST_DATA_DIR) + "/../../bench/data/mpip-scaling/SP-MZ-th8"; }
std::string BtMz() { return std::string(QNM_TEST_DATA_DIR) + "/../../bench/data/mpip-scaling/BT-MZ-th8"; }

qnm::MachineProfile Cab() {
  qnm::MachineProfile cab;
  REQUIRE(qnm::FindProfileForMachine("cab", &cab));
  return cab;
}

}  // namespace

TEST_CASE("load imbalance: MPI time less I is the slowest rank's MPI time on every SP-MZ run",
          "[predict][imbalance][real]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = qnm::IngestPaths({SpMz()}, qnm::IngestOptions(), &summary);
  REQUIRE(runs.size() == 8);
  int imbalanced = 0;
  for (const qnm::RunStats& run : runs) {
    INFO("P=" << run.procs);
    qnm::RunDecomposition d;
    std::string error;
    REQUIRE(qnm::DecomposeRun(run, Cab(), qnm::mva::Options(), &d, &error));
    if (run.procs == 1) {
      CHECK(d.unscaled.imbalance_s == 0);
      continue;
    }
    // The rank with the most compute waits least: its MPI time is the real cost of messaging.
    const auto& app = run.app_time_s_per_rank;
    const auto& mpi = run.mpi_time_s_per_rank;
    REQUIRE(app.size() == static_cast<std::size_t>(run.procs));
    std::size_t slowest = 0;
    for (std::size_t r = 1; r < app.size(); ++r)
      if (app[r] - mpi[r] > app[slowest] - mpi[slowest]) slowest = r;
    CHECK(d.mpi_time_s - d.unscaled.imbalance_s == Approx(mpi[slowest]).margin(0.02));
    CHECK(d.unscaled.imbalance_s + d.unscaled.switch_delay_s + d.unscaled.mpi_active_s +
              d.unscaled.contention_s == Approx(d.mpi_time_s).epsilon(1e-9));
    imbalanced += d.unscaled.imbalance_s > 0.1;
  }
  CHECK(imbalanced == 7);  // every multi-rank run waits > 0.1 s for its slowest rank
}

TEST_CASE("load imbalance: a balanced run has none and decomposes as without per-rank times",
          "[predict][imbalance]") {
  qnm::RunStats run = qnm::testing::ProfiledRun(4, 10, 2, 100, 1000);
  run.wall_time_s = 10;
  qnm::RunDecomposition without, balanced;
  std::string error;
  REQUIRE(qnm::DecomposeRun(run, Cab(), qnm::mva::Options(), &without, &error));
  run.app_time_s_per_rank = {10, 10, 10, 10};
  run.mpi_time_s_per_rank = {2, 2, 2, 2};
  REQUIRE(qnm::DecomposeRun(run, Cab(), qnm::mva::Options(), &balanced, &error));
  CHECK(balanced.unscaled.imbalance_s == 0);
  CHECK(balanced.components.mpi_active_s == Approx(without.components.mpi_active_s).epsilon(1e-12));
  CHECK(balanced.components.contention_s == Approx(without.components.contention_s).epsilon(1e-12));
  // One rank computes 1 s longer: the others wait for it, 0.75 s on average.
  run.app_time_s_per_rank = {10, 10, 10, 10};
  run.mpi_time_s_per_rank = {2.5, 2.5, 2.5, 1.5};
  run.mpi_time_mean_s = 2.25;
  qnm::RunDecomposition skewed;
  REQUIRE(qnm::DecomposeRun(run, Cab(), qnm::mva::Options(), &skewed, &error));
  CHECK(skewed.unscaled.imbalance_s == Approx(8.5 - 7.75));
  CHECK(skewed.unscaled.compute_s == Approx(7.75));
}

TEST_CASE("load imbalance: SP-MZ's zones are of one size, so P = 16's imbalance is noise, not carried on",
          "[predict][imbalance][real]") {
  std::vector<qnm::Series> series = qnm::LoadSeries({SpMz()}, "", nullptr);
  REQUIRE(series.size() == 1);
  qnm::SeriesModel model;
  std::string error;
  REQUIRE(qnm::FitSeriesModel(series[0], {1, 2, 4, 8, 16}, qnm::PredictionOptions(), &model, &error));
  REQUIRE(model.kind == qnm::ModelKind::kQueueing);
  REQUIRE(model.work_units_equal);
  const qnm::ProcsPrediction at16 = model.Predict(16);
  REQUIRE(at16.Ok());
  CHECK(at16.total.value_s == Approx(8.07).epsilon(1e-6));  // through the measured total
  // The measured imbalances, c_max - c_mean: 0.18 (P = 2), 0.35, 0.37 and 0.95 s (P = 16: 14%
  // of the mean compute, where P = 8 and 32 have 3% and 5%). The curve fitted over the four is
  // kept, well below P = 16's 0.95 s at every larger P (round 19 carried it on: 30% off at P = 64).
  double previous = at16.total.value_s;
  for (int procs : {32, 64, 128, 256}) {
    INFO("P=" << procs);
    const qnm::ProcsPrediction p = model.Predict(procs);
    REQUIRE(p.Ok());
    CHECK(p.imbalance.value_s > 0.1);
    CHECK(p.imbalance.value_s < 0.5);
    CHECK(p.total.value_s < previous);  // strong scaling: still falling
    previous = p.total.value_s;
  }
  const auto imbalance = std::find_if(model.inputs.begin(), model.inputs.end(),
                                      [](const qnm::InputCurve& c) { return c.key == "imbalance_s"; });
  REQUIRE(imbalance != model.inputs.end());
  CHECK(imbalance->formula.find("over every run (units of one size: the imbalance is run noise)") !=
        std::string::npos);
  CHECK(imbalance->formula.find("through the measured points") == std::string::npos);
  // BT-MZ's zones differ in size: its imbalance is its work's, and the last run's is carried on.
  std::vector<qnm::Series> bt = qnm::LoadSeries({BtMz()}, "", nullptr);
  REQUIRE(bt.size() == 1);
  qnm::SeriesModel bt_model;
  REQUIRE(qnm::FitSeriesModel(bt[0], {1, 2, 4, 8, 16}, qnm::PredictionOptions(), &bt_model, &error));
  CHECK_FALSE(bt_model.work_units_equal);
  CHECK_FALSE(bt_model.queueing.imbalance_anchor.log_residuals.empty());
  // Messages per rank (2018 from P = 16 on in the campaign) stay below the unbounded log2 P law.
  const qnm::ProcsPrediction at128 = model.Predict(128);
  CHECK(at128.messages_per_rank < 14 + 501 * 7.0);
  CHECK(at128.messages_per_rank >= 2018 * 0.99);
}

TEST_CASE("a series' ranks per node: what its multi-node runs share, single-node runs fitting in one node",
          "[predict][nodes]") {
  using qnm::RunLayout;
  using qnm::SeriesRanksPerNode;
  // NPB-MZ on cab, one rank per node (mpiP host names): every run says 1.
  CHECK(SeriesRanksPerNode({{1, 1, 1}, {2, 2, 1}, {4, 4, 1}, {8, 8, 1}, {16, 16, 1}}) == 1);
  // A table's column (hecbiosim on ARCHER2, 128 per node), and one giving the node's capacity
  // on runs that fill part of it (wavetrisk on Niagara, 40 cores per node, trained on P <= 20).
  CHECK(SeriesRanksPerNode({{128, 1, 128}, {256, 2, 128}, {640, 5, 128}}) == 128);
  CHECK(SeriesRanksPerNode({{1, 1, 40}, {2, 1, 40}, {20, 1, 40}}) == 40);
  // procs / nodes of each run: a node partly filled at P = 16, then 32 per node.
  CHECK(SeriesRanksPerNode({{16, 1, 16}, {32, 1, 32}, {64, 2, 32}, {128, 4, 32}}) == 32);
  // Ranks per node known, nodes not: P beyond it spans nodes.
  CHECK(SeriesRanksPerNode({{16, 0, 32}, {64, 0, 32}}) == 32);
  // Unknown: one node only with different counts (its capacity is not in the data), multi-node
  // runs that disagree, a single-node run larger than the others' nodes, a run that does not say.
  CHECK(SeriesRanksPerNode({{16, 1, 16}, {32, 1, 32}}) == 0);
  CHECK(SeriesRanksPerNode({{64, 2, 32}, {128, 8, 16}}) == 0);
  CHECK(SeriesRanksPerNode({{64, 1, 64}, {128, 4, 32}}) == 0);
  CHECK(SeriesRanksPerNode({{16, 0, 0}, {32, 1, 32}, {64, 2, 32}}) == 0);
  CHECK(SeriesRanksPerNode({}) == 0);
}

TEST_CASE("node regime: fits the multi-node runs alone when the time rises across the node",
          "[predict][nodes]") {
  // hecbiosim GROMACS 61k atoms on ARCHER2, one rank (128 threads) per node
  // (bench/data/scaling2/series.csv): P = 1 is 2x faster than P = 2.
  const std::vector<std::pair<int, double>> gromacs = {
      {1, 215.647}, {2, 453.692}, {3, 313.294}, {4, 264.135}, {5, 235.486}};
  qnm::NodeRegimeSplit split = qnm::SplitAtNodeBoundary(gromacs, 1);
  CHECK(split.dropped == 1);
  REQUIRE(split.fitted.size() == 4);
  CHECK(split.fitted.front().first == 2);
  CHECK(split.note.find("regime change") != std::string::npos);
  // Unknown ranks per node, or too few multi-node runs: every point stays.
  CHECK(qnm::SplitAtNodeBoundary(gromacs, 0).dropped == 0);
  CHECK(qnm::SplitAtNodeBoundary(gromacs, 3).dropped == 0);
  // Time falls across the boundary (ARCHER2 LAMMPS 20k, 2 ranks per node): one regime.
  const std::vector<std::pair<int, double>> lammps = {
      {2, 714.9}, {4, 467.6}, {6, 366.3}, {8, 301.8}, {10, 316.0}};
  qnm::NodeRegimeSplit kept = qnm::SplitAtNodeBoundary(lammps, 2);
  CHECK(kept.dropped == 0);
  CHECK(kept.fitted.size() == 5);
  CHECK(kept.note.empty());
}
