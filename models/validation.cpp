#include "models/validation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "models/leave_one_out_budget.h"

namespace qnm {
namespace {

std::string Percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100 * fraction);
  return buffer;
}

}  // namespace

ValidationRow CompareWithMeasured(const RunGroup& group, const ProcsPrediction& predicted, bool training) {
  ValidationRow row;
  row.procs = group.procs;
  row.training = training;
  row.measured_s = group.median_time_s;
  row.min_s = group.min_time_s;
  row.max_s = group.max_time_s;
  row.predicted = predicted;
  if (Known(row.measured_s) && row.measured_s > 0 && Known(predicted.total.value_s)) {
    row.relative_error = (predicted.total.value_s - row.measured_s) / row.measured_s;
    row.within_10 = std::fabs(row.relative_error) <= 0.10;
    row.within_30 = std::fabs(row.relative_error) <= 0.30;
    row.inside_interval = Known(predicted.total.lower_s) &&
                          row.measured_s >= predicted.total.lower_s &&
                          row.measured_s <= predicted.total.upper_s;
  }
  return row;
}

std::string ValidationSummary::BriefReport() const {
  if (predicted_points == 0) return mode + ": nothing predicted";
  return mode + ": " + std::to_string(predicted_points) + " predicted, median |error| " +
         Percent(median_abs_relative_error) + ", max " + Percent(max_abs_relative_error) +
         ", within 10% " + Percent(within_10_fraction) + ", within 30% " +
         Percent(within_30_fraction) + ", inside the " + Percent(level) + " interval " +
         Percent(interval_coverage);
}

void SummarizeValidation(double level, ValidationResult* result) {
  ValidationResult& r = *result;
  std::vector<double> errors;
  int within_10 = 0, within_30 = 0, inside = 0;
  for (const ValidationRow& row : r.rows) {
    if (row.training || !Known(row.relative_error)) continue;
    errors.push_back(std::fabs(row.relative_error));
    within_10 += row.within_10;
    within_30 += row.within_30;
    inside += row.inside_interval;
  }
  r.summary.level = level;
  r.summary.predicted_points = static_cast<int>(errors.size());
  if (!errors.empty()) {
    std::sort(errors.begin(), errors.end());
    std::size_t n = errors.size();
    r.summary.median_abs_relative_error =
        n % 2 ? errors[n / 2] : 0.5 * (errors[n / 2 - 1] + errors[n / 2]);
    r.summary.max_abs_relative_error = errors.back();
    r.summary.within_10_fraction = static_cast<double>(within_10) / n;
    r.summary.within_30_fraction = static_cast<double>(within_30) / n;
    r.summary.interval_coverage = static_cast<double>(inside) / n;
  }
}

bool ValidateSeries(const Series& series, const ValidationOptions& options,
                    ValidationResult* result, std::string* error) {
  ValidationResult r;
  r.series_name = series.name;
  const std::vector<int> all = MeasuredProcs(series);
  if (all.size() < 2) {
    *error = series.name + ": validation needs at least two process counts with a measured time";
    return false;
  }
  if (!options.train_procs.empty()) {
    std::set<int> train(options.train_procs.begin(), options.train_procs.end());
    std::vector<int> used;
    for (int p : all)
      if (train.count(p)) used.push_back(p);
    if (used.empty()) {
      *error = series.name + ": none of the training process counts was measured";
      return false;
    }
    if (used.size() == all.size()) {
      *error = series.name + ": every measured process count is in the training set; nothing to predict";
      return false;
    }
    std::string list;
    for (int p : used) list += (list.empty() ? "" : ",") + std::to_string(p);
    r.summary.mode = "split (train " + list + ")";
    if (!FitSeriesModel(series, used, options.prediction, &r.model, error)) return false;
    for (const RunGroup& group : series.groups) {
      if (!std::binary_search(all.begin(), all.end(), group.procs)) continue;  // `all` is sorted as the groups
      bool training = train.count(group.procs) > 0;
      r.rows.push_back(CompareWithMeasured(group, r.model.Predict(group.procs), training));
    }
  } else {
    r.summary.mode = "leave-one-out";
    if (all.size() > kMaxLeaveOneOutProcs) {
      const RunGroup& first = series.groups.front();
      const std::string where = first.runs.empty() || first.runs.front().sources.empty()
                                    ? std::string()
                                    : first.runs.front().sources.front() + ": ";
      *error = where + "series " + series.name + " has " + std::to_string(all.size()) +
               " process counts; leave-one-out would refit it once per count (at most " +
               std::to_string(kMaxLeaveOneOutProcs) + "): validate a split with --train P,P,...";
      return false;
    }
    const bool bounded = options.held_out_limit < all.size();
    const std::vector<int> held_out = bounded ? EvenlySpread(all, options.held_out_limit) : all;
    if (bounded)
      r.summary.mode += " (bounded: " + std::to_string(held_out.size()) + " of " + std::to_string(all.size()) +
                        " process counts held out, evenly spread)";
    if (!FitSeriesModel(series, {}, options.prediction, &r.model, error)) return false;
    for (const RunGroup& group : series.groups) {
      // `all` and `held_out` are sorted as the groups
      if (!std::binary_search(held_out.begin(), held_out.end(), group.procs)) continue;
      std::vector<int> rest;
      for (int p : all)
        if (p != group.procs) rest.push_back(p);
      SeriesModel fold;
      std::string fold_error;
      if (!FitSeriesModel(series, rest, options.prediction, &fold, &fold_error)) {
        r.notes.push_back("P=" + std::to_string(group.procs) + ": " + fold_error);
        continue;
      }
      r.rows.push_back(CompareWithMeasured(group, fold.Predict(group.procs), false));
    }
  }
  r.notes.insert(r.notes.end(), r.model.summary.notes.begin(), r.model.summary.notes.end());
  SummarizeValidation(options.prediction.interval_level, &r);
  *result = std::move(r);
  return true;
}

}  // namespace qnm
