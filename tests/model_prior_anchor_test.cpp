// The corpus prior over candidate curves and the training anchor (issue 17).
#include <catch2/catch.hpp>
#include <cmath>

#include "models/extrapolation_prior.h"
#include "models/prediction.h"
#include "models/runtime_model.h"
#include "models/training_anchor.h"
#include "tests/support/single_run_series.h"

namespace {

qnm::PriorSeries AmdahlSeries(const std::string& source, double serial_s, double parallel_s) {
  qnm::PriorSeries s;
  s.source = source;
  s.name = source + "-" + std::to_string(serial_s);
  for (int p : {1, 2, 4, 8, 16}) s.training.emplace_back(p, serial_s + parallel_s / p);
  for (int p : {64, 256}) s.held_out.emplace_back(p, serial_s + parallel_s / p);
  return s;
}

}  // namespace

TEST_CASE("a corpus of Amdahl-law series makes Amdahl's law the most probable candidate", "[model][prior]") {
  std::vector<qnm::PriorSeries> corpus;
  for (int k = 1; k <= 12; ++k) corpus.push_back(AmdahlSeries("a", 0.5 * k, 100.0 * k));
  qnm::ExtrapolationPrior prior;
  qnm::ExtrapolationPriorSummary summary;
  REQUIRE(qnm::FitExtrapolationPrior(corpus, qnm::RuntimeModelOptions(), qnm::ExtrapolationPriorOptions(), &prior,
                                     &summary));
  CHECK(summary.series == 12);
  CHECK(summary.held_out_points == 24);
  const double amdahl = prior.WeightOf("1 + P^-1");
  for (const auto& [name, weight] : prior.candidate_weights)
    if (name != "1 + P^-1") CHECK(weight < amdahl);
  // 12 wins + 1 pseudo-count out of 12 + one per candidate.
  const double candidates = static_cast<double>(qnm::DefaultRuntimeCandidates().size());
  CHECK(amdahl == Approx(13.0 / (12.0 + candidates)));
  // Exact data: errors are tiny, the interval rate sits at its floor.
  CHECK(prior.per_octave_log_sd == Approx(0.05));
  CHECK(summary.coverage == Approx(1.0));
  CHECK_FALSE(qnm::FitExtrapolationPrior({}, qnm::RuntimeModelOptions(), qnm::ExtrapolationPriorOptions(), &prior,
                                         &summary));
}

TEST_CASE("the training anchor passes through the measured points and carries the edge on", "[model][anchor]") {
  std::vector<std::pair<int, double>> measured = {{1, 100}, {2, 52}, {4, 30}};
  auto model = [](double p) { return 100.0 / p; };  // misses 2 and 4 by 4% and 20%
  qnm::TrainingAnchor anchor = qnm::TrainingAnchor::Build(measured, model);
  CHECK(anchor.Factor(1) * model(1) == Approx(100));
  CHECK(anchor.Factor(2) * model(2) == Approx(52));
  CHECK(anchor.Factor(4) * model(4) == Approx(30));
  CHECK(anchor.Factor(16) == Approx(1.2));                          // the edge's residual, carried on
  CHECK(anchor.Factor(0.5) == Approx(1.0));                         // the first point's below the range
  CHECK(anchor.Factor(std::sqrt(2.0)) == Approx(std::sqrt(1.04)));  // log-linear between points
  CHECK(anchor.LargestLogMiss() == Approx(std::log(1.2)));
  CHECK(qnm::TrainingAnchor().Factor(8) == 1.0);
}

TEST_CASE("a P beyond the NPB-MZ zones is refused as impossible, not predicted", "[model][work-units]") {
  const qnm::Series series = qnm::testing::SingleRunSeries("bt-mz.C", {1, 2, 4, 8}, [](int p) {
    qnm::RunStats run;
    run.app = "bt-mz";
    run.wall_time_s = 200.0 / p;
    run.work_units = 16;
    return run;
  });
  qnm::SeriesModel model;
  std::string error;
  REQUIRE(qnm::FitSeriesModel(series, {}, qnm::PredictionOptions(), &model, &error));
  CHECK(model.work_units == 16);
  CHECK(model.Predict(16).Ok());
  qnm::ProcsPrediction beyond = model.Predict(32);
  CHECK(beyond.termination == qnm::PredictionTermination::kBeyondWorkUnits);
  CHECK(beyond.message.find("16 units of work") != std::string::npos);
  CHECK_FALSE(qnm::Known(beyond.total.value_s));
}

TEST_CASE("a runtime-only series' input curve is the one the predictions use, through the measured points",
          "[model][anchor]") {
  // 2DECOMP&FFT's C2CX kernel on ARCHER2 (bench/data/heldout-Q, BSD-3): faster than linear from 256 to 2048
  // ranks, which no candidate family follows; the average of curves alone misses P = 128 by about 2x.
  const std::vector<std::pair<int, double>> times = {
      {128, 13.611843613925013}, {256, 6.878131332031252}, {512, 2.348133788033789},
      {1024, 0.8352001554783186}, {2048, 0.3353423363554201}};
  const qnm::Series series = qnm::testing::SingleRunSeries("decomp2d", {128, 256, 512, 1024, 2048}, [&](int p) {
    qnm::RunStats run;
    run.app = "decomp2d";
    for (const auto& [procs, time] : times)
      if (procs == p) run.wall_time_s = time;
    return run;
  });
  qnm::SeriesModel model;
  std::string error;
  REQUIRE(qnm::FitSeriesModel(series, {}, qnm::PredictionOptions(), &model, &error));
  REQUIRE(model.inputs.size() == 1);
  const qnm::InputCurve& curve = model.inputs.front();
  CHECK(model.anchor.LargestLogMiss() > std::log(1.5));  // the curves alone miss a point by more than 1.5x
  for (const auto& [procs, time] : times) {
    CHECK(curve.Evaluate(procs) == Approx(time).epsilon(1e-9));
    CHECK(model.Predict(procs).total.value_s == Approx(time).epsilon(1e-9));
  }
  CHECK(curve.Evaluate(8192) == Approx(model.Predict(8192).total.value_s).epsilon(1e-9));
  CHECK(curve.formula.find(", through the measured points") != std::string::npos);
  CHECK(curve.fit_note.empty());
}
