// libFuzzer target: the IPM XML log reader (ingest/ipm_log.h) must turn any
// bytes into a record or an InputError (file:line), never crash, hang or throw
// anything else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ingest/ipm_log.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)qnm::RunsToCsv({qnm::ReadIpmXml(text, "fuzz.ipm.xml")});
  } catch (const qnm::InputError&) {
  }
  return 0;
}
