// What a user is told about a runtime-only series beyond its data: a series trained inside one
// node (models/node_regime.h, InNodeTrainingNote) and the configuration chosen for it, in the
// model's notes and on the validation chart (pipeline/chart_adapter.h).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "models/forward_validation.h"
#include "models/node_regime.h"
#include "models/prediction.h"
#include "pipeline/chart_adapter.h"
#include "tests/support/model_notes.h"
#include "tests/support/single_run_series.h"

namespace {

using qnm::testing::HasNoteContaining;

// WAVETRISK Held-Suarez J8 nz30 on Niagara (bench/data/scaling/scaling_series.csv), its five smallest
// process counts: every one fits on a node of 40 cores; measured beyond: 3.04 s at P = 2560.
const std::vector<std::pair<int, double>> kWavetrisk = {
    {1, 2821.2}, {2, 2358.3}, {4, 1443.1}, {10, 658.01}, {20, 381.23}};

qnm::Series TableSeries(const std::vector<std::pair<int, double>>& points, int ranks_per_node, int nodes = 0) {
  std::vector<int> procs;
  for (const auto& point : points) procs.push_back(point.first);
  return qnm::testing::SingleRunSeries("wavetrisk-nz30-niagara", procs, [&](int p) {
    qnm::RunStats run;
    for (const auto& point : points)
      if (point.first == p) run.wall_time_s = point.second;
    run.ranks_per_node = ranks_per_node;
    run.nodes = nodes;
    return run;
  });
}

}  // namespace

TEST_CASE("a series trained inside one node is told what its runs cannot say beyond it", "[models][node]") {
  // Efficiency T(1) * 1 / (T(20) * 20) = 2821.2 / 7624.6 = 37%.
  const std::string note = qnm::InNodeTrainingNote(kWavetrisk, 40);
  CHECK(note.find("every training run fits on one node (40 ranks per node)") != std::string::npos);
  CHECK(note.find("parallel efficiency went to 37% from P=1 to P=20") != std::string::npos);
  CHECK(note.find("shared memory bandwidth") != std::string::npos);
  // Nothing to say: the layout unknown, a training run on two nodes, a single point.
  CHECK(qnm::InNodeTrainingNote(kWavetrisk, 0).empty());
  CHECK(qnm::InNodeTrainingNote(kWavetrisk, 16).empty());
  CHECK(qnm::InNodeTrainingNote({{4, 10.0}}, 40).empty());
  // The first positive point is the reference: P = 2 of 4 s to P = 8 of 2 s is 50%.
  CHECK(qnm::InNodeTrainingNote({{1, 0.0}, {2, 4.0}, {8, 2.0}}, 8).find("50% from P=2 to P=8") !=
        std::string::npos);

  // In the fitted model: with the layout, the note and the per-point flag; without, neither.
  std::string error;
  qnm::SeriesModel with_layout, without;
  REQUIRE(qnm::FitSeriesModel(TableSeries(kWavetrisk, 40), {}, qnm::PredictionOptions(), &with_layout, &error));
  REQUIRE(qnm::FitSeriesModel(TableSeries(kWavetrisk, 0), {}, qnm::PredictionOptions(), &without, &error));
  CHECK(HasNoteContaining(with_layout, "every training run fits on one node"));
  CHECK_FALSE(HasNoteContaining(without, "every training run fits on one node"));
  const qnm::ProcsPrediction inside = with_layout.Predict(40), beyond = with_layout.Predict(80);
  CHECK(inside.flags.empty());
  REQUIRE(beyond.flags.size() == 1);
  CHECK(beyond.flags[0].find("leaves the node (40 ranks per node)") == 0);
  CHECK(without.Predict(80).flags.empty());
}

