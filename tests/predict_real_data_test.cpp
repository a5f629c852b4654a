// The predictor on the real data in tests/data (copied from ../shared/data by
// the ingest helper): decomposition of every mpiP report, and validation of
// the strong-scaling series named in issue 4.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "ingest/ingest.h"
#include "models/decomposition.h"
#include "models/machine_profile.h"
#include "models/validation.h"
#include "pipeline/series_loading.h"

namespace {

std::string Data(const std::string& path) { return std::string(QNM_TEST_DATA_DIR) + "/" + path; }

std::vector<qnm::Series> Load(const std::vector<std::string>& paths) {
  return qnm::LoadSeries(paths, "", nullptr);
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

struct Tally {
  std::vector<double> errors;
  int inside = 0, within_30 = 0;
  void Add(const qnm::ValidationResult& result) {
    for (const qnm::ValidationRow& row : result.rows) {
      if (row.training) continue;
      REQUIRE(qnm::Known(row.relative_error));
      errors.push_back(std::fabs(row.relative_error));
      inside += row.inside_interval;
      within_30 += row.within_30;
    }
  }
};

}  // namespace

TEST_CASE("every real mpiP report decomposes into parts that add up to its time",
          "[predict][real]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs =
      qnm::IngestPaths({Data("mpip")}, qnm::IngestOptions(), &summary);
  int decomposed = 0, with_messages = 0, with_imbalance = 0;
  for (qnm::RunStats& run : runs) {
    if (!qnm::HasMpiProfile(run)) continue;
    qnm::MachineProfile machine;
    if (!qnm::FindProfileForMachine(run.machine, &machine) && !qnm::EstimateNetworkFromRuns({&run}, &machine)) {
      // Only a run without messages, or whose MPI time is all waiting for the
      // slowest rank (load imbalance), says nothing about the network.
      qnm::RunDecomposition probe;
      std::string probe_error;
      qnm::MachineProfile none;
      none.bandwidth_bytes_per_s = 1e300;
      REQUIRE(qnm::DecomposeRun(run, none, qnm::mva::Options(), &probe, &probe_error));
      INFO(run.sources.front());
      REQUIRE((run.messages_per_rank == 0 || !qnm::Known(run.messages_per_rank) ||
               probe.unscaled.imbalance_s >= probe.mpi_time_s));
    }
    if (machine.name.empty()) {  // no messages at all: the switch costs nothing
      machine.latency_s = 0;
      machine.bandwidth_bytes_per_s = 1e300;
    }
    qnm::RunDecomposition d;
    std::string error;
    INFO(run.sources.front());
    REQUIRE(qnm::DecomposeRun(run, machine, qnm::mva::Options(), &d, &error));
    const qnm::ComponentTimes& c = d.components;
    CHECK(c.compute_s >= 0);
    CHECK(c.switch_delay_s >= 0);
    CHECK(c.mpi_active_s >= 0);
    CHECK(c.contention_s >= 0);
    CHECK(c.imbalance_s >= 0);
    CHECK(c.Total() == Approx(run.TotalTimeSeconds()).epsilon(1e-9));
    // MPI part (imbalance + switch + active + contention) is the measured MPI share.
    double mpi_share = d.mpi_time_s / d.app_time_s;
    CHECK((c.imbalance_s + c.switch_delay_s + c.mpi_active_s + c.contention_s) / c.Total() ==
          Approx(std::min(1.0, mpi_share)).epsilon(1e-6).margin(1e-9));
    // The imbalance is max - mean of the ranks' compute, within the MPI time.
    if (run.app_time_s_per_rank.size() >= 2 && run.app_time_s_per_rank.size() == run.mpi_time_s_per_rank.size()) {
      double largest = 0, sum = 0;
      for (std::size_t r = 0; r < run.app_time_s_per_rank.size(); ++r) {
        double compute = std::max(0.0, run.app_time_s_per_rank[r] - run.mpi_time_s_per_rank[r]);
        largest = std::max(largest, compute);
        sum += compute;
      }
      double expected = std::min(largest - sum / run.app_time_s_per_rank.size(), d.mpi_time_s);
      CHECK(d.unscaled.imbalance_s == Approx(expected).margin(1e-12));
      with_imbalance += expected > 0;
    }
    ++decomposed;
    with_messages += run.messages_per_rank > 0;
  }
  CHECK(decomposed == 91);  // every report in ../shared/data/mpip
  CHECK(with_messages >= 85);
  CHECK(with_imbalance >= 60);  // most real runs are not perfectly balanced
}

TEST_CASE("NPB-MZ class C on LLNL cab: train P=1,2,4,8, predict 16, every thread count",
          "[predict][real]") {
  std::vector<qnm::Series> series = Load({Data("mpip")});
  qnm::ValidationOptions options;
  options.train_procs = {1, 2, 4, 8};
  Tally tally;
  int validated = 0;
  for (const qnm::Series& one : series) {
    if (one.name.find("-mz.C") == std::string::npos) continue;
    INFO(one.name);
    qnm::ValidationResult result;
    std::string error;
    REQUIRE(qnm::ValidateSeries(one, options, &result, &error));
    CHECK(result.model.kind == qnm::ModelKind::kQueueing);
    CHECK_FALSE(result.model.machine.estimated);  // the bundled llnl-cab profile
    REQUIRE(result.summary.predicted_points == 1);
    tally.Add(result);
    ++validated;
  }
  CHECK(validated == 12);  // BT/LU/SP-MZ x 4, 8, 12, 16 threads
  double median = Median(tally.errors);
  CHECK(median <= 0.10);   // measured: 1.4%
  CHECK(*std::max_element(tally.errors.begin(), tally.errors.end()) <= 0.25);  // measured: 5.9%
  CHECK(tally.within_30 == 12);
  CHECK(tally.inside >= 11);  // 90% intervals: 12 of 12 measured
}

TEST_CASE("NPB LU on Grid'5000 and CG/MG/FT class C on the Pi cluster (runtime only)",
          "[predict][real]") {
  std::vector<qnm::Series> series = Load({Data("npb/npb_series_median.csv")});
  struct Case {
    const char* prefix;
    std::vector<int> train;
    std::vector<int> predicted;
  };
  const std::vector<Case> cases = {
      {"lu.B @g5k-graphene LU NPB3.3 1 rank/node ScalaTrace-TD", {4, 8, 16, 32}, {64, 128}},
      {"lu.B @g5k-graphene LU NPB3.3 1 rank/node ScalaTrace-TI", {4, 8, 16, 32}, {64, 128}},
      {"lu.B @g5k-graphene LU NPB3.3 real time", {8, 16, 32}, {64, 128}},
      {"lu.C @g5k-graphene LU NPB3.3 1 rank/node ScalaTrace-TD", {4, 8, 16, 32}, {64, 128}},
      {"lu.C @g5k-graphene LU NPB3.3 1 rank/node ScalaTrace-TI", {4, 8, 16, 32}, {64, 128}},
      {"lu.C @g5k-graphene LU NPB3.3 real time", {8, 16, 32}, {64, 128}},
      {"cg.C @RPi4 cluster GbE NPB3.4.3 4 ranks/node", {4, 8, 16}, {32, 64}},
      {"mg.C @RPi4 cluster GbE NPB3.4.3 4 ranks/node", {4, 8, 16}, {32, 64}},
      {"ft.C @RPi4 cluster GbE NPB3.4.3 4 ranks/node", {4, 8, 16}, {32, 64}},
  };
  Tally tally;
  for (const Case& c : cases) {
    const qnm::Series* found = nullptr;
    for (const qnm::Series& one : series)
      if (one.name.rfind(c.prefix, 0) == 0) found = &one;
    INFO(c.prefix);
    REQUIRE(found);
    qnm::ValidationOptions options;
    options.train_procs = c.train;
    qnm::ValidationResult result;
    std::string error;
    REQUIRE(qnm::ValidateSeries(*found, options, &result, &error));
    CHECK(result.model.kind == qnm::ModelKind::kRuntimeOnly);
    std::vector<int> predicted;
    for (const qnm::ValidationRow& row : result.rows)
      if (!row.training) predicted.push_back(row.procs);
    CHECK(predicted == c.predicted);
    tally.Add(result);
  }
  REQUIRE(tally.errors.size() == 18);
  // Measured: median 13.0%, 14 of 18 within 30%, 18 of 18 inside the 90% interval.
  // (The leave-one-out model before forward validation had 16 within 30% here
  // but 25.3% median over all 62 NPB table series, now 14.6%: bench/README.md.)
  CHECK(Median(tally.errors) <= 0.15);
  CHECK(tally.within_30 >= 14);
  CHECK(tally.inside >= 17);
}

TEST_CASE("leave-one-out validation of the bundled default series", "[predict][real]") {
  std::vector<std::string> dirs = qnm::DataDirectories();
  REQUIRE_FALSE(dirs.empty());
  std::vector<qnm::Series> series = Load({dirs.front() + "/default-series"});
  REQUIRE(series.size() == 1);
  qnm::ValidationResult result;
  std::string error;
  REQUIRE(qnm::ValidateSeries(series.front(), qnm::ValidationOptions(), &result, &error));
  CHECK(result.summary.mode == "leave-one-out");
  CHECK(result.summary.predicted_points == 5);
  CHECK(result.summary.median_abs_relative_error <= 0.05);
}
