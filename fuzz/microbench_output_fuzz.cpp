// libFuzzer target: the OSU and IMB readers (microbench/) and the profile
// built from what they read must turn any bytes into tables with finite,
// non-negative numbers and a profile with a positive latency and bandwidth,
// or an InputError, nothing else.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "microbench/micro_benchmark.h"
#include "microbench/network_profile.h"
#include "util/input_error.h"

namespace {

void Check(const std::vector<qnm::MicroBenchmarkTable>& tables) {
  for (const qnm::MicroBenchmarkTable& table : tables) {
    if (table.rows.empty()) std::abort();  // an empty table must have been refused
    for (const qnm::MessageSizeRow& row : table.rows)
      if (!std::isfinite(row.time_s) || row.time_s < 0 || !std::isfinite(row.bandwidth_bytes_per_s) ||
          row.bandwidth_bytes_per_s < 0 || row.bytes < 0 || row.line < 1)
        std::abort();
  }
  qnm::NetworkProfileOptions options;
  options.name = "fuzz";
  try {
    const qnm::MachineProfile profile = qnm::BuildNetworkProfile(tables, options, nullptr);
    if (!(profile.latency_s > 0) || !(profile.bandwidth_bytes_per_s > 0) ||
        !std::isfinite(profile.SwitchDelayPerMessage(1e6)))
      std::abort();
  } catch (const qnm::InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (bool imb : {false, true}) {
    try {
      Check(imb ? qnm::ReadImbOutput(text, "fuzz.txt") : qnm::ReadOsuOutput(text, "fuzz.txt"));
    } catch (const qnm::InputError&) {
    }
  }
  return 0;
}
