// libFuzzer target: the mpiP report reader must turn any bytes into a report
// or an InputError (file:line), never crash, hang or throw anything else.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "profiles/mpip_report.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    qnm::MpipReport report = qnm::ParseMpipReport(text, "fuzz.mpiP");
    qnm::RunStats run = qnm::MpipToRunStats(report);
    (void)qnm::DescribeMpipReport(report);
    (void)qnm::RunsToJson({run});
  } catch (const qnm::InputError&) {
  }
  return 0;
}
