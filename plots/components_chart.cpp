// Stacked time components per process count (Buckwalter 2005, Figure 3): for each P
// the measured bar (compute, MPI) stands beside the modeled bar (compute,
// load imbalance, switch delay, MPI active, contention). Compute usually dwarfs the rest, so
// the lower panel shows each bar as shares of its own total and the upper
// panel the totals on a log axis, so no bar hides under the P = 1 bar.
#include <algorithm>
#include <cmath>
#include <map>

#include "plots/chart_builders.h"
#include "plots/chart_data.h"

namespace qnm::plots {
namespace {

double OrZero(double value) { return std::isfinite(value) && value > 0 ? value : 0.0; }

struct Row {
  double measured_compute_s = kNoValue, measured_mpi_s = kNoValue;
  double compute_s = kNoValue, switch_delay_s = kNoValue, mpi_active_s = kNoValue,
         contention_s = kNoValue, imbalance_s = kNoValue;
};

/// At most this many process counts get bars: 250 bars of a --procs 1..256 sweep are a
/// black mass with labels on top of each other.
constexpr std::size_t kMostBars = 24;

/// Keeps every measured P and, of the predicted-only ones, those nearest an even grid in
/// log P (the largest always) so that at most kMostBars remain; returns how many of the
/// predicted-only ones were kept and how many there were.
std::pair<int, int> ThinRows(std::map<int, Row>* rows) {
  std::vector<int> predicted_only;
  for (const auto& [procs, row] : *rows)
    if (!std::isfinite(row.measured_compute_s) && !std::isfinite(row.measured_mpi_s)) predicted_only.push_back(procs);
  const int total = static_cast<int>(predicted_only.size());
  const std::size_t measured = rows->size() - predicted_only.size();
  if (rows->size() <= kMostBars || predicted_only.size() < 2) return {total, total};
  const std::size_t keep = std::max<std::size_t>(8, kMostBars > measured ? kMostBars - measured : 0);
  const double low = std::log2(predicted_only.front()), high = std::log2(predicted_only.back());
  std::vector<bool> kept(predicted_only.size(), false);
  kept.back() = true;
  for (std::size_t k = 0; k + 1 < keep; ++k) {
    const double target = low + (high - low) * static_cast<double>(k) / static_cast<double>(keep - 1);
    std::size_t nearest = 0;
    for (std::size_t i = 1; i < predicted_only.size(); ++i)
      if (std::fabs(std::log2(predicted_only[i]) - target) < std::fabs(std::log2(predicted_only[nearest]) - target))
        nearest = i;
    kept[nearest] = true;
  }
  int shown = 0;
  for (std::size_t i = 0; i < predicted_only.size(); ++i) {
    if (kept[i]) ++shown;
    else rows->erase(predicted_only[i]);
  }
  return {shown, total};
}

bool HasModeled(const PredictedPoint& point) {
  return std::isfinite(point.compute_s) || std::isfinite(point.switch_delay_s) ||
         std::isfinite(point.mpi_active_s) || std::isfinite(point.contention_s);
}

}  // namespace

bool BuildComponentsChart(const ChartSet& charts, ChartScript* chart) {
  std::map<int, Row> rows;
  bool has_measured = false, has_modeled = false;
  for (const MeasuredComponents& point : charts.measured_components) {
    if (point.procs <= 0 || !(std::isfinite(point.compute_s) || std::isfinite(point.mpi_s)))
      continue;
    rows[point.procs].measured_compute_s = OrZero(point.compute_s);
    rows[point.procs].measured_mpi_s = OrZero(point.mpi_s);
    has_measured = true;
  }
  for (const PredictedPoint& point : charts.predicted) {
    if (point.procs <= 0 || !HasModeled(point)) continue;
    Row& row = rows[point.procs];
    has_modeled = true;
    row.compute_s = OrZero(point.compute_s);
    row.switch_delay_s = OrZero(point.switch_delay_s);
    row.mpi_active_s = OrZero(point.mpi_active_s);
    row.contention_s = OrZero(point.contention_s);
    row.imbalance_s = OrZero(point.imbalance_s);
  }
  if (rows.empty()) return false;
  const auto [shown, predicted] = ThinRows(&rows);

  DataFile data;
  data.Block("components",
             "slot  P  measured_compute_s  measured_mpi_s  compute_s  switch_delay_s  "
             "mpi_active_s  contention_s  imbalance_s  (seconds per rank; NaN = not available)");
  int slot = 0;
  std::string tics = "set xtics (";
  for (const auto& [procs, row] : rows) {
    tics += (slot > 0 ? ", '" : "'") + std::to_string(procs) + "' " + std::to_string(slot);
    data.Row({double(slot++), double(procs), row.measured_compute_s, row.measured_mpi_s,
              row.compute_s, row.switch_delay_s, row.mpi_active_s, row.contention_s, row.imbalance_s});
  }

  tics += ")\n";
  chart->name = "components";
  chart->title = ChartTitle(charts.context, "measured vs modeled time components per rank");
  chart->width_px = 1000;
  chart->height_px = 820;
  chart->data = data.text();

  struct Part {
    const char* title;
    const char* style;  // solid or hatched, so the parts stay apart in grayscale
    const char* color;
    bool compute;       // drawn only in the panel with compute
    std::string Fill() const {
      return std::string("fs ") + style + " border lc rgb '#000000' fc rgb '" + color + "'";
    }
  };
  const Part kMeasuredCompute = {"measured compute", "solid 1.0", "#bbbbbb", true};
  const Part kMeasuredMpi = {"measured MPI", "pattern 2", "#b2182b", false};
  const Part kCompute = {"modeled compute", "solid 1.0", "#eeeeee", true};
  const Part kImbalance = {"modeled load imbalance I", "pattern 5", "#7fbf7b", false};
  const Part kSwitchDelay = {"modeled switch delay", "solid 1.0", "#fdb863", false};
  const Part kMpiActive = {"modeled MPI service A", "pattern 4", "#2166ac", false};
  const Part kContention = {"modeled contention", "solid 1.0", "#333333", false};

  // Each stack is drawn as overlapping boxes, tallest (cumulative) first; the
  // key is built separately with keyentry so it lists the parts bottom to top.
  // Bars are shares of their own total (100% each): on a linear axis of
  // seconds every bar from P = 32 on vanished under the P = 1 bar. The
  // absolute totals have their own panel with a log axis.
  const std::string measured_total = "($3+$4)", modeled_total = "($5+$6+$7+$8+$9)";
  auto share = [](const std::string& part, const std::string& total) {
    return "(" + total + " > 0 ? 100*(" + part + ")/" + total + " : NaN)";
  };
  auto shares = [&]() {
    const std::string box = " with boxes ", no_key = " notitle";
    std::vector<std::string> plots;
    auto measured = [&](const std::string& part) { return share(part, measured_total); };
    auto modeled = [&](const std::string& part) { return share(part, modeled_total); };
    // A hatched box is drawn over a white one of the same height: gnuplot's SVG
    // terminal leaves a pattern's background transparent, so the taller box
    // beneath would show through it (the PNG terminal paints it white).
    auto layer = [&](const std::string& x, const std::string& y, const Part& part) {
      const std::string at = "'' using " + x + ":" + y + ":(0.38)" + box;
      if (std::string(part.style).rfind("pattern", 0) == 0)
        plots.push_back(at + "fs solid 1.0 noborder fc rgb '#ffffff'" + no_key);
      plots.push_back(at + part.Fill() + no_key);
    };
    layer("($1-0.2)", measured("$3+$4"), kMeasuredMpi);
    layer("($1-0.2)", measured("$3"), kMeasuredCompute);
    layer("($1+0.2)", modeled("$5+$6+$7+$8+$9"), kContention);
    layer("($1+0.2)", modeled("$5+$6+$7+$9"), kMpiActive);
    layer("($1+0.2)", modeled("$5+$6+$9"), kSwitchDelay);
    layer("($1+0.2)", modeled("$5+$9"), kImbalance);
    layer("($1+0.2)", modeled("$5"), kCompute);
    // keyentry after the data: gnuplot 5.4 asserts when a plot starts with one.
    for (const Part* part :
         {&kMeasuredCompute, &kMeasuredMpi, &kCompute, &kImbalance, &kSwitchDelay, &kMpiActive, &kContention}) {
      const bool measured_part = part == &kMeasuredCompute || part == &kMeasuredMpi;
      if (measured_part ? has_measured : has_modeled)
        plots.push_back(std::string("keyentry with boxes ") + part->Fill() + " title '" + part->title + "'");
    }
    return PlotCommand(plots);
  };
  auto totals = [&]() {
    std::vector<std::string> plots;
    if (has_measured)
      plots.push_back("'' using ($1-0.2):(" + measured_total + " > 0 ? " + measured_total +
                      " : NaN):(0.38) with boxes fs solid 1.0 border lc rgb '#000000' fc rgb '#bbbbbb' "
                      "title 'measured total'");
    if (has_modeled)
      plots.push_back("'' using ($1+0.2):(" + modeled_total + " > 0 ? " + modeled_total +
                      " : NaN):(0.38) with boxes fs solid 1.0 border lc rgb '#000000' fc rgb '#2166ac' "
                      "title 'modeled total'");
    return PlotCommand(plots);
  };
  double smallest = HUGE_VAL, largest = 0;
  for (const auto& [procs, row] : rows)
    for (double total : {OrZero(row.measured_compute_s) + OrZero(row.measured_mpi_s),
                         OrZero(row.compute_s) + OrZero(row.switch_delay_s) + OrZero(row.mpi_active_s) +
                             OrZero(row.contention_s) + OrZero(row.imbalance_s)})
      if (total > 0) smallest = std::min(smallest, total), largest = std::max(largest, total);
  if (!(largest > 0)) smallest = 1, largest = 10;

  std::string body;
  body += "set multiplot layout 2,1 title " + GnuplotTitle(chart->title, kMultiplotTitleChars) + "\n";
  body += "set xrange [-0.6:" + FormatValue(slot - 0.4) + "]\n" + tics;
  body += "set xlabel 'processes P  (left bar: measured, right bar: modeled" +
          (shown < predicted ? "; " + std::to_string(shown) + " of the " + std::to_string(predicted) +
                                   " predicted P, evenly in log P"
                             : std::string()) +
          ")'\n";
  body += "set grid ytics lc rgb '#dddddd'\n";
  body += "set key outside right top vertical box\n";
  body += "set lmargin 12\nset rmargin 37\n";
  body += "set title 'total time per rank (log scale)'\nset ylabel 'time per rank (s)'\nset logscale y\n";
  body += "set yrange [" + FormatValue(smallest / 2) + ":" + FormatValue(largest * 2) + "]\n";
  body += LogTics(smallest / 2, largest * 2);
  body += totals();
  body += "unset logscale y\nset ytics auto\nset yrange [0:100]\n";
  body += "set title 'share of each component in its bar'\nset ylabel 'share of time per rank (%)'\n";
  body += shares();
  body += "unset multiplot\n";
  chart->body = body;
  return true;
}

}  // namespace qnm::plots
