// Speedup and parallel efficiency vs P. Both are relative to the smallest
// measured P (scaled so that S(P_ref) = P_ref), so measured and predicted
// share one reference; Amdahl's bound S(P) <= 1/(f + (1-f)/P) uses the
// fitted serial fraction f, rescaled to the same reference.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "plots/chart_builders.h"
#include "plots/chart_data.h"
#include "util/text_format.h"

namespace qnm::plots {
namespace {

std::string ShortNumber(double value) { return FormatDouble("%.3g", value); }

}  // namespace

bool BuildSpeedupChart(const ChartSet& charts, ChartScript* chart) {
  const std::vector<MeasuredPoint> measured = DrawableMeasured(charts);
  const std::vector<PredictedPoint> predicted = DrawablePredicted(charts);
  if (measured.size() + predicted.size() < 2) return false;
  const int p_ref = measured.empty() ? predicted.front().procs : measured.front().procs;
  const double t_ref_s = measured.empty() ? predicted.front().time_s : measured.front().time_s;

  DataFile data;
  std::vector<int> procs;
  auto add_row = [&](int p, double time_s) {
    const double speedup = p_ref * t_ref_s / time_s;
    data.Row({double(p), speedup, speedup / p, time_s});
    procs.push_back(p);
  };
  const std::string columns = "P  speedup  efficiency  time_s";
  if (!measured.empty()) {
    data.Block("measured", columns);
    for (const MeasuredPoint& point : measured) add_row(point.procs, point.time_s);
  }
  if (!predicted.empty()) {
    data.Block("predicted", columns);
    for (const PredictedPoint& point : predicted) add_row(point.procs, point.time_s);
  }
  const bool has_amdahl = std::isfinite(charts.serial_fraction) && charts.serial_fraction >= 0 &&
                          charts.serial_fraction <= 1;

  chart->name = "speedup";
  chart->title = ChartTitle(charts.context, "speedup and parallel efficiency");
  chart->width_px = 1200;
  chart->height_px = 560;
  chart->data = data.text();

  std::string body;
  body += "p_ref = " + std::to_string(p_ref) + "\n";
  if (has_amdahl) {
    body += "f = " + FormatValue(charts.serial_fraction) + "  # fitted serial fraction\n";
    body += "amdahl(p) = 1.0 / (f + (1.0 - f) / p)\n";
    body += "bound(p) = p_ref * amdahl(p) / amdahl(p_ref)\n";
  }
  body += ProcessAxis(procs, 1.25, 8);  // two panels side by side: half the width for the labels
  body += "set grid lc rgb '#dddddd'\nset samples 200\n";
  // Speedup stays below the ideal line S = P, so the top left is free for the key.
  body += "set key top left box opaque\n";
  body += "set multiplot layout 1,2 title " + GnuplotTitle(chart->title, kMultiplotTitleChars) + "\n";

  const std::string reference =
      p_ref == 1 ? "T(1) / T(P)" : std::to_string(p_ref) + " T(" + std::to_string(p_ref) + ") / T(P)";
  const std::string amdahl_title =
      has_amdahl ? "Amdahl bound, serial fraction f = " + ShortNumber(charts.serial_fraction) : "";
  auto panel = [&](const std::string& ylabel, const std::string& column,
                   const std::string& ideal, const std::string& bound) {
    std::vector<std::string> plots;
    plots.push_back(ideal + " with lines dt 3 lw 1.5 lc rgb '#888888' title 'ideal'");
    if (has_amdahl)
      plots.push_back(bound + " with lines dt 2 lw 2 lc rgb '#1b7837' title " +
                      GnuplotQuote(amdahl_title));
    if (!predicted.empty())
      plots.push_back("'' index 'predicted' using 1:" + column +
                      " with linespoints lw 2 dt 4 pt 9 ps 1.4 lc rgb '#2166ac' title 'predicted'");
    if (!measured.empty())
      plots.push_back("'' index 'measured' using 1:" + column +
                      " with linespoints lw 2 pt 7 ps 1.4 lc rgb '#b2182b' title 'measured'");
    // Functions come first in the key, but gnuplot needs the file named in the first data clause.
    return "set ylabel " + GnuplotQuote(ylabel) + "\n" + PlotCommand(plots);
  };
  body += "set logscale y 2\nset format y '%g'\n";
  body += panel("speedup S(P) = " + reference, "2", "x", "bound(x)");
  // Efficiency: headroom above the data keeps the key (top right) off the curves.
  double top_efficiency = 1.0;
  for (const MeasuredPoint& point : measured)
    top_efficiency = std::max(top_efficiency, p_ref * t_ref_s / point.time_s / point.procs);
  for (const PredictedPoint& point : predicted)
    top_efficiency = std::max(top_efficiency, p_ref * t_ref_s / point.time_s / point.procs);
  body += "unset logscale y\nset yrange [0:" + FormatValue(1.45 * top_efficiency) + "]\n";
  body += "set key top right box opaque\n";
  body += panel("parallel efficiency S(P) / P", "3", "1", "bound(x) / x");
  body += "unset multiplot\n";
  chart->body = body;
  return true;
}

}  // namespace qnm::plots
