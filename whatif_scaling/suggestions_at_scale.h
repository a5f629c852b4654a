#pragma once
// `whatif --suggest TRACE --procs P`: the suggested hypotheses
// (whatif/suggestions.h) ranked also by their gain at a target process count,
// through what-if x scaling (whatif_prediction.h): each hypothesis simulated
// on the trace and on traces of the same code at other process counts, the
// series fitted with and without it, and the gain predicted at P.
#include <string>
#include <vector>

#include "whatif/suggestions.h"
#include "whatif_scaling/whatif_prediction.h"

namespace qnm {

struct ScaledSuggestion {
  trace::Suggestion suggestion;  // with its gain at the traced P
  WhatifGain at_procs;           // its predicted gain at the target P (NaN: see `message`)
  std::string message;           // why there is no gain at P, or ""
};

struct ScaledSuggestionReport {
  std::string trace_path;               // the trace the suggestions come from
  std::vector<std::string> scaling_traces;  // the traces at other process counts
  std::vector<int> traced_procs;        // the series' process counts
  int target_procs = 0;
  double original_runtime_s = 0;        // of the first trace
  std::vector<ScaledSuggestion> ranked; // largest gain at P first (unknown last; ties: traced-P order)
  std::vector<std::string> notes;
};

/// Suggests hypotheses on `trace_path` and ranks them by gain at `procs`. The
/// traces (first and `scaling_traces`) form one series, whatever their names
/// say. Throws InputError when `procs` is not a traced process count and the
/// traces hold fewer than two (one process count cannot be extrapolated).
ScaledSuggestionReport RankSuggestionsAtScale(const std::string& trace_path,
                                              const std::vector<std::string>& scaling_traces, int procs,
                                              const PredictionOptions& options);

std::string ScaledSuggestionTable(const ScaledSuggestionReport& report);
std::string ScaledSuggestionJson(const ScaledSuggestionReport& report);

}  // namespace qnm
