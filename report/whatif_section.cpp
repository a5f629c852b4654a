#include "report/whatif_section.h"

#include <algorithm>
#include <cmath>

#include "report/html_text.h"
#include "report/svg_plot.h"
#include "whatif/suggestions.h"

namespace qnm::report {
namespace {

bool Finite(double v) { return std::isfinite(v); }

std::string Cell(double value, const char* format = "%.4g") {
  return "<td class=\"num\" data-sort=\"" + SortKey(value) + "\">" + HtmlNumber(value, format) + "</td>";
}
std::string Text(const std::string& text) { return "<td>" + EscapeHtml(text) + "</td>"; }

/// A time is drawn or listed only when finite and non-negative.
double Time(double value_s) { return Finite(value_s) && value_s >= 0 ? value_s : NAN; }

/// Both predicted curves with their intervals, and the measured runs with and without the hypotheses.
std::string BothCurvesChart(const SeriesWhatifPrediction& r) {
  std::vector<int> procs;
  std::vector<double> times;
  struct Curve {
    std::vector<PlotPoint> line, lower, upper, measured;
  } curves[2];
  const SeriesPrediction* fits[2] = {&r.unchanged, &r.whatif};
  for (int k = 0; k < 2; ++k) {
    for (const ProcsPrediction& p : fits[k]->predictions) {
      if (!p.Ok() || !(Time(p.total.value_s) > 0)) continue;
      procs.push_back(p.procs);
      curves[k].line.push_back({double(p.procs), p.total.value_s});
      times.push_back(p.total.value_s);
      if (Time(p.total.lower_s) > 0 && Time(p.total.upper_s) > 0) {
        curves[k].lower.push_back({double(p.procs), p.total.lower_s});
        curves[k].upper.push_back({double(p.procs), p.total.upper_s});
        times.push_back(p.total.lower_s);
        times.push_back(p.total.upper_s);
      }
    }
    for (const ProcsObservation& o : fits[k]->observed)
      if (Time(o.measured_time_s) > 0) {
        procs.push_back(o.procs);
        curves[k].measured.push_back({double(o.procs), o.measured_time_s});
        times.push_back(o.measured_time_s);
      }
  }
  if (procs.empty()) return "";
  SvgPlot plot("run time vs P: unchanged and with the what-if", ProcessAxis(procs), FitAxis(times, true, "run time (s)"),
               620, 340);
  const std::string level = std::to_string(static_cast<int>(std::lround(r.unchanged.model.level * 100))) + "%";
  plot.Area(curves[0].lower, curves[0].upper, "#969696", 0.3, "unchanged " + level);
  plot.Area(curves[1].lower, curves[1].upper, "#5aae61", 0.3, "what-if " + level);
  plot.Line(curves[0].line, "#111111", "unchanged");
  plot.Line(curves[1].line, "#1b7837", "what-if", true);  // dashed: the unchanged line shows beneath
  plot.Markers(curves[0].measured, "#b2182b", "measured");
  plot.Markers(curves[1].measured, "#1b7837", "runs changed", true);
  return plot.Render();
}

/// The gain in percent of the unchanged run time per P, with its interval.
std::string GainChart(const SeriesWhatifPrediction& r) {
  std::vector<int> procs;
  std::vector<double> values = {0};
  std::vector<PlotPoint> line, lower, upper;
  for (std::size_t i = 0; i < r.gains.size(); ++i) {
    const WhatifGain& g = r.gains[i];
    const double base = r.unchanged.predictions[i].total.value_s;
    if (!Finite(g.gain_percent) || !(Time(base) > 0)) continue;
    procs.push_back(g.procs);
    line.push_back({double(g.procs), g.gain_percent});
    values.push_back(g.gain_percent);
    if (Finite(g.gain.lower_s) && Finite(g.gain.upper_s)) {
      lower.push_back({double(g.procs), 100 * g.gain.lower_s / base});
      upper.push_back({double(g.procs), 100 * g.gain.upper_s / base});
      values.push_back(lower.back().y);
      values.push_back(upper.back().y);
    }
  }
  if (line.empty()) return "";
  PlotAxis x = ProcessAxis(procs);
  SvgPlot plot("gain of the what-if (% of the unchanged run time)", x, FitAxis(values, false, "gain (%)"), 620, 300);
  plot.Area(lower, upper, "#fdb863", 0.45, "gain interval");
  plot.Line({{x.low, 0}, {x.high, 0}}, "#555555", "", true);
  plot.Line(line, "#e08214", "gain (positive = faster)");
  plot.Markers(line, "#e08214", "");
  return plot.Render();
}

}  // namespace

std::string WhatifPart(const SeriesWhatifPrediction& r) {
  std::string html = "<h3>What-if: ";
  for (std::size_t i = 0; i < r.hypotheses.size(); ++i) html += (i ? "; " : "") + EscapeHtml(r.hypotheses[i]);
  html += "</h3>\n<p>Every measured run changed by the hypotheses (a trace simulated, SILAS-style, Hermanns 2008; a "
          "profile re-timed), the changed series fitted like the measured one, both predicted at every P.</p>\n";
  html += "<table><thead><tr><th>measured P</th><th>run time (s)</th><th>with what-if (s)</th><th>how</th>"
          "<th>file</th></tr></thead><tbody>\n";
  for (const WhatifRun& run : r.runs)
    html += "<tr><td class=\"num\">" + std::to_string(run.procs) + "</td>" + Cell(Time(run.unchanged_s)) +
            Cell(Time(run.whatif_s)) + Text(ToString(run.method)) + Text(run.source) + "</tr>\n";
  html += "</tbody></table>\n";
  for (const std::string& note : r.notes) html += "<p class=\"note\">note: " + EscapeHtml(note) + "</p>\n";
  const std::string level = std::to_string(static_cast<int>(std::lround(r.unchanged.model.level * 100))) + "%";
  html += "<table class=\"sortable whatif\"><thead><tr><th>P</th><th>unchanged T (s)</th><th>" + level +
          " lower (s)</th><th>" + level + " upper (s)</th><th>with what-if T (s)</th><th>" + level +
          " lower (s)</th><th>" + level + " upper (s)</th><th>gain (s)</th><th>gain lower (s)</th>"
          "<th>gain upper (s)</th><th>gain (%)</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < r.gains.size(); ++i) {
    const ProcsPrediction& u = r.unchanged.predictions[i];
    const ProcsPrediction& w = r.whatif.predictions[i];
    html += "<tr><td class=\"num\">" + std::to_string(u.procs) + "</td>";
    if (!u.Ok() || !w.Ok()) {
      const ProcsPrediction& failed = u.Ok() ? w : u;
      html += "<td colspan=\"10\">" + EscapeHtml(std::string(ToString(failed.termination)) + ": " + failed.message) +
              "</td></tr>\n";
      continue;
    }
    const WhatifGain& g = r.gains[i];
    for (const Interval* t : {&u.total, &w.total})
      html += Cell(Time(t->value_s)) + Cell(Time(t->lower_s)) + Cell(Time(t->upper_s));
    html += Cell(g.gain.value_s) + Cell(g.gain.lower_s) + Cell(g.gain.upper_s) + Cell(g.gain_percent, "%.1f") +
            "</tr>\n";
  }
  html += "</tbody></table>\n<p class=\"note\">The gain's interval is the gain times the wider relative interval "
          "of the two predictions: both are fitted to the same runs, so their errors go together.</p>\n";
  html += "<figure class=\"whatif-chart\">" + BothCurvesChart(r) + "</figure>\n";
  const std::string gain = GainChart(r);
  if (!gain.empty()) html += "<figure class=\"whatif-chart\">" + gain + "</figure>\n";
  return html;
}

