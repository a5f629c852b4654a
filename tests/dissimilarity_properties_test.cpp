// Properties of the Calzarossa et al. 2004 indices computed from per-rank times (eqs. 1-6).
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "imbalance/dissimilarity.h"

namespace {

/// 3 activities x 5 regions x `ranks`, times that differ per cell but are
/// perfectly balanced over ranks.
qnm::ActivityRegionTimes Balanced(int ranks) {
  qnm::ActivityRegionTimes times;
  times.activities = {"computation", "p2p", "collective"};
  times.regions = {"r0", "r1", "r2", "r3", "r4"};
  times.Resize(3, 5, ranks);
  for (std::size_t a = 0; a < 3; ++a)
    for (std::size_t r = 0; r < 5; ++r)
      for (int p = 0; p < ranks; ++p) times.At(a, r, p) = 0.1 * static_cast<double>(1 + a * 5 + r);
  return times;
}

/// Balanced plus deterministic noise of +-2 % per rank (a real run is never exact).
qnm::ActivityRegionTimes Noisy(int ranks) {
  qnm::ActivityRegionTimes times = Balanced(ranks);
  unsigned state = 12345;
  for (double& t : times.time_s) {
    state = state * 1103515245u + 12345u;
    t *= 1.0 + 0.04 * (static_cast<double>((state >> 8) % 1000) / 999.0 - 0.5);
  }
  return times;
}

}  // namespace

TEST_CASE("Perfectly balanced times give zero for every index", "[dissimilarity]") {
  for (qnm::DispersionIndex index :
       {qnm::DispersionIndex::kEuclidean, qnm::DispersionIndex::kVariance,
        qnm::DispersionIndex::kCoefficientOfVariation, qnm::DispersionIndex::kMeanAbsoluteDeviation,
        qnm::DispersionIndex::kChebyshev}) {
    qnm::DissimilarityOptions options;
    options.dispersion = index;
    qnm::DissimilarityResult result = qnm::ComputeDissimilarity(Balanced(64), options);
    INFO(qnm::ToString(index));
    REQUIRE(result.cells.size() == 15);
    for (const qnm::CellDissimilarity& cell : result.cells) {
      CHECK(cell.index == Approx(0).margin(1e-12));
      CHECK(cell.heaviest_share == Approx(1.0 / 64));
    }
    for (const qnm::ActivityDissimilarity& a : result.activities) {
      CHECK(a.index == Approx(0).margin(1e-12));
      CHECK(a.scaled_index == Approx(0).margin(1e-12));
      CHECK_FALSE(a.candidate);  // no imbalance, no tuning candidate
    }
    for (const qnm::RegionDissimilarity& r : result.regions) CHECK(r.index == Approx(0).margin(1e-12));
    CHECK(result.summary.most_imbalanced_activity.empty());
    CHECK(result.summary.BriefReport().find("no imbalance") != std::string::npos);
    CHECK(result.summary.dominant_activity == "collective");  // dominance is by time, still defined
  }
}

TEST_CASE("Dispersion indices on hand-computed cells", "[dissimilarity]") {
  // Two ranks, 1 s and 3 s: t~ = (0.25, 0.75), mean 0.5, deviations +-0.25.
  const std::vector<double> times = {1.0, 3.0};
  CHECK(qnm::DispersionOf(times, qnm::DispersionIndex::kEuclidean) == Approx(std::sqrt(0.125)));
  CHECK(qnm::DispersionOf(times, qnm::DispersionIndex::kVariance) == Approx(0.0625));
  CHECK(qnm::DispersionOf(times, qnm::DispersionIndex::kCoefficientOfVariation) == Approx(0.5));
  CHECK(qnm::DispersionOf(times, qnm::DispersionIndex::kMeanAbsoluteDeviation) == Approx(0.25));
  CHECK(qnm::DispersionOf(times, qnm::DispersionIndex::kChebyshev) == Approx(0.25));
  // One rank of P does all the work: the largest Euclidean ID, sqrt(1 - 1/P).
  std::vector<double> one_of_64(64, 0.0);
  one_of_64[17] = 5.0;
  CHECK(qnm::DispersionOf(one_of_64, qnm::DispersionIndex::kEuclidean) == Approx(std::sqrt(1 - 1.0 / 64)));
  CHECK(qnm::DispersionOf(one_of_64, qnm::DispersionIndex::kChebyshev) == Approx(1 - 1.0 / 64));
  CHECK(std::isnan(qnm::DispersionOf(std::vector<double>(8, 0.0), qnm::DispersionIndex::kEuclidean)));
  CHECK(qnm::DispersionOf({2.5}, qnm::DispersionIndex::kEuclidean) == 0.0);
}

