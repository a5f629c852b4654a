// libFuzzer target: the text reports' readers — Arm Performance Reports, OTF-CPT, qnm-predict export
// (issue 18), Intel APS and HPCG (round 37) — must turn any bytes into records or an InputError
// (file:line), never crash, hang or throw anything else. The first byte picks the reader.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "app_outputs/app_output_readers.h"
#include "extrap/extrap_readers.h"
#include "profiles/profile_readers.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const char* paths[] = {"fuzz.txt", "fuzz-64x12.txt", "fuzz.txt", "fuzz.jsonl", "aps.txt", "HPCG-Benchmark_3.1.txt"};
  const int reader = data[0] % 6;
  qnm::ReaderInput input{paths[reader], text, {}};
  try {
    qnm::ReaderOutput output;
    switch (reader) {
      case 0:
        if (qnm::SniffArmPerformanceReport(input.path, text)) output = qnm::ReadArmPerformanceReport(input);
        break;
      case 1:
        if (qnm::SniffOtfCptReport(input.path, text)) output = qnm::ReadOtfCptReport(input);
        break;
      case 4:
        if (qnm::SniffIntelApsReport(input.path, text)) output = qnm::ReadIntelApsReport(input);
        break;
      case 5:
        if (qnm::SniffHpcgOutput(input.path, text)) output = qnm::ReadHpcgOutput(input);
        break;
      default:
        if (qnm::SniffQnmExport(input.path, text)) output = qnm::ReadQnmExport(input);
        break;
    }
    (void)qnm::RunsToCsv(output.runs);
  } catch (const qnm::InputError&) {
  }
  return 0;
}