std::string WhatifSuggestionsPart(const trace::Trace& trace) {
  const trace::SuggestionReport report = trace::SuggestHypotheses(trace);
  std::string html = "<h3>What-if suggestions (simulated gains)</h3>\n";
  if (report.ranked.empty())
    return html + "<p>None: no computation region is imbalanced over ranks or waits in its MPI calls, and no "
                  "message is empty.</p>\n";
  html += "<p>Each hypothesis was proposed from the imbalance and wait states above and simulated alone on this "
          "trace (<code>whatif --suggest</code>; with <code>--procs P</code> and traces at other process counts it "
          "ranks them at P). Run time " + HtmlNumber(report.original_runtime_s) + " s.</p>\n";
  html += "<table class=\"sortable suggestions\"><thead><tr><th>#</th><th>hypothesis</th><th>simulated run time (s)"
          "</th><th>gain (s)</th><th>gain (%)</th><th>why proposed</th></tr></thead><tbody>\n";
  std::vector<double> gains = {0};
  for (std::size_t i = 0; i < report.ranked.size(); ++i) {
    const trace::Suggestion& s = report.ranked[i];
    html += "<tr><td class=\"num\">" + std::to_string(i + 1) + "</td>" + Text(s.hypothesis.Describe()) +
            Cell(Time(s.simulated_runtime_s)) + Cell(s.gain_s) + Cell(s.gain_percent, "%.2f") + Text(s.reason) +
            "</tr>\n";
    gains.push_back(s.gain_percent);
  }
  html += "</tbody></table>\n";
  PlotAxis x;
  x.low = -0.6;
  x.high = report.ranked.size() - 0.4;
  x.label = "suggestion (the # of the table; hover a bar)";
  for (std::size_t i = 0; i < report.ranked.size(); ++i) x.ticks.emplace_back(double(i), std::to_string(i + 1));
  SvgPlot plot("simulated gain per suggestion (% of the run time)", x, FitAxis(gains, false, "gain (%)"), 560, 280);
  for (std::size_t i = 0; i < report.ranked.size(); ++i) {
    const trace::Suggestion& s = report.ranked[i];
    plot.Rect(i - 0.35, 0, i + 0.35, s.gain_percent, s.gain_percent >= 0 ? "#1b7837" : "#b2182b",
              std::to_string(i + 1) + ". " + s.hypothesis.Describe() + ": " + HtmlNumber(s.gain_percent, "%.2f") + "%");
  }
  plot.LegendEntry("#1b7837", "gain (faster)");
  plot.LegendEntry("#b2182b", "loss (slower)");
  return html + "<figure class=\"whatif-chart\">" + plot.Render() + "</figure>\n";
}

}  // namespace qnm::report
