#pragma once
// Shared by `predict`, `validate` and `plot`: loading the series to model,
// formatting predictions and validations (table, CSV, JSON) and filling the
// chart data (plots/charts.h) from the same results.
#include <string>
#include <vector>

#include "ingest/run_stats.h"
#include "ingest/series_identity.h"
#include "models/prediction.h"
#include "models/validation.h"
#include "plots/charts.h"

namespace qnm::cli {

/// Ingests `paths` (the bundled default series when empty), groups the runs
/// (series_identity.h) and returns the series whose name contains `filter`
/// (all when empty). Throws InputError when nothing matches. `origin` says
/// what was read, and how many duplicate measurements were counted once.
std::vector<Series> LoadSeries(const std::vector<std::string>& paths, const std::string& filter,
                               std::string* origin, GroupBy group_by = GroupBy::kContent);

/// The parsed value of `--group-by` (AddGroupByOption in commands.h).
GroupBy ParseGroupByOption(const std::string& text);

/// Options shared by predict and validate, resolved from the command line.
PredictionOptions MakePredictionOptions(const std::string& machine, double level);

struct SeriesPrediction {
  SeriesModel model;
  std::vector<ProcsObservation> observed;  // every measured process count
  std::vector<ProcsPrediction> predictions;
};

std::string FormatPredictions(const std::vector<SeriesPrediction>& results, const std::string& format,
                              const std::string& origin);
std::string FormatValidations(const std::vector<ValidationResult>& results, const std::string& format,
                              const std::string& origin);

/// Chart data for one series: measured points (training flag from `train`),
/// predictions at `predictions`, measured components and the fitted inputs.
plots::ChartSet BuildChartSet(const SeriesModel& model, const std::vector<ProcsObservation>& observed,
                              const std::vector<ProcsPrediction>& predictions,
                              const std::vector<int>& held_out);

/// Draws `charts` into `dir`; prints a warning and returns when gnuplot is missing.
void DrawCharts(const plots::ChartSet& charts, const std::string& dir);

/// Fits and predicts every series at `procs` (predict_command.cpp).
std::vector<SeriesPrediction> RunPredict(const std::vector<Series>& series,
                                         const std::vector<int>& procs,
                                         const PredictionOptions& options);
/// Validates every series on `train` (leave-one-out when empty); throws when none can be.
std::vector<ValidationResult> RunValidate(const std::vector<Series>& series,
                                          const std::vector<int>& train,
                                          const PredictionOptions& options);
/// Draws the charts of each validated series: with the validation's own predictions,
/// or, when `extra_procs` is given, the fitted model's predictions at those P and the measured ones.
void DrawValidationCharts(const std::vector<ValidationResult>& results,
                          const std::vector<Series>& series, const PredictionOptions& options,
                          const std::string& dir, const std::vector<int>& extra_procs);

}  // namespace qnm::cli
