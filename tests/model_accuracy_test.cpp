// The extrapolating models: forward validation, the runtime-only average with
// growing terms, calibrated intervals, the LogGP service time of the queueing
// model, the plausible envelope, and the cases the issue named (a series with
// one process count; the NPB-MZ runs without P = 16 predicted far out).
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "models/forward_validation.h"
#include "models/prediction.h"
#include "models/queueing_model.h"
#include "models/runtime_model.h"

namespace {

qnm::Series TableSeries(const std::vector<std::pair<int, double>>& times) {
  std::vector<qnm::RunStats> runs;
  for (const auto& [p, t] : times) {
    qnm::RunStats run;
    run.series = "synthetic";
    run.procs = p;
    run.wall_time_s = t;
    runs.push_back(run);
  }
  return qnm::GroupIntoSeries(runs).front();
}

}  // namespace

TEST_CASE("rolling-origin forward validation fits on prefixes and predicts later points",
          "[model][accuracy]") {
  std::vector<double> procs = {1, 2, 4, 8, 16}, values = {16, 8, 4, 2, 1};
  std::vector<int> counts;
  std::vector<qnm::ForwardError> errors = qnm::RollingOriginErrors(
      procs, values, qnm::ForwardValidationOptions(), [&](int count) -> qnm::Predictor {
        counts.push_back(count);
        return [](double p) { return 16.0 / p; };  // the exact law
      });
  // Origins in the upper half of log2 P (fits ending at P = 4 and P = 8).
  CHECK(counts == std::vector<int>{3, 4});
  REQUIRE(errors.size() == 3);  // 8 and 16 from P <= 4, 16 from P <= 8
  CHECK(errors[0].distance_log2 == Approx(1.0));
  CHECK(errors[1].distance_log2 == Approx(2.0));
  for (const qnm::ForwardError& e : errors) CHECK(e.log_error == Approx(0.0).margin(1e-12));
  // A failed prediction is charged, not skipped.
  errors = qnm::RollingOriginErrors(procs, values, qnm::ForwardValidationOptions(),
                                    [](int) -> qnm::Predictor { return [](double) { return -1.0; }; });
  CHECK(errors.front().log_error == qnm::kFailedLogError);
}

TEST_CASE("interval width per octave shrinks from the prior towards the forward errors",
          "[model][accuracy]") {
  qnm::ExtrapolationErrorOptions options;
  options.prior_log_sd_per_octave = 0.3;  // the formula, not the default, is under test
  options.noise = qnm::ExtrapolationErrorOptions::Noise::kNone;  // every error read as growth (rounds 1-38)
  qnm::ExtrapolationError none = qnm::CalibrateExtrapolationError({}, {}, 0, 0.01, options);
  CHECK(none.per_octave_log_sd == Approx(options.prior_log_sd_per_octave));
  CHECK(none.LogSd(0) == Approx(0.02));  // floor of the in-sample error
  // Six errors of 0.1 per octave, the prior (0.3) worth two: sqrt((6*0.01 + 2*0.09) / 8).
  std::vector<qnm::ForwardError> errors(6, qnm::ForwardError{2.0, 0.2});
  qnm::ExtrapolationError some = qnm::CalibrateExtrapolationError(errors, {}, 6, 0.05, options);
  CHECK(some.per_octave_log_sd == Approx(std::sqrt(0.24 / 8)));
  CHECK(some.LogSd(3) == Approx(std::sqrt(0.05 * 0.05 + 9 * 0.24 / 8)));
}

