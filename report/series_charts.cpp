#include "report/series_charts.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "report/html_text.h"
#include "report/svg_plot.h"

namespace qnm::report {
namespace {

bool Finite(double v) { return std::isfinite(v); }

std::string SecondsText(double seconds) {
  if (!Finite(seconds)) return "";
  if (seconds >= 1) return HtmlNumber(seconds, "%.3g") + " s";
  if (seconds >= 1e-3) return HtmlNumber(seconds * 1e3, "%.3g") + " ms";
  return HtmlNumber(seconds * 1e6, "%.3g") + " \u00b5s";
}

}  // namespace

const std::vector<ComponentName>& ComponentNames() {
  static const std::vector<ComponentName> kNames = {
      {"compute_s", "compute W", "#bdbdbd", "time computing per rank, mean over ranks (s)"},
      {"imbalance_s", "load imbalance I", "#7fbf7b",
       "max \u2212 mean of the ranks' compute: what the average rank waits in MPI for the slowest (s)"},
      {"switch_delay_s", "switch delay S", "#fdb863",
       "time of the messages on the wire, latency + size / bandwidth (s)"},
      {"mpi_active_s", "MPI service A", "#2166ac",
       "MPI service time per rank without waiting, A + C(A) = MPI \u2212 I \u2212 S (s)"},
      {"contention_s", "contention C", "#b2182b",
       "time waiting for the network, from the contention model solved by MVA (s)"},
  };
  return kNames;
}

std::string RunTimeChart(const SeriesPrediction& prediction, const ValidationResult* validation) {
  std::vector<int> procs;
  std::vector<double> times;
  std::vector<PlotPoint> line, lower, upper, measured, held_out;
  for (const ProcsPrediction& p : prediction.predictions) {
    if (!p.Ok() || !Finite(p.total.value_s)) continue;
    procs.push_back(p.procs);
    line.push_back({double(p.procs), p.total.value_s});
    times.push_back(p.total.value_s);
    if (Finite(p.total.lower_s) && Finite(p.total.upper_s)) {
      lower.push_back({double(p.procs), p.total.lower_s});
      upper.push_back({double(p.procs), p.total.upper_s});
      times.push_back(p.total.lower_s);
      times.push_back(p.total.upper_s);
    }
  }
  for (const ProcsObservation& o : prediction.observed) {
    procs.push_back(o.procs);
    measured.push_back({double(o.procs), o.measured_time_s});
    times.push_back(o.measured_time_s);
  }
  if (validation)
    for (const ValidationRow& row : validation->rows)
      if (!row.training && row.predicted.Ok()) {
        held_out.push_back({double(row.procs), row.predicted.total.value_s});
        times.push_back(row.predicted.total.value_s);
      }
  if (procs.empty()) return "";
  SvgPlot plot("run time vs P", ProcessAxis(procs), FitAxis(times, true, "run time (s)"));
  const int level_pct = static_cast<int>(std::lround(prediction.model.level * 100));
  plot.Area(lower, upper, "#6baed6", 0.3, std::to_string(level_pct) + "% interval");
  plot.Line(line, "#2166ac", "predicted");
  plot.Markers(measured, "#111111", "measured (median)");
  // After the measured points, unfilled: they sit almost on them.
  plot.Markers(held_out, "#ff7f00", "leave-one-out prediction", true);
  return plot.Render();
}

std::string ValidationErrorChart(const ValidationResult& validation) {
  std::vector<int> procs;
  std::vector<double> errors_pct = {-35, 35};  // the 30% band always shows
  std::vector<PlotPoint> points;
  for (const ValidationRow& row : validation.rows) {
    if (row.training || !Finite(row.relative_error)) continue;
    procs.push_back(row.procs);
    points.push_back({double(row.procs), 100 * row.relative_error});
    errors_pct.push_back(100 * row.relative_error);
  }
  if (points.empty()) return "";
  PlotAxis x = ProcessAxis(procs);
  SvgPlot plot("leave-one-out relative error", x, FitAxis(errors_pct, false, "relative error (%)"));
  auto band = [&](double pct) {
    return std::make_pair(std::vector<PlotPoint>{{x.low, -pct}, {x.high, -pct}},
                          std::vector<PlotPoint>{{x.low, pct}, {x.high, pct}});
  };
  auto [low30, high30] = band(30);
  auto [low10, high10] = band(10);
  plot.Area(low30, high30, "#fee08b", 0.5, "within 30%");
  plot.Area(low10, high10, "#a6d96a", 0.6, "within 10%");
  plot.Line({{x.low, 0}, {x.high, 0}}, "#555555", "", true);
  plot.Markers(points, "#d7301f", "(predicted \u2212 measured) / measured");
  return plot.Render();
}

std::string ComponentSharesChart(const std::vector<ProcsPrediction>& predictions) {
  struct Bar {
    int procs;
    double parts[5];
    double total;
  };
  std::vector<Bar> bars;
  for (const ProcsPrediction& p : predictions) {
    if (!p.Ok()) continue;
    Bar bar{p.procs,
            {p.compute.value_s, p.imbalance.value_s, p.switch_delay.value_s, p.mpi_active.value_s,
             p.contention.value_s},
            0};
    for (double& part : bar.parts) {
      if (!Finite(part) || part < 0) part = 0;
      bar.total += part;
    }
    if (bar.total > 0) bars.push_back(bar);
  }
  if (bars.empty()) return "";
  PlotAxis x;
  x.low = -0.6;
  x.high = bars.size() - 0.4;
  x.label = "processes P  (label: predicted total per rank)";
  for (std::size_t i = 0; i < bars.size(); ++i) x.ticks.emplace_back(double(i), std::to_string(bars[i].procs));
  PlotAxis y;
  y.low = 0;
  y.high = 112;  // room for the total above a full bar
  y.label = "share of predicted time (%)";
  for (int v = 0; v <= 100; v += 20) y.ticks.emplace_back(v, std::to_string(v));
  // Wide enough for the one-row legend of the five components (about 610 px).
  const int width = std::max(640, std::min(1100, 90 + 44 * int(bars.size())));
  SvgPlot plot("predicted components: share of T(P) per P", x, y, width, 330);
  const auto& names = ComponentNames();
  for (const ComponentName& name : names) plot.LegendEntry(name.color, name.name);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    double bottom = 0;
    for (std::size_t k = 0; k < names.size(); ++k) {
      const double share = 100 * bars[i].parts[k] / bars[i].total;
      if (share <= 0) continue;
      plot.Rect(i - 0.35, bottom, i + 0.35, bottom + share, names[k].color,
                "P=" + std::to_string(bars[i].procs) + " " + names[k].name + ": " + SecondsText(bars[i].parts[k]) +
                    " (" + HtmlNumber(share, "%.1f") + "%)");
      bottom += share;
    }
    plot.Label(double(i), 100, SecondsText(bars[i].total));
  }
  return plot.Render();
}

