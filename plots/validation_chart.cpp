// Modeled vs measured run time per process count (Buckwalter 2005, Figure 2): the
// report draws the 30% tolerance "typical of QNM models" as error bars; here it
// is a shaded band around the modeled curve, with the 10% band as dashed lines.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "plots/chart_builders.h"
#include "plots/chart_data.h"

namespace qnm::plots {
namespace {

double OrTime(double value, double time_s) { return std::isfinite(value) ? value : time_s; }

void MeasuredBlock(const std::vector<MeasuredPoint>& points, bool training, const char* name,
                   DataFile* data, bool* any) {
  *any = false;
  for (const MeasuredPoint& point : points) {
    if (point.training != training) continue;
    if (!*any) data->Block(name, "P  time_s  min_s  max_s  (min/max = spread over repetitions)");
    *any = true;
    data->Row({double(point.procs), point.time_s, OrTime(point.min_s, point.time_s),
               OrTime(point.max_s, point.time_s)});
  }
}

}  // namespace

bool BuildValidationChart(const ChartSet& charts, ChartScript* chart) {
  const std::vector<MeasuredPoint> measured = DrawableMeasured(charts);
  const std::vector<PredictedPoint> predicted = DrawablePredicted(charts);
  if (measured.empty() && predicted.empty()) return false;

  DataFile data;
  std::vector<int> procs;
  std::set<int> measured_procs;
  for (const MeasuredPoint& point : measured) {
    procs.push_back(point.procs);
    measured_procs.insert(point.procs);
  }
  bool has_training = false, has_heldout = false;
  MeasuredBlock(measured, true, "training", &data, &has_training);
  MeasuredBlock(measured, false, "heldout", &data, &has_heldout);

  bool has_interval = false, has_extrapolated = false;
  if (!predicted.empty()) {
    data.Block("modeled", "P  time_s  lower_s  upper_s");
    for (const PredictedPoint& point : predicted) {
      procs.push_back(point.procs);
      data.Row({double(point.procs), point.time_s, point.lower_s, point.upper_s});
    }
    int interval_points = 0;
    for (const PredictedPoint& point : predicted)
      interval_points += Positive(point.lower_s) && Positive(point.upper_s);
    if (interval_points >= 2) {  // a shaded area needs two ends
      has_interval = true;
      data.Block("interval", "P  lower_s  upper_s  (prediction interval)");
      for (const PredictedPoint& point : predicted) {
        if (Positive(point.lower_s) && Positive(point.upper_s))
          data.Row({double(point.procs), point.lower_s, point.upper_s});
      }
    }
    for (const PredictedPoint& point : predicted) {
      if (measured_procs.count(point.procs) != 0) continue;
      if (!has_extrapolated) data.Block("extrapolated", "P  time_s  lower_s  upper_s");
      has_extrapolated = true;
      data.Row({double(point.procs), point.time_s, OrTime(point.lower_s, point.time_s),
                OrTime(point.upper_s, point.time_s)});
    }
  }

  bool has_flagged = false;
  for (const PredictedPoint& point : predicted) {
    if (!point.flagged || !Positive(point.time_s)) continue;
    if (!has_flagged)
      data.Block("flagged", "P  time_s  (flagged: outside the plausible envelope, an unevidenced turn, leaves the node)");
    has_flagged = true;
    data.Row({double(point.procs), point.time_s});
  }

  // The y extent of everything drawn, for the tic marks of the tight log axis.
  double y_low = std::numeric_limits<double>::infinity(), y_high = 0;
  auto extend = [&](double value) {
    if (!Positive(value)) return;
    y_low = std::min(y_low, value);
    y_high = std::max(y_high, value);
  };
  for (const MeasuredPoint& point : measured) {
    for (double value : {point.time_s, point.min_s, point.max_s}) extend(value);
  }
  for (const PredictedPoint& point : predicted) {
    for (double value : {0.7 * point.time_s, 1.3 * point.time_s}) extend(value);
  }
  // An interval reaching more than a decade beyond every time drawn (an extrapolation from runs close
  // together: 3e-11 .. 5e17 s) would squeeze the points into a line; the axis stops a decade beyond
  // them and the interval runs off the chart, said under the key.
  const bool can_clip = std::isfinite(y_low);  // some time is drawn
  const double clip_low = y_low / 10, clip_high = y_high * 10;
  bool clipped = false;
  for (const PredictedPoint& point : predicted) {
    for (double value : {point.lower_s, point.upper_s}) {
      if (!Positive(value)) continue;
      clipped = clipped || (can_clip && (value < clip_low || value > clip_high));
      extend(can_clip ? std::clamp(value, clip_low, clip_high) : value);
    }
  }
  const std::string level = FormatValue(100.0 * charts.interval_level);
  std::vector<std::string> plots;
  if (!predicted.empty()) {
    plots.push_back("'' index 'modeled' using 1:($2*0.7):($2*1.3) with filledcurves "
                    "fc rgb '#dddddd' fs solid 1.0 noborder title '30% band around modeled (Buckwalter 2005)'");
    plots.push_back("'' index 'modeled' using 1:($2*0.9) with lines dt 2 lw 1.5 lc rgb '#555555' "
                    "title '10% band around modeled'");
    plots.push_back("'' index 'modeled' using 1:($2*1.1) with lines dt 2 lw 1.5 lc rgb '#555555' notitle");
  }
  if (has_interval)
    plots.push_back("'' index 'interval' using 1:2:3 with filledcurves fs transparent pattern 4 "
                    "border lc rgb '#2166ac' fc rgb '#2166ac' title '" + level + "% prediction interval'");
  if (!predicted.empty())
    plots.push_back("'' index 'modeled' using 1:2 with lines lw 2.5 lc rgb '#000000' title 'modeled'");
  if (has_extrapolated)
    plots.push_back("'' index 'extrapolated' using 1:2:3:4 with yerrorbars pt 9 ps 1.6 lw 1.5 "
                    "lc rgb '#2166ac' title 'predicted (extrapolated)'");
  if (has_flagged)
    plots.push_back("'' index 'flagged' using 1:2 with points pt 3 ps 3 lw 2.5 lc rgb '#d6604d' "
                    "title 'flagged (the prediction table says why)'");
  if (has_training)
    plots.push_back("'' index 'training' using 1:2:3:4 with yerrorbars pt 7 ps 1.4 lw 1.5 "
                    "lc rgb '#b2182b' title 'measured, used for fitting'");
  if (has_heldout)
    plots.push_back("'' index 'heldout' using 1:2:3:4 with yerrorbars pt 4 ps 1.6 lw 2 "
                    "lc rgb '#e08214' title 'measured, held out'");

  chart->name = "validation";
  chart->title = ChartTitle(charts.context, "modeled vs measured run time");
  chart->width_px = 1150;
  chart->data = data.text();
  std::string body = "set title " + GnuplotTitle(chart->title, kPlotTitleChars) + "\n";
  body += RunTimeAxes(procs, y_low, y_high);
  // Below the key, in the free right-hand column: why the curve ends where it does.
  for (std::size_t k = 0; k < charts.context.caveat.size(); ++k)
    body += "set label " + std::to_string(k + 1) + " " + GnuplotQuote(charts.context.caveat[k]) +
            " at screen 0.625, screen " + FormatValue(0.62 - 0.04 * k) + " left font ',10'\n";
  if (clipped) {
    body += "set yrange [" + FormatValue(y_low) + ":" + FormatValue(y_high) + "]\n";
    body += "set label " + std::to_string(charts.context.caveat.size() + 1) + " " +
            GnuplotQuote("The " + level + "% interval runs off the chart (the table gives its ends).") +
            " at screen 0.625, screen " + FormatValue(0.62 - 0.04 * charts.context.caveat.size()) +
            " left font ',10'\n";
  }
  chart->body = body + PlotCommand(plots);
  return true;
}

}  // namespace qnm::plots
