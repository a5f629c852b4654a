#include "models/prediction_interval.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "util/text_format.h"

namespace qnm {

double ExtrapolationDistance(double procs, int min_procs, int max_procs) {
  if (procs > max_procs) return std::log2(procs / max_procs);
  if (procs < min_procs) return std::log2(min_procs / procs);
  return 0.0;
}

LogHalfWidths SplitLogWidth(double half_width_log, double upper_share) {
  return {2 * (1 - upper_share) * half_width_log, 2 * upper_share * half_width_log};
}

double ScaledEnd(double value_s, double log_factor) {
  const double end = value_s * std::exp(log_factor);
  if (!(value_s > 0)) return end;
  return std::clamp(end, std::numeric_limits<double>::min(), std::numeric_limits<double>::max());
}

void SetInterval(Interval* interval, const LogHalfWidths& half) {
  if (!Known(interval->value_s)) return;
  interval->lower_s = ScaledEnd(interval->value_s, -half.below);
  interval->upper_s = ScaledEnd(interval->value_s, half.above);
}

/// Flags a prediction outside the plausible envelope and widens its interval to it.
void CheckEnvelope(const PlausibleEnvelope& envelope, bool widen, const LogHalfWidths& half, ProcsPrediction* p) {
  if (!envelope.known || !Known(p->total.value_s)) return;
  double lower = envelope.Lower(p->procs), upper = envelope.Upper(p->procs);
  if (p->total.value_s < lower * 0.99) {
    p->flags.push_back("faster than perfect speedup from the fastest training run (" +
                       FormatDouble("%.4g", envelope.fastest_time_s) +
                       " s at P=" + FormatDouble("%.0f", envelope.fastest_procs) + ")");
    if (widen) p->total.upper_s = std::max(p->total.upper_s, ScaledEnd(lower, half.above));
  } else if (p->total.value_s > upper * 1.01) {
    p->flags.push_back("slower than " + FormatDouble("%.3g", envelope.slower_factor) +
                       "x the slowest training run or its measured growth (" + FormatDouble("%.4g", upper) + " s)");
    if (widen) p->total.lower_s = std::min(p->total.lower_s, ScaledEnd(upper, -half.below));
  }
}

/// Flags an extrapolation whose total interval is uninformative and says why: the interval grows
/// with the distance beyond the training runs at the per-octave rate their forward errors gave,
/// so training runs close together (Gray-Scott on Bebop in round 38's set L: P = 37..44, errors
/// of 0.2 over a tenth of an octave, 4.6 per octave) extrapolated far give widths of 1e20 and more;
/// or the forward errors read as noise around the model (sd(d)^2 = noise^2 + (rate d)^2, round 39)
/// and the noise is the larger part: runs that follow no one curve (CASTEP on CSD3 RoCE, 14x
/// slower at P = 3136 than at 1792), which runs further out would not narrow.
void FlagUninformativeInterval(int min_train_procs, int max_train_procs, const ExtrapolationError& error,
                               ProcsPrediction* p) {
  const Interval& total = p->total;
  if (!(p->extrapolation > 0) || !(total.lower_s > 0) || !(total.upper_s > 0)) return;
  // In decades, since the ratio itself may overflow (1e-146 .. 1e+209 s).
  const double decades = std::log10(total.upper_s) - std::log10(total.lower_s);
  if (!(decades > std::log10(kUninformativeIntervalWidth))) return;
  const std::string span = "P=" + std::to_string(min_train_procs) + ".." + std::to_string(max_train_procs) + " (" +
                           FormatDouble("%.2g", std::log2(static_cast<double>(max_train_procs) / min_train_procs)) +
                           " octaves)";
  const std::string growth = FormatDouble("%.3g", error.per_octave_log_sd) + " per octave";
  std::string why;
  if (error.base_log_sd >= error.per_octave_log_sd * std::max(0.0, p->extrapolation))
    why = "the training runs at " + span + " scatter around the model by a log sd of " +
          FormatDouble("%.3g", error.base_log_sd) +
          " (the noise fitted to their forward errors), more than the interval grows beyond them (" + growth +
          ", here " + FormatDouble("%.2g", p->extrapolation) + " octaves): they follow no one curve";
  else
    why = "the training runs span " + span + " and the interval's log sd grows " + growth + " beyond them, here " +
          FormatDouble("%.2g", p->extrapolation) + " octaves; runs at " +
          (p->procs < min_train_procs ? "smaller" : "larger") + " P would narrow it";
  p->flags.push_back("the interval spans " + FormatDouble("%.3g", decades) +
                     " decades (upper / lower), too wide to inform: " + why);
}

}  // namespace qnm
