#pragma once
// The middle of predict/validate/plot: fit each series' model and predict it
// at the asked process counts, or validate it on a training split.
#include <functional>
#include <string>
#include <vector>

#include "models/leave_one_out_budget.h"
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
/// Leave-one-out holds out what PlanLeaveOneOut allows within `loo_budget_units` (<= 0:
/// every count) and says on stderr, in one line, when that is not every count.
std::vector<ValidationResult> RunValidate(const std::vector<Series>& series,
                                          const std::vector<int>& train,
                                          const PredictionOptions& options,
                                          double loo_budget_units = kLeaveOneOutBudgetUnits);

/// Receives each series with its result, in series order (StreamValidate: the runs still
/// there; StreamPredict: its name and key, the runs already freed).
using PredictionConsumer = std::function<void(const Series& series, SeriesPrediction&& result)>;
using ValidationConsumer = std::function<void(const Series& series, ValidationResult&& result)>;

/// RunPredict in memory bounded by a batch of series, not by the input: the
/// series are fitted a batch at a time (in parallel within it), each result is
/// handed to `consume` in order, and then it is freed; a series' runs are freed as soon as
/// it is fitted (`series` is left holding empty series). Same results, same errors.
void StreamPredict(std::vector<Series>* series, const std::vector<int>& procs, const PredictionOptions& options,
                   const PredictionConsumer& consume);
/// RunValidate in batches, as StreamPredict; a series that cannot be validated is
/// said on stderr and skipped (thrown when it is the only one). Throws InputError
/// at the end when none could be validated.
void StreamValidate(std::vector<Series>* series, const std::vector<int>& train, const PredictionOptions& options,
                    const ValidationConsumer& consume, double loo_budget_units = kLeaveOneOutBudgetUnits);

}  // namespace qnm
