#pragma once
// Shared machinery of every chart: the gnuplot script preamble (terminal per
// output format), the .dat data file with named blocks, and rendering all
// charts through one gnuplot session into a temporary directory whose files
// are renamed into place only when every chart rendered.
#include <string>
#include <vector>

#include "plots/charts.h"

namespace qnm::plots {

/// One chart ready to render: the body of its gnuplot script and its data file.
/// The body reads the data through the variable `datafile` set by the preamble.
struct ChartScript {
  std::string name;         // file-name suffix: "validation" -> <stem>_validation.png
  std::string title;        // one line, goes into the script's header comment
  std::string body;         // gnuplot commands after the preamble (set ..., plot ...)
  std::string data;         // contents of the .dat file
  int width_px = 960;
  int height_px = 640;
};

/// Builds a gnuplot data file of named blocks (`index 'name'` selects one).
class DataFile {
 public:
  /// Starts a block; `columns` documents the columns in a comment line.
  void Block(const std::string& name, const std::string& columns);
  void Row(const std::vector<double>& values);
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  bool first_block_ = true;
};

/// `text` as a single-quoted gnuplot string literal.
std::string GnuplotQuote(const std::string& text);

/// A chart title as a gnuplot string literal that fits `max_chars` per line: as it is when short;
/// else "<series>:" and "<what>" on two lines, the series' name shortened in its middle ("…")
/// when it alone is longer (a title gnuplot centres over the plot would run off the canvas).
/// Single plots fit about 90 characters of their 1150-pixel canvas, multiplots about 130.
std::string GnuplotTitle(const std::string& title, std::size_t max_chars);
constexpr std::size_t kPlotTitleChars = 90;
constexpr std::size_t kMultiplotTitleChars = 130;

/// A number as gnuplot reads it back exactly enough; "NaN" for missing values.
std::string FormatValue(double value);

/// "<series> on <machine>: <what>" (machine omitted when unknown).
std::string ChartTitle(const ChartContext& context, const std::string& what);

/// File-name-safe stem of the series: context.file_stem, else a cleaned series name.
std::string SeriesStem(const ChartContext& context);

/// A log2 x axis "processes P" spanning `procs` (padded by `pad` on each side)
/// with a tic at every process count, so the axis shows real P values; with more
/// than `max_tics` counts, tics at least 1/max_tics of the axis apart (and the largest).
std::string ProcessAxis(std::vector<int> procs, double pad = 1.25, int max_tics = 16);

/// `set ytics (...)` at 1-2-5 steps spanning [low, high] on a log axis (decades
/// only when the range spans more than four), so a tight range still has labels.
std::string LogTics(double low, double high);

/// The axes of a run-time chart: ProcessAxis(procs), a log y axis "run time (s)"
/// with LogTics(y_low, y_high), the grid, and the key outside on the right (so
/// it never hides a point, wherever the data lie).
std::string RunTimeAxes(const std::vector<int>& procs, double y_low, double y_high);

/// "plot a, \\ b, ..." where data clauses start with '' (the same file); the
/// first of them is given the file name `datafile` as gnuplot requires.
std::string PlotCommand(const std::vector<std::string>& clauses);

/// The complete .gp file: header comment, terminal for `fmt`, output, datafile, body.
std::string ScriptText(const ChartScript& chart, const std::string& file_stem);

/// Writes `<stem>_<name>.{gp,dat}` and renders each chart in every requested
/// format into options.output_dir. Nothing is placed there unless all succeed.
bool RenderCharts(const std::vector<ChartScript>& charts, const std::string& stem,
                  const PlotOptions& options, PlotResult* result, std::string* error);

}  // namespace qnm::plots
