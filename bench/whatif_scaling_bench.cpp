// What-if x scaling cost (issue 20): `predict --whatif` at every P = 1..1024
// against what it replaces — a plain prediction at the same P plus the what-if
// simulations of the series' traces (read, simulate, the simulated run's
// statistics). CPU seconds of the process, best of N runs. Series: the two
// real TraceR stencil traces (32, 64 ranks), generated stencil traces at 8,
// 16, 32 and 64 ranks (tests/support/synthetic_trace.h, written to a temporary
// directory and removed), and the bundled mpiP series (profile what-if, no
// simulation).
//
//   whatif_scaling_bench [--iterations N]
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "pipeline/prediction_runner.h"
#include "pipeline/series_loading.h"
#include "tests/support/synthetic_trace.h"
#include "trace/otf2_reader.h"
#include "trace/trace_run_stats.h"
#include "trace/wait_states.h"
#include "whatif/whatif_simulation.h"
#include "whatif_scaling/whatif_prediction.h"

namespace fs = std::filesystem;
using namespace qnm;

namespace {

double CpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

template <typename F>
double Best(int runs, F body) {
  double best = 1e300;
  for (int run = 0; run < runs; ++run) {
    const double start = CpuSeconds();
    body();
    best = std::min(best, CpuSeconds() - start);
  }
  return best;
}

trace::Hypothesis Line(const std::string& text) {
  trace::Hypothesis h;
  trace::ParseHypothesisLine(text, "bench", 1, &h);
  return h;
}

/// One row: plain prediction, the simulations, the what-if prediction, and the ratio.
void Measure(const std::string& label, const std::vector<std::string>& paths, const std::string& hypothesis,
             int runs) {
  std::vector<int> procs;
  for (int p = 1; p <= 1024; ++p) procs.push_back(p);
  const std::vector<trace::Hypothesis> hypotheses = {Line(hypothesis)};
  std::vector<Series> series;
  std::string origin;
  // One series whatever the traces' folder names say (as `whatif --suggest --scaling-trace` groups them).
  auto load = [&] {
    series = LoadSeries(paths, "", &origin);
    if (series.size() > 1) {
      std::vector<RunStats> runs_all;
      for (const Series& s : series)
        for (const RunGroup& g : s.groups) runs_all.insert(runs_all.end(), g.runs.begin(), g.runs.end());
      const SeriesKey key = series.front().key;
      series = GroupIntoSeries(std::move(runs_all), [&key](const RunStats&) { return key; });
    }
  };
  const double plain_s = Best(runs, [&] {
    load();
    RunPredict(series, procs, PredictionOptions());
  });
  double simulations_s = 0;
  for (const std::string& path : paths) {
    if (fs::is_directory(path) && !fs::exists(fs::path(path) / "traces.otf2")) continue;  // a profile folder
    simulations_s += Best(runs, [&] {
      const trace::Trace trace = trace::ReadOtf2Trace(path);
      trace::WhatifOptions options;
      options.hypotheses = hypotheses;
      options.analyze_wait_states = false;
      const trace::WhatifResult result = trace::SimulateWhatif(trace, options);
      trace::RunStatsFromTrace(result.simulated, trace::AnalyzeWaitStates(result.simulated));
    });
  }
  WhatifScalingOptions options;
  options.hypotheses = hypotheses;
  std::vector<SeriesWhatifPrediction> result;
  const double whatif_s = Best(runs, [&] {
    load();
    result = RunWhatifPredict(series, procs, options);
  });
  WhatifGain largest;  // at the largest P with a prediction (NPB-MZ: its zones)
  for (const WhatifGain& gain : result.front().gains)
    if (std::isfinite(gain.gain_percent)) largest = gain;
  std::printf("| %s | %s | %.3f s | %.3f s | %.3f s | %.2f x | %.3g %% at P = %d |\n", label.c_str(),
              hypothesis.c_str(), plain_s, simulations_s, whatif_s, whatif_s / (plain_s + simulations_s),
              largest.gain_percent, largest.procs);
}

}  // namespace

int main(int argc, char** argv) {
  int iterations = 2000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--iterations" && i + 1 < argc) {
      iterations = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: whatif_scaling_bench [--iterations N]\n");
      return 2;
    }
  }
  try {
    std::printf("| series | hypothesis | plain predict 1..1024 | simulations | predict --whatif 1..1024 | "
                "ratio | gain at the largest P |\n|---|---|---:|---:|---:|---:|---:|\n");
    const std::string data = std::string(QNM_SOURCE_DIR) + "/tests/data/otf2/";
    Measure("TraceR stencil4d, P = 32, 64 (real traces)",
            {data + "tracer-stencil4d-32", data + "tracer-stencil4d-64"}, "SCALE COMPUTATION 0.5", 5);
    Measure("bundled bt-mz.C, P = 1..16 (mpiP)", {}, "BALANCE REGION \"computation\"", 5);
    const fs::path dir = fs::temp_directory_path() / ("qnm_whatif_scaling_bench_" + std::to_string(getpid()));
    std::vector<std::string> generated;
    uint64_t events = 0;
    for (int ranks : {8, 16, 32, 64}) {
      trace::StencilTraceOptions stencil;
      stencil.ranks = ranks;
      stencil.iterations = iterations * 16 / ranks;  // the same work split over more ranks
      generated.push_back((dir / ("stencil-" + std::to_string(ranks))).string());
      events += trace::WriteStencilTrace(generated.back(), stencil);
    }
    Measure("generated stencil, P = 8..64 (" + std::to_string(events) + " records)", generated,
            "BALANCE REGION \"compute\"", 3);
    fs::remove_all(dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "whatif_scaling_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
