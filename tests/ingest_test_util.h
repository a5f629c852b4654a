#pragma once
// Reading a path as `qnm-predict ingest` does, for the readers' tests.
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "util/input_error.h"

namespace qnm::testing {

/// The runs ingest reads from `path` (strict: the first bad file throws).
inline std::vector<RunStats> IngestPath(const std::string& path, IngestSummary* summary = nullptr,
                                        bool strict = true) {
  IngestOptions options;
  options.strict = strict;
  return IngestPaths({path}, options, summary);
}

/// The one-line error of reading `path` strictly, or "" when it reads.
inline std::string IngestErrorOf(const std::string& path) {
  try {
    IngestPath(path);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace qnm::testing
