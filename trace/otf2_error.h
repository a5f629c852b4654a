#pragma once
// libotf2 reports errors through one process-wide callback. We keep the last
// message (per thread) so that our exceptions can say what went wrong, and
// let libotf2 print nothing.
#include <string>

namespace qnm::trace {

/// Installs the recording callback and clears the last message.
void RecordOtf2Errors();
/// `what`, followed by " (<libotf2's last error>)" when there is one.
std::string Otf2Message(const char* what);

}  // namespace qnm::trace
