#include "pipeline/skipped_inputs.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <iostream>

#include "util/input_error.h"

namespace qnm {
namespace {

/// The reason a file was skipped without the file and line it names ("path:12: why" -> "why").
std::string ReasonWithoutFile(const SkippedFile& skipped) {
  const std::string& reason = skipped.reason;
  if (reason.rfind(skipped.path, 0) != 0) return reason;
  std::size_t at = skipped.path.size();
  if (at < reason.size() && reason[at] == ':') {
    ++at;
    while (at < reason.size() && std::isdigit(static_cast<unsigned char>(reason[at]))) ++at;
    if (at < reason.size() && reason[at] == ':') ++at;
  }
  while (at < reason.size() && reason[at] == ' ') ++at;
  return reason.substr(at);
}

/// A file named on the command line that cannot be read is an error.
void RefuseIfNamed(const std::vector<std::string>& named, const SkippedFile& skipped) {
  if (std::find(named.begin(), named.end(), skipped.path) != named.end()) throw InputError("", 0, skipped.reason);
}

}  // namespace

void ReportSkippedInputs(const std::vector<std::string>& named, const IngestSummary& summary) {
  std::map<std::string, int> said;  // lines per reason, without the file (and its line)
  std::map<std::string, std::string> first_more;  // reason -> the first file not said
  std::map<std::string, int> more;
  for (const SkippedFile& skipped : summary.skipped) {
    RefuseIfNamed(named, skipped);
    if (skipped.reason.find("not a recognised format") != std::string::npos) continue;
    const std::string why = ReasonWithoutFile(skipped);
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