TEST_CASE("the interval's rate by maximum likelihood under a noise term", "[model][accuracy]") {
  qnm::ExtrapolationErrorOptions options;
  options.prior_log_sd_per_octave = 0.3;
  // Errors that grow with distance, 0.2 per octave, no noise: every reading agrees with the
  // shrunk mean of squares, sqrt((6 * 0.04 + 2 * 0.09) / 8) (the noise floor, 0.02, barely moves it).
  std::vector<qnm::ForwardError> growth;
  for (double d : {1.0, 2.0, 3.0})
    for (double sign : {-1.0, 1.0}) growth.push_back({d, sign * 0.2 * d});
  const double shrunk = std::sqrt((6 * 0.04 + 2 * 0.09) / 8);
  for (auto noise : {qnm::ExtrapolationErrorOptions::Noise::kNone, qnm::ExtrapolationErrorOptions::Noise::kInSample,
                     qnm::ExtrapolationErrorOptions::Noise::kFitted}) {
    INFO(qnm::IntervalNoiseName(noise));
    options.noise = noise;
    qnm::ExtrapolationError e = qnm::CalibrateExtrapolationError(growth, {}, 6, 0.0, options);
    CHECK(e.per_octave_log_sd == Approx(shrunk).epsilon(0.02));
    CHECK(e.base_log_sd == Approx(0.02).epsilon(0.05));
  }
  // Errors of 0.2 at a tenth of an octave whatever the distance (noise, not growth), the fit's
  // in-sample error 0.15: every error as growth reads sqrt((8 * 4 + 2 * 0.09) / 10) = 1.79 per
  // octave; with the noise term the rate falls towards the prior, and fitting the noise (at most
  // the errors' own 0.2) explains them all.
  std::vector<qnm::ForwardError> noisy;
  for (double d : {0.05, 0.1, 0.15, 0.2})
    for (double sign : {-1.0, 1.0}) noisy.push_back({d, sign * 0.2});
  options.noise = qnm::ExtrapolationErrorOptions::Noise::kNone;
  CHECK(qnm::CalibrateExtrapolationError(noisy, {}, 8, 0.15, options).per_octave_log_sd > 1.5);
  options.noise = qnm::ExtrapolationErrorOptions::Noise::kInSample;
  qnm::ExtrapolationError in_sample = qnm::CalibrateExtrapolationError(noisy, {}, 8, 0.15, options);
  CHECK(in_sample.base_log_sd == Approx(0.15));
  CHECK(in_sample.per_octave_log_sd < 1.0);
  options.noise = qnm::ExtrapolationErrorOptions::Noise::kFitted;
  qnm::ExtrapolationError fitted = qnm::CalibrateExtrapolationError(noisy, {}, 8, 0.15, options);
  CHECK(fitted.base_log_sd > 0.15);
  CHECK(fitted.base_log_sd <= 0.2 + 1e-9);
  CHECK(fitted.per_octave_log_sd < in_sample.per_octave_log_sd);
  CHECK(fitted.per_octave_log_sd < 0.35);
  // The command line's names of the modes, both ways.
  for (auto noise : {qnm::ExtrapolationErrorOptions::Noise::kNone, qnm::ExtrapolationErrorOptions::Noise::kInSample,
                     qnm::ExtrapolationErrorOptions::Noise::kFitted}) {
    auto parsed = qnm::ExtrapolationErrorOptions::Noise::kNone;
    REQUIRE(qnm::ParseIntervalNoise(qnm::IntervalNoiseName(noise), &parsed));
    CHECK(parsed == noise);
  }
  auto untouched = qnm::ExtrapolationErrorOptions::Noise::kFitted;
  CHECK_FALSE(qnm::ParseIntervalNoise("fit", &untouched));
  CHECK(untouched == qnm::ExtrapolationErrorOptions::Noise::kFitted);
}

TEST_CASE("runtime-only model follows a series that reaches a minimum and rises",
          "[model][accuracy]") {
  // T = 1 + 64/P + 0.02 P: minimum near P = 57; trained to P = 128, predicted at 512.
  auto law = [](double p) { return 1.0 + 64.0 / p + 0.02 * p; };
  std::vector<std::pair<int, double>> times;
  for (int p = 1; p <= 128; p *= 2) times.emplace_back(p, law(p));
  qnm::RuntimeModel model;
  std::string error;
  REQUIRE(qnm::FitRuntimeModel(times, qnm::RuntimeModelOptions(), &model, &error));
  CHECK(model.Evaluate(512) == Approx(law(512)).epsilon(0.05));
  CHECK(model.members.front().forward_log_rms < 0.01);
  // Amdahl alone could only have predicted a time below the last one.
  CHECK(model.Evaluate(512) > law(128));
}

TEST_CASE("runtime-only model with three points uses Amdahl's law alone", "[model][accuracy]") {
  qnm::RuntimeModel model;
  std::string error;
  REQUIRE(qnm::FitRuntimeModel({{2, 51}, {4, 26}, {8, 13.5}}, qnm::RuntimeModelOptions(), &model, &error));
  REQUIRE(model.members.size() == 1);
  CHECK(model.members.front().name == "1 + P^-1");
  CHECK(model.Evaluate(16) == Approx(1 + 100.0 / 16).epsilon(1e-6));
}

