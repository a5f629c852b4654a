// What-if simulation speed: CPU time to re-time a trace under hypotheses
// (dependency matching + replay + building the simulated trace), and the full
// SimulateWhatif with the wait-state analysis of both traces, on the largest
// real trace and on a generated stencil trace (tests/support/synthetic_trace.h)
// written to a temporary directory and removed afterwards; and writing the
// simulated trace as OTF2 (`whatif --write-trace`) against reading the original.
//
//   whatif_bench [--events N] [--real TRACE_DIR]
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "tests/support/synthetic_trace.h"
#include "trace/otf2_reader.h"
#include "trace/otf2_writer.h"
#include "whatif/whatif_hypothesis.h"
#include "whatif/whatif_simulation.h"

namespace fs = std::filesystem;
using namespace qnm::trace;

namespace {

// CPU time of this process (the machine is shared; wall time measures other jobs).
double CpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

/// Balance `region` and halve all computation.
std::vector<Hypothesis> Hypotheses(const std::string& region) {
  std::vector<Hypothesis> out(2);
  out[0].kind = HypothesisKind::kBalanceRegion;
  out[0].region = region;
  out[1].kind = HypothesisKind::kScaleComputation;
  out[1].factor = 0.5;
  return out;
}

/// Best CPU seconds over `runs` of `body`.
template <typename F>
double Best(int runs, F body) {
  double best = 1e300;
  for (int run = 0; run < runs; ++run) {
    double start = CpuSeconds();
    body();
    best = std::min(best, CpuSeconds() - start);
  }
  return best;
}

void Measure(const std::string& label, const std::string& path, const std::string& region, int runs) {
  Trace trace;
  double read_s = Best(runs, [&] { trace = ReadOtf2Trace(path); });
  double events = static_cast<double>(trace.EventCount());
  WhatifSummary summary;
  double identity_s = Best(runs, [&] { RetimeTrace(trace, {}, &summary); });
  double retime_s = Best(runs, [&] { RetimeTrace(trace, Hypotheses(region), &summary); });
  WhatifResult result;
  double full_s = Best(runs, [&] {
    WhatifOptions options;
    options.hypotheses = Hypotheses(region);
    result = SimulateWhatif(trace, options);
  });
  std::printf("%s: %zu ranks, %.0f events, %llu dependencies\n", label.c_str(), trace.ranks.size(),
              events, static_cast<unsigned long long>(summary.dependencies));
  std::printf("  read %.4f s | identity replay %.4f s (%.1f M ev/s) | balance+scale replay %.4f s "
              "(%.1f M ev/s) | full whatif incl. 2 wait-state analyses %.4f s\n",
              read_s, identity_s, events / identity_s / 1e6, retime_s, events / retime_s / 1e6, full_s);
  std::printf("  balance %s + scale computation 0.5: %s\n", region.c_str(),
              result.summary.message.c_str());
  // --write-trace: the simulated trace written as OTF2 (atomically), and read back.
  fs::path out = fs::temp_directory_path() / ("qnm_whatif_bench_out_" + std::to_string(getpid()));
  Otf2WriteSummary written;
  double write_s = Best(runs, [&] { written = WriteOtf2ArchiveAtomically(result.simulated, out.string(), "bench"); });
  double reread_s = Best(runs, [&] { ReadOtf2Trace(out.string()); });
  fs::remove_all(out);
  std::printf("  write simulated trace %.4f s (%llu records, %.1f M rec/s; %.2f x reading the original) | "
              "read it back %.4f s\n",
              write_s, static_cast<unsigned long long>(written.events),
              static_cast<double>(written.events) / write_s / 1e6, write_s / read_s, reread_s);
}

/// One line per new hypothesis (issue 20): the four BALANCE REGION modes,
/// CUT REGION and CUT MESSAGE REGION, CPU seconds of RetimeTrace (best of `runs`).
void MeasureModes(const std::string& path, const std::string& balance, const std::string& cut,
                  int runs) {
  Trace trace = ReadOtf2Trace(path);
  std::vector<std::vector<Hypothesis>> cases;
  for (const char* mode : {"global-instance", "process-local", "global", "scaled"})
    cases.push_back({BalanceFromArg(balance + ":" + mode)});
  cases.push_back({CutRegionFromArg(cut)});
  cases.push_back({CutFromArg("region==" + cut)});
  double events = static_cast<double>(trace.EventCount());
  double identity_s = Best(runs, [&] { RetimeTrace(trace, {}); });
  std::printf("  modes on %.0f events: identity replay %.4f s\n", events, identity_s);
  for (const auto& hypotheses : cases) {
    WhatifSummary summary;
    double seconds = Best(runs, [&] { RetimeTrace(trace, hypotheses, &summary); });
    WhatifOptions options;
    options.hypotheses = hypotheses;
    options.analyze_wait_states = false;
    WhatifResult result = SimulateWhatif(trace, options);
    std::printf("  | %s | %.4f s | %.1f M ev/s | %.2f x identity | gain %.3f %% |\n",
                hypotheses[0].Describe().c_str(), seconds, events / seconds / 1e6, seconds / identity_s,
                result.summary.gain_percent);
  }
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t target_events = 2'000'000;
  std::string real = std::string(QNM_SOURCE_DIR) + "/tests/data/otf2/sstmacro-mpi-coverage-test";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--events" && i + 1 < argc) {
      target_events = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--real" && i + 1 < argc) {
      real = argv[++i];
    } else {
      std::fprintf(stderr, "usage: whatif_bench [--events N] [--real TRACE_DIR]\n");
      return 2;
    }
  }
  try {
    Measure("real " + fs::path(real).filename().string(), real, "MPI_Allreduce", 5);
    MeasureModes(real, "MPI_Allreduce", "MPI_Waitall", 5);
    fs::path dir = fs::temp_directory_path() / ("qnm_whatif_bench_" + std::to_string(getpid()));
    StencilTraceOptions options;
    options.ranks = 16;
    options.iterations = static_cast<int>(target_events / (options.ranks * 20.4)) + 1;  // as trace_bench
    WriteStencilTrace(dir.string(), options);
    Measure("generated stencil", dir.string(), "compute", 2);
    MeasureModes(dir.string(), "compute", "MPI_Waitall", 2);
    fs::remove_all(dir);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "whatif_bench: %s\n", error.what());
    return 1;
  }
  return 0;
}
