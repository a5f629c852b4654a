#pragma once
// The what-if parts of the report: per series the code with the hypotheses
// beside the unchanged code (`report --whatif`, whatif_scaling/), and per
// trace the suggested hypotheses ranked by their simulated gain.
#include <string>

#include "trace/trace_events.h"
#include "whatif_scaling/whatif_prediction.h"

namespace qnm::report {

/// `<h3>What-if</h3>`, the hypotheses, each measured run with and without
/// them, a table of both predictions and the gain per P, a chart of both
/// curves with their intervals and a chart of the gain in percent.
std::string WhatifPart(const SeriesWhatifPrediction& whatif);

/// `<h3>What-if suggestions</h3>`: `whatif --suggest` on `trace` (each
/// candidate simulated) as a table and a bar chart of the gains.
std::string WhatifSuggestionsPart(const trace::Trace& trace);

}  // namespace qnm::report
