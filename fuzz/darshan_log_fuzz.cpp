// libFuzzer target: Darshan logs (profiles/darshan_log.h) — the binary log's header and compressed job region,
// and darshan-parser's printed job summary — must turn any bytes into a record or an InputError (file:line),
// never crash, hang or throw anything else. The first byte picks the form: even the binary log, odd the text.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "profiles/darshan_log.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const qnm::DarshanJob job = data[0] % 2 == 0 ? qnm::ReadDarshanLogJob(bytes, "a_id1_1-1-1-1_1.darshan")
                                                 : qnm::ReadDarshanParserJob(bytes, "parser.txt");
    const std::vector<qnm::RunStats> runs = {qnm::DarshanJobToRunStats(job, "a.darshan")};
    (void)qnm::RunsToCsv(runs);
  } catch (const qnm::InputError&) {
  }
  return 0;
}
