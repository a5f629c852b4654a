#include "models/forward_validation.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <boost/math/tools/minima.hpp>

#include "record/run_stats.h"

namespace qnm {

bool ForwardValidationOptions::IsValid(std::string* error) const {
  if (first_origin < 1 || max_origins < 1) {
    *error = "forward validation needs first_origin >= 1 and max_origins >= 1";
    return false;
  }
  return true;
}

bool ExtrapolationErrorOptions::IsValid(std::string* error) const {
  if (!(prior_log_sd_per_octave > 0) || !(prior_weight >= 0)) {
    *error = "extrapolation error prior must be > 0 with a weight >= 0";
    return false;
  }
  return true;
}

const char* IntervalNoiseName(ExtrapolationErrorOptions::Noise noise) {
  switch (noise) {
    case ExtrapolationErrorOptions::Noise::kInSample:
      return "in-sample";
    case ExtrapolationErrorOptions::Noise::kFitted:
      return "fitted";
    case ExtrapolationErrorOptions::Noise::kNone:
      break;
  }
  return "none";
}

bool ParseIntervalNoise(const std::string& text, ExtrapolationErrorOptions::Noise* noise) {
  for (auto candidate : {ExtrapolationErrorOptions::Noise::kNone, ExtrapolationErrorOptions::Noise::kInSample,
                         ExtrapolationErrorOptions::Noise::kFitted})
    if (text == IntervalNoiseName(candidate)) {
      *noise = candidate;
      return true;
    }
  return false;
}

std::vector<int> ForwardOrigins(const std::vector<double>& procs, const ForwardValidationOptions& options) {
  std::vector<int> eligible, counts;
  int n = static_cast<int>(procs.size());
  if (n < 2) return counts;
  double middle = std::sqrt(procs.front() * procs.back());
  for (int count = std::max(1, options.first_origin); count < n; ++count)
    if (procs[count - 1] >= middle * (1 - 1e-12)) eligible.push_back(count);
  // At least two origins when the series has them (one origin is one opinion).
  int first = std::max(1, options.first_origin);
  while (eligible.size() < 2 && (eligible.empty() ? n - 1 : eligible.front() - 1) >= first)
    eligible.insert(eligible.begin(), eligible.empty() ? n - 1 : eligible.front() - 1);
  int m = static_cast<int>(eligible.size());
  if (m <= options.max_origins) {
    counts = eligible;
  } else {
    for (int j = options.max_origins - 1; j >= 0; --j)
      counts.push_back(eligible[m - 1 - (j * (m - 1)) / std::max(1, options.max_origins - 1)]);
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  }
  return counts;
}

std::vector<ForwardError> RollingOriginErrorsAt(const std::vector<double>& procs, const std::vector<double>& values,
                                                const ForwardValidationOptions& options,
                                                const std::function<IndexPredictor(int count)>& fit_prefix,
                                                std::size_t expected_errors) {
  std::vector<ForwardError> errors;
  errors.reserve(expected_errors);
  int n = static_cast<int>(procs.size());
  for (int count : ForwardOrigins(procs, options)) {
    IndexPredictor predict = fit_prefix(count);
    if (!predict) continue;
    double origin = procs[count - 1];
    for (int k = count; k < n; ++k) {
      double predicted = predict(k);
      ForwardError e;
      e.distance_log2 = std::log2(procs[k] / origin);
      e.log_error = predicted > 0 && std::isfinite(predicted) && values[k] > 0
                        ? std::log(predicted / values[k])
                        : kFailedLogError;
      errors.push_back(e);
    }
  }
  return errors;
}

std::vector<ForwardError> RollingOriginErrors(const std::vector<double>& procs,
                                              const std::vector<double>& values,
                                              const ForwardValidationOptions& options,
                                              const std::function<Predictor(int count)>& fit_prefix) {
  return RollingOriginErrorsAt(procs, values, options, [&](int count) -> IndexPredictor {
    Predictor predict = fit_prefix(count);
    if (!predict) return {};
    return [predict = std::move(predict), &procs](int k) { return predict(procs[k]); };
  });
}

double RmsLogError(const std::vector<ForwardError>& errors) {
  if (errors.empty()) return kUnknown;
  double sum = 0;
  for (const ForwardError& e : errors) sum += e.log_error * e.log_error;
  return std::sqrt(sum / static_cast<double>(errors.size()));
}

double ExtrapolationError::LogSd(double distance_log2) const {
  double spread = per_octave_log_sd * std::max(0.0, distance_log2);
  return std::sqrt(base_log_sd * base_log_sd + spread * spread);
}

namespace {

/// Minus the log likelihood (up to a constant) of the binned forward errors under
/// error ~ N(0, noise^2 + rate^2 d^2), the errors counting `count` in all, plus the prior:
/// `prior_weight` errors of `prior_rate` at one octave without noise (the conjugate form whose
/// maximum, with no noise, is the shrunk mean of squares of the kNone estimate).
double NegativeLogLikelihood(const ForwardErrorSums& sums, double count, double noise_variance, double rate_squared,
                             const ExtrapolationErrorOptions& options) {
  const double scale = count / sums.weights;
  double sum = 0;
  for (const ForwardErrorSums::DistanceBin& bin : sums.bins) {
    if (!(bin.weights > 0)) continue;
    const double variance = noise_variance + rate_squared * bin.weighted_distance_squares / bin.weights;
    sum += scale * 0.5 * (bin.weights * std::log(variance) + bin.weighted_squares / variance);
  }
  const double prior = options.prior_log_sd_per_octave * options.prior_log_sd_per_octave;
  return sum + options.prior_weight * 0.5 * (std::log(rate_squared) + prior / rate_squared);
}

/// The rate^2 of the largest likelihood at a given noise variance (Brent on log rate^2,
/// boost::math::tools::brent_find_minima), and that minimum.
std::pair<double, double> BestRateSquared(const ForwardErrorSums& sums, double count, double noise_variance,
                                          const ExtrapolationErrorOptions& options) {
  auto f = [&](double log_rate_squared) {
    return NegativeLogLikelihood(sums, count, noise_variance, std::exp(log_rate_squared), options);
  };
  // log sd per octave between 1e-3 and 30: a factor e^30 per octave is beyond any series.
  std::pair<double, double> best = boost::math::tools::brent_find_minima(f, std::log(1e-6), std::log(900.0), 30);
  return {std::exp(best.first), best.second};
}

}  // namespace

void FitNoiseAndRate(const ForwardErrorSums& sums, double count, const ExtrapolationErrorOptions& options,
                     ExtrapolationError* out) {
  if (!(sums.weights > 0) || !(count > 0)) return;
  const double floor_variance = out->base_log_sd * out->base_log_sd;
  double noise_variance = floor_variance;
  double rate_squared = BestRateSquared(sums, count, noise_variance, options).first;
  if (options.noise == ExtrapolationErrorOptions::Noise::kFitted) {
    // The noise between the floor and the largest mean square of a bin (more would be noise
    // beyond every error seen), by Brent on its log, the rate at its best for each.
    double largest = floor_variance;
    for (const ForwardErrorSums::DistanceBin& bin : sums.bins)
      if (bin.weights > 0) largest = std::max(largest, bin.weighted_squares / bin.weights);
    if (largest > floor_variance * (1 + 1e-9)) {
      auto f = [&](double log_noise_variance) {
        return BestRateSquared(sums, count, std::exp(log_noise_variance), options).second;
      };
      std::pair<double, double> best =
          boost::math::tools::brent_find_minima(f, std::log(floor_variance), std::log(largest), 30);
      noise_variance = std::exp(best.first);
      rate_squared = BestRateSquared(sums, count, noise_variance, options).first;
    }
  }
  out->base_log_sd = std::sqrt(noise_variance);
  out->per_octave_log_sd = std::sqrt(rate_squared);
}

ExtrapolationError CalibrateExtrapolationError(const std::vector<ForwardError>& errors,
                                               const std::vector<double>& weights,
                                               int independent_errors, double in_sample_log_rms,
                                               const ExtrapolationErrorOptions& options) {
  ForwardErrorSums sums;
  for (std::size_t k = 0; k < errors.size(); ++k) sums.Add(errors[k], k < weights.size() ? weights[k] : 1.0);
  return CalibrateExtrapolationError(sums, independent_errors, in_sample_log_rms, options);
}

ExtrapolationError CalibrateExtrapolationError(const ForwardErrorSums& sums, int independent_errors,
                                               double in_sample_log_rms, const ExtrapolationErrorOptions& options) {
  ExtrapolationError out;
  const double sum = sums.weighted_rate_squares, weight_sum = sums.weights;
  out.forward_errors = weight_sum > 0 ? independent_errors : 0;
  double count = static_cast<double>(out.forward_errors);
  double observed = weight_sum > 0 ? sum / weight_sum : 0.0;
  double prior = options.prior_log_sd_per_octave * options.prior_log_sd_per_octave;
  double total_weight = count + options.prior_weight;
  out.per_octave_log_sd =
      total_weight > 0 ? std::sqrt((observed * count + prior * options.prior_weight) / total_weight)
                       : options.prior_log_sd_per_octave;
  out.base_log_sd = std::max(0.02, Known(in_sample_log_rms) ? in_sample_log_rms : 0.02);
  if (options.noise != ExtrapolationErrorOptions::Noise::kNone && count > 0)
    FitNoiseAndRate(sums, count, options, &out);
  return out;
}

}  // namespace qnm
