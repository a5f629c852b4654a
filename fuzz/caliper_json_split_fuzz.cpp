// libFuzzer target: Caliper's json-split reader and the record built from it
// (caliper/caliper_profile.h, caliper/caliper_reduction.h) must turn any bytes into
// a record or an InputError (file:line), never crash, hang or throw anything else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "caliper/caliper_profile.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)qnm::RunsToCsv({qnm::ReadCaliperJsonSplit(text, "profile.json")});
  } catch (const qnm::InputError&) {
  }
  return 0;
}
