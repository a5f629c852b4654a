#include "pipeline/skipped_inputs.h"

#include <algorithm>
#include <iostream>

#include "util/input_error.h"

namespace qnm {
namespace {

/// A file named on the command line that cannot be read is an error.
void RefuseIfNamed(const std::vector<std::string>& named, const SkippedFile& skipped) {
  if (std::find(named.begin(), named.end(), skipped.path) != named.end()) throw InputError("", 0, skipped.reason);
}

}  // namespace

void ReportSkippedInputs(const std::vector<std::string>& named, const IngestSummary& summary) {
  for (const SkippedFile& skipped : summary.skipped) {
    RefuseIfNamed(named, skipped);
    if (skipped.reason.find("not a recognised format") == std::string::npos)
      std::cerr << "qnm-predict: skipped " << skipped.reason << "\n";
  }
}

void RefuseSkippedNamedInputs(const std::vector<std::string>& named, const IngestSummary& summary) {
  for (const SkippedFile& skipped : summary.skipped) RefuseIfNamed(named, skipped);
}

}  // namespace qnm
