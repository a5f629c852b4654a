#pragma once
// The middle of predict/validate/plot: fit each series' model and predict it
// at the asked process counts, or validate it on a training split.
#include <string>
#include <vector>

#include "models/prediction.h"
#include "models/validation.h"
#include "record/run_stats.h"

namespace qnm {

/// One series' fitted model, what was measured, and the predictions at the
/// asked process counts plus every measured one.
struct SeriesPrediction {
  SeriesModel model;
  std::vector<ProcsObservation> observed;  // every measured process count
  std::vector<ProcsPrediction> predictions;
};

/// Fits and predicts every series at `procs`. Throws InputError when a series cannot be fitted.
std::vector<SeriesPrediction> RunPredict(const std::vector<Series>& series,
                                         const std::vector<int>& procs,
                                         const PredictionOptions& options);
/// Validates every series on `train` (leave-one-out when empty); series that cannot be
/// validated are skipped when there are several. Throws InputError when none can be.
std::vector<ValidationResult> RunValidate(const std::vector<Series>& series,
                                          const std::vector<int>& train,
                                          const PredictionOptions& options);

}  // namespace qnm
