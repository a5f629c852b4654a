// libFuzzer target: the fuzz input replaces one file of a real two-rank
// Score-P trace (pipit-ping-pong-otf2-papi); the first byte picks which:
// 0 = rank 1's events, 1 = the global definitions, 2 = the anchor
// (traces.otf2), 3 = rank 1's local definitions. Reading and analysing must
// end in a result or an InputError, nothing else (no hang, no huge allocation),
// and the streaming analysis on two threads, in blocks and in windows, in the
// same one.
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "trace/otf2_reader.h"
#include "trace/streaming_analysis.h"
#include "trace/wait_states.h"
#include "util/input_error.h"

namespace fs = std::filesystem;

namespace {

fs::path WorkingCopy() {
  static fs::path dir = [] {
    fs::path copy = fs::temp_directory_path() / ("qnm-otf2-fuzz-" + std::to_string(::getpid()));
    fs::remove_all(copy);
    fs::copy(std::string(QNM_SOURCE_DIR) + "/tests/data/otf2/pipit-ping-pong-otf2-papi", copy,
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

std::string Contents(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// An error message without libotf2's own text (the last error it reported,
/// in parentheses), which can differ between reader threads of one process.
std::string WithoutLibraryDetail(const std::string& message) { return message.substr(0, message.find(" (")); }

/// The analysis result in exact (hexadecimal) numbers, with the reader's warnings.
std::string Outcome(const qnm::trace::Trace& trace, const qnm::trace::WaitStateResult& result) {
  std::string text;
  char number[64];
  for (double value : result.exclusive_time_s) text += (std::snprintf(number, sizeof number, "%a ", value), number);
  for (uint64_t value : result.visits) text += std::to_string(value) + " ";
  for (std::size_t p = 0; p < qnm::trace::kPatternCount; ++p)
    text += (std::snprintf(number, sizeof number, "%a ", result.Total(static_cast<qnm::trace::Pattern>(p))), number);
  for (const std::string& warning : trace.warnings) text += warning + "\n";
  for (const std::string& warning : result.warnings) text += warning + "\n";
  return text + std::to_string(trace.call_paths.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const fs::path dir = WorkingCopy();
  static const std::array<fs::path, 4> targets = {dir / "traces" / "1.evt", dir / "traces.def",
                                                  dir / "traces.otf2", dir / "traces" / "1.def"};
  static const std::array<std::string, 4> originals = {Contents(targets[0]), Contents(targets[1]),
                                                       Contents(targets[2]), Contents(targets[3])};
  const std::size_t which = data[0] % targets.size();
  {
    std::ofstream out(targets[which], std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  // The streaming analysis on two threads must end exactly as the stored one.
  std::string stored, streamed;
  try {
    qnm::trace::Trace trace = qnm::trace::ReadOtf2Trace(dir.string());
    stored = Outcome(trace, qnm::trace::AnalyzeWaitStates(trace));
  } catch (const qnm::InputError& e) {
    stored = WithoutLibraryDetail(e.what());
  }
  // In blocks, and in windows of 7 event records (messages matched across
  // windows, each thread routing its ranks' sends to the receiving block).
  for (const uint64_t window : {uint64_t{0}, uint64_t{7}}) {
    try {
      qnm::trace::StreamingAnalysisOptions options;
      options.jobs = 2;
      options.window_events = window;
      options.window_min_rank_bytes = 0;
      qnm::trace::StreamingAnalysis analysis = qnm::trace::AnalyzeTraceStreaming(dir.string(), options);
      streamed = Outcome(analysis.trace, analysis.result);
    } catch (const qnm::InputError& e) {
      streamed = WithoutLibraryDetail(e.what());
    }
    if (stored != streamed) std::abort();
  }
  std::ofstream restore(targets[which], std::ios::binary | std::ios::trunc);
  restore << originals[which];
  return 0;
}
