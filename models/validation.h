#pragma once
// How good is the prediction? Fit on some process counts, predict the others
// and compare with what was measured: relative error, Buckwalter 2005's 10% and 30%
// bands, and whether the measured time lies inside the prediction interval.
#include <cstddef>
#include <string>
#include <vector>

#include "models/prediction.h"

namespace qnm {

/// ValidationOptions::held_out_limit of an exact leave-one-out.
constexpr std::size_t kHoldOutEveryCount = static_cast<std::size_t>(-1);

struct ValidationOptions {
  std::vector<int> train_procs;  // fit on these, predict the rest; empty = leave-one-out
  // Leave-one-out holds out at most this many process counts, evenly spread
  // (EvenlySpread, models/leave_one_out_budget.h); 0: none (the model on all
  // points alone, nothing predicted).
  std::size_t held_out_limit = kHoldOutEveryCount;
  PredictionOptions prediction;
};

struct ValidationRow {
  int procs = 0;
  bool training = false;  // in-sample (split mode) - not counted in the summary
  double measured_s = kUnknown, min_s = kUnknown, max_s = kUnknown;
  ProcsPrediction predicted;
  double relative_error = kUnknown;  // (predicted - measured) / measured
  bool within_10 = false, within_30 = false, inside_interval = false;
};

struct ValidationSummary {
  // "split (train 1,2,4,8)", "leave-one-out" or
  // "leave-one-out (bounded: 3 of 100 process counts held out, evenly spread)"
  std::string mode;
  int predicted_points = 0;
  double median_abs_relative_error = kUnknown;
  double max_abs_relative_error = kUnknown;
  double within_10_fraction = kUnknown, within_30_fraction = kUnknown;
  double interval_coverage = kUnknown;  // fraction of measured points inside their interval
  double level = 0.9;
  std::string BriefReport() const;
};

struct ValidationResult {
  std::string series_name;
  std::vector<ValidationRow> rows;  // sorted by procs
  ValidationSummary summary;
  SeriesModel model;                // split mode: the model fitted on the training set;
                                    // leave-one-out: the model fitted on everything
  std::vector<std::string> notes;
};

/// One row: `predicted` beside what `group` measured (relative error, bands, interval).
ValidationRow CompareWithMeasured(const RunGroup& group, const ProcsPrediction& predicted, bool training);
/// Fills result->summary from its non-training rows.
void SummarizeValidation(double level, ValidationResult* result);

/// Leave-one-out refits a series once per process count, each fit over all the
/// others: quadratic (~10 s of CPU at 1,000 counts, 2.6 s at 500). A series with
/// more counts is refused with a hint to validate a split (--train) instead; a
/// million counts would take days (issue 19, one long series).
constexpr std::size_t kMaxLeaveOneOutProcs = 1000;

/// Validates one series. Returns false with `error` when nothing can be predicted
/// (e.g. the training set is empty or covers every process count).
bool ValidateSeries(const Series& series, const ValidationOptions& options,
                    ValidationResult* result, std::string* error);

}  // namespace qnm
