#include "pipeline/transfer_runner.h"

#include <algorithm>
#include <set>

#include "util/input_error.h"

namespace qnm {
namespace {

/// The target series for `source`: the only one, else the one with the same application and class.
const Series* PairTarget(const Series& source, const TransferTarget& target) {
  if (target.series.empty()) return nullptr;
  if (target.series.size() == 1) return &target.series.front();
  const Series* found = nullptr;
  for (const Series& candidate : target.series)
    if (!source.key.app.empty() && candidate.key.app == source.key.app &&
        candidate.key.problem_class == source.key.problem_class) {
      if (found) {
        found = nullptr;
        break;
      }
      found = &candidate;
    }
  if (!found) {
    std::string names;
    for (const Series& s : target.series) names += (names.empty() ? "" : ", ") + s.name;
    throw InputError("--target", 0,
                     "the target runs hold " + std::to_string(target.series.size()) +
                         " series and none pairs with " + source.name + " by application and class (" + names +
                         "); pick one with --target-series");
  }
  return found;
}

/// `series` restricted to the groups at `procs`.
Series Restrict(const Series& series, const std::set<int>& procs) {
  Series out = series;
  out.groups.clear();
  for (const RunGroup& group : series.groups)
    if (procs.count(group.procs)) out.groups.push_back(group);
  return out;
}

TransferredModel Transfer(const Series& source, const Series* target_runs, const TransferTarget& target,
                          const PredictionOptions& options, const TransferOptions& transfer) {
  SeriesModel model;
  std::string error;
  // A's model in the default configuration (or the one --configuration gives), not one chosen for
  // A alone: the transfer splits it into computation and overheads, and was calibrated on the
  // default; chosen per series, the moved predictions of cross_machine_bench were worse (mean |log
  // error| 0.49 -> 0.51; bench/README.md, round 15).
  PredictionOptions source_options = options;
  if (options.configurations.size() != 1) source_options.choose_configuration = false;
  if (!FitSeriesModel(source, {}, source_options, &model, &error)) throw InputError("", 0, error);
  TransferredModel moved;
  if (!TransferSeriesModel(model, source, target_runs, target.has_profile ? &target.profile : nullptr, transfer,
                           &moved, &error))
    throw InputError("--target", 0, source.name + ": " + error);
  return moved;
}

/// A's model with the transfer's notes, named for the pair, as the report and charts show it.
SeriesModel Described(const TransferredModel& moved, const std::string& target_name) {
  SeriesModel model = moved.source;
  model.series_name = moved.source.series_name + " -> " + target_name;
  std::vector<std::string> notes = {moved.summary.BriefReport()};
  for (const std::string& line : moved.summary.transferred) notes.push_back("transferred: " + line);
  for (const std::string& line : moved.summary.calibrated) notes.push_back("calibrated: " + line);
  model.summary.notes.insert(model.summary.notes.begin(), notes.begin(), notes.end());
  return model;
}

}  // namespace

std::vector<SeriesPrediction> RunTransferPredict(const std::vector<Series>& source, const TransferTarget& target,
                                                 const std::vector<int>& procs, const PredictionOptions& options,
                                                 const TransferOptions& transfer) {
  std::vector<SeriesPrediction> results;
  for (const Series& a : source) {
    const Series* b = PairTarget(a, target);
    TransferredModel moved = Transfer(a, b, target, options, transfer);
    SeriesPrediction r;
    r.model = Described(moved, b ? b->name : target.profile.name);
    if (b) r.observed = ObserveSeries(*b, moved.source.machine, options.mva, nullptr);
    std::vector<int> targets = procs;
    for (const ProcsObservation& o : r.observed) targets.push_back(o.procs);
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (int p : targets) r.predictions.push_back(moved.Predict(p));
    results.push_back(std::move(r));
  }
  return results;
}

std::vector<ValidationResult> RunTransferValidate(const std::vector<Series>& source, const TransferTarget& target,
                                                  const PredictionOptions& options, const TransferOptions& transfer) {
  std::vector<ValidationResult> results;
  for (const Series& a : source) {
    const Series* b = PairTarget(a, target);
    if (!b) throw InputError("--target", 0, "validate needs runs on the target machine (--target)");
    std::set<int> calibrate(target.calibrate_procs.begin(), target.calibrate_procs.end());
    if (calibrate.empty() && !b->groups.empty()) calibrate.insert(b->groups.front().procs);
    Series calibration = Restrict(*b, calibrate);
    if (calibration.groups.empty())
      throw InputError("--train", 0, "none of these process counts was measured on " + b->name);
    if (calibration.groups.size() == b->groups.size())
      throw InputError("--train", 0, "every measured P of " + b->name + " calibrates; nothing to predict");
    TransferredModel moved = Transfer(a, &calibration, target, options, transfer);
    ValidationResult r;
    r.series_name = a.name + " -> " + b->name;
    std::string list;
    for (int p : calibrate) list += (list.empty() ? "" : ",") + std::to_string(p);
    r.summary.mode = "transfer (calibrate on target P=" + list + ")";
    for (const RunGroup& group : b->groups)
      r.rows.push_back(CompareWithMeasured(group, moved.Predict(group.procs), calibrate.count(group.procs) > 0));
    r.model = Described(moved, b->name);
    r.notes = r.model.summary.notes;
    SummarizeValidation(options.interval_level, &r);
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace qnm
