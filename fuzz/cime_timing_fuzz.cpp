// libFuzzer target: the CIME timing profile reader must turn any bytes into a run or an InputError
// (file:line), never crash, hang or throw anything else.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "app_outputs/cime_timing.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    if (!qnm::LooksLikeCimeTiming(text)) return 0;
    const std::string path = "timing/cesm_timing.fuzz.1";
    qnm::RunStats run = qnm::CimeTimingToRunStats(qnm::ParseCimeTiming(text, path), path);
    (void)qnm::RunsToCsv({run});
  } catch (const qnm::InputError&) {
  }
  return 0;
}
