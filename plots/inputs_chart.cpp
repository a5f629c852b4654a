// Model inputs vs P (Buckwalter 2005, §4.4 studies exactly these: message size,
// number of messages, MPI service time, compute time): one panel per input
// with the measured points, the fitted curve, and its formula in the key.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "plots/chart_builders.h"
#include "plots/chart_data.h"

namespace qnm::plots {
namespace {

bool Drawable(const ModelInputCurve& curve) {
  auto usable = [](const std::pair<int, double>& point) {
    return point.first > 0 && std::isfinite(point.second);
  };
  return std::any_of(curve.measured.begin(), curve.measured.end(), usable) ||
         std::any_of(curve.fitted.begin(), curve.fitted.end(), usable);
}

/// `text` broken at spaces into lines of at most `width` characters (a word
/// longer than that keeps a line of its own): a panel's title is centred over
/// a panel about 80 small characters wide and was cut at both ends.
std::vector<std::string> Wrap(const std::string& text, std::size_t width) {
  std::vector<std::string> lines(1);
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t space = text.find(' ', from);
    if (space == std::string::npos) space = text.size();
    const std::string word = text.substr(from, space - from);
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width) lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + word;
    from = space + 1;
  }
  return lines;
}

}  // namespace

bool BuildInputsChart(const ChartSet& charts, ChartScript* chart) {
  std::vector<const ModelInputCurve*> curves;
  for (const ModelInputCurve& curve : charts.inputs) {
    if (Drawable(curve)) curves.push_back(&curve);
  }
  if (curves.empty()) return false;

  const int columns = curves.size() == 1 ? 1 : 2;
  const int rows = static_cast<int>((curves.size() + columns - 1) / columns);
  chart->name = "inputs";
  chart->title = ChartTitle(charts.context, "model inputs vs P");
  chart->width_px = columns == 1 ? 800 : 1200;
  chart->height_px = 120 + 400 * rows;

  DataFile data;
  std::string body = "set multiplot layout " + std::to_string(rows) + "," +
                     std::to_string(columns) + " title " + GnuplotTitle(chart->title, kMultiplotTitleChars) + "\n";
  body += "set grid lc rgb '#dddddd'\n";
  body += "set format y '%g'\n";
  for (std::size_t k = 0; k < curves.size(); ++k) {
    const ModelInputCurve& curve = *curves[k];
    const std::string id = "input" + std::to_string(k);
    std::vector<int> procs;
    bool has_measured = false, has_fitted = false;
    // Inputs span decades (bytes per message falls ~1/P^2, Buckwalter 2005), so the y
    // axis is logarithmic whenever the positive values span one; zeros (no
    // messages at P = 1) cannot be drawn there and are left out of the data.
    double smallest = HUGE_VAL, largest = 0;
    for (const auto* points : {&curve.measured, &curve.fitted})
      for (const auto& [p, value] : *points)
        if (p > 0 && std::isfinite(value) && value > 0) {
          smallest = std::min(smallest, value);
          largest = std::max(largest, value);
        }
    const bool log_scale = largest > 0 && largest >= 10 * smallest;
    auto block = [&](const std::vector<std::pair<int, double>>& points, const std::string& name,
                     bool* any) {
      for (const auto& [p, value] : points) {
        if (p <= 0 || !std::isfinite(value) || (log_scale && value <= 0)) continue;
        if (!*any) data.Block(name, "P  value (" + curve.name + ", " + curve.unit + ")");
        *any = true;
        data.Row({double(p), value});
        procs.push_back(p);
      }
    };
    block(curve.measured, id + "_measured", &has_measured);
    block(curve.fitted, id + "_fitted", &has_fitted);

    // The formula goes into the panel's title, the key holds two short
    // entries: a key with the long formula ran into the neighbouring panel.
    body += "set title " + GnuplotQuote(curve.name);
    for (const std::string& line : Wrap("fit: " + (curve.formula.empty() ? "(no formula)" : curve.formula) +
                                            (curve.fit_note.empty() ? "" : "; " + curve.fit_note),
                                        columns == 1 ? 110 : 75))
      body += " . \"\\n\" . " + GnuplotQuote(line);
    body += " font \",9\"\n";
    // The key goes into the top corner the curve leaves free: left when it rises.
    const auto& trend = has_fitted ? curve.fitted : curve.measured;
    const bool rising = trend.size() >= 2 && trend.back().second > trend.front().second;
    body += std::string("set key inside top ") + (rising ? "left" : "right") + " box opaque samplen 2 font \",9\"\n";
    body += "set ylabel " + GnuplotQuote(curve.name + " (" + curve.unit + ")") + "\n";
    body += log_scale ? "set logscale y 10\n" : "unset logscale y\n";
    body += "set offsets 0, 0, 0, 0\n";
    // The y range is this input's own values with a margin (autoscaling
    // rounded a log axis out to whole decades: 1..1e8 for data in 1e3..1e5).
    if (largest > 0 && log_scale) {
      body += "set yrange [" + FormatValue(smallest / 1.5) + ":" + FormatValue(largest * 1.5) + "]\n";
      body += LogTics(smallest / 1.5, largest * 1.5);
    } else {
      double low = HUGE_VAL, high = -HUGE_VAL;
      for (const auto* points : {&curve.measured, &curve.fitted})
        for (const auto& [p, value] : *points)
          if (p > 0 && std::isfinite(value)) low = std::min(low, value), high = std::max(high, value);
      // At least 5% of the values' size (1 when they are 0): values equal up to
      // rounding (19 messages per process at every P, from two traces) gave a
      // range that printed as [19:19], which gnuplot refuses as empty.
      const double size = std::max(std::abs(low), std::abs(high));
      const double pad = std::max(0.08 * (high - low), size > 0 ? 0.05 * size : 1.0);
      body += "set yrange [" + FormatValue(low - pad) + ":" + FormatValue(high + pad) + "]\nset ytics auto\n";
    }
    body += ProcessAxis(procs, 1.25, 8);  // a 2 x 2 grid of panels: half the width for the labels
    std::sort(procs.begin(), procs.end());
    if (std::unique(procs.begin(), procs.end()) - procs.begin() > 10)
      body += "set xtics auto\n";  // a dense fitted grid would crowd a tic per P
    std::vector<std::string> plots;
    if (has_fitted)
      plots.push_back("'' index '" + id + "_fitted' using 1:2 with lines lw 2 dt 1 lc rgb '#2166ac' "
                      "title 'fit'");
    if (has_measured)
      plots.push_back("'' index '" + id + "_measured' using 1:2 with points pt 7 ps 1.4 "
                      "lc rgb '#b2182b' title 'measured'");
    body += PlotCommand(plots);
  }
  body += "unset multiplot\n";
  chart->data = data.text();
  chart->body = body;
  return true;
}

}  // namespace qnm::plots
