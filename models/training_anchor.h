#pragma once
// A fitted model must go through its own training points within their noise:
// an average of curves that misses the last measured run by 5-20% carries
// that miss into every extrapolation (issue 17: one series 23% off at P = 1,
// in-sample). The anchor is the model's log residual at each training
// process count, log(measured / model); inside the training range it is
// interpolated linearly in log P, beyond it the residual of the nearest end
// is carried on, so an extrapolation continues the model's trend from the
// measured edge rather than from the curve's own value there (the "level
// correction" of forecasting: the forecast starts from the last observation,
// Hyndman & Athanasopoulos, Forecasting: Principles and Practice, 3rd ed., §5.2 naive
// and drift methods, applied to the model's residual).
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace qnm {

struct TrainingAnchor {
  std::vector<std::pair<double, double>> log_residuals;  // (log P, log(measured / model)), sorted by P

  /// Builds the anchor from measured (procs, time_s) pairs (sorted by procs) and the model;
  /// points where either is not positive are left out.
  static TrainingAnchor Build(const std::vector<std::pair<int, double>>& measured,
                              const std::function<double(double procs)>& model);
  /// exp(log residual) at `procs`: 1 when the anchor is empty.
  double Factor(double procs) const;
  /// The largest |log residual| over the training points (how far the model alone missed).
  double LargestLogMiss() const;
};

}  // namespace qnm
