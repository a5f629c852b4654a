#include "models/training_anchor.h"

#include <algorithm>
#include <cmath>

namespace qnm {

TrainingAnchor TrainingAnchor::Build(const std::vector<std::pair<int, double>>& measured,
                                     const std::function<double(double procs)>& model) {
  TrainingAnchor anchor;
  for (const auto& [procs, time_s] : measured) {
    double v = model(procs);
    if (procs >= 1 && time_s > 0 && v > 0 && std::isfinite(v) && std::isfinite(time_s))
      anchor.log_residuals.emplace_back(std::log(static_cast<double>(procs)), std::log(time_s / v));
  }
  return anchor;
}

double TrainingAnchor::Factor(double procs) const {
  if (log_residuals.empty() || !(procs > 0)) return 1.0;
  const double x = std::log(procs);
  if (x <= log_residuals.front().first) return std::exp(log_residuals.front().second);
  if (x >= log_residuals.back().first) return std::exp(log_residuals.back().second);
  auto upper = std::upper_bound(log_residuals.begin(), log_residuals.end(), std::make_pair(x, -HUGE_VAL));
  auto lower = upper - 1;
  double w = (x - lower->first) / (upper->first - lower->first);
  return std::exp(lower->second + w * (upper->second - lower->second));
}

double TrainingAnchor::LargestLogMiss() const {
  double largest = 0;
  for (const auto& [x, r] : log_residuals) largest = std::max(largest, std::fabs(r));
  return largest;
}

}  // namespace qnm
