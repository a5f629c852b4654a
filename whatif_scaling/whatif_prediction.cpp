#include "whatif_scaling/whatif_prediction.h"

#include <algorithm>
#include <cmath>

#include "util/input_error.h"
#include "whatif_scaling/profile_whatif.h"
#include "whatif_scaling/trace_whatif.h"

namespace qnm {
namespace {

/// Regroups `runs` as one series under `like`'s key and name.
Series Regroup(const Series& like, std::vector<RunStats> runs) {
  std::vector<Series> grouped = GroupIntoSeries(std::move(runs), [&like](const RunStats&) { return like.key; });
  Series out = grouped.empty() ? Series{} : std::move(grouped.front());
  out.key = like.key;
  out.name = like.name;
  return out;
}

void AddNote(std::vector<std::string>* notes, const std::string& note) {
  if (notes != nullptr && std::find(notes->begin(), notes->end(), note) == notes->end()) notes->push_back(note);
}

}  // namespace

bool WhatifScalingOptions::IsValid(std::string* error) const {
  if (hypotheses.empty()) {
    if (error) *error = "no what-if hypothesis given";
    return false;
  }
  return prediction.IsValid(error);
}

const char* ToString(WhatifMethod method) {
  return method == WhatifMethod::kTraceSimulation ? "trace simulation" : "profile";
}

Series ApplyWhatifToSeries(const Series& series, const std::vector<trace::Hypothesis>& hypotheses,
                           Series* unchanged, std::vector<WhatifRun>* runs, std::vector<std::string>* notes) {
  // A region (MPI call site) some profile runs lack changes nothing in them
  // (a P = 1 run has no Waitall); one that no profile run has is an error.
  std::vector<const RunStats*> profiles;
  for (const RunGroup& group : series.groups)
    for (const RunStats& run : group.runs)
      if (!IsTraceRun(run)) profiles.push_back(&run);
  for (const trace::Hypothesis& h : hypotheses) {
    if (h.kind != trace::HypothesisKind::kScaleRegion && h.kind != trace::HypothesisKind::kBalanceRegion) continue;
    std::vector<int> lacking;
    for (const RunStats* run : profiles)
      if (!ProfileHasRegion(*run, h.region)) lacking.push_back(run->procs);
    if (!profiles.empty() && lacking.size() == profiles.size())
      ApplyProfileWhatif(*profiles.front(), {h}, nullptr);  // throws, listing the call sites it has
    if (!lacking.empty()) {
      std::string at;
      for (int p : lacking) at += (at.empty() ? "" : ", ") + std::to_string(p);
      AddNote(notes, h.Describe() + ": no such call site in the runs at P = " + at + " (unchanged there)");
    }
  }
  std::vector<RunStats> before, after;
  for (const RunGroup& group : series.groups)
    for (const RunStats& run : group.runs) {
      WhatifRun change;
      change.procs = run.procs;
      change.source = run.sources.empty() ? run.app.str() : run.sources.front();
      if (IsTraceRun(run)) {
        trace::WhatifSummary summary;
        after.push_back(SimulateTraceRun(run, hypotheses, &summary));
        before.push_back(WithTraceSpan(run, summary.original_runtime_s));
        change.method = WhatifMethod::kTraceSimulation;
        if (before.back().TotalTimeSeconds() != run.TotalTimeSeconds())
          AddNote(notes, "trace runs are timed from their first to their last event over all ranks, as the "
                         "simulation compares them (the slowest rank alone may be shorter)");
        if (summary.deadlocks_broken > 0)
          AddNote(notes, change.source + ": " + std::to_string(summary.deadlocks_broken) +
                             " cyclic dependencies ignored in the simulation");
      } else {
        after.push_back(ApplyProfileWhatif(run, hypotheses, notes, true));
        before.push_back(run);
        change.method = WhatifMethod::kProfile;
      }
      change.unchanged_s = before.back().TotalTimeSeconds();
      change.whatif_s = after.back().TotalTimeSeconds();
      if (runs != nullptr) runs->push_back(change);
    }
  if (runs != nullptr)
    std::stable_sort(runs->begin(), runs->end(), [](const WhatifRun& a, const WhatifRun& b) { return a.procs < b.procs; });
  if (unchanged != nullptr) *unchanged = Regroup(series, std::move(before));
  return Regroup(series, std::move(after));
}

WhatifGain GainOf(const ProcsPrediction& unchanged, const ProcsPrediction& whatif) {
  WhatifGain gain;
  gain.procs = unchanged.procs;
  if (!unchanged.Ok() || !whatif.Ok() || unchanged.procs != whatif.procs) return gain;
  const Interval& u = unchanged.total;
  const Interval& w = whatif.total;
  if (!std::isfinite(u.value_s) || !std::isfinite(w.value_s)) return gain;
  gain.gain.value_s = u.value_s - w.value_s;
  if (u.value_s > 0) gain.gain_percent = 100.0 * gain.gain.value_s / u.value_s;
  if (std::isfinite(u.lower_s) && std::isfinite(w.lower_s) && std::isfinite(u.upper_s) && std::isfinite(w.upper_s) &&
      u.value_s > 0 && w.value_s > 0) {
    // The wider of the two relative intervals, applied to the gain (see WhatifGain).
    const double low = std::min(u.lower_s / u.value_s, w.lower_s / w.value_s);
    const double high = std::max(u.upper_s / u.value_s, w.upper_s / w.value_s);
    gain.gain.lower_s = std::min(gain.gain.value_s * low, gain.gain.value_s * high);
    gain.gain.upper_s = std::max(gain.gain.value_s * low, gain.gain.value_s * high);
  }
  return gain;
}

std::vector<SeriesWhatifPrediction> RunWhatifPredict(const std::vector<Series>& series,
                                                     const std::vector<int>& procs,
                                                     const WhatifScalingOptions& options) {
  std::string error;
  if (!options.IsValid(&error)) throw InputError("--whatif", 0, error);
  std::vector<SeriesWhatifPrediction> out;
  for (const Series& one : series) {
    SeriesWhatifPrediction result;
    for (const trace::Hypothesis& h : options.hypotheses) result.hypotheses.push_back(h.Describe());
    Series unchanged;
    const Series changed = ApplyWhatifToSeries(one, options.hypotheses, &unchanged, &result.runs, &result.notes);
    result.unchanged = RunPredict({unchanged}, procs, options.prediction).front();
    // One machine for both: a network estimated from the series is the measured one's.
    PredictionOptions same_machine = options.prediction;
    same_machine.has_machine = true;
    same_machine.machine = result.unchanged.model.machine;
    result.whatif = RunPredict({changed}, procs, same_machine).front();
    if (result.whatif.predictions.size() != result.unchanged.predictions.size())
      throw InputError("", 0, "series " + one.name + ": the what-if predicted other process counts than the "
                                                     "unchanged code");
    for (std::size_t i = 0; i < result.unchanged.predictions.size(); ++i)
      result.gains.push_back(GainOf(result.unchanged.predictions[i], result.whatif.predictions[i]));
    out.push_back(std::move(result));
  }
  return out;
}

}  // namespace qnm
