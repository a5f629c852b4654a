// The configuration of the runtime-only model (models/runtime_configuration.h): the shipped
// default for every series, or chosen per series: every configuration forecasts the series' last
// training point from the points before it, and the series is fitted with the one that erred least.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "models/leave_one_out_budget.h"
#include "models/prediction.h"
#include "tests/support/single_run_series.h"

namespace {

qnm::Series TableSeries(const std::string& name, const std::vector<int>& procs, const std::vector<double>& times,
                        int ranks_per_node = 0) {
  return qnm::testing::SingleRunSeries(name, procs, [&](int p) {
    qnm::RunStats run;
    for (std::size_t k = 0; k < procs.size(); ++k)
      if (procs[k] == p) run.wall_time_s = times[k];
    run.ranks_per_node = ranks_per_node;
    return run;
  });
}

// WAVETRISK Held-Suarez J8 nz32, 640 domains, on Niagara (bench/data/scaling/scaling_series.csv):
// the five smallest process counts, as accuracy_bench trains it.
const qnm::Series kWavetrisk =
    TableSeries("wavetrisk-640dom-niagara", {1, 2, 4, 8, 10}, {1136.5, 615.6, 307.6, 158.8, 128.3});
// GROMACS 61k atoms on ARCHER2, one rank per node (bench/data/scaling2/series.csv): P = 2 is
// slower than P = 1, where the runs leave the node.
const qnm::Series kGromacs = TableSeries("hecbiosim-GROMACS-61k-rpn1", {1, 2, 3, 4, 5},
                                         {215.647, 453.692, 313.294, 264.135, 235.486}, 1);

qnm::PredictionOptions Alone(const qnm::RuntimeConfiguration& c) {
  qnm::PredictionOptions o;
  o.choose_configuration = false;
  o.runtime = c.runtime;
  o.split_at_node_boundary = c.split_at_node_boundary;
  return o;
}

double Total(const qnm::SeriesModel& m, int procs) { return m.Predict(procs).total.value_s; }

// The choice per series among the standard configurations (--configuration per-series).
qnm::PredictionOptions PerSeries() {
  qnm::PredictionOptions o;
  o.configuration = qnm::kPerSeriesConfiguration;
  return o;
}

}  // namespace

TEST_CASE("LeastBackcastError takes the least error, the earlier of ties, and falls back when nothing differs",
          "[models][configuration]") {
  CHECK(qnm::LeastBackcastError({0.3, 0.1, 0.2}, 7) == 1);
  CHECK(qnm::LeastBackcastError({0.3, 0.1, 0.1 + 1e-13, 0.2}, 7) == 1);  // within 1e-12: the earlier
  CHECK(qnm::LeastBackcastError({NAN, 0.4, NAN, 0.2}, 7) == 3);          // a failed forecast is skipped
  CHECK(qnm::LeastBackcastError({0.2, 0.2, 0.2}, 7) == 7);               // all alike: nothing to choose by
  CHECK(qnm::LeastBackcastError({NAN, NAN}, 7) == 7);
  CHECK(qnm::LeastBackcastError({}, 7) == 7);
}

TEST_CASE("the standard configurations are four of bench/accuracy's, the default first",
          "[models][configuration]") {
  const auto configurations = qnm::StandardRuntimeConfigurations(qnm::RuntimeModelOptions());
  REQUIRE(configurations.size() == 4);
  const qnm::RuntimeConfiguration& fallback = configurations[qnm::kDefaultRuntimeConfiguration];
  CHECK(fallback.name == "nodes + split");
  // The default is what PredictionOptions alone fits.
  const qnm::PredictionOptions defaults;
  CHECK(fallback.split_at_node_boundary == defaults.split_at_node_boundary);
  CHECK(fallback.runtime.node_terms == defaults.runtime.node_terms);
  CHECK(fallback.runtime.more_terms_gain == defaults.runtime.more_terms_gain);
  CHECK(fallback.runtime.cost_law_share == defaults.runtime.cost_law_share);
  CHECK(fallback.runtime.candidates.empty());
  CHECK(configurations[1].name == "Occam + nodes + split");
  CHECK(configurations[1].runtime.more_terms_gain == 0.8);
  CHECK(configurations[2].name == "Amdahl alone");
  CHECK(configurations[2].runtime.candidates.size() == 1);
  CHECK(configurations[3].name == "nodes + split + cost 0.5");
  CHECK(configurations[3].runtime.cost_law_share == 0.5);
  for (const auto& c : configurations) CHECK(c.runtime.weight_temperature == defaults.runtime.weight_temperature);
}

