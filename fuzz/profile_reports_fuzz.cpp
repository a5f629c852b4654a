// libFuzzer target: the Arm Performance Reports, OTF-CPT and qnm-predict
// export readers (issue 18) must turn any bytes into records or an InputError
// (file:line), never crash, hang or throw anything else. The first byte picks the reader.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extrap/extrap_readers.h"
#include "profiles/profile_readers.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const char* paths[] = {"fuzz.txt", "fuzz-64x12.txt", "fuzz.txt", "fuzz.jsonl"};
  qnm::ReaderInput input{paths[data[0] % 4], text, {}};
  try {
    qnm::ReaderOutput output;
    switch (data[0] % 4) {
      case 0:
        if (qnm::SniffArmPerformanceReport(input.path, text)) output = qnm::ReadArmPerformanceReport(input);
        break;
      case 1:
        if (qnm::SniffOtfCptReport(input.path, text)) output = qnm::ReadOtfCptReport(input);
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
