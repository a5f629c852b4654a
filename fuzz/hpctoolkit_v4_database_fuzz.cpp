// libFuzzer target: the format-4 HPCToolkit readers (hpctoolkit/hpctoolkit_v4_database.h)
// must turn any bytes into times or an InputError, never crash, hang or throw
// anything else. A first byte 0 makes the rest a meta.db; any other makes it a
// 4-byte little-endian length, a meta.db of that length and a profile.db (written
// to a scratch file, as the reader opens profile.db itself), every CPU profile of
// which is read against that meta.db.
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

#include "hpctoolkit/hpctoolkit_v4_database.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (data[0] == 0) {
      (void)qnm::ParseHpctoolkitMeta(bytes, "meta.db");
      return 0;
    }
    if (bytes.size() < 4) return 0;
    std::size_t meta_size = 0;
    for (int k = 3; k >= 0; --k) meta_size = (meta_size << 8) | static_cast<unsigned char>(bytes[k]);
    if (meta_size > bytes.size() - 4) return 0;
    const qnm::HpctoolkitMeta meta = qnm::ParseHpctoolkitMeta(bytes.substr(4, meta_size), "meta.db");
    // Removed when the process ends (the corpus replay under ctest runs it too).
    static const struct Scratch {
      std::string path = "/tmp/qnm-fuzz-profile-" + std::to_string(getpid()) + ".db";
      ~Scratch() { std::remove(path.c_str()); }
    } scratch_file;
    const std::string& scratch = scratch_file.path;
    {
      std::ofstream out(scratch, std::ios::binary | std::ios::trunc);
      const std::string_view profile = bytes.substr(4 + meta_size);
      out.write(profile.data(), static_cast<std::streamsize>(profile.size()));
    }
    const qnm::HpctoolkitProfileDb profiles(scratch, meta);
    for (const qnm::HpctoolkitV4Profile& profile : profiles.Profiles())
      if (!profile.gpu) {
        const qnm::HpctoolkitRankTimes times = profiles.Times(profile);
        if (!(times.app_s >= 0) || times.routine_s.size() != meta.mpi_frames.size()) __builtin_trap();
      }
  } catch (const qnm::InputError&) {
  }
  return 0;
}
