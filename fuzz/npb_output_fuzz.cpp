// libFuzzer target: the NPB output reader must turn any bytes into banners
// or an InputError (file:line), never crash, hang or throw anything else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "app_outputs/npb_output.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    qnm::NpbOutput output = qnm::ParseNpbOutput(text, "fuzz.out");
    std::vector<qnm::RunStats> runs = qnm::NpbToRunStats(output);
    (void)qnm::DescribeNpbOutput(output);
    (void)qnm::RunsToCsv(runs);
  } catch (const qnm::InputError&) {
  }
  return 0;
}
