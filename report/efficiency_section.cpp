#include "report/efficiency_section.h"

#include <algorithm>
#include <cmath>

#include "report/html_text.h"
#include "report/svg_plot.h"

namespace qnm::report {
namespace {

std::string Cell(double value, const char* format) {
  return "<td class=\"num\" data-sort=\"" + SortKey(value) + "\">" + HtmlNumber(value, format) + "</td>";
}

std::string Percent(double fraction) { return Cell(100 * fraction, "%.1f"); }

std::string FactorChart(const std::vector<PopEfficiency>& efficiencies) {
  struct Factor {
    const char* name;
    double PopEfficiency::*value;
    const char* color;
  };
  const Factor factors[] = {{"parallel eff.", &PopEfficiency::parallel_efficiency, "#1f4e9a"},
                            {"load balance", &PopEfficiency::load_balance, "#2a9d8f"},
                            {"communication eff.", &PopEfficiency::communication_efficiency, "#e76f51"},
                            {"computation scalability", &PopEfficiency::computation_scalability, "#8e44ad"},
                            {"global eff.", &PopEfficiency::global_efficiency, "#333333"}};
  std::vector<int> procs;
  std::vector<double> values{100.0};
  for (const PopEfficiency& e : efficiencies) {
    procs.push_back(e.procs);
    for (const Factor& f : factors)
      if (std::isfinite(e.*f.value)) values.push_back(100 * (e.*f.value));
  }
  SvgPlot plot("POP efficiencies of the measured runs", ProcessAxis(procs), FitAxis(values, false, "efficiency (%)"),
               /*width_px=*/720);
  for (const Factor& f : factors) {
    std::vector<PlotPoint> points;
    for (const PopEfficiency& e : efficiencies)
      if (std::isfinite(e.*f.value)) points.push_back({double(e.procs), 100 * (e.*f.value)});
    plot.Line(points, f.color, f.name, /*dashed=*/f.value == &PopEfficiency::global_efficiency);
    plot.Markers(points, f.color, "");
  }
  return plot.Render();
}

}  // namespace

std::string EfficiencyPart(const std::vector<PopEfficiency>& efficiencies) {
  if (efficiencies.empty()) return "";
  std::string html =
      "<h3>Efficiencies of the measured runs</h3>\n<p>POP's factors (Wagner et al. 2017, §3): load balance = mean / "
      "max compute per rank, communication efficiency = max compute / runtime, parallel efficiency = their "
      "product; computation scalability = total compute at P = " +
      std::to_string(efficiencies.front().procs) +
      " / total compute at P, global efficiency = parallel efficiency &times; computation scalability. Compute: " +
      EscapeHtml(efficiencies.front().compute_from) + ". Runtime: " + efficiencies.front().runtime_from +
      ". A factor of 80% costs a fifth of the run.</p>\n";
  if (efficiencies.size() > 1) html += "<figure>" + FactorChart(efficiencies) + "</figure>\n";
  // With hardware counters in useful computation, computation scalability's causes too.
  const bool counters = std::any_of(efficiencies.begin(), efficiencies.end(),
                                    [](const PopEfficiency& e) { return Known(e.ipc_scalability); });
  html += "<table class=\"sortable efficiency\"><thead><tr><th>P</th><th>runtime (s)</th><th>load balance (%)</th>"
          "<th>communication efficiency (%)</th><th>parallel efficiency (%)</th><th>computation scalability (%)</th>";
  if (counters)
    html += "<th>IPC scalability (%)</th><th>instruction scalability (%)</th><th>frequency scalability (%)</th>";
  html += "<th>global efficiency (%)</th><th>speedup</th></tr></thead><tbody>\n";
  for (const PopEfficiency& e : efficiencies) {
    html += "<tr><td class=\"num\">" + std::to_string(e.procs) + "</td>" + Cell(e.runtime_s, "%.4g") +
            Percent(e.load_balance) + Percent(e.communication_efficiency) + Percent(e.parallel_efficiency) +
            Percent(e.computation_scalability);
    if (counters)
      html += Percent(e.ipc_scalability) + Percent(e.instruction_scalability) + Percent(e.frequency_scalability);
    html += Percent(e.global_efficiency) + Cell(e.speedup, "%.3g") + "</tr>\n";
  }
  return html + "</tbody></table>\n";
}

}  // namespace qnm::report
