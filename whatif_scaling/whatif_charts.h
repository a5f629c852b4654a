#pragma once
// What-if prediction -> chart data (plots/charts.h): the unchanged series'
// charts plus the what-if curve, its interval and its measured runs.
#include "plots/charts.h"
#include "whatif_scaling/whatif_prediction.h"

namespace qnm {

/// Every chart of the unchanged series (pipeline/chart_adapter.h) and the what-if chart's data.
plots::ChartSet BuildWhatifChartSet(const SeriesWhatifPrediction& result);

}  // namespace qnm
