#include "plots/charts.h"

#include "plots/chart_builders.h"
#include "plots/chart_writer.h"

namespace qnm::plots {

bool WriteCharts(const ChartSet& charts, const PlotOptions& options, PlotResult* result,
                 std::string* error) {
  PlotResult local;
  if (result == nullptr) result = &local;
  if (!GnuplotAvailable()) {
    if (error != nullptr) *error = "gnuplot not found; install gnuplot-nox — charts skipped";
    return false;
  }
  using Builder = bool (*)(const ChartSet&, ChartScript*);
  const std::pair<const char*, Builder> builders[] = {
      {"validation", BuildValidationChart}, {"components", BuildComponentsChart},
      {"inputs", BuildInputsChart},         {"speedup", BuildSpeedupChart},
      {"error", BuildErrorChart}};
  std::vector<ChartScript> scripts;
  // The what-if chart only where a what-if was predicted (no warning elsewhere).
  ChartScript whatif;
  if (!charts.whatif.empty() && BuildWhatifChart(charts, &whatif)) scripts.push_back(std::move(whatif));
  for (const auto& [name, build] : builders) {
    ChartScript chart;
    if (build(charts, &chart)) scripts.push_back(std::move(chart));
    else result->warnings.push_back(std::string("no data for the ") + name + " chart; skipped");
  }
  if (scripts.empty()) {
    if (error != nullptr)
      *error = "nothing to chart for series '" + charts.context.series_name + "'";
    return false;
  }
  return RenderCharts(scripts, SeriesStem(charts.context), options, result, error);
}

}  // namespace qnm::plots
