#include "report/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/html_text.h"

namespace qnm::report {
namespace {

// Margins of the plot area inside the SVG, in pixels: room for the tic
// labels on the left and below, the title and the legend above.
constexpr double kLeftPx = 64, kRightPx = 14, kTopPx = 50, kBottomPx = 42;

std::string Fixed(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

std::string TicText(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

std::vector<std::pair<double, std::string>> AutoTicks(const PlotAxis& axis) {
  std::vector<std::pair<double, std::string>> ticks;
  if (axis.log) {
    // Decades; 2 and 5 as well when the range spans less than three decades,
    // so a tight range still has labels.
    const bool fine = std::log10(axis.high / axis.low) < 3;
    for (int e = int(std::floor(std::log10(axis.low))); e <= int(std::ceil(std::log10(axis.high))); ++e)
      for (double m : {1.0, 2.0, 5.0}) {
        if (!fine && m != 1.0) continue;
        const double v = m * std::pow(10.0, e);
        if (v >= axis.low && v <= axis.high) ticks.emplace_back(v, TicText(v));
      }
    if (ticks.size() >= 2) return ticks;
    ticks.clear();  // less than a decade and no 1-2-5 inside: fall through to even steps
  }
  const double span = axis.high - axis.low;
  if (!(span > 0)) return {{axis.low, TicText(axis.low)}};
  const double raw = span / 5, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {2.0, 5.0, 10.0})
    if (raw > step) step = m * magnitude;
  for (double v = std::ceil(axis.low / step) * step; v <= axis.high + step * 1e-9 && ticks.size() < 50; v += step)
    ticks.emplace_back(std::abs(v) < step * 1e-9 ? 0.0 : v, TicText(std::abs(v) < step * 1e-9 ? 0.0 : v));
  return ticks;
}

}  // namespace

PlotAxis FitAxis(const std::vector<double>& values, bool log, const std::string& label) {
  PlotAxis axis;
  axis.log = log;
  axis.label = label;
  double low = HUGE_VAL, high = -HUGE_VAL;
  for (double v : values)
    if (std::isfinite(v) && (!log || v > 0)) {
      low = std::min(low, v);
      high = std::max(high, v);
    }
  if (!(low <= high)) {
    low = log ? 1 : 0;
    high = log ? 10 : 1;
  }
  if (log) {
    if (high < low * 1.5) {  // one value or nearly: a range of a factor of 2 around it
      low /= 1.4;
      high *= 1.4;
    }
    axis.low = low / 1.15;
    axis.high = high * 1.15;
  } else {
    // At least 5% of the values' size (1 when they are 0): values equal up to
    // rounding (19 messages per process from two traces) made a span below
    // the values' own precision, and the tics never advanced.
    const double size = std::max(std::abs(low), std::abs(high));
    const double pad = std::max((high - low) * 0.06, size > 0 ? 0.05 * size : 1.0);
    axis.low = low - pad;
    axis.high = high + pad;
  }
  return axis;
}

PlotAxis ProcessAxis(const std::vector<int>& procs_in) {
  std::vector<int> procs;
  for (int p : procs_in)
    if (p > 0) procs.push_back(p);
  std::sort(procs.begin(), procs.end());
  procs.erase(std::unique(procs.begin(), procs.end()), procs.end());
  PlotAxis axis;
  axis.log = true;
  axis.label = "processes P";
  if (procs.empty()) procs.push_back(1);
  axis.low = procs.front() / 1.3;
  axis.high = procs.back() * 1.3;
  // Every P when few; else every other one, so the labels never overlap.
  const std::size_t stride = procs.size() > 12 ? (procs.size() + 11) / 12 : 1;
  for (std::size_t i = 0; i < procs.size(); i += stride) axis.ticks.emplace_back(procs[i], std::to_string(procs[i]));
  return axis;
}

SvgPlot::SvgPlot(std::string title, PlotAxis x, PlotAxis y, int width_px, int height_px)
    : title_(std::move(title)), x_(std::move(x)), y_(std::move(y)), width_px_(width_px), height_px_(height_px) {}

double SvgPlot::Px(double x) const {
  const double w = width_px_ - kLeftPx - kRightPx;
  const double t = x_.log ? std::log(x / x_.low) / std::log(x_.high / x_.low) : (x - x_.low) / (x_.high - x_.low);
  return kLeftPx + std::clamp(t, -0.02, 1.02) * w;
}

double SvgPlot::Py(double y) const {
  const double h = height_px_ - kTopPx - kBottomPx;
  const double t = y_.log ? std::log(y / y_.low) / std::log(y_.high / y_.low) : (y - y_.low) / (y_.high - y_.low);
  return height_px_ - kBottomPx - std::clamp(t, -0.02, 1.02) * h;
}

std::string SvgPlot::PathOf(const std::vector<PlotPoint>& points) const {
  std::string d;
  for (const PlotPoint& p : points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || (x_.log && p.x <= 0) || (y_.log && p.y <= 0)) continue;
    d += (d.empty() ? "M" : " L") + Fixed(Px(p.x)) + " " + Fixed(Py(p.y));
  }
  return d;
}

void SvgPlot::Line(const std::vector<PlotPoint>& points, const std::string& color, const std::string& legend,
                   bool dashed) {
  const std::string d = PathOf(points);
  if (d.empty()) return;
  marks_ += "<path class=\"line\" d=\"" + d + "\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\"" +
            (dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
  if (!legend.empty()) legend_.emplace_back(color, legend);
}

void SvgPlot::Area(const std::vector<PlotPoint>& lower, const std::vector<PlotPoint>& upper, const std::string& color,
                   double opacity, const std::string& legend) {
  std::vector<PlotPoint> outline = lower;
  outline.insert(outline.end(), upper.rbegin(), upper.rend());
  const std::string d = PathOf(outline);
  if (d.empty()) return;
  marks_ += "<path class=\"area\" d=\"" + d + " Z\" fill=\"" + color + "\" fill-opacity=\"" + TicText(opacity) + "\" stroke=\"none\"/>\n";
  if (!legend.empty()) legend_.emplace_back(color, legend);
}

void SvgPlot::Markers(const std::vector<PlotPoint>& points, const std::string& color, const std::string& legend,
                      bool hollow) {
  std::string d;
  for (const PlotPoint& p : points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || (x_.log && p.x <= 0) || (y_.log && p.y <= 0)) continue;
    // A circle of radius 4 as two arcs.
    d += "M" + Fixed(Px(p.x) - 4) + " " + Fixed(Py(p.y)) + " a4 4 0 1 0 8 0 a4 4 0 1 0 -8 0 ";
  }
  if (d.empty()) return;
  marks_ += "<path class=\"markers\" d=\"" + d + "\" fill=\"" + (hollow ? std::string("none") : color) +
            "\" stroke=\"" + color + "\" stroke-width=\"" + (hollow ? "2.5" : "1.5") + "\"/>\n";
  if (!legend.empty()) legend_.emplace_back(color, legend);
}

void SvgPlot::Rect(double x0, double y0, double x1, double y1, const std::string& color, const std::string& tooltip) {
  const double left = std::min(Px(x0), Px(x1)), right = std::max(Px(x0), Px(x1));
  const double top = std::min(Py(y0), Py(y1)), bottom = std::max(Py(y0), Py(y1));
  marks_ += "<path class=\"bar\" d=\"M" + Fixed(left) + " " + Fixed(bottom) + " H" + Fixed(right) + " V" +
            Fixed(top) + " H" + Fixed(left) + " Z\" fill=\"" + color + "\" stroke=\"#333\" stroke-width=\"0.5\"><title>" +
            EscapeHtml(tooltip) + "</title></path>\n";
}

void SvgPlot::Label(double x, double y, const std::string& text, int dy_px) {
  marks_ += "<text x=\"" + Fixed(Px(x)) + "\" y=\"" + Fixed(Py(y) - dy_px) +
            "\" text-anchor=\"middle\" font-size=\"10\">" + EscapeHtml(text) + "</text>\n";
}

void SvgPlot::LegendEntry(const std::string& color, const std::string& legend) { legend_.emplace_back(color, legend); }

std::string SvgPlot::Render() const {
  const std::string w = std::to_string(width_px_), h = std::to_string(height_px_);
  const double left = kLeftPx, right = width_px_ - kRightPx, top = kTopPx, bottom = height_px_ - kBottomPx;
  std::string svg = "<svg class=\"chart\" viewBox=\"0 0 " + w + " " + h +
                    "\" width=\"" + w + "\" height=\"" + h + "\" role=\"img\" aria-label=\"" + EscapeHtml(title_) +
                    "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  svg += "<title>" + EscapeHtml(title_) + "</title>\n";
  svg += "<text x=\"" + Fixed(width_px_ / 2.0) + "\" y=\"16\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\">" +
         EscapeHtml(title_) + "</text>\n";
  // Legend: one row above the plot area, so it never covers data.
  double lx = left;
  for (const auto& [color, text] : legend_) {
    svg += "<path d=\"M" + Fixed(lx) + " 30 h14 v8 h-14 Z\" fill=\"" + color + "\"/>";
    svg += "<text x=\"" + Fixed(lx + 18) + "\" y=\"38\">" + EscapeHtml(text) + "</text>\n";
    lx += 30 + 6.2 * text.size();
  }
  // Grid and tics.
  std::string grid;
  // A label that would run into the previous one is left out (its grid line stays):
  // on a log axis, P = 2048 and 3200 sit 20 px apart.
  double last_label_right_px = -1e9;
  for (const auto& [v, text] : x_.ticks.empty() ? AutoTicks(x_) : x_.ticks) {
    const double px = Px(v);
    grid += "M" + Fixed(px) + " " + Fixed(top) + " V" + Fixed(bottom) + " ";
    const double half_width_px = 3.1 * text.size();
    if (px - half_width_px < last_label_right_px + 4) continue;
    last_label_right_px = px + half_width_px;
    svg += "<text x=\"" + Fixed(px) + "\" y=\"" + Fixed(bottom + 14) + "\" text-anchor=\"middle\">" +
           EscapeHtml(text) + "</text>\n";
  }
  for (const auto& [v, text] : y_.ticks.empty() ? AutoTicks(y_) : y_.ticks) {
    const double py = Py(v);
    grid += "M" + Fixed(left) + " " + Fixed(py) + " H" + Fixed(right) + " ";
    svg += "<text x=\"" + Fixed(left - 4) + "\" y=\"" + Fixed(py + 4) + "\" text-anchor=\"end\">" + EscapeHtml(text) +
           "</text>\n";
  }
  svg += "<path class=\"grid\" d=\"" + grid + "\" stroke=\"#e4e4e4\" fill=\"none\"/>\n";
  svg += "<text x=\"" + Fixed((left + right) / 2) + "\" y=\"" + Fixed(height_px_ - 6.0) + "\" text-anchor=\"middle\">" +
         EscapeHtml(x_.label) + "</text>\n";
  svg += "<text transform=\"translate(14 " + Fixed((top + bottom) / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         EscapeHtml(y_.label) + "</text>\n";
  svg += marks_;
  svg += "<path class=\"frame\" d=\"M" + Fixed(left) + " " + Fixed(top) + " H" + Fixed(right) + " V" + Fixed(bottom) +
         " H" + Fixed(left) + " Z\" fill=\"none\" stroke=\"#555\"/>\n";
  svg += "</svg>\n";
  return svg;
}

}  // namespace qnm::report
