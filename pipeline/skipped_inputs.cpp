#include "pipeline/skipped_inputs.h"

#include <algorithm>
#include <iostream>

#include "util/input_error.h"

namespace qnm {

void ReportSkippedInputs(const std::vector<std::string>& named, const IngestSummary& summary) {
  for (const SkippedFile& skipped : summary.skipped) {
    if (std::find(named.begin(), named.end(), skipped.path) != named.end())
      throw InputError("", 0, skipped.reason);
    if (skipped.reason.find("not a recognised format") == std::string::npos)
      std::cerr << "qnm-predict: skipped " << skipped.reason << "\n";
  }
}

}  // namespace qnm
