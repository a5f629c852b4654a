// libFuzzer target: the machine-profile reader (JSON via nlohmann) must turn
// any bytes into a profile with finite, positive network parameters or an
// InputError, nothing else.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "models/machine_profile.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const qnm::MachineProfile profile = qnm::MachineProfileFromJson(text, "fuzz.json");
    const double delay = profile.SwitchDelayPerMessage(1e6);
    if (!std::isfinite(delay) || delay < 0) std::abort();  // a profile that predicts nonsense
  } catch (const qnm::InputError&) {
  }
  return 0;
}
