#include "trace/otf2_error.h"

#include <otf2/otf2.h>

#include <cstdarg>
#include <cstdio>
#include <mutex>

namespace qnm::trace {
namespace {

thread_local std::string g_last_otf2_error;

OTF2_ErrorCode RecordOtf2Error(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code,
                               const char* format, va_list args) {
  char buffer[512];
  std::vsnprintf(buffer, sizeof buffer, format ? format : "", args);
  g_last_otf2_error = std::string(OTF2_Error_GetName(code)) + ": " + buffer;
  return code;
}

}  // namespace

void RecordOtf2Errors() {
  // Registered once: reader threads must not race on libotf2's global handler.
  static std::once_flag registered;
  std::call_once(registered, [] { OTF2_Error_RegisterCallback(RecordOtf2Error, nullptr); });
  g_last_otf2_error.clear();
}

std::string Otf2Message(const char* what) {
  std::string message = what;
  if (!g_last_otf2_error.empty()) message += " (" + g_last_otf2_error + ")";
  return message;
}

}  // namespace qnm::trace
