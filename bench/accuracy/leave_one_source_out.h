#pragma once
// The headline protocol of issue 17 (bench/README.md, "Prediction accuracy,
// round 4"): for each source, every (configuration, weight temperature) pair
// is scored on the other sources' series, the best is chosen there and only
// then applied to the source, with the interval rate chosen the same way.
// Beside it, every other way of predicting the bench keeps (each
// configuration fixed, their average, choices and weights per series) is
// scored at the largest P. Prints its tables; returns the headline's results
// and the configuration the tool ships (chosen on every source).
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "bench/accuracy/configurations.h"
#include "bench/accuracy/corpus.h"
#include "bench/accuracy/scoring.h"

namespace accuracy {

struct ChoiceOptions {
  // What the choice minimises over the other sources' series at the largest P: "mean" or
  // "median" |log error|, "wins" (the share not better than Extra-P), "balanced" (each other
  // source's mean weighs one) or "regret" (the worst other source's mean over the least any
  // pair reaches there).
  std::string objective = "mean";
  // Every source gets this configuration (at its temperature and interval rate chosen on the other
  // sources): by default the tool's, kShippedRuntimeConfiguration. size(kConfigs): the configuration
  // table's choice per source, and the headline the tool of rounds 15-23 (its choice per series).
  std::size_t forced = ShippedConfigIndex();
  std::string dump;         // every held-out point as CSV (DumpCsv), when set
  std::string write_prior;  // the corpus prior learned on every source, as JSON, when set
  // The interval rate is chosen by the share of the other sources' held-out points inside their
  // interval ("point") or by the mean of each other source's share ("source": every source weighs one).
  std::string coverage_weight = "point";
  bool IsValid(std::string* error) const;
};

struct LeaveOneSourceOutResult {
  std::map<std::string, std::vector<SeriesResult>> by_source;  // the headline's series, per source
  qnm::PredictionOptions shipped;  // chosen on every source, with its interval rate
};

LeaveOneSourceOutResult RunLeaveOneSourceOut(const std::vector<Entry>& corpus, const qnm::PredictionOptions& uniform,
                                             const ChoiceOptions& options);

}  // namespace accuracy
