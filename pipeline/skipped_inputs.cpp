#include "pipeline/skipped_inputs.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <string>

#include "util/input_error.h"

namespace qnm {
namespace {

/// A file named on the command line that cannot be read is an error.
void RefuseIfNamed(const std::vector<std::string>& named, const SkippedFile& skipped) {
  if (std::find(named.begin(), named.end(), skipped.path) != named.end()) throw InputError("", 0, skipped.reason);
}

}  // namespace

void ReportSkippedInputs(const std::vector<std::string>& named, const IngestSummary& summary) {
  // Per kind of failure (SkippedFile::Kind, as ingest's summary counts them): lines said, then the
  // files not said and the first of them.
  std::map<std::string, int> said, more;
  std::map<std::string, std::string> first_more;
  for (const SkippedFile& skipped : summary.skipped) {
    RefuseIfNamed(named, skipped);
    if (skipped.Unrecognised()) continue;
    const std::string why = skipped.Kind();
    if (said[why] < kSkippedLinesPerReason) {
      ++said[why];
      std::cerr << "qnm-predict: skipped " << skipped.reason << "\n";
    } else if (more[why]++ == 0) {
      first_more[why] = skipped.path;
    }
  }
  for (const auto& [why, count] : more)
    std::cerr << "qnm-predict: skipped " << count << " more file" << (count == 1 ? "" : "s") << " for the same reason ("
              << why << "), the first " << first_more[why] << "; `qnm-predict ingest` lists every one\n";
}

void RefuseSkippedNamedInputs(const std::vector<std::string>& named, const IngestSummary& summary) {
  for (const SkippedFile& skipped : summary.skipped) RefuseIfNamed(named, skipped);
}

}  // namespace qnm
