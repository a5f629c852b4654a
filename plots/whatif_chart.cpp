// What-if x scaling: the unchanged code's predicted run time beside the code
// with the hypotheses (SILAS-style what-if, Hermanns 2008, carried to every P
// by the series model), each with its prediction interval, on log-log axes;
// the gain in percent of the unchanged time on the right axis.
#include <algorithm>
#include <limits>

#include "plots/chart_builders.h"
#include "plots/chart_data.h"

namespace qnm::plots {
namespace {

bool IntervalBlock(const std::vector<PredictedPoint>& points, const char* name, DataFile* data) {
  int drawable = 0;
  for (const PredictedPoint& point : points) drawable += Positive(point.lower_s) && Positive(point.upper_s);
  if (drawable < 2) return false;  // a shaded area needs two ends
  data->Block(name, "P  lower_s  upper_s  (prediction interval)");
  for (const PredictedPoint& point : points)
    if (Positive(point.lower_s) && Positive(point.upper_s))
      data->Row({double(point.procs), point.lower_s, point.upper_s});
  return true;
}

}  // namespace

bool BuildWhatifChart(const ChartSet& charts, ChartScript* chart) {
  const std::vector<PredictedPoint> unchanged = DrawablePredicted(charts);
  const std::vector<PredictedPoint> whatif = DrawableWhatif(charts);
  if (unchanged.empty() || whatif.empty()) return false;
  const std::vector<MeasuredPoint> measured = DrawableMeasured(charts);
  const std::vector<MeasuredPoint> whatif_measured = DrawableWhatifMeasured(charts);

  DataFile data;
  std::vector<int> procs;
  double y_low = std::numeric_limits<double>::infinity(), y_high = 0;
  auto extend = [&](double value) {
    if (!Positive(value)) return;
    y_low = std::min(y_low, value);
    y_high = std::max(y_high, value);
  };
  data.Block("unchanged", "P  time_s  lower_s  upper_s");
  for (const PredictedPoint& point : unchanged) {
    procs.push_back(point.procs);
    data.Row({double(point.procs), point.time_s, point.lower_s, point.upper_s});
    for (double value : {point.time_s, point.lower_s, point.upper_s}) extend(value);
  }
  data.Block("whatif", "P  time_s  lower_s  upper_s");
  for (const PredictedPoint& point : whatif) {
    procs.push_back(point.procs);
    data.Row({double(point.procs), point.time_s, point.lower_s, point.upper_s});
    for (double value : {point.time_s, point.lower_s, point.upper_s}) extend(value);
  }
  const bool unchanged_interval = IntervalBlock(unchanged, "unchanged_interval", &data);
  const bool whatif_interval = IntervalBlock(whatif, "whatif_interval", &data);
  auto measured_block = [&](const std::vector<MeasuredPoint>& points, const char* name) {
    if (points.empty()) return false;
    data.Block(name, "P  time_s");
    for (const MeasuredPoint& point : points) {
      procs.push_back(point.procs);
      data.Row({double(point.procs), point.time_s});
      extend(point.time_s);
    }
    return true;
  };
  const bool has_measured = measured_block(measured, "measured");
  const bool has_whatif_measured = measured_block(whatif_measured, "whatif_measured");
  // Gain in percent where both predictions have a value.
  bool has_gain = false;
  double gain_low = 0, gain_high = 0;  // the right axis always shows 0 (no gain)
  for (const PredictedPoint& point : unchanged) {
    const PredictedPoint* other = PredictedAt(whatif, point.procs);
    if (other == nullptr) continue;
    if (!has_gain) data.Block("gain", "P  gain_percent  (100 * (unchanged - what-if) / unchanged)");
    has_gain = true;
    const double gain = 100.0 * (point.time_s - other->time_s) / point.time_s;
    data.Row({double(point.procs), gain});
    gain_low = std::min(gain_low, gain);
    gain_high = std::max(gain_high, gain);
  }

  const std::string level = FormatValue(100.0 * charts.interval_level);
  std::vector<std::string> plots;
  if (unchanged_interval)
    plots.push_back("'' index 'unchanged_interval' using 1:2:3 with filledcurves fs transparent solid 0.18 "
                    "noborder lc rgb '#555555' title 'unchanged, " + level + "% interval'");
  if (whatif_interval)
    plots.push_back("'' index 'whatif_interval' using 1:2:3 with filledcurves fs transparent solid 0.25 "
                    "noborder lc rgb '#1b7837' title 'with what-if, " + level + "% interval'");
  plots.push_back("'' index 'unchanged' using 1:2 with linespoints lw 2.5 pt 7 ps 0.8 lc rgb '#000000' "
                  "title 'unchanged code (predicted)'");
  plots.push_back("'' index 'whatif' using 1:2 with linespoints lw 2.5 pt 5 ps 0.8 lc rgb '#1b7837' "
                  "title 'with what-if (predicted)'");
  if (has_measured)
    plots.push_back("'' index 'measured' using 1:2 with points pt 6 ps 2 lw 2 lc rgb '#b2182b' "
                    "title 'measured'");
  if (has_whatif_measured)
    plots.push_back("'' index 'whatif_measured' using 1:2 with points pt 4 ps 2 lw 2 lc rgb '#1b7837' "
                    "title 'measured runs with what-if (simulated / re-timed)'");
  if (has_gain)
    plots.push_back("'' index 'gain' using 1:2 axes x1y2 with linespoints dt 2 lw 1.5 pt 9 ps 1 "
                    "lc rgb '#e08214' title 'gain (% of unchanged, right axis)'");

  chart->name = "whatif";
  chart->title = ChartTitle(charts.context, "what-if vs unchanged run time");
  chart->width_px = 1150;
  chart->data = data.text();
  std::string body = "set title " + GnuplotTitle(chart->title, kPlotTitleChars) + "\n";
  body += RunTimeAxes(procs, y_low, y_high);
  body += "set y2label 'gain (% of unchanged run time)'\nset y2tics\nset format y2 '%g'\n";
  const double gain_pad = 0.1 * std::max(1.0, gain_high - gain_low);
  body += "set y2range [" + FormatValue(gain_low - (gain_low < 0 ? gain_pad : 0)) + ":" +
          FormatValue(gain_high + gain_pad) + "]\n";
  // Below the key, in the free right-hand column: the hypotheses, one per line.
  std::vector<std::string> lines = {"what-if:"};
  for (std::size_t start = 0; start < charts.whatif_label.size();) {
    const std::size_t end = charts.whatif_label.find("; ", start);
    lines.push_back("  " + charts.whatif_label.substr(start, end == std::string::npos ? end : end - start));
    start = end == std::string::npos ? charts.whatif_label.size() : end + 2;
  }
  if (charts.whatif_label.empty()) lines.clear();
  if (!charts.context.caveat.empty()) lines.push_back("");  // why the curves end where they do
  lines.insert(lines.end(), charts.context.caveat.begin(), charts.context.caveat.end());
  for (std::size_t k = 0; k < lines.size(); ++k)
    body += "set label " + std::to_string(k + 1) + " " + GnuplotQuote(lines[k]) + " at screen 0.6, screen " +
            FormatValue(0.62 - 0.04 * k) + " left font ',10' noenhanced\n";
  chart->body = body + PlotCommand(plots);
  return true;
}

}  // namespace qnm::plots