TEST_CASE("a series whose runs say one node but not its size: every prediction beyond may leave it",
          "[models][node]") {
  const std::string note = qnm::OneNodeOfUnknownSizeNote(kWavetrisk);
  CHECK(note.find("every training run ran on one node, and the data do not say how many ranks") == 0);
  CHECK(note.find("beyond P=20 may be of a multi-node run") != std::string::npos);
  CHECK(note.find("parallel efficiency went to 37% from P=1 to P=20") != std::string::npos);
  CHECK(note.find("--ranks-per-node") != std::string::npos);
  CHECK(qnm::OneNodeOfUnknownSizeNote({}).empty());
  CHECK(qnm::OneNodeOfUnknownSizeNote({{4, 10.0}}).find("where the parallel efficiency") == std::string::npos);

  // A table's nodes column of 1 on every training run, no ranks per node (Quantum ESPRESSO's
  // runs on one node of a cluster whose size the table leaves out are of this kind).
  std::string error;
  qnm::SeriesModel one_node, unknown, several;
  REQUIRE(qnm::FitSeriesModel(TableSeries(kWavetrisk, 0, 1), {}, qnm::PredictionOptions(), &one_node, &error));
  REQUIRE(qnm::FitSeriesModel(TableSeries(kWavetrisk, 0, 0), {}, qnm::PredictionOptions(), &unknown, &error));
  REQUIRE(qnm::FitSeriesModel(TableSeries(kWavetrisk, 0, 2), {}, qnm::PredictionOptions(), &several, &error));
  CHECK(one_node.trained_on_one_node_of_unknown_size);
  CHECK(HasNoteContaining(one_node, "every training run ran on one node"));
  CHECK(one_node.Predict(20).flags.empty());  // a training point
  const qnm::ProcsPrediction beyond = one_node.Predict(21);
  REQUIRE(beyond.flags.size() == 1);
  CHECK(beyond.flags[0].find("may leave the node") == 0);
  // The numbers are those of the same series without the column: only the flag and the note differ.
  CHECK(beyond.total.value_s == unknown.Predict(21).total.value_s);
  CHECK(beyond.total.upper_s == unknown.Predict(21).total.upper_s);
  for (const qnm::SeriesModel* m : {&unknown, &several}) {
    CHECK_FALSE(m->trained_on_one_node_of_unknown_size);
    CHECK_FALSE(HasNoteContaining(*m, "every training run ran on one node"));
    CHECK(m->Predict(80).flags.empty());
  }
  // With the layout known, the exact boundary is flagged instead (the test above).
  qnm::SeriesModel known;
  REQUIRE(qnm::FitSeriesModel(TableSeries(kWavetrisk, 40, 1), {}, qnm::PredictionOptions(), &known, &error));
  CHECK_FALSE(known.trained_on_one_node_of_unknown_size);
  CHECK(known.Predict(30).flags.empty());
}

TEST_CASE("the validation chart names the configuration: chosen for the series and why, or the default",
          "[pipeline][charts]") {
  std::string error;
  qnm::SeriesModel chosen, pinned;
  qnm::PredictionOptions per_series;
  per_series.configuration = qnm::kPerSeriesConfiguration;
  REQUIRE(qnm::FitSeriesModel(TableSeries(kWavetrisk, 40), {}, per_series, &chosen, &error));
  REQUIRE(chosen.summary.configuration.made);
  const std::vector<qnm::ProcsPrediction> predictions = {chosen.Predict(40), chosen.Predict(2560)};
  const qnm::plots::ChartSet charts = qnm::BuildChartSet(chosen, chosen.training, predictions, {});
  const std::vector<std::string>& lines = charts.context.caveat;
  REQUIRE(lines.size() >= 3);
  CHECK(lines[0] == "Runtime model: " + chosen.summary.configuration.chosen + ",");
  CHECK(lines[1] == "chosen per series: its forecast of P = 20 from the");
  CHECK(lines[2].find("runs before it erred least (") == 0);
  if (chosen.summary.configuration.chosen_index != qnm::kDefaultRuntimeConfiguration) {
    REQUIRE(lines.size() == 4);
    CHECK(lines[3].find("nodes + split, the fallback: ") == 0);
  }
  CHECK(charts.predicted.back().flagged);  // P = 2560 leaves the node

  // A configuration given by the user is not a choice: nothing to explain on the chart.
  qnm::PredictionOptions given;
  given.configurations = {qnm::StandardRuntimeConfigurations(given.runtime)[2]};
  REQUIRE(qnm::FitSeriesModel(TableSeries(kWavetrisk, 40), {}, given, &pinned, &error));
  CHECK_FALSE(pinned.summary.configuration.made);
  CHECK(qnm::BuildChartSet(pinned, pinned.training, {}, {}).context.caveat.empty());
  // The shipped default is named in one line.
  qnm::SeriesModel by_default;
  REQUIRE(qnm::FitSeriesModel(TableSeries(kWavetrisk, 40), {}, qnm::PredictionOptions(), &by_default, &error));
  const std::vector<std::string> caveat = qnm::BuildChartSet(by_default, by_default.training, {}, {}).context.caveat;
  REQUIRE(caveat.size() == 1);
  CHECK(caveat[0] == "Runtime model: nodes + split + cost 0.5 (the default).");
}

