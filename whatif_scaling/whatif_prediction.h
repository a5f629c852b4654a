#pragma once
// What-if × scaling: "if I fixed this, how would the code run on P processes?"
// Every measured run of a series is changed by the hypotheses — a trace run
// simulated (trace_whatif.h), a profile run re-timed (profile_whatif.h) — and
// the changed series is fitted and predicted beside the unchanged one at
// every asked process count, with the gain and its interval. SILAS (Hermanns
// 2008) answers at the traced scale only; the queueing model (Buckwalter
// 2005) carries the answer to the others.
#include <string>
#include <vector>

#include "models/prediction.h"
#include "pipeline/prediction_runner.h"
#include "record/run_stats.h"
#include "whatif/whatif_hypothesis.h"

namespace qnm {

struct WhatifScalingOptions {
  std::vector<trace::Hypothesis> hypotheses;  // applied in order to every run
  PredictionOptions prediction;               // both series are fitted with these (one machine)

  bool IsValid(std::string* error) const;
};

enum class WhatifMethod { kTraceSimulation, kProfile };
const char* ToString(WhatifMethod method);  // "trace simulation", "profile"

/// One measured run without and with the hypotheses.
struct WhatifRun {
  int procs = 0;
  std::string source;  // the run's first file
  WhatifMethod method = WhatifMethod::kProfile;
  double unchanged_s = kUnknown, whatif_s = kUnknown;  // the run's time as fitted
};

/// The gain at one process count: unchanged minus what-if (positive = faster).
/// Its interval is the gain times the wider of the two predictions' relative
/// intervals (lower/value, upper/value): both series are fitted to the same
/// runs (the what-if's are the measured ones changed), so a model error that
/// makes one run time x% too long makes the other, and the gain with them,
/// about x% too long; the errors do not add up as independent ones would (an
/// interval from independent errors would hide every gain smaller than the
/// run time's own uncertainty, even at a measured P where the gain is known).
struct WhatifGain {
  int procs = 0;
  Interval gain;                   // seconds; NaN where either prediction has no value
  double gain_percent = kUnknown;  // of the unchanged prediction
};

struct SeriesWhatifPrediction {
  SeriesPrediction unchanged, whatif;  // the same process counts, in the same order
  std::vector<WhatifGain> gains;       // one per unchanged.predictions
  std::vector<WhatifRun> runs;         // every measured run, by P
  std::vector<std::string> hypotheses; // Describe() of each
  std::vector<std::string> notes;      // what a hypothesis could not show, how runs were timed
};

/// The series with every run changed by `hypotheses`; `runs` and `notes` (may
/// be null) say what was done to each. Trace runs are simulated, others
/// re-timed as profiles (a hypothesis only a trace can express is refused,
/// naming the run's file). `unchanged` (may be null) receives the series as
/// it is compared: trace runs timed by their span, like their simulation.
Series ApplyWhatifToSeries(const Series& series, const std::vector<trace::Hypothesis>& hypotheses,
                           Series* unchanged, std::vector<WhatifRun>* runs, std::vector<std::string>* notes);

/// Fits and predicts every series unchanged and with the hypotheses at `procs`
/// (and every measured P). Throws InputError when a series cannot be fitted
/// or a hypothesis cannot be applied.
std::vector<SeriesWhatifPrediction> RunWhatifPredict(const std::vector<Series>& series,
                                                     const std::vector<int>& procs,
                                                     const WhatifScalingOptions& options);

/// The gain of `whatif` over `unchanged` at one P (see WhatifGain).
WhatifGain GainOf(const ProcsPrediction& unchanged, const ProcsPrediction& whatif);

}  // namespace qnm
