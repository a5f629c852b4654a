#include "models/forward_validation.h"

#include <algorithm>
#include <cmath>

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
  return out;
}

}  // namespace qnm