TEST_CASE("beyond a node no training run crossed, the interval reaches down to perfect scaling", "[models][node]") {
  // HPCG on FAU's Fritz (the Arm fork's 480^3 campaign, tests/data/hpcg/SOURCES.md), medians at the five
  // smallest rank counts, all on one node: 8 and 10 ranks run alike (memory bandwidth shared), and
  // across nodes the runs scale again (1.17 s at 1000 ranks on 42 nodes).
  const std::vector<std::pair<int, double>> hpcg = {{2, 222.8}, {4, 104.2}, {5, 112.3}, {8, 73.21}, {10, 73.12}};
  std::string error;
  qnm::SeriesModel one_node, unknown, layout;
  REQUIRE(qnm::FitSeriesModel(TableSeries(hpcg, 0, 1), {}, qnm::PredictionOptions(), &one_node, &error));
  REQUIRE(qnm::FitSeriesModel(TableSeries(hpcg, 0, 0), {}, qnm::PredictionOptions(), &unknown, &error));
  REQUIRE(qnm::FitSeriesModel(TableSeries(hpcg, 24, 1), {}, qnm::PredictionOptions(), &layout, &error));
  const qnm::ProcsPrediction beyond = one_node.Predict(1000), blind = unknown.Predict(1000);
  // The point is the fitted curve's, as without the layout; the lower end is 73.12 s x 10 / 1000.
  CHECK(beyond.total.value_s == blind.total.value_s);
  CHECK(beyond.total.upper_s == blind.total.upper_s);
  CHECK(blind.total.lower_s > 1.174);  // without what the runs say of their node, 1.17 s is outside
  CHECK(beyond.total.lower_s == Approx(73.12 * 10 / 1000).epsilon(1e-12));
  REQUIRE(beyond.flags.size() == 2);
  CHECK(beyond.flags[0].find("may leave the node") == 0);
  CHECK(beyond.flags[0].find("; the interval reaches down to perfect scaling from P=10") != std::string::npos);
  // So wide an interval (0.73 s up to the fitted curve's upper end) is said to be uninformative.
  CHECK(beyond.total.upper_s / beyond.total.lower_s > 100);
  CHECK(beyond.flags[1].find("the interval spans ") == 0);
  CHECK(beyond.flags[1].find(" decades (upper / lower), too wide to inform") != std::string::npos);
  CHECK(beyond.flags[1].find("the training runs span P=2..10 (2.3 octaves)") != std::string::npos);
  // With the node's size: the same from the first P beyond it; inside it, nothing changes.
  const qnm::ProcsPrediction crossing = layout.Predict(1000);
  CHECK(crossing.total.lower_s == Approx(0.7312).epsilon(1e-12));
  CHECK(crossing.flags[0].find("leaves the node (24 ranks per node)") == 0);
  CHECK(layout.Predict(20).flags.empty());
  CHECK(layout.Predict(20).total.lower_s == unknown.Predict(20).total.lower_s);
  // Where the interval already reaches lower, it stays (and the flag says nothing of it).
  const qnm::ProcsPrediction near = one_node.Predict(11);
  CHECK(near.total.lower_s == unknown.Predict(11).total.lower_s);
  CHECK(near.flags[0].find("perfect scaling") == std::string::npos);
}

