// libFuzzer target: the Extra-P readers (text, JSON, JSON Lines) and the
// conversion to records must turn any bytes into records or an InputError.
// The first byte picks the reader so one corpus covers all three; each
// experiment read is written back and read again.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extrap/extrap_experiment.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    qnm::ExtrapExperiment experiment = data[0] % 3 == 0   ? qnm::ReadExtrapText(text, "fuzz.txt")
                                       : data[0] % 3 == 1 ? qnm::ReadExtrapJson(text, "fuzz.json")
                                                          : qnm::ReadExtrapJsonLines(text, "fuzz.jsonl");
    (void)qnm::ExtrapToRunStats(experiment, "fuzz", "fuzz");
    (void)qnm::ReadExtrapText(qnm::WriteExtrapText(experiment), "again.txt");
    (void)qnm::ReadExtrapJsonLines(qnm::WriteExtrapJsonLines(experiment), "again.jsonl");
  } catch (const qnm::InputError&) {
  }
  return 0;
}