TEST_CASE("Extra-P's cost laws averaged beside the candidates with a fixed share", "[model][accuracy]") {
  // Cost T * P = 100 + 2 P^0.5 log2(P): Extra-P's hypothesis i = 1/2, j = 1, exactly.
  auto law = [](double p) { return 100.0 / p + 2.0 * std::pow(p, -0.5) * std::log2(p); };
  std::vector<std::pair<int, double>> times;
  for (int p = 1; p <= 64; p *= 2) times.emplace_back(p, law(p));
  std::string error;
  qnm::RuntimeModel plain, half, only;
  REQUIRE(qnm::FitRuntimeModel(times, qnm::RuntimeModelOptions(), &plain, &error));
  for (const qnm::RuntimeCurve& m : plain.members) CHECK(m.name.rfind("cost law", 0) == std::string::npos);

  qnm::RuntimeModelOptions options;
  options.cost_law_share = 1.0;
  REQUIRE(qnm::FitRuntimeModel(times, options, &only, &error));
  REQUIRE_FALSE(only.members.empty());
  CHECK(only.members.front().name == "cost law: P^-1 + P^-0.5*log2(P)");
  double total = 0;
  for (const qnm::RuntimeCurve& m : only.members) {
    CHECK(m.name.rfind("cost law: ", 0) == 0);
    total += m.weight;
  }
  CHECK(total == Approx(1.0));
  // The exact law is found (no forward error: first, fitted exactly); the family's average is
  // pulled off it only by the near-equal laws beside it.
  CHECK(only.members.front().forward_log_rms < 1e-9);
  CHECK(only.members.front().model.Evaluate(4096) == Approx(law(4096)).epsilon(1e-9));
  CHECK(only.Evaluate(4096) == Approx(law(4096)).epsilon(0.15));

  // Half and half: each family keeps its own weights, scaled by its share; the average is
  // their weighted geometric mean.
  options.cost_law_share = 0.5;
  REQUIRE(qnm::FitRuntimeModel(times, options, &half, &error));
  double cost_weight = 0;
  for (const qnm::RuntimeCurve& m : half.members)
    if (m.name.rfind("cost law: ", 0) == 0) cost_weight += m.weight;
  CHECK(cost_weight == Approx(0.5).margin(1e-5));  // members under 1e-6 are dropped
  CHECK(half.Evaluate(4096) == Approx(std::sqrt(plain.Evaluate(4096) * only.Evaluate(4096))).epsilon(1e-4));

  // Adaptive: the share is a prior; the family whose members forward-validate better takes more.
  options.cost_law_adaptive = true;
  qnm::RuntimeModel adaptive;
  REQUIRE(qnm::FitRuntimeModel(times, options, &adaptive, &error));
  double adaptive_cost = 0;
  for (const qnm::RuntimeCurve& m : adaptive.members)
    if (m.name.rfind("cost law: ", 0) == 0) adaptive_cost += m.weight;
  CHECK(adaptive_cost > 0.5);
  CHECK(adaptive_cost < 1.0);
  options.cost_law_adaptive = false;

  options.cost_law_share = 1.5;
  CHECK_FALSE(qnm::FitRuntimeModel(times, options, &half, &error));
  CHECK(error.find("cost_law_share") != std::string::npos);
}

TEST_CASE("LogGP service time per message is one fit over every training run", "[model][accuracy]") {
  // A = m * (20 us + 1 ns/B * L); compute 100/P; P = 1 has no network messages.
  std::vector<qnm::QueueingObservation> observations;
  for (int p : {1, 2, 4, 8}) {
    qnm::QueueingObservation o;
    o.procs = p;
    o.compute_s = 100.0 / p;
    o.messages_per_rank = p == 1 ? 3 : 100 * std::log2(2 * p);
    o.bytes_per_message = p == 1 ? 8 : 1e6 / p;
    o.mpi_active_s = p == 1 ? 1e-6 : o.messages_per_rank * (2e-5 + 1e-9 * o.bytes_per_message);
    observations.push_back(o);
  }
  qnm::QueueingModel model;
  std::string error;
  REQUIRE(qnm::FitQueueingModel(observations, qnm::RuntimeModelOptions(), &model, &error));
  CHECK(model.service.runs == 3);  // P = 2, 4, 8
  CHECK(model.service.overhead_s == Approx(2e-5).epsilon(1e-6));
  CHECK(model.service.gap_s_per_byte == Approx(1e-9).epsilon(1e-6));
  // The service time follows the message size, not P: at P = 64 it is 20 us + 15.6 us.
  qnm::MachineProfile none;
  none.latency_s = 0;
  none.bandwidth_bytes_per_s = 1e300;
  qnm::QueueingParts parts = qnm::EvaluateParts(model, none, 64);
  CHECK(parts.bytes_per_message == Approx(1e6 / 64).epsilon(0.02));
  CHECK(parts.service_s_per_message == Approx(2e-5 + 1e-9 * 1e6 / 64).epsilon(0.02));
  // P = 1 keeps what was measured.
  CHECK(qnm::EvaluateParts(model, none, 1).mpi_active_s == Approx(1e-6));
}

