#pragma once
// The interval score of a central (1 - alpha) interval in log space (Gneiting & Raftery 2007, s6.2,
// a proper scoring rule): its width plus 2 / alpha times the log distance by which the measured
// value falls outside it; lower is better. Coverage alone rewards width; this weighs it. The benches'
// one measure of an interval (accuracy_bench's interval table, cross_machine_bench's group table).
#include <algorithm>

namespace qnm::bench {

/// `log_lower` <= `log_upper` bound the interval, `log_measured` is what was measured, all logs of
/// times (or all relative to the prediction).
inline double LogIntervalScore(double log_lower, double log_upper, double log_measured, double alpha = 0.1) {
  return (log_upper - log_lower) +
         2 / alpha * (std::max(0.0, log_lower - log_measured) + std::max(0.0, log_measured - log_upper));
}

}  // namespace qnm::bench