std::vector<InputPanel> InputCharts(const SeriesModel& model) {
  std::vector<InputPanel> panels;
  int max_procs = model.max_train_procs;
  for (const InputCurve& input : model.inputs)
    for (const auto& point : input.measured) max_procs = std::max(max_procs, point.first);
  max_procs = std::max(max_procs, 2 * model.max_train_procs);
  for (const InputCurve& input : model.inputs) {
    if (input.key == "time_scale") continue;  // a factor of 1 on every run: nothing to see
    std::vector<PlotPoint> measured, fitted;
    std::vector<double> values;
    std::vector<int> procs;
    for (const auto& [p, v] : input.measured)
      if (p > 0 && Finite(v)) {
        measured.push_back({double(p), v});
        values.push_back(v);
        procs.push_back(p);
      }
    for (int k = 0; k <= 40; ++k) {
      const double p = std::pow(double(max_procs), k / 40.0);
      const double v = input.Evaluate(p);
      if (Finite(v)) {
        fitted.push_back({p, v});
        values.push_back(v);
      }
    }
    if (values.empty()) continue;
    procs.push_back(1);
    procs.push_back(max_procs);
    double smallest = HUGE_VAL, largest = 0;
    for (double v : values)
      if (v > 0) smallest = std::min(smallest, v), largest = std::max(largest, v);
    // Log scale only where the positive values span a decade; the range is
    // that of this input's own values, never a shared 1..1e8.
    const bool log = largest > 0 && largest >= 10 * smallest &&
                     std::none_of(values.begin(), values.end(), [](double v) { return v <= 0; });
    SvgPlot plot(input.name, ProcessAxis(procs), FitAxis(values, log, input.name + " (" + input.unit + ")"), 420,
                 280);
    plot.Line(fitted, "#2166ac", "fit");
    plot.Markers(measured, "#b2182b", "measured");
    InputPanel panel;
    panel.svg = plot.Render();
    panel.caption = "fit: " + (input.formula.empty() ? std::string("(no formula)") : input.formula) +
                    (input.fit_note.empty() ? "" : "; " + input.fit_note);
    panels.push_back(std::move(panel));
  }
  return panels;
}

}  // namespace qnm::report
