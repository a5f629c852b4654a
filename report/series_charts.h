#pragma once
// The charts of one series in the report, as inline SVG (report/svg_plot.h).
#include <string>
#include <vector>

#include "models/validation.h"
#include "pipeline/prediction_runner.h"

namespace qnm::report {

/// The five components of T(P) = W + I + S + A + C, named once for the whole
/// report as in the JSON keys: (key, name for people, colour).
struct ComponentName {
  const char* key;
  const char* name;
  const char* color;
  const char* meaning;  // for the report's glossary (docs/glossary.md)
};
const std::vector<ComponentName>& ComponentNames();

/// Run time vs P, log-log: prediction with its interval, measured points and
/// (when `validation` is given) the leave-one-out predictions.
std::string RunTimeChart(const SeriesPrediction& prediction, const ValidationResult* validation);

/// Leave-one-out relative error per measured P with the 10% and 30% bands; empty without rows.
std::string ValidationErrorChart(const ValidationResult& validation);

/// Share of each component per P as stacked bars (a linear axis hid every
/// bar after P = 1 under the P = 1 total), with the absolute total above
/// each bar. Empty when no prediction has components.
std::string ComponentSharesChart(const std::vector<ProcsPrediction>& predictions);

/// One panel per fitted model input (its formula goes in the caption, not
/// over the data), y range fitted to its own values.
struct InputPanel {
  std::string svg;
  std::string caption;  // plain text: "fit: ..." (escaped by the caller)
};
std::vector<InputPanel> InputCharts(const SeriesModel& model);

}  // namespace qnm::report
