// libFuzzer target: the CUBE4 profile reader (libarchive tar, the ustar
// fallback for bad checksums, pugixml anchor, index/data, zlib) must turn any
// bytes into a record or an InputError, nothing else; allocations stay
// bounded by the input size. Seed corpus: tests/data/cube/*/*.cubex.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cube/cube_profile.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    qnm::RunStats run = qnm::ReadCubeRunStats(bytes, "fuzz.cubex");
    (void)qnm::GroupIntoSeries({run});
  } catch (const qnm::InputError&) {
  }
  return 0;
}
