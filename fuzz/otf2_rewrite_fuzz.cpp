// libFuzzer target for the OTF2 writer: the fuzz input replaces rank 1's event
// file (or, with its first byte odd, the global definitions) of the synthetic
// 4-rank trace. Whatever the reader accepts, the identity what-if replay
// writes back with the OTF2 writer; reading that archive must give the same
// wait-state analysis (else abort). Anything else must be an InputError.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "trace/otf2_reader.h"
#include "trace/otf2_writer.h"
#include "trace/wait_states.h"
#include "util/input_error.h"
#include "whatif/whatif_simulation.h"

namespace fs = std::filesystem;
using namespace qnm::trace;

namespace {

fs::path Scratch() {
  static fs::path dir = [] {
    fs::path base = fs::temp_directory_path() / ("qnm-otf2-rewrite-fuzz-" + std::to_string(::getpid()));
    fs::remove_all(base);
    fs::create_directories(base);
    fs::copy(std::string(QNM_SOURCE_DIR) + "/tests/data/otf2/synthetic-patterns-4rank", base / "in",
             fs::copy_options::recursive);
    for (auto& entry : fs::recursive_directory_iterator(base))
      fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add);
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(fs::temp_directory_path() / ("qnm-otf2-rewrite-fuzz-" + std::to_string(::getpid())), ignored);
    });
    return base;
  }();
  return dir;
}

std::string Slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool SameAnalysis(const WaitStateResult& a, const WaitStateResult& b) {
  return a.severity == b.severity && a.exclusive_time_s == b.exclusive_time_s && a.visits == b.visits &&
         a.outside_time_s == b.outside_time_s && a.messages_matched == b.messages_matched;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const fs::path base = Scratch();
  static const std::string events = Slurp(base / "in" / "traces" / "1.evt");
  static const std::string definitions = Slurp(base / "in" / "traces.def");
  bool damage_definitions = data[0] & 1;
  fs::path target = damage_definitions ? base / "in" / "traces.def" : base / "in" / "traces" / "1.evt";
  {
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    Trace trace = ReadOtf2Trace((base / "in").string());
    WaitStateResult before = AnalyzeWaitStates(trace);
    WriteOtf2ArchiveAtomically(RetimeTrace(trace, {}), (base / "out").string(), "fuzz");
    WaitStateResult after = AnalyzeWaitStates(ReadOtf2Trace((base / "out").string()));
    if (!SameAnalysis(before, after)) std::abort();
  } catch (const qnm::InputError&) {
  }
  std::ofstream restore(target, std::ios::binary | std::ios::trunc);
  restore << (damage_definitions ? definitions : events);
  return 0;
}
