// Relative error of the model per measured P, (modeled - measured) / measured,
// with the 10% and 30% lines (Buckwalter 2005, §4.4: "almost all within the 30%
// tolerance typical of QNM models, and most within 10%").
#include <algorithm>
#include <cmath>

#include "plots/chart_builders.h"
#include "plots/chart_data.h"

namespace qnm::plots {

bool BuildErrorChart(const ChartSet& charts, ChartScript* chart) {
  const std::vector<MeasuredPoint> measured = DrawableMeasured(charts);
  const std::vector<PredictedPoint> predicted = DrawablePredicted(charts);

  DataFile data;
  std::vector<int> procs;
  double largest_percent = 0;
  bool has_block[2] = {false, false};
  for (int training = 1; training >= 0; --training) {
    for (const MeasuredPoint& point : measured) {
      const PredictedPoint* model = PredictedAt(predicted, point.procs);
      if (model == nullptr || point.training != bool(training)) continue;
      if (!has_block[training])
        data.Block(training ? "training" : "heldout",
                   "P  relative_error_percent  measured_s  modeled_s");
      has_block[training] = true;
      const double percent = 100.0 * (model->time_s - point.time_s) / point.time_s;
      largest_percent = std::max(largest_percent, std::fabs(percent));
      procs.push_back(point.procs);
      data.Row({double(point.procs), percent, point.time_s, model->time_s});
    }
  }
  if (procs.empty()) return false;

  // Always show both tolerance lines; grow the range for larger errors.
  const double y_max = std::max(40.0, 1.2 * largest_percent);

  std::vector<std::string> plots;
  const char* styles[2] = {"pt 4 ps 1.8 lw 2 lc rgb '#e08214' title 'held out'",
                           "pt 7 ps 1.6 lc rgb '#b2182b' title 'used for fitting'"};
  for (int training = 1; training >= 0; --training) {
    if (!has_block[training]) continue;
    const std::string block = training ? "'' index 'training'" : "'' index 'heldout'";
    plots.push_back(block + " using 1:2 with impulses lw 3 lc rgb '#777777' notitle");
    plots.push_back(block + " using 1:2 with points " + styles[training]);
    plots.push_back(block + " using 1:($2 >= 0 ? $2 + label_gap : $2 - label_gap):"
                            "(sprintf('%+.1f%%', $2)) with labels font ',10' notitle");
  }

  chart->name = "error";
  chart->width_px = 1040;
  chart->title = ChartTitle(charts.context, "relative error of the modeled run time");
  chart->data = data.text();
  std::string body = "set title " + GnuplotTitle(chart->title, kPlotTitleChars) + "\n";
  body += ProcessAxis(procs, 1.4);
  body += "set ylabel 'relative error, (modeled - measured) / measured (%)'\n";
  body += "label_gap = " + FormatValue(0.07 * y_max) + "  # value labels sit this far above/below points\n";
  body += "set yrange [" + FormatValue(-y_max) + ":" + FormatValue(y_max) + "]\n";
  body += "set grid ytics lc rgb '#dddddd'\n";
  body += "set key outside right top box\n";  // beside the plot: never over a point
  // Tolerance lines as arrows so they span the whole plot whatever the data.
  body += "set arrow from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#000000' lw 1\n";
  for (double level : {10.0, -10.0}) {
    body += "set arrow from graph 0, first " + FormatValue(level) +
            " to graph 1, first " + FormatValue(level) + " nohead dt 2 lw 1.5 lc rgb '#555555'\n";
  }
  for (double level : {30.0, -30.0}) {
    body += "set arrow from graph 0, first " + FormatValue(level) +
            " to graph 1, first " + FormatValue(level) + " nohead dt 4 lw 1.5 lc rgb '#555555'\n";
  }
  body += "set label '+10%' at graph 1, first 10 right offset char -1, char 0.6 tc rgb '#555555'\n";
  body += "set label '+30% (QNM tolerance, Buckwalter 2005)' at graph 1, first 30 right offset char -1, "
          "char 0.6 tc rgb '#555555'\n";
  body += "set label '-10%' at graph 1, first -10 right offset char -1, char -0.6 tc rgb '#555555'\n";
  body += "set label '-30%' at graph 1, first -30 right offset char -1, char -0.6 tc rgb '#555555'\n";
  chart->body = body + PlotCommand(plots);
  return true;
}

}  // namespace qnm::plots
