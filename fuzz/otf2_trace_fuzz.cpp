// libFuzzer target: the fuzz input replaces rank 1's event file (or, with
// its first byte odd, the global definitions) of the synthetic 4-rank trace;
// reading and analysing must end in a result or an InputError, nothing else.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "trace/otf2_reader.h"
#include "trace/wait_states.h"
#include "util/input_error.h"

namespace fs = std::filesystem;

namespace {

fs::path WorkingCopy() {
  static fs::path dir = [] {
    fs::path copy = fs::temp_directory_path() / ("qnm-otf2-fuzz-" + std::to_string(::getpid()));
    fs::remove_all(copy);
    fs::copy(std::string(QNM_SOURCE_DIR) + "/tests/data/otf2/synthetic-patterns-4rank", copy,
             fs::copy_options::recursive);
    for (auto& entry : fs::recursive_directory_iterator(copy))
      fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add);
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(fs::temp_directory_path() / ("qnm-otf2-fuzz-" + std::to_string(::getpid())), ignored);
    });
    return copy;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const fs::path dir = WorkingCopy();
  static const std::string events = [] {
    std::ifstream in(dir / "traces" / "1.evt", std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  static const std::string definitions = [] {
    std::ifstream in(dir / "traces.def", std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  bool damage_definitions = data[0] & 1;
  fs::path target = damage_definitions ? dir / "traces.def" : dir / "traces" / "1.evt";
  {
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    qnm::trace::Trace trace = qnm::trace::ReadOtf2Trace(dir.string());
    qnm::trace::AnalyzeWaitStates(trace);
  } catch (const qnm::InputError&) {
  }
  std::ofstream restore(target, std::ios::binary | std::ios::trunc);
  restore << (damage_definitions ? definitions : events);
  return 0;
}
