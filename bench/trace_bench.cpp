// Trace analysis speed: events per second for OTF2 decoding alone (libotf2
// with no callbacks) versus our reader plus the full wait-state analysis, and
// the memory the in-memory trace holds per event. Runs on the largest real
// trace and on a generated stencil trace of >= 10^7 events that is written to
// a temporary directory (removed afterwards unless --keep).
//
//   trace_bench [--events N] [--dir DIR] [--keep] [--real TRACE_DIR]
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "trace/activity_times.h"
#include "trace/otf2_reader.h"
#include "trace/synthetic_trace.h"
#include "trace/trace_run_stats.h"
#include "trace/wait_states.h"

namespace fs = std::filesystem;
using namespace qnm::trace;
using Clock = std::chrono::steady_clock;

namespace {

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// CPU time of this process: the machine is shared, so wall time mostly
// measures the other jobs; the ratio is taken on CPU time.
double CpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

long PeakRssKb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

struct Timing {
  double decode_s = 1e300, read_s = 1e300, full_s = 1e300;            // CPU time
  double decode_wall_s = 1e300, full_wall_s = 1e300;                  // wall time
  uint64_t records = 0;
  std::size_t stored_events = 0, trace_bytes = 0;
};

/// Best of `repeats` for each stage (the machine is shared).
Timing Measure(const std::string& path, int repeats) {
  Timing timing;
  for (int i = 0; i < repeats; ++i) {
    Clock::time_point start = Clock::now();
    double cpu = CpuSeconds();
    timing.records = DecodeOtf2EventsOnly(path);
    timing.decode_s = std::min(timing.decode_s, CpuSeconds() - cpu);
    timing.decode_wall_s = std::min(timing.decode_wall_s, Since(start));
  }
  for (int i = 0; i < repeats; ++i) {
    Clock::time_point start = Clock::now();
    double cpu = CpuSeconds();
    Trace trace = ReadOtf2Trace(path);
    double read_s = CpuSeconds() - cpu;
    WaitStateResult result = AnalyzeWaitStates(trace);
    qnm::RunStats run = RunStatsFromTrace(trace, result);
    qnm::ActivityRegionTimes times = ActivityTimesFromTrace(trace, result);
    double full_s = CpuSeconds() - cpu;
    timing.full_wall_s = std::min(timing.full_wall_s, Since(start));
    timing.read_s = std::min(timing.read_s, read_s);
    timing.full_s = std::min(timing.full_s, full_s);
    timing.stored_events = trace.EventCount();
    timing.trace_bytes = trace.MemoryBytes();
    if (run.procs <= 0 || times.time_s.empty()) std::abort();
  }
  return timing;
}

void Report(const char* label, const Timing& t) {
  std::printf("%s\n", label);
  std::printf("  OTF2 records                 %12llu\n", static_cast<unsigned long long>(t.records));
  std::printf("  CPU time:\n");
  std::printf("  decode only (libotf2)        %10.3f s   %8.2f M records/s\n", t.decode_s, t.records / t.decode_s / 1e6);
  std::printf("  read into memory             %10.3f s   %8.2f M records/s\n", t.read_s, t.records / t.read_s / 1e6);
  std::printf("  read + full analysis         %10.3f s   %8.2f M records/s   %.2fx decode only\n", t.full_s,
              t.records / t.full_s / 1e6, t.full_s / t.decode_s);
  std::printf("  wall time: decode only %.3f s, read + full analysis %.3f s (%.2fx)\n", t.decode_wall_s,
              t.full_wall_s, t.full_wall_s / t.decode_wall_s);
  std::printf("  in-memory trace              %10.1f MB   %.1f bytes/record (%zu stored events)\n",
              t.trace_bytes / 1e6, static_cast<double>(t.trace_bytes) / t.records, t.stored_events);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t target_events = 10'500'000;
  std::string dir = (fs::temp_directory_path() / ("qnm-trace-bench-" + std::to_string(::getpid()))).string();
  std::string real = std::string(QNM_SOURCE_DIR) + "/tests/data/otf2/sstmacro-mpi-coverage-test";
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--events" && i + 1 < argc) target_events = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (arg == "--real" && i + 1 < argc) real = argv[++i];
    else if (arg == "--keep") keep = true;
    else {
      std::fprintf(stderr, "usage: trace_bench [--events N] [--dir DIR] [--keep] [--real TRACE_DIR]\n");
      return 2;
    }
  }
  try {
    Report(("Largest real trace: " + real + " (best of 20)").c_str(), Measure(real, 20));

    StencilTraceOptions options;
    options.ranks = 16;
    // 20 records per rank and iteration plus 4 per Allreduce (every 10 iterations).
    options.iterations = static_cast<int>(target_events / (options.ranks * 20.4)) + 1;
    fs::remove_all(dir);
    Clock::time_point start = Clock::now();
    uint64_t written = WriteStencilTrace(dir, options);
    std::printf("\nGenerated %llu records (%d ranks x %d iterations) in %.2f s into %s\n",
                static_cast<unsigned long long>(written), options.ranks, options.iterations, Since(start),
                dir.c_str());
    long rss_before = PeakRssKb();
    Timing timing = Measure(dir, 2);
    Report("Generated stencil trace (best of 2)", timing);
    long rss_after = PeakRssKb();
    std::printf("  peak RSS                     %10.1f MB   %.1f bytes/record (process peak, incl. analysis)\n",
                rss_after / 1e3, rss_after * 1e3 / static_cast<double>(timing.records));
    (void)rss_before;
    if (!keep) fs::remove_all(dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trace_bench: %s\n", e.what());
    if (!keep) fs::remove_all(dir);
    return 1;
  }
  return 0;
}
