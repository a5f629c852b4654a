#pragma once
// Internal to the Extra-P readers (extrap/extrap_*.cpp): builds an ExtrapData
// from (call path, metric, point, values) entries through an index of points
// and call path x metric keys (never pairwise); points and call paths keep the order
// in which they first appear, as Extra-P's do.
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "extrap/extrap_data.h"

namespace qnm {

/// "(4, 2000)".
std::string DescribePoint(const std::vector<double>& point);
/// Shortest text of a coordinate or value ("20", "1.5").
std::string FormatExtrapNumber(double value);
/// The whole token as a finite number; InputError(path, line) otherwise.
double ParseExtrapNumber(std::string_view token, const std::string& path, int line);

class ExtrapDataBuilder {
 public:
  explicit ExtrapDataBuilder(std::vector<std::string> parameters) { data_.parameters = std::move(parameters); }
  /// The point's index, adding it at the end when new.
  std::size_t Point(const std::vector<double>& point);
  ExtrapMeasurement& Measurement(const std::string& callpath, const std::string& metric);
  /// Appends `values` (repetitions) to callpath x metric at `point`.
  void Add(const std::string& callpath, const std::string& metric, const std::vector<double>& point,
           const std::vector<double>& values);
  ExtrapData& data() { return data_; }
  ExtrapData Take() { return std::move(data_); }

 private:
  ExtrapData data_;
  std::map<std::vector<double>, std::size_t> point_index_;
  std::map<std::pair<std::string, std::string>, std::size_t> measurement_index_;
};

}  // namespace qnm
