#pragma once
// Reading a path as `qnm-predict ingest` does, for the readers' tests.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "tests/temp_dir.h"
#include "textio/text_lines.h"
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

/// The bytes of `path` (a test input read as the readers' own tests compare with).
inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// `text` with its first `from` replaced by `to` (an edit of a real input; the text must be there).
inline std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

/// Every note of an ingest summary, a line each (for CHECKs that look for one).
inline std::string NotesOf(const IngestSummary& summary) {
  std::string notes;
  for (const std::string& note : summary.notes) notes += note + "\n";
  return notes;
}

/// The one record of `runs`, REQUIREd to be one (a file holding one run). Bind the result of a
/// temporary (`Only(IngestPath(...))`) by value: the reference dies with the vector.
inline const RunStats& Only(const std::vector<RunStats>& runs) {
  REQUIRE(runs.size() == 1);
  return runs.front();
}

/// Writes `text` to `name` in `dir` (an edited copy of a real input) and returns its path.
inline std::string WriteCase(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = (dir.path / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace qnm::testing
