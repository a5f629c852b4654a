#pragma once
// JSON cells shared by every JSON writer: an unknown or non-finite number is
// written as null, never as NaN/inf (which JSON cannot hold).
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

namespace qnm {

/// `value`, or null when it is NaN (unknown) or infinite.
inline nlohmann::json JsonNumber(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

/// An array of JsonNumber cells.
inline nlohmann::json JsonNumbers(const std::vector<double>& values) {
  nlohmann::json out = nlohmann::json::array();
  for (double value : values) out.push_back(JsonNumber(value));
  return out;
}

}  // namespace qnm