TEST_CASE("a series with one process count says it cannot be extrapolated", "[model][accuracy]") {
  qnm::SeriesModel model;
  std::string error;
  REQUIRE(qnm::FitSeriesModel(TableSeries({{8, 12.5}}), {}, qnm::PredictionOptions(), &model, &error));
  CHECK_FALSE(model.summary.extrapolatable);
  qnm::ProcsPrediction same = model.Predict(8);
  REQUIRE(same.Ok());
  CHECK(same.total.value_s == Approx(12.5));
  qnm::ProcsPrediction other = model.Predict(64);
  CHECK(other.termination == qnm::PredictionTermination::kCannotExtrapolate);
  CHECK_FALSE(qnm::Known(other.total.value_s));
  CHECK_FALSE(qnm::Known(other.total.upper_s));
  CHECK(other.message.find("P=8") != std::string::npos);
}

TEST_CASE("a prediction faster than perfect speedup is flagged and its interval widened",
          "[model][accuracy]") {
  // Superlinear training (cache effects), T = 100 P^-1.5, with that single candidate curve.
  qnm::PredictionOptions options;
  options.runtime.candidates = {{qnm::ScalingTerm{-1.5, 0}}};
  std::vector<std::pair<int, double>> times;
  for (int p : {1, 2, 4, 8}) times.emplace_back(p, 100 * std::pow(p, -1.5));
  qnm::SeriesModel model;
  std::string error;
  REQUIRE(qnm::FitSeriesModel(TableSeries(times), {}, options, &model, &error));
  qnm::ProcsPrediction p = model.Predict(64);
  REQUIRE(p.Ok());
  double perfect = times.back().second * 8 / 64;
  REQUIRE(p.total.value_s < perfect);
  REQUIRE(p.flags.size() == 1);
  CHECK(p.flags.front().find("perfect speedup") != std::string::npos);
  CHECK(p.total.upper_s >= perfect);
  // Inside the training range nothing is flagged (the fit may dip below perfect speedup there).
  for (int procs : {1, 2, 4, 8}) CHECK(model.Predict(procs).flags.empty());
}

TEST_CASE("plausible envelope: perfect speedup below, the slowest run or its growth above",
          "[model][accuracy]") {
  qnm::PlausibleEnvelope e =
      qnm::BuildPlausibleEnvelope({{1, 40}, {2, 20}, {4, 12}, {8, 15}}, qnm::PlausibleEnvelopeOptions());
  CHECK(e.Lower(16) == Approx(12.0 * 4 / 16));
  // Growth 12 -> 15 from 4 to 8 (exponent log2 1.25) continued to 64: 15 * 1.25^3 = 29.3 < 40.
  CHECK(e.Upper(64) == Approx(2 * 40.0));
  CHECK(e.Upper(1024) == Approx(2 * 15 * std::pow(1.25, 7)));
}

TEST_CASE("NPB-MZ runs without P = 16 do not explode at P = 128 (the issue's 250x case)",
          "[model][accuracy][real]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs =
      qnm::IngestPaths({std::string(QNM_TEST_DATA_DIR) + "/mpip"}, qnm::IngestOptions(), &summary);
  for (qnm::RunStats& run : runs) run.Derive();
  int checked = 0;
  for (const qnm::Series& series : qnm::GroupIntoSeries(std::move(runs))) {
    if (series.name.find("-mz.C") == std::string::npos) continue;
    INFO(series.name);
    qnm::SeriesModel model;
    std::string error;
    REQUIRE(qnm::FitSeriesModel(series, {1, 2, 4, 8}, qnm::PredictionOptions(), &model, &error));
    REQUIRE(model.kind == qnm::ModelKind::kQueueing);
    double t8 = model.training.back().measured_time_s;
    qnm::ProcsPrediction p = model.Predict(128);
    if (model.work_units > 0 && model.work_units < 128) {  // LU-MZ class C: 4 x 4 zones
      CHECK(p.termination == qnm::PredictionTermination::kBeyondWorkUnits);
      ++checked;
      continue;
    }
    REQUIRE(p.Ok());
    // Between perfect speedup from P = 8 and the time at P = 8, and not flagged.
    CHECK(p.total.value_s > t8 * 8 / 128);
    CHECK(p.total.value_s < t8);
    CHECK(p.flags.empty());
    CHECK(p.total.upper_s < 3 * t8);
    ++checked;
  }
  CHECK(checked == 12);
}

