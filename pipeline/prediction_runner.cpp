#include "pipeline/prediction_runner.h"

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>

#include "util/heap_reuse.h"
#include "util/input_error.h"
#include "util/parallel_for.h"

namespace qnm {
namespace {

// A batch ends at this many series or this many measured process counts,
// whichever comes first: enough to keep every core busy, few enough that the
// results of one batch (tens of KB per series) stay small.
constexpr std::size_t kBatchSeries = 256;
constexpr std::size_t kBatchGroups = 1 << 16;

/// Calls `fit(i)` for every series, a batch at a time on every core, then
/// `deliver(i, result)` in series order for the batch before the next batch
/// starts: only one batch of results is held. An exception of `fit`
/// propagates as ParallelFor's (the lowest index, as a serial loop would).
template <class Result>
void InBatches(const std::vector<Series>& series, const std::function<Result(std::size_t)>& fit,
               const std::function<void(std::size_t, Result&&)>& deliver) {
  std::vector<std::optional<Result>> done;
  for (std::size_t begin = 0; begin < series.size();) {
    std::size_t end = begin, groups = 0;
    while (end < series.size() && end - begin < kBatchSeries && (end == begin || groups < kBatchGroups))
      groups += series[end++].groups.size();
    done.clear();
    done.resize(end - begin);
    ParallelFor(end - begin, [&](std::size_t k) { done[k] = fit(begin + k); });
    for (std::size_t i = begin; i < end; ++i) {
      deliver(i, std::move(*done[i - begin]));
      done[i - begin].reset();
    }
    begin = end;
  }
}

/// The model of one series and what it measured: all PredictTargets needs of its runs.
/// `runs_read` (FitSeriesModel) may free the runs once they are read.
SeriesPrediction FitOne(const Series& series, const PredictionOptions& options,
                        const std::function<void()>& runs_read = {}) {
  SeriesPrediction r;
  std::string error;
  if (!FitSeriesModel(series, {}, options, &r.model, &error, runs_read)) throw InputError("", 0, error);
  // Fitted on every process count: its training observations are ObserveSeries' (the same
  // groups, machine and medians), so they are not computed again.
  r.observed = r.model.Measured();  // the unprofiled P too: measured, not fitted
  return r;
}

/// Predicts a fitted series at `procs` and at every measured process count.
void PredictTargets(const std::vector<int>& procs, SeriesPrediction* result) {
  SeriesPrediction& r = *result;
  std::vector<int> targets = procs;
  if (!r.model.summary.extrapolatable) targets.clear();  // one process count: its own P only (NoteIfNotExtrapolatable)
  for (const ProcsObservation& o : r.observed) targets.push_back(o.procs);
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  r.predictions.reserve(targets.size());
  for (int p : targets) r.predictions.push_back(r.model.Predict(p));
}

/// Says on stderr that a series of one process count cannot be extrapolated, in series order (not from
/// the fitting threads).
void NoteIfNotExtrapolatable(const SeriesPrediction& r) {
  if (!r.model.summary.extrapolatable)
    std::cerr << "qnm-predict: note: series " << r.model.series_name << " has runs at one process count only (P="
              << r.model.min_train_procs << "): it cannot be extrapolated; only its own P is reproduced\n";
}

SeriesPrediction PredictOne(const Series& series, const std::vector<int>& procs, const PredictionOptions& options) {
  SeriesPrediction r = FitOne(series, options);
  PredictTargets(procs, &r);
  return r;
}

// A series of more runs than this gives its freed records' pages back to the system before
// its predictions are made (a million one-run groups are ~0.5 GB; issue 19).
constexpr std::size_t kReturnPagesAfterRuns = 1 << 16;

/// What validating one series gave: a result, or why not.
struct Validated {
  std::optional<ValidationResult> result;
  std::string error;
};

Validated ValidateOne(const Series& series, const std::vector<int>& train, const PredictionOptions& options,
                      std::size_t held_out_limit) {
  ValidationOptions validation;
  validation.train_procs = train;
  validation.held_out_limit = held_out_limit;
  validation.prediction = options;
  Validated out;
  ValidationResult result;
  if (ValidateSeries(series, validation, &result, &out.error)) out.result = std::move(result);
  return out;
}

/// Validates in batches; `deliver` receives each success in order, `finished` every
/// index once it is dealt with. Failures are said as RunValidate always said them
/// (thrown for a single series, else on stderr).
void ValidateInBatches(const std::vector<Series>& series, const std::vector<int>& train,
                       const PredictionOptions& options, double loo_budget_units,
                       const std::function<void(std::size_t, ValidationResult&&)>& deliver,
                       const std::function<void(std::size_t)>& finished) {
  std::size_t validated = 0;
  std::string last_error;
  LeaveOneOutPlan plan;
  if (train.empty()) {
    plan = PlanLeaveOneOut(series, loo_budget_units,
                           std::max<int>(1, static_cast<int>(options.TriedConfigurations().size())));
    if (plan.bounded) std::cerr << "qnm-predict: note: " << plan.Note() << "\n";
  }
  InBatches<Validated>(
      series,
      [&](std::size_t i) { return ValidateOne(series[i], train, options, plan.bounded ? plan.held_out[i] : kHoldOutEveryCount); },
      [&](std::size_t i, Validated&& one) {
        if (one.result) {
          ++validated;
          deliver(i, std::move(*one.result));
        } else if (series.size() == 1) {
          throw InputError("", 0, one.error);
        } else {
          // e.g. a single-P series among many: said on stderr, the others are still validated.
          std::cerr << "qnm-predict: series " << series[i].name << " not validated: " << one.error << "\n";
          last_error = one.error;
        }
        if (finished) finished(i);
      });
  if (validated == 0) throw InputError("", 0, "no series could be validated: " + last_error);
}

}  // namespace

std::vector<SeriesPrediction> RunPredict(const std::vector<Series>& series,
                                         const std::vector<int>& procs,
                                         const PredictionOptions& options) {
  std::vector<SeriesPrediction> results(series.size());
  // Series are independent: fit and sweep them on every core.
  ParallelFor(series.size(), [&](std::size_t i) { results[i] = PredictOne(series[i], procs, options); });
  for (const SeriesPrediction& r : results) NoteIfNotExtrapolatable(r);
  return results;
}

std::vector<ValidationResult> RunValidate(const std::vector<Series>& series,
                                          const std::vector<int>& train,
                                          const PredictionOptions& options, double loo_budget_units) {
  std::vector<ValidationResult> results;
  ValidateInBatches(
      series, train, options, loo_budget_units, [&](std::size_t, ValidationResult&& r) { results.push_back(std::move(r)); }, {});
  return results;
}

void StreamPredict(std::vector<Series>* series, const std::vector<int>& procs, const PredictionOptions& options,
                   const PredictionConsumer& consume) {
  InBatches<SeriesPrediction>(
      *series,
      [&](std::size_t i) {
        // Only this thread touches series i until it is delivered.
        Series& one = (*series)[i];
        SeriesPrediction r = FitOne(one, options, [&one] {
          std::size_t runs = 0;
          for (const RunGroup& group : one.groups) runs += group.runs.size();
          std::vector<RunGroup>().swap(one.groups);  // read into observations: no longer needed
          if (runs > kReturnPagesAfterRuns) ReturnFreedPages();
        });
        PredictTargets(procs, &r);
        return r;
      },
      [&](std::size_t i, SeriesPrediction&& r) {
        NoteIfNotExtrapolatable(r);
        consume((*series)[i], std::move(r));
        (*series)[i] = Series();  // its runs are no longer needed
      });
}

void StreamValidate(std::vector<Series>* series, const std::vector<int>& train, const PredictionOptions& options,
                    const ValidationConsumer& consume, double loo_budget_units) {
  ValidateInBatches(
      *series, train, options, loo_budget_units, [&](std::size_t i, ValidationResult&& r) { consume((*series)[i], std::move(r)); },
      [&](std::size_t i) { (*series)[i] = Series(); });
}

}  // namespace qnm
