// libFuzzer target: the readers of models' own timer summaries added in round 45 — Nalu-Wind logs, FMS
// timing tables, ESMF profile summaries, the Unified Model's timer output — must turn any bytes into
// records or an InputError (file:line), never crash, hang or throw anything else. The first byte picks
// the reader.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app_outputs/esmf_profile.h"
#include "app_outputs/fms_clocks.h"
#include "app_outputs/nalu_log.h"
#include "app_outputs/um_timers.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<qnm::RunStats> runs;
  try {
    switch (data[0] % 4) {
      case 0:
        if (!qnm::LooksLikeNaluLog(text)) return 0;
        for (const qnm::NaluRun& run : qnm::ParseNaluLog(text, "abl.log")) {
          int line = 0;
          if (qnm::NaluRunUnfinished(run, &line).empty()) runs.push_back(qnm::NaluRunToRunStats(run, "abl.log"));
        }
        break;
      case 1:
        if (!qnm::LooksLikeFmsClocks(text)) return 0;
        for (const qnm::FmsClockTable& table : qnm::ParseFmsClocks(text, "ocean.stdout"))
          runs.push_back(qnm::FmsClockTableToRunStats(table, "ocean.stdout"));
        break;
      case 3:
        if (!qnm::LooksLikeUmTimers(text)) return 0;
        runs.push_back(qnm::UmRunToRunStats(qnm::ParseUmTimers(text, "atm.fort6.pe0"), "atm.fort6.pe0"));
        break;
      default:
        if (!qnm::LooksLikeEsmfProfileSummary(text)) return 0;
        runs.push_back(qnm::EsmfProfileToRunStats(qnm::ParseEsmfProfileSummary(text, "ESMF_Profile.summary"),
                                                  "ESMF_Profile.summary"));
        break;
    }
    (void)qnm::RunsToCsv(runs);
  } catch (const qnm::InputError&) {
  }
  return 0;
}
