#include "whatif_scaling/whatif_charts.h"

#include "pipeline/chart_adapter.h"

namespace qnm {

plots::ChartSet BuildWhatifChartSet(const SeriesWhatifPrediction& result) {
  plots::ChartSet charts =
      BuildChartSet(result.unchanged.model, result.unchanged.observed, result.unchanged.predictions, {});
  for (const ProcsPrediction& p : result.whatif.predictions) {
    plots::PredictedPoint point;
    point.procs = p.procs;
    if (p.Ok()) {
      point.time_s = p.total.value_s;
      point.lower_s = p.total.lower_s;
      point.upper_s = p.total.upper_s;
    }
    point.flagged = !p.flags.empty();
    charts.whatif.push_back(point);
  }
  for (const ProcsObservation& o : result.whatif.observed) {
    plots::MeasuredPoint point;
    point.procs = o.procs;
    point.time_s = o.measured_time_s;
    point.min_s = o.min_time_s;
    point.max_s = o.max_time_s;
    charts.whatif_measured.push_back(point);
  }
  for (const std::string& h : result.hypotheses)
    charts.whatif_label += (charts.whatif_label.empty() ? "" : "; ") + h;
  return charts;
}

}  // namespace qnm
