#include "plots/chart_data.h"

#include <algorithm>

namespace qnm::plots {
namespace {

template <typename Point>
std::vector<Point> Drawable(const std::vector<Point>& points) {
  std::vector<Point> out;
  for (const Point& point : points) {
    if (point.procs > 0 && Positive(point.time_s)) out.push_back(point);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Point& a, const Point& b) { return a.procs < b.procs; });
  return out;
}

}  // namespace

std::vector<MeasuredPoint> DrawableMeasured(const ChartSet& charts) {
  return Drawable(charts.measured);
}

std::vector<PredictedPoint> DrawablePredicted(const ChartSet& charts) {
  return Drawable(charts.predicted);
}

std::vector<PredictedPoint> DrawableWhatif(const ChartSet& charts) { return Drawable(charts.whatif); }

std::vector<MeasuredPoint> DrawableWhatifMeasured(const ChartSet& charts) {
  return Drawable(charts.whatif_measured);
}

const PredictedPoint* PredictedAt(const std::vector<PredictedPoint>& predicted, int procs) {
  for (const PredictedPoint& point : predicted) {
    if (point.procs == procs) return &point;
  }
  return nullptr;
}

}  // namespace qnm::plots