TEST_CASE("a series is fitted with the configuration whose forecast of its last training point erred least",
          "[models][configuration]") {
  for (const qnm::Series* series : {&kWavetrisk, &kGromacs}) {
    INFO(series->name);
    qnm::SeriesModel model;
    std::string error;
    REQUIRE(qnm::FitSeriesModel(*series, {}, PerSeries(), &model, &error));
    const qnm::RuntimeConfigurationChoice& choice = model.summary.configuration;
    REQUIRE(choice.made);
    const auto configurations = qnm::StandardRuntimeConfigurations(qnm::RuntimeModelOptions());
    REQUIRE(choice.names.size() == configurations.size());
    REQUIRE(choice.backcast_log_error.size() == configurations.size());
    CHECK(choice.forecast_procs == series->groups.back().procs);
    // Each error is the configuration's own forecast, fitted to the four points before the last.
    std::vector<int> before;
    for (std::size_t k = 0; k + 1 < series->groups.size(); ++k) before.push_back(series->groups[k].procs);
    const double measured = series->groups.back().median_time_s;
    int least = 0;
    for (std::size_t k = 0; k < configurations.size(); ++k) {
      INFO(configurations[k].name);
      CHECK(choice.names[k] == configurations[k].name);
      qnm::SeriesModel shorter;
      REQUIRE(qnm::FitSeriesModel(*series, before, Alone(configurations[k]), &shorter, &error));
      CHECK(choice.backcast_log_error[k] ==
            Approx(std::fabs(std::log(Total(shorter, choice.forecast_procs) / measured))).epsilon(1e-12));
      if (choice.backcast_log_error[k] < choice.backcast_log_error[least] - 1e-12) least = static_cast<int>(k);
    }
    CHECK(choice.chosen == configurations[least].name);
    // The model is the chosen configuration's fit on every training point, and says so.
    qnm::SeriesModel alone;
    REQUIRE(qnm::FitSeriesModel(*series, {}, Alone(configurations[least]), &alone, &error));
    for (int p : {64, 640, 2560}) CHECK(Total(model, p) == Approx(Total(alone, p)).epsilon(1e-12));
    bool said = false;
    for (const std::string& note : model.summary.notes)
      said = said || note.find("configuration chosen for this series: " + choice.chosen) != std::string::npos;
    CHECK(said);
  }
}

TEST_CASE("the saturating cost's configurations are fitted when named, and never chosen among per series",
          "[models][configuration]") {
  const std::vector<std::string> names = qnm::NamedRuntimeConfigurations();
  const auto standard = qnm::StandardRuntimeConfigurations(qnm::RuntimeModelOptions());
  REQUIRE(names.size() == standard.size() + 3);
  for (std::size_t k = 0; k < standard.size(); ++k) CHECK(names[k] == standard[k].name);
  for (const auto& c : standard) CHECK_FALSE(c.runtime.saturating_cost);
  qnm::RuntimeConfiguration alone, beside, shipped;
  REQUIRE(qnm::StandardRuntimeConfigurationNamed("nodes + split + saturating cost", {}, &alone));
  REQUIRE(qnm::StandardRuntimeConfigurationNamed("nodes + split + cost 0.5 + saturating cost", {}, &beside));
  REQUIRE(qnm::StandardRuntimeConfigurationNamed(qnm::kShippedRuntimeConfiguration, {}, &shipped));
  CHECK_FALSE(qnm::StandardRuntimeConfigurationNamed("saturating cost", {}, &shipped));
  CHECK(alone.runtime.saturating_cost);
  CHECK(alone.runtime.cost_law_share == 0.0);
  CHECK(beside.runtime.saturating_cost);
  CHECK(beside.runtime.cost_law_share == 0.5);
  CHECK(beside.split_at_node_boundary);
  // WAVETRISK 640 domains on Niagara: the cost T P rises over the training runs and then stays
  // (bench/README.md, round 19); measured at P = 640: 4.06 s. With the saturating cost among the
  // candidates the prediction there comes nearer than without it, alone and beside the cost laws.
  std::string error;
  qnm::SeriesModel m_alone, m_beside, m_shipped;
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {}, Alone(alone), &m_alone, &error));
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {}, Alone(beside), &m_beside, &error));
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {}, Alone(shipped), &m_shipped, &error));
  const double shipped_error = std::fabs(std::log(Total(m_shipped, 640) / 4.06));
  CHECK(std::fabs(std::log(Total(m_alone, 640) / 4.06)) < shipped_error);
  CHECK(std::fabs(std::log(Total(m_beside, 640) / 4.06)) < shipped_error);
  // The training runs are still met: each within 10% of its measured time.
  const std::vector<std::pair<int, double>> training = {{1, 1136.5}, {2, 615.6}, {4, 307.6}, {8, 158.8}, {10, 128.3}};
  for (const auto& [p, t] : training) {
    INFO("P = " << p);
    CHECK(std::fabs(std::log(Total(m_alone, p) / t)) < 0.1);
    CHECK(std::fabs(std::log(Total(m_beside, p) / t)) < 0.1);
  }
}

