#include "pipeline/prediction_runner.h"

#include <algorithm>
#include <iostream>

#include "util/input_error.h"

namespace qnm {

std::vector<SeriesPrediction> RunPredict(const std::vector<Series>& series,
                                         const std::vector<int>& procs,
                                         const PredictionOptions& options) {
  std::vector<SeriesPrediction> results;
  for (const Series& one : series) {
    SeriesPrediction r;
    std::string error;
    if (!FitSeriesModel(one, {}, options, &r.model, &error)) throw InputError("", 0, error);
    r.observed = ObserveSeries(one, r.model.machine, options.mva, nullptr);
    std::vector<int> targets = procs;
    if (one.groups.size() < 2) {  // nothing to extrapolate from: its own P only, and say so
      targets.clear();
      std::cerr << "qnm-predict: note: series " << one.name << " has runs at one process count only (P="
                << (one.groups.empty() ? 0 : one.groups.front().procs)
                << "): it cannot be extrapolated; only its own P is reproduced\n";
    }
    for (const ProcsObservation& o : r.observed) targets.push_back(o.procs);
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (int p : targets) r.predictions.push_back(r.model.Predict(p));
    results.push_back(std::move(r));
  }
  return results;
}

std::vector<ValidationResult> RunValidate(const std::vector<Series>& series,
                                          const std::vector<int>& train,
                                          const PredictionOptions& options) {
  std::vector<ValidationResult> results;
  std::string last_error;
  for (const Series& one : series) {
    ValidationOptions validation;
    validation.train_procs = train;
    validation.prediction = options;
    ValidationResult r;
    if (!ValidateSeries(one, validation, &r, &last_error)) {
      if (series.size() == 1) throw InputError("", 0, last_error);
      continue;  // e.g. a single-P series among many
    }
    results.push_back(std::move(r));
  }
  if (results.empty()) throw InputError("", 0, "no series could be validated: " + last_error);
  return results;
}

}  // namespace qnm
