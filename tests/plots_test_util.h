#pragma once
// Small helpers shared by the plots tests.
#include <stdlib.h>

#include <filesystem>
#include <set>
#include <string>

#include "plots/charts.h"

namespace qnm::plots::testutil {

/// A fresh empty directory under the system temp dir, removed on scope exit.
struct ScratchDir {
  explicit ScratchDir(const std::string& tag) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("qnm-plots-" + tag + "-XXXXXX")).string();
    path = ::mkdtemp(pattern.data());
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::filesystem::path path;
};

/// Names of the entries of `dir` (empty when it does not exist).
inline std::set<std::string> FileNames(const std::filesystem::path& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    names.insert(entry.path().filename());
  return names;
}

inline bool IsPng(const std::string& bytes) {
  return bytes.size() > 8 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

/// What WriteCharts returned, with its message and result.
struct Written {
  bool ok = false;
  std::string error;
  PlotResult result;
};

/// Draws `set` into `dir` in the chosen formats.
inline Written WriteInto(const ChartSet& set, const std::filesystem::path& dir, bool png = true,
                         bool svg = true, bool pdf = false) {
  PlotOptions options;
  options.output_dir = dir.string();
  options.png = png;
  options.svg = svg;
  options.pdf = pdf;
  Written written;
  written.ok = WriteCharts(set, options, &written.result, &written.error);
  return written;
}

}  // namespace qnm::plots::testutil