TEST_CASE("the saturating cost at the edge: beside the cost laws where the last training step scales, shipped elsewhere",
          "[models][configuration]") {
  qnm::RuntimeConfiguration edge, beside, shipped;
  REQUIRE(qnm::StandardRuntimeConfigurationNamed("nodes + split + cost 0.5 + saturating cost at the edge", {}, &edge));
  REQUIRE(qnm::StandardRuntimeConfigurationNamed("nodes + split + cost 0.5 + saturating cost", {}, &beside));
  REQUIRE(qnm::StandardRuntimeConfigurationNamed(qnm::kShippedRuntimeConfiguration, {}, &shipped));
  CHECK(edge.runtime.saturating_cost);
  CHECK(edge.runtime.saturating_cost_max_edge_slope == qnm::kScalingEdgeSlope);
  CHECK(std::isinf(beside.runtime.saturating_cost_max_edge_slope));
  CHECK(edge.runtime.cost_law_share == shipped.runtime.cost_law_share);
  std::string error;
  // WAVETRISK 640 domains: P = 8 -> 10 at a log-log slope of -0.96, near-perfect: the candidate is offered.
  qnm::SeriesModel a, b;
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {}, Alone(edge), &a, &error));
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {}, Alone(beside), &b, &error));
  CHECK(Total(a, 640) == Total(b, 640));
  // WAVETRISK J8 nz30 on Niagara (bench/data/scaling/scaling_series.csv): P = 10 -> 20 at -0.79, still
  // losing efficiency: the shipped configuration's prediction, which the saturating cost would change.
  const qnm::Series nz30 = TableSeries("wavetrisk-nz30-niagara", {1, 2, 4, 10, 20}, {2821.2, 2358.3, 1443.1, 658.01, 381.23});
  qnm::SeriesModel c, d, e;
  REQUIRE(qnm::FitSeriesModel(nz30, {}, Alone(edge), &c, &error));
  REQUIRE(qnm::FitSeriesModel(nz30, {}, Alone(shipped), &d, &error));
  REQUIRE(qnm::FitSeriesModel(nz30, {}, Alone(beside), &e, &error));
  CHECK(Total(c, 2560) == Total(d, 2560));
  CHECK(Total(e, 2560) != Approx(Total(d, 2560)).epsilon(1e-3));
}

TEST_CASE("the two real series choose differently, and the choice changes the prediction",
          "[models][configuration]") {
  // WAVETRISK scales nearly perfectly through its training runs, and what forecasts its P = 10 best
  // is not the default; measured at P = 640: 4.06 s (the default predicts several times that).
  qnm::SeriesModel chosen, fallback;
  std::string error;
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {}, PerSeries(), &chosen, &error));
  const auto configurations = qnm::StandardRuntimeConfigurations(qnm::RuntimeModelOptions());
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {}, Alone(configurations[qnm::kDefaultRuntimeConfiguration]), &fallback,
                              &error));
  CHECK(chosen.summary.configuration.chosen != "nodes + split");
  CHECK(std::fabs(std::log(Total(chosen, 640) / 4.06)) < std::fabs(std::log(Total(fallback, 640) / 4.06)));
  // GROMACS leaves the node at P = 2: a configuration that splits there forecasts P = 5 best.
  qnm::SeriesModel gromacs;
  REQUIRE(qnm::FitSeriesModel(kGromacs, {}, PerSeries(), &gromacs, &error));
  const std::string& name = gromacs.summary.configuration.chosen;
  CHECK(name.find("split") != std::string::npos);
}

