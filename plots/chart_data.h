#pragma once
// The points of a ChartSet that can be drawn: positive P, finite positive
// times, sorted by P. Charts use these so no builder repeats the filtering.
#include <vector>

#include "plots/charts.h"

namespace qnm::plots {

/// Measured points with P > 0 and a finite time > 0, sorted by P.
std::vector<MeasuredPoint> DrawableMeasured(const ChartSet& charts);

/// Predicted points with P > 0 and a finite time > 0, sorted by P.
std::vector<PredictedPoint> DrawablePredicted(const ChartSet& charts);

/// What-if points (ChartSet::whatif, whatif_measured) with P > 0 and a finite time > 0, sorted by P.
std::vector<PredictedPoint> DrawableWhatif(const ChartSet& charts);
std::vector<MeasuredPoint> DrawableWhatifMeasured(const ChartSet& charts);

/// The predicted point at `procs`, or nullptr.
const PredictedPoint* PredictedAt(const std::vector<PredictedPoint>& predicted, int procs);

/// True when `value` can sit on a log axis.
inline bool Positive(double value) { return std::isfinite(value) && value > 0; }

}  // namespace qnm::plots