TEST_CASE("Indices are invariant to the scale of each cell's times (eq. 1)", "[dissimilarity]") {
  qnm::ActivityRegionTimes times = Noisy(16);
  qnm::DissimilarityResult base = qnm::ComputeDissimilarity(times, {});

  // Scaling one cell changes its weight but not its ID_ij (standardisation, eq. 1).
  qnm::ActivityRegionTimes one_cell = times;
  for (int p = 0; p < 16; ++p) one_cell.At(1, 2, p) *= 7.5;
  qnm::DissimilarityResult scaled_cell = qnm::ComputeDissimilarity(one_cell, {});
  CHECK(scaled_cell.CellIndex(1, 2) == Approx(base.CellIndex(1, 2)).epsilon(1e-12));
  CHECK(scaled_cell.CellTime(1, 2) == Approx(7.5 * base.CellTime(1, 2)));
  CHECK(scaled_cell.activities[1].index != Approx(base.activities[1].index).epsilon(1e-9));

  // Scaling every time (e.g. seconds -> milliseconds) changes no index at all.
  qnm::ActivityRegionTimes all = times;
  for (double& t : all.time_s) t *= 1000.0;
  qnm::DissimilarityResult scaled_all = qnm::ComputeDissimilarity(all, {});
  for (std::size_t k = 0; k < base.cells.size(); ++k)
    CHECK(scaled_all.cells[k].index == Approx(base.cells[k].index).epsilon(1e-12));
  for (std::size_t a = 0; a < 3; ++a) {
    CHECK(scaled_all.activities[a].index == Approx(base.activities[a].index).epsilon(1e-12));
    CHECK(scaled_all.activities[a].scaled_index == Approx(base.activities[a].scaled_index).epsilon(1e-12));
  }
  for (std::size_t r = 0; r < 5; ++r)
    CHECK(scaled_all.regions[r].scaled_index == Approx(base.regions[r].scaled_index).epsilon(1e-12));
  CHECK(scaled_all.activity_ranking == base.activity_ranking);
  CHECK(scaled_all.region_ranking == base.region_ranking);
}

TEST_CASE("The ranking finds a planted imbalance", "[dissimilarity]") {
  qnm::ActivityRegionTimes times = Noisy(64);
  // Collective in region r3: ranks 0..15 take four times as long (one slow node).
  for (int p = 0; p < 16; ++p) times.At(2, 3, p) *= 4.0;
  qnm::DissimilarityResult result = qnm::ComputeDissimilarity(times, {});

  REQUIRE(!result.cell_ranking.empty());
  const qnm::CellDissimilarity& worst = result.cells[static_cast<std::size_t>(result.cell_ranking[0])];
  CHECK(worst.activity == 2);
  CHECK(worst.region == 3);
  CHECK(worst.heaviest_rank < 16);
  // 16 ranks with 4 units and 48 with 1: t~ = 4/112 and 1/112 around 1/64.
  const double high = 4.0 / 112 - 1.0 / 64, low = 1.0 / 112 - 1.0 / 64;
  CHECK(worst.index == Approx(std::sqrt(16 * high * high + 48 * low * low)).epsilon(0.05));
  CHECK(result.summary.most_imbalanced_activity == "collective");
  CHECK(result.summary.most_imbalanced_region == "r3");
  CHECK(result.activities[2].candidate);
  CHECK(result.regions[3].candidate);
  CHECK(result.activities[2].most_imbalanced_region == 3);
  // The dominant activity and region are by time, not by imbalance.
  CHECK(result.summary.dominant_activity == "collective");  // it has the longest times anyway
  CHECK(result.summary.dominant_region == "r3");
  // Without the plant the dominant region is r4 and the imbalance is noise only.
  qnm::DissimilarityResult noise = qnm::ComputeDissimilarity(Noisy(64), {});
  CHECK(noise.summary.dominant_region == "r4");
  for (const qnm::CellDissimilarity& cell : noise.cells) CHECK(cell.index < 0.1 * worst.index);
}

