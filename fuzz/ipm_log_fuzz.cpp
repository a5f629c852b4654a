// libFuzzer target: the IPM readers (profiles/ipm_log.h, profiles/ipm_banner.h) must
// turn any bytes into a record or an InputError (file:line), never crash, hang or
// throw anything else: an XML log, or a job's stdout holding IPM's banner (or
// ipm_parse's report), which is read as a run of its own.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "profiles/ipm_banner.h"
#include "profiles/ipm_log.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    if (qnm::HasIpmBanner(text)) {
      const qnm::IpmBanner banner = qnm::ParseIpmBanner(text, "fuzz.out");
      (void)qnm::IpmBannerStartUtc(banner);
      (void)qnm::RunsToCsv({qnm::IpmBannerToRunStats(banner, "fuzz.out")});
    } else {
      (void)qnm::RunsToCsv({qnm::ReadIpmXml(text, "fuzz.ipm.xml")});
    }
  } catch (const qnm::InputError&) {
  }
  return 0;
}
