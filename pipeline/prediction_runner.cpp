#include "pipeline/prediction_runner.h"

#include <algorithm>
#include <iostream>
#include <string>

#include "util/input_error.h"
#include "util/parallel_for.h"

namespace qnm {

std::vector<SeriesPrediction> RunPredict(const std::vector<Series>& series,
                                         const std::vector<int>& procs,
                                         const PredictionOptions& options) {
  std::vector<SeriesPrediction> results(series.size());
  // Series are independent: fit and sweep them on every core.
  ParallelFor(series.size(), [&](std::size_t i) {
    SeriesPrediction& r = results[i];
    std::string error;
    if (!FitSeriesModel(series[i], {}, options, &r.model, &error)) throw InputError("", 0, error);
    r.observed = ObserveSeries(series[i], r.model.machine, options.mva, nullptr);
    std::vector<int> targets = procs;
    if (!r.model.summary.extrapolatable) {  // one process count: its own P only, and say so
      targets.clear();
      // One write per note: series run on several threads.
      std::cerr << ("qnm-predict: note: series " + series[i].name + " has runs at one process count only (P=" +
                    std::to_string(r.model.min_train_procs) +
                    "): it cannot be extrapolated; only its own P is reproduced\n");
    }
    for (const ProcsObservation& o : r.observed) targets.push_back(o.procs);
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    r.predictions.reserve(targets.size());
    for (int p : targets) r.predictions.push_back(r.model.Predict(p));
  });
  return results;
}

std::vector<ValidationResult> RunValidate(const std::vector<Series>& series,
                                          const std::vector<int>& train,
                                          const PredictionOptions& options) {
  std::vector<ValidationResult> validated(series.size());
  std::vector<std::string> errors(series.size());
  std::vector<char> ok(series.size(), 0);
  ParallelFor(series.size(), [&](std::size_t i) {
    ValidationOptions validation;
    validation.train_procs = train;
    validation.prediction = options;
    ok[i] = ValidateSeries(series[i], validation, &validated[i], &errors[i]);
  });
  std::vector<ValidationResult> results;
  std::string last_error;
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (ok[i]) {
      results.push_back(std::move(validated[i]));
      continue;
    }
    if (series.size() == 1) throw InputError("", 0, errors[i]);
    // e.g. a single-P series among many: said on stderr, the others are still validated.
    std::cerr << "qnm-predict: series " << series[i].name << " not validated: " << errors[i] << "\n";
    last_error = errors[i];
  }
  if (results.empty()) throw InputError("", 0, "no series could be validated: " + last_error);
  return results;
}

}  // namespace qnm