TEST_CASE("A threshold marks every activity and region above it as a candidate", "[dissimilarity]") {
  qnm::ActivityRegionTimes times = Noisy(8);
  for (int p = 0; p < 2; ++p) times.At(2, 0, p) *= 3.0;  // collective r0
  for (int p = 0; p < 2; ++p) times.At(1, 4, p) *= 3.0;  // p2p r4
  qnm::DissimilarityOptions options;
  options.criterion = qnm::ImbalanceCriterion::kIndex;
  qnm::DissimilarityResult maximum_only = qnm::ComputeDissimilarity(times, options);
  int candidates = 0;
  for (const qnm::RegionDissimilarity& r : maximum_only.regions) candidates += r.candidate;
  CHECK(candidates == 1);

  options.severity_threshold = 0.5 * maximum_only.summary.most_imbalanced_region_value;
  qnm::DissimilarityResult threshold = qnm::ComputeDissimilarity(times, options);
  CHECK(threshold.regions[0].candidate);
  CHECK(threshold.regions[4].candidate);
  CHECK_FALSE(threshold.regions[2].candidate);
  CHECK(threshold.summary.FullReport().find("tuning candidate") != std::string::npos);
}

TEST_CASE("Cells without time have no index and do not weigh", "[dissimilarity]") {
  qnm::ActivityRegionTimes times;
  times.activities = {"computation", "synchronization"};
  times.regions = {"main", "solver"};
  times.Resize(2, 2, 4);
  const double compute[4] = {1, 1, 1, 1}, solver[4] = {1, 2, 3, 4};
  for (int p = 0; p < 4; ++p) {
    times.At(0, 0, p) = compute[p];
    times.At(0, 1, p) = solver[p];
  }
  qnm::DissimilarityResult result = qnm::ComputeDissimilarity(times, {});
  CHECK(result.cells.size() == 2);
  CHECK(std::isnan(result.CellIndex(1, 0)));
  CHECK(std::isnan(result.activities[1].index));
  CHECK(result.activity_ranking == std::vector<int>{0});
  // ID of (1,2,3,4)/10 around 0.25: sqrt(0.15^2 + 0.05^2 + 0.05^2 + 0.15^2).
  const double solver_id = std::sqrt(2 * 0.0225 + 2 * 0.0025);
  CHECK(result.CellIndex(0, 1) == Approx(solver_id));
  // eq. 3: computation = (4 * 0 + 10 * solver_id) / 14.
  CHECK(result.activities[0].index == Approx(10.0 / 14 * solver_id));
  CHECK(result.activities[0].scaled_index == Approx(10.0 / 14 * solver_id));  // the only activity
  CHECK(result.regions[1].index == Approx(solver_id));
  CHECK(result.regions[1].scaled_index == Approx(10.0 / 14 * solver_id));
  CHECK(result.summary.notes.size() == 1);
  CHECK(result.summary.BriefReport().find("most imbalanced activity computation") != std::string::npos);
}

TEST_CASE("Inconsistent input is rejected with a message", "[dissimilarity]") {
  qnm::ActivityRegionTimes times = Balanced(4);
  times.At(2, 1, 3) = -1.0;
  CHECK_THROWS_WITH(qnm::ComputeDissimilarity(times, {}),
                    Catch::Contains("'collective' in 'r1' on rank 3 is -1"));
  times.At(2, 1, 3) = std::nan("");
  CHECK_THROWS_AS(qnm::ComputeDissimilarity(times, {}), std::invalid_argument);
  times = Balanced(4);
  times.time_s.pop_back();
  CHECK_THROWS_WITH(qnm::ComputeDissimilarity(times, {}), Catch::Contains("59 times for 3 activities"));
  times = Balanced(4);
  times.ranks = 0;
  CHECK_THROWS_AS(qnm::ComputeDissimilarity(times, {}), std::invalid_argument);
  qnm::DissimilarityOptions bad;
  bad.report_top = -1;
  std::string error;
  CHECK_FALSE(bad.IsValid(&error));
  CHECK(error.find("report_top") != std::string::npos);
  CHECK_THROWS_AS(qnm::ComputeDissimilarity(Balanced(4), bad), std::invalid_argument);
  qnm::DispersionIndex parsed;
  CHECK(qnm::ParseDispersionIndex("chebyshev", &parsed));
  CHECK(parsed == qnm::DispersionIndex::kChebyshev);
  CHECK_FALSE(qnm::ParseDispersionIndex("manhattan", &parsed));
}
