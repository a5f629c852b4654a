#pragma once
// Charts drawn with gnuplot (through gnuplot-iostream) from the same results
// the predictor prints. Every chart is written as PNG and SVG (PDF when the
// pdfcairo terminal exists) with its gnuplot script and data file beside it.
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace qnm::plots {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

struct ChartContext {
  std::string series_name;  // e.g. "lu-mz.C th=4"
  std::string machine;      // e.g. "LLNL cab" (empty when unknown)
  std::string file_stem;    // file-name-safe stem for this series, e.g. "lu-mz.C.th4"
  // Why the predicted curve ends or bends where it does: short lines shown on
  // the run-time chart, e.g. {"no prediction beyond P = 256:", "256 units of work"}.
  std::vector<std::string> caveat;
};

/// A measured run time (median over repetitions, with min/max spread).
struct MeasuredPoint {
  int procs = 0;
  double time_s = kNoValue;
  double min_s = kNoValue, max_s = kNoValue;
  bool training = true;  // used to fit the model (false: held out for validation)
};

/// A modeled/predicted run time with its interval and five components.
struct PredictedPoint {
  int procs = 0;
  double time_s = kNoValue;
  double lower_s = kNoValue, upper_s = kNoValue;  // prediction interval
  double compute_s = kNoValue, imbalance_s = kNoValue, switch_delay_s = kNoValue, mpi_active_s = kNoValue,
         contention_s = kNoValue;
  bool flagged = false;  // the prediction has flags (envelope, unevidenced turn, leaves the node): a warning marker
};

/// Measured decomposition of one run (Buckwalter 2005, Figure 3, left bars).
struct MeasuredComponents {
  int procs = 0;
  double compute_s = kNoValue;
  double mpi_s = kNoValue;
};

/// One model input vs P (messages per rank, bytes per message, ...).
struct ModelInputCurve {
  std::string name;     // "messages per rank"
  std::string unit;     // "messages", "bytes", "s"
  std::string formula;  // the fitted formula as text, e.g. "3.1e2 * P^1 * log2(P)"
  std::string fit_note;  // where the fit misses a measured point, e.g. "misses the measured P=16 by 4.0x"
  std::vector<std::pair<int, double>> measured;  // (P, value)
  std::vector<std::pair<int, double>> fitted;    // (P, value) on a dense grid
};

struct ChartSet {
  ChartContext context;
  std::vector<MeasuredPoint> measured;
  std::vector<PredictedPoint> predicted;            // at measured and extrapolated P
  std::vector<MeasuredComponents> measured_components;
  std::vector<ModelInputCurve> inputs;
  double serial_fraction = kNoValue;  // fitted Amdahl serial fraction f (speedup <= 1/(f+(1-f)/P))
  double interval_level = 0.9;        // level of the prediction intervals
  // What-if x scaling (`predict --whatif`): the code with the hypotheses,
  // predicted beside `predicted` (the unchanged code). Empty: no what-if chart.
  std::vector<PredictedPoint> whatif;
  std::vector<MeasuredPoint> whatif_measured;  // the measured runs with the hypotheses (simulated or re-timed)
  std::string whatif_label;                    // the hypotheses, e.g. "balance region \"solve\""
};

struct PlotOptions {
  std::string output_dir;  // created if missing
  bool png = true;
  bool svg = true;
  bool pdf = false;        // only when gnuplot has the pdfcairo terminal
};

struct PlotResult {
  std::vector<std::string> files;  // every file written (images, scripts, data)
  std::vector<std::string> warnings;
};

/// True when a usable gnuplot executable is on PATH.
bool GnuplotAvailable();

/// Draws every chart the ChartSet has data for into options.output_dir.
/// Returns false with `error` set (e.g. "gnuplot not found: install gnuplot-nox")
/// and writes nothing partial when it fails.
bool WriteCharts(const ChartSet& charts, const PlotOptions& options, PlotResult* result,
                 std::string* error);

}  // namespace qnm::plots
