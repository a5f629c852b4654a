// libFuzzer target: the ReFrame performance log and JSON run report readers
// (job_records/reframe_perflog.cpp) must turn any bytes into records or an InputError (file:line),
// never crash, hang or throw anything else. The first byte picks --metric (none, or a name the
// seeds use) and, with bit 2, the run report.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "job_records/job_record_readers.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  static const char* kMetrics[] = {"", "total_time", "Total Time", "elapsed"};
  qnm::RunSelection selection;
  selection.metric = kMetrics[data[0] % 4];
  const bool report = data[0] & 4;
  qnm::ReaderInput input{report ? "run-report.json" : "perflogs/sys/part/Test_64_32.log", text, {}, &selection};
  try {
    if (report && qnm::SniffReframeRunReport(input.path, text))
      (void)qnm::RunsToCsv(qnm::ReadReframeRunReport(input).runs);
    else if (!report && qnm::SniffReframePerflog(input.path, text))
      (void)qnm::RunsToCsv(qnm::ReadReframePerflog(input).runs);
  } catch (const qnm::InputError&) {
  }
  return 0;
}
