#pragma once
// From what an Extra-P experiment holds (extrap_data.h) to one series over the
// process count (extrap_experiment.h), by a RunSelection.
#include <string>

#include "extrap/extrap_data.h"
#include "extrap/extrap_experiment.h"
#include "reader/run_selection.h"

namespace qnm {

/// The points whose other parameters equal selection.where, as a one-parameter
/// experiment over selection.parameter (or the process-count-named one).
/// Throws InputError(path, 0, ...) naming the reason when the choice is
/// missing or ambiguous: no process-count parameter, other parameters left
/// free, an unknown name, no point matching.
ExtrapExperiment SelectSeries(const ExtrapData& data, const RunSelection& selection, const std::string& path);

/// The run-time measurement of `experiment` under `selection` (metric, call path).
const ExtrapMeasurement& RunTimeMeasurement(const ExtrapExperiment& experiment, const RunSelection& selection,
                                            const std::string& path);

/// " n=2000" for a series name, "" without --where.
std::string WhereSuffix(const RunSelection& selection);

}  // namespace qnm
