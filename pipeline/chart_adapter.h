#pragma once
// Model -> chart: turns a fitted series model, its measurements and its
// predictions into the chart data of plots/charts.h, and draws them.
#include <string>
#include <vector>

#include "models/prediction.h"
#include "models/validation.h"
#include "plots/charts.h"

namespace qnm {

/// Chart data for one series: measured points (training unless in `held_out`),
/// predictions at `predictions`, measured components and the fitted inputs.
plots::ChartSet BuildChartSet(const SeriesModel& model, const std::vector<ProcsObservation>& observed,
                              const std::vector<ProcsPrediction>& predictions,
                              const std::vector<int>& held_out);

/// Draws `charts` into `dir`; prints a warning on stderr and returns when gnuplot
/// is missing or drawing fails.
void DrawCharts(const plots::ChartSet& charts, const std::string& dir);

/// Draws the charts of each validated series: with the validation's own predictions,
/// or, when `extra_procs` is given, the fitted model's predictions at those P and the measured ones.
void DrawValidationCharts(const std::vector<ValidationResult>& results,
                          const std::vector<Series>& series, const PredictionOptions& options,
                          const std::string& dir, const std::vector<int>& extra_procs);

}  // namespace qnm
