#pragma once
// The range a strong-scaling prediction can plausibly fall in, from the
// measured training times alone: no faster than perfect speedup from the
// fastest training run, T(P) >= T_fast * P_fast / P, and no slower than
// `slower_factor` times the slowest training run, or, when the training times
// themselves grow with P, than that factor times the steepest measured growth
// (log-log slope between neighbouring process counts) continued from the
// largest one. A prediction outside is flagged; it is not silently trusted.
#include <string>
#include <utility>
#include <vector>

namespace qnm {

struct PlausibleEnvelopeOptions {
  // How much slower than the slowest measured run (or the measured growth
  // continued) a prediction may be before it is flagged. 2: strong scaling
  // rarely doubles the slowest time, and the runaway case was 250x.
  double slower_factor = 2.0;
  // Widen the interval to include the envelope bound when a prediction leaves it.
  bool widen_interval = true;
  bool IsValid(std::string* error) const;
};

struct PlausibleEnvelope {
  bool known = false;
  double fastest_time_s = 0, fastest_procs = 1;  // the fastest training run
  double slowest_time_s = 0;
  double last_time_s = 0, last_procs = 1;        // the largest training process count
  double growth_exponent = 0;                    // steepest measured log-log growth, >= 0
  double slower_factor = 2.0;
  double Lower(double procs) const;  // perfect speedup from the fastest run
  double Upper(double procs) const;
};

/// Builds the envelope from measured (procs, time) pairs (sorted by procs).
PlausibleEnvelope BuildPlausibleEnvelope(const std::vector<std::pair<int, double>>& times,
                                         const PlausibleEnvelopeOptions& options);

}  // namespace qnm