TEST_CASE("the edge slope is the last step's log-log slope, and gates the saturating cost", "[model][accuracy]") {
  CHECK(qnm::EdgeSlope({1, 2, 4}, {8, 4, 2}) == Approx(-1.0));
  CHECK(qnm::EdgeSlope({8, 10}, {158.8, 128.3}) == Approx(std::log(128.3 / 158.8) / std::log(1.25)));
  CHECK(std::isnan(qnm::EdgeSlope({4}, {2})));
  CHECK(std::isnan(qnm::EdgeSlope({4, 4}, {2, 1})));
  // W/P - H/P^2 through P = 1..10 ends at a slope of about -0.9: offered under a gate of -0.8,
  // not under -0.95; never a NaN gate.
  std::vector<std::pair<int, double>> points;
  std::vector<double> procs, times;
  for (int p : {1, 2, 4, 8, 10}) {
    points.emplace_back(p, 7000.0 / p - 4000.0 / (double(p) * p));
    procs.push_back(p);
    times.push_back(points.back().second);
  }
  const double slope = qnm::EdgeSlope(procs, times);
  REQUIRE(slope > -0.95);
  REQUIRE(slope < -0.8);
  auto has_saturating = [&](double gate) {
    qnm::RuntimeModelOptions options;
    options.saturating_cost = true;
    options.saturating_cost_max_edge_slope = gate;
    qnm::RuntimeModel model;
    std::string error;
    REQUIRE(qnm::FitRuntimeModel(points, options, &model, &error));
    for (const qnm::RuntimeCurve& c : model.members)
      if (c.name == "P^-1 - P^-2") return true;
    return false;
  };
  CHECK(has_saturating(-0.8));
  CHECK_FALSE(has_saturating(-0.95));
  CHECK(has_saturating(std::numeric_limits<double>::infinity()));
  qnm::RuntimeModelOptions nan_gate;
  nan_gate.saturating_cost_max_edge_slope = std::nan("");
  std::string why;
  CHECK_FALSE(nan_gate.IsValid(&why));
  CHECK(why.find("saturating_cost_max_edge_slope") != std::string::npos);
}

TEST_CASE("a cost that rises towards a ceiling is fitted with a subtracted term and named so",
          "[model][accuracy]") {
  // W/P - H/P^2 exactly (W = 7000, H = 4000): the cost T*P rises from 3000 at P = 1 towards 7000.
  std::vector<std::pair<int, double>> points;
  for (int p : {1, 2, 4, 8, 10}) points.emplace_back(p, 7000.0 / p - 4000.0 / (double(p) * p));
  qnm::RuntimeModelOptions options;
  options.candidates = qnm::SaturatingCostCandidates();
  qnm::RuntimeModel model;
  std::string error;
  REQUIRE(qnm::FitRuntimeModel(points, options, &model, &error));
  REQUIRE(model.members.size() == 1);
  const qnm::ScalingModel& fitted = model.members.front().model;
  CHECK(model.members.front().name == "P^-1 - P^-2");
  CHECK(fitted.coefficients[0] == Approx(7000).epsilon(1e-9));
  CHECK(fitted.coefficients[1] == Approx(4000).epsilon(1e-9));
  CHECK(fitted.Evaluate(640) == Approx(7000.0 / 640 - 4000.0 / (640.0 * 640)).epsilon(1e-9));
  CHECK(fitted.Formula() == "7e+03*P^-1 - 4e+03*P^-2");
  // Without the option the default candidates cannot follow a rising, flattening cost, and with it
  // the default configuration keeps every other candidate (it only adds).
  qnm::RuntimeModelOptions plain, with;
  with.saturating_cost = true;
  qnm::RuntimeModel a, b;
  REQUIRE(qnm::FitRuntimeModel(points, plain, &a, &error));
  REQUIRE(qnm::FitRuntimeModel(points, with, &b, &error));
  CHECK(b.members.front().name == "P^-1 - P^-2");
  INFO("plain " << a.Evaluate(640) * 640 << ", with " << b.Evaluate(640) * 640);
  CHECK(std::abs(std::log(b.Evaluate(640) * 640 / 7000.0)) < 0.15);  // 7,776: the other candidates share a little
  CHECK(std::abs(std::log(a.Evaluate(640) * 640 / 7000.0)) > 0.5);  // 22,167: cost extrapolated as still rising
}