TEST_CASE("chosen per series: with four training points or fewer, or when asked not to, nodes + split alone",
          "[models][configuration]") {
  const auto configurations = qnm::StandardRuntimeConfigurations(qnm::RuntimeModelOptions());
  std::string error;
  qnm::SeriesModel four, alone;
  // Forecast from three points every configuration but the cost laws' is Amdahl's law.
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {1, 2, 4, 8}, PerSeries(), &four, &error));
  CHECK_FALSE(four.summary.configuration.made);
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {1, 2, 4, 8}, Alone(configurations[qnm::kDefaultRuntimeConfiguration]),
                              &alone, &error));
  CHECK(Total(four, 640) == Approx(Total(alone, 640)).epsilon(1e-12));
  qnm::PredictionOptions off = PerSeries();
  off.choose_configuration = false;
  qnm::SeriesModel unchosen;
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {}, off, &unchosen, &error));
  CHECK_FALSE(unchosen.summary.configuration.made);
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {}, Alone(configurations[qnm::kDefaultRuntimeConfiguration]), &alone,
                              &error));
  CHECK(Total(unchosen, 640) == Approx(Total(alone, 640)).epsilon(1e-12));
  // A caller that names the candidate curves has chosen its model.
  qnm::PredictionOptions named;
  named.runtime.candidates = {{qnm::ScalingTerm{0, 0}, qnm::ScalingTerm{-1, 0}}};
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {}, named, &unchosen, &error));
  CHECK_FALSE(unchosen.summary.configuration.made);
  // A configuration with invalid options is refused before anything is fitted.
  qnm::PredictionOptions bad;
  bad.configurations = configurations;
  bad.configurations[1].runtime.weight_temperature = -1;
  CHECK_FALSE(qnm::FitSeriesModel(kWavetrisk, {}, bad, &unchosen, &error));
  CHECK(error.find("configuration Occam + nodes + split") != std::string::npos);
}

TEST_CASE("by default every runtime-only series is fitted with the shipped configuration, and says so",
          "[models][configuration]") {
  const auto configurations = qnm::StandardRuntimeConfigurations(qnm::RuntimeModelOptions());
  const qnm::RuntimeConfiguration* shipped = nullptr;
  for (const auto& c : configurations)
    if (c.name == qnm::kShippedRuntimeConfiguration) shipped = &c;
  REQUIRE(shipped != nullptr);
  CHECK(shipped->runtime.cost_law_share == 0.5);
  std::string error;
  // Five training points, four, and a series that leaves the node: the same configuration, no choice.
  for (const std::vector<int>& train : {std::vector<int>{}, std::vector<int>{1, 2, 4, 8}})
    for (const qnm::Series* series : {&kWavetrisk, &kGromacs}) {
      INFO(series->name << " on " << train.size() << " points");
      qnm::SeriesModel model, alone;
      REQUIRE(qnm::FitSeriesModel(*series, train, qnm::PredictionOptions(), &model, &error));
      const qnm::RuntimeConfigurationChoice& c = model.summary.configuration;
      CHECK_FALSE(c.made);
      CHECK(c.by_default);
      CHECK(c.chosen == qnm::kShippedRuntimeConfiguration);
      REQUIRE(qnm::FitSeriesModel(*series, train, Alone(*shipped), &alone, &error));
      for (int p : {64, 640}) CHECK(Total(model, p) == Approx(Total(alone, p)).epsilon(1e-12));
      bool said = false;
      for (const std::string& note : model.summary.notes)
        said = said || note.find("configuration nodes + split + cost 0.5 (the default;") == 0;
      CHECK(said);
    }
  // Named by the caller: that one, not "by default"; an unknown name is refused before fitting.
  qnm::PredictionOptions named;
  named.configuration = "Amdahl alone";
  qnm::SeriesModel amdahl;
  REQUIRE(qnm::FitSeriesModel(kWavetrisk, {}, named, &amdahl, &error));
  CHECK(amdahl.summary.configuration.chosen == "Amdahl alone");
  CHECK_FALSE(amdahl.summary.configuration.by_default);
  named.configuration = "Amdahl";
  CHECK_FALSE(qnm::FitSeriesModel(kWavetrisk, {}, named, &amdahl, &error));
  CHECK(error.find("no runtime configuration named 'Amdahl'") != std::string::npos);
  // The queueing model does not take a configuration; its input curves keep `runtime`.
  CHECK(qnm::PredictionOptions().runtime.cost_law_share == 0.0);
}

TEST_CASE("leave-one-out counts the fits of the choice in its budget", "[models][configuration][budget]") {
  CHECK(qnm::LeaveOneOutRefitUnits(99, false, 4) == 5 * 139);
  CHECK(qnm::LeaveOneOutRefitUnits(99, false, 1) == 139);
  CHECK(qnm::LeaveOneOutRefitUnits(4, false, 4) == 44);  // four points: nothing to choose
  CHECK(qnm::LeaveOneOutRefitUnits(99, true, 4) == 7 * 139);  // the queueing model does not choose
}
