#pragma once
// The interval of one predicted point and the flags that bound or qualify it: the log width
// split above and below the prediction (an uneven split, bench/README.md round 26), the
// plausible envelope (perfect speedup from the fastest training run, a multiple of the slowest)
// and an interval too wide to inform (round 38), with its cause (round 39's noise term or the
// growth per octave). SeriesModel::Predict applies them in that order.
#include "models/forward_validation.h"
#include "models/plausible_envelope.h"
#include "models/prediction.h"

namespace qnm {

/// Octaves from `procs` to the nearest end of the training range [min_procs, max_procs]; 0 inside.
double ExtrapolationDistance(double procs, int min_procs, int max_procs);

/// The interval's log half-widths below and above the prediction: a width of 2 x
/// `half_width_log`, `upper_share` of it above.
struct LogHalfWidths {
  double below = 0, above = 0;
};
LogHalfWidths SplitLogWidth(double half_width_log, double upper_share);

/// value x exp(log_factor), an end of an interval: for a positive value held inside double's range
/// (a log sd of 30 per octave over 17 octaves is e^-839 .. e^839), since an end of 0 or inf would
/// print as no interval at all; the flag of a too-wide interval says what such an end means.
double ScaledEnd(double value_s, double log_factor);

/// value x exp(-below) .. value x exp(above) (ScaledEnd); an unknown value keeps no interval.
void SetInterval(Interval* interval, const LogHalfWidths& half);

/// Flags a prediction outside the plausible envelope and, with `widen`, widens its interval to it.
void CheckEnvelope(const PlausibleEnvelope& envelope, bool widen, const LogHalfWidths& half, ProcsPrediction* p);

/// An interval wider than this ratio (two decades) tells a user nothing about the run time.
constexpr double kUninformativeIntervalWidth = 100.0;

/// Flags an extrapolation (above or below the training range) whose total interval is wider than
/// kUninformativeIntervalWidth and says why: the per-octave growth of `error` over a short
/// training span, or its fitted noise where that is the larger part.
void FlagUninformativeInterval(int min_train_procs, int max_train_procs, const ExtrapolationError& error,
                               ProcsPrediction* p);

}  // namespace qnm
