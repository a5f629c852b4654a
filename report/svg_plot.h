#pragma once
// A small SVG plotter for the HTML report. The report must be one file that
// works from disk, and 100 series must render in seconds: gnuplot (one
// process per image) is neither, so the report draws its charts itself.
// Every mark is an SVG <path>, so a browser test can check that a chart drew.
#include <string>
#include <utility>
#include <vector>

namespace qnm::report {

struct PlotPoint {
  double x = 0, y = 0;
};

/// One axis: its range, scale, label (with unit) and tics (empty: automatic).
struct PlotAxis {
  double low = 0, high = 1;
  bool log = false;
  std::string label;
  std::vector<std::pair<double, std::string>> ticks;
};

/// An axis that fits `values` (finite ones; positive ones on a log axis) with a small margin.
PlotAxis FitAxis(const std::vector<double>& values, bool log, const std::string& label);

/// Tics at every process count in `procs` (a log2 axis of P).
PlotAxis ProcessAxis(const std::vector<int>& procs);

class SvgPlot {
 public:
  SvgPlot(std::string title, PlotAxis x, PlotAxis y, int width_px = 560, int height_px = 330);
  void Line(const std::vector<PlotPoint>& points, const std::string& color, const std::string& legend,
            bool dashed = false);
  /// The region between two curves (an interval, a band around 0).
  void Area(const std::vector<PlotPoint>& lower, const std::vector<PlotPoint>& upper, const std::string& color,
            double opacity, const std::string& legend);
  void Markers(const std::vector<PlotPoint>& points, const std::string& color, const std::string& legend,
               bool hollow = false);
  /// A rectangle in data coordinates; `tooltip` is shown on hover (escaped here).
  void Rect(double x0, double y0, double x1, double y1, const std::string& color, const std::string& tooltip);
  /// A label centred at (x, y) in data coordinates, `dy_px` pixels above.
  void Label(double x, double y, const std::string& text, int dy_px = 4);
  /// A legend entry without a mark of its own (e.g. the parts of a stacked bar).
  void LegendEntry(const std::string& color, const std::string& legend);
  std::string Render() const;

 private:
  double Px(double x) const;
  double Py(double y) const;
  std::string PathOf(const std::vector<PlotPoint>& points) const;

  std::string title_;
  PlotAxis x_, y_;
  int width_px_, height_px_;
  std::string marks_;
  std::vector<std::pair<std::string, std::string>> legend_;  // color, text
};

}  // namespace qnm::report
