// libFuzzer target: JUBE result tables (tables/jube_result.h) — a result folder's table in any style and
// `jube result`'s printout — must turn any bytes into records or an InputError (file:line), never crash, hang or
// throw anything else. The first byte picks the file's place: even a result folder's table, odd a printout.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "record/run_stats_json.h"
#include "tables/jube_result.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  qnm::ReaderInput input;
  input.path = data[0] % 2 == 0 ? "bench_run/000000/result/result.dat" : "jube-result.txt";
  input.text = std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 1 && !qnm::LooksLikeJubePrettyTable(input.text)) return 0;
  try {
    (void)qnm::RunsToCsv(qnm::ReadJubeResult(input).runs);
  } catch (const qnm::InputError&) {
  }
  return 0;
}
