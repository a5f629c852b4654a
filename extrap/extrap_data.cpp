// ExtrapData helpers shared by its readers: the point table, strict numbers,
// and Extra-P's own validation (io_helper.validate_experiment).
#include "extrap/extrap_data.h"

#include "extrap/extrap_data_builder.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {

int ExtrapData::Find(const std::string& callpath, const std::string& metric) const {
  for (std::size_t m = 0; m < measurements.size(); ++m)
    if (measurements[m].callpath == callpath && measurements[m].metric == metric) return static_cast<int>(m);
  return -1;
}

std::string DescribePoint(const std::vector<double>& point) {
  std::string text = "(";
  for (std::size_t k = 0; k < point.size(); ++k) text += (k ? ", " : "") + FormatExtrapNumber(point[k]);
  return text + ")";
}

std::string FormatExtrapNumber(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.15g", value);
  return text;
}

double ParseExtrapNumber(std::string_view token, const std::string& path, int line) {
  std::optional<double> value = ParseDouble(token);
  if (!value) throw InputError(path, line, "'" + std::string(token) + "' is not a number");
  if (!std::isfinite(*value)) throw InputError(path, line, "'" + std::string(token) + "' is not a finite number");
  return *value;
}

std::size_t ExtrapDataBuilder::Point(const std::vector<double>& point) {
  auto [it, added] = point_index_.emplace(point, data_.points.size());
  if (added) {
    data_.points.push_back(point);
    for (ExtrapMeasurement& m : data_.measurements) m.values.emplace_back();
  }
  return it->second;
}

ExtrapMeasurement& ExtrapDataBuilder::Measurement(const std::string& callpath, const std::string& metric) {
  auto [it, added] = measurement_index_.emplace(std::make_pair(callpath, metric), data_.measurements.size());
  if (added) data_.measurements.push_back({callpath, metric, std::vector<std::vector<double>>(data_.points.size())});
  return data_.measurements[it->second];
}

void ExtrapDataBuilder::Add(const std::string& callpath, const std::string& metric, const std::vector<double>& point,
                            const std::vector<double>& values) {
  std::size_t p = Point(point);
  std::vector<double>& slot = Measurement(callpath, metric).values[p];
  slot.insert(slot.end(), values.begin(), values.end());
}

void ValidateExtrapData(const ExtrapData& data, const std::string& path) {
  if (data.parameters.empty()) throw InputError(path, 0, "the experiment has no parameters");
  if (data.points.empty()) throw InputError(path, 0, "the experiment has no points");
  if (data.measurements.empty()) throw InputError(path, 0, "the experiment has no measurements");
  for (const std::vector<double>& point : data.points)
    if (point.size() != data.parameters.size())
      throw InputError(path, 0, "point " + DescribePoint(point) + " has " + std::to_string(point.size()) +
                                    " coordinates for " + std::to_string(data.parameters.size()) + " parameters");
  for (const ExtrapMeasurement& m : data.measurements) {
    std::size_t measured = 0;
    for (const std::vector<double>& values : m.values) measured += values.empty() ? 0 : 1;
    if (measured != data.points.size())
      throw InputError(path, 0, "call path '" + m.callpath + "' metric '" + m.metric + "' is measured at " +
                                    std::to_string(measured) + " of the " + std::to_string(data.points.size()) +
                                    " points (Extra-P needs every call path at every point)");
  }
}

}  // namespace qnm
