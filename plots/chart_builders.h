#pragma once
// One builder per chart. Each turns a ChartSet into a ChartScript (gnuplot
// body + data file) and returns false when the set lacks what the chart needs.
#include "plots/chart_writer.h"
#include "plots/charts.h"

namespace qnm::plots {

/// Modeled vs measured run time per P, log-log, with the 30% and 10% bands (Buckwalter 2005, Fig. 2).
bool BuildValidationChart(const ChartSet& charts, ChartScript* chart);

/// Measured (compute, MPI) beside modeled (five components) stacked bars per P (Buckwalter 2005, Fig. 3).
bool BuildComponentsChart(const ChartSet& charts, ChartScript* chart);

/// One panel per model input vs P: measured points, fitted curve, formula in the key.
bool BuildInputsChart(const ChartSet& charts, ChartScript* chart);

/// Speedup and parallel efficiency vs P, measured and predicted, with Amdahl's bound.
bool BuildSpeedupChart(const ChartSet& charts, ChartScript* chart);

/// Relative error of the model per measured P with the 10% and 30% lines.
bool BuildErrorChart(const ChartSet& charts, ChartScript* chart);

/// What-if x scaling: run time of the unchanged code and of the code with the
/// hypotheses vs P, log-log, both with their intervals and measured (or
/// simulated) points, and the gain in percent on the right axis.
bool BuildWhatifChart(const ChartSet& charts, ChartScript* chart);

}  // namespace qnm::plots