TEST_CASE("an interval too wide to inform is flagged in decades, however wide", "[models][interval]") {
  // Gray-Scott on Bebop, 35 ranks a node (ArtifactDescription/HPC_Autotuner's data/gp/gs.csv, bench/README.md
  // round 38): an autotuner's five smallest rank counts lie within a quarter of an octave.
  const std::vector<std::pair<int, double>> gray_scott = {{37, 135.21}, {39, 130.37}, {41, 137.94}, {43, 134.34},
                                                          {44, 95.98}};
  std::string error;
  qnm::SeriesModel model;
  qnm::PredictionOptions every_error_growth;  // rounds 1-38's reading of the forward errors: the interval explodes
  every_error_growth.runtime.error.noise = qnm::ExtrapolationErrorOptions::Noise::kNone;
  REQUIRE(qnm::FitSeriesModel(TableSeries(gray_scott, 0, 0), {}, every_error_growth, &model, &error));
  const qnm::ProcsPrediction inside = model.Predict(44);
  for (const std::string& flag : inside.flags) CHECK(flag.find("too wide to inform") == std::string::npos);
  for (int procs : {869, 4194304}) {
    INFO("P = " << procs);
    const qnm::ProcsPrediction p = model.Predict(procs);
    REQUIRE(p.total.lower_s > 0);
    const double decades = std::log10(p.total.upper_s) - std::log10(p.total.lower_s);
    CHECK(decades > 20);
    bool said = false;
    for (const std::string& flag : p.flags)
      said = said || (flag.find("the interval spans ") == 0 && flag.find(" decades (upper / lower)") != std::string::npos &&
                      flag.find("P=37..44 (0.25 octaves)") != std::string::npos && flag.find("spans inf") == std::string::npos);
    CHECK(said);
  }
}

TEST_CASE("a noise term keeps errors over a tenth of an octave from reading as growth", "[models][interval]") {
  // The same Gray-Scott runs (bench/README.md, round 39): forward errors of ~0.2 over 0.03-0.25
  // octaves read as 4.6 log sd per octave when every error is growth; under sd(d)^2 = noise^2 +
  // (rate d)^2 they are noise, and the rate stays near the prior's 0.25. The run at P = 869 took
  // 12.8 s (the same file).
  const std::vector<std::pair<int, double>> gray_scott = {{37, 135.21}, {39, 130.37}, {41, 137.94}, {43, 134.34},
                                                          {44, 95.98}};
  for (auto noise : {qnm::ExtrapolationErrorOptions::Noise::kInSample, qnm::ExtrapolationErrorOptions::Noise::kFitted}) {
    INFO("noise " << qnm::IntervalNoiseName(noise));
    qnm::PredictionOptions options;
    options.runtime.error.noise = noise;
    std::string error;
    qnm::SeriesModel model;
    REQUIRE(qnm::FitSeriesModel(TableSeries(gray_scott, 0, 0), {}, options, &model, &error));
    CHECK(model.error.per_octave_log_sd < 0.5);
    CHECK(model.error.base_log_sd >= 0.1);  // the training runs scatter by 30%
    const qnm::ProcsPrediction p = model.Predict(869);
    CHECK(p.total.lower_s < 12.8);
    CHECK(p.total.upper_s > 12.8);
    CHECK(std::log10(p.total.upper_s / p.total.lower_s) < 2);
    for (const std::string& flag : p.flags) CHECK(flag.find("too wide to inform") == std::string::npos);
  }
}

TEST_CASE("an interval too wide because of the fitted noise says so, not that runs further out would narrow it",
          "[models][interval]") {
  // CASTEP Al3x3 on CSD3 Cascade Lake, RoCE (scaling2, excalibur; 56 ranks per node): 451 s at
  // P = 1792, 6,471 s at 3136. The forward errors read as a noise of log sd ~2 around the model.
  const std::vector<std::pair<int, double>> castep = {{56, 550.405},  {112, 295.08},  {224, 273.61},  {448, 288.07},
                                                      {896, 357.47}, {1792, 451.225}, {3136, 6471.26}};
  std::string error;
  qnm::SeriesModel model;
  REQUIRE(qnm::FitSeriesModel(TableSeries(castep, 56), {}, qnm::PredictionOptions(), &model, &error));
  REQUIRE(model.error.base_log_sd > model.error.per_octave_log_sd);
  const qnm::ProcsPrediction p = model.Predict(4096);
  bool noise_said = false, growth_said = false;
  for (const std::string& flag : p.flags) {
    noise_said = noise_said || (flag.find("too wide to inform: the training runs at P=56..3136") != std::string::npos &&
                                flag.find("scatter around the model by a log sd of") != std::string::npos &&
                                flag.find("they follow no one curve") != std::string::npos);
    growth_said = growth_said || flag.find("runs at larger P would narrow it") != std::string::npos;
  }
  CHECK(noise_said);
  CHECK_FALSE(growth_said);
}
