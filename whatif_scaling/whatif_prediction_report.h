#pragma once
// The renderers of `predict --whatif`: per series the unchanged and the
// what-if prediction side by side at every P, with the gain and its interval,
// as a table for people, CSV or JSON.
#include <string>
#include <vector>

#include "whatif_scaling/whatif_prediction.h"

namespace qnm {

/// `format` is "table", "csv" or "json"; `origin` says what was read (LoadSeries).
std::string FormatWhatifPredictions(const std::vector<SeriesWhatifPrediction>& results, const std::string& format,
                                    const std::string& origin);

}  // namespace qnm
