// libFuzzer target: the TAU profile parser and the record built from it
// (profiles/tau_profile.h) must turn any bytes into a record or an InputError
// (file:line), never crash, hang or throw anything else. The bytes are rank
// 0's profile; rank 1 is the same profile (the record is built over both).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "profiles/tau_profile.h"
#include "record/run_stats_json.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    qnm::TauProfile profile = qnm::ParseTauProfile(text, "profile.0.0.0");
    (void)qnm::RunsToCsv({qnm::TauProfilesToRunStats({profile, profile}, {"profile.0.0.0", "profile.1.0.0"}, 1)});
  } catch (const qnm::InputError&) {
  }
  return 0;
}
