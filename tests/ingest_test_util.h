#pragma once
// Reading a path as `qnm-predict ingest` does, for the readers' tests.
#include <algorithm>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "ingest/text_lines.h"
#include "util/input_error.h"

namespace qnm::testing {

/// The runs ingest reads from `path` (strict: the first bad file throws).
inline std::vector<RunStats> IngestPath(const std::string& path, IngestSummary* summary = nullptr,
                                        bool strict = true) {
  IngestOptions options;
  options.strict = strict;
  return IngestPaths({path}, options, summary);
}

/// The number a reader kept in run.details[key]; NaN when the key is missing or not a number.
inline double DetailNumber(const RunStats& run, const std::string& key) {
  auto found = run.details.find(key);
  auto number = found == run.details.end() ? std::nullopt : ParseDouble(found->second);
  return number ? *number : std::nan("");
}

/// `ours` equals a peer tool's reading `peer` (a JSON array) to 1e-12 relative, value by value.
inline bool SameAsPeer(const std::vector<double>& ours, const nlohmann::json& peer) {
  if (ours.size() != peer.size()) return false;
  for (std::size_t k = 0; k < ours.size(); ++k) {
    const double a = ours[k], b = peer[k].get<double>();
    if (!(std::abs(a - b) <= 1e-12 * std::max({1.0, std::abs(a), std::abs(b)}))) return false;
  }
  return true;
}

/// The one-line InputError that `read` throws, or "" when it throws none.
inline std::string InputErrorOf(const std::function<void()>& read) {
  try {
    read();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

/// The one-line error of reading `path` strictly, or "" when it reads.
inline std::string IngestErrorOf(const std::string& path) {
  return InputErrorOf([&] { IngestPath(path); });
}

}  // namespace qnm::testing
