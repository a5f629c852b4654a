#pragma once
// SILAS-style what-if simulation (Hermanns 2008): re-times every rank's events
// with the hypotheses applied, carrying the accumulated shift forward and
// recomputing communication dependencies, so that waiting time disappears or
// appears; then compares run time, per-rank end times, region times and the
// Scalasca wait states of the original and the simulated trace.
// Unlike SILAS' Reenact model, which idles and re-executes MPI calls in real
// time (section 4.3), timestamps are computed, as its section 4.7 proposes.
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace_events.h"
#include "trace/wait_states.h"
#include "whatif/whatif_hypothesis.h"

namespace qnm::trace {

struct WhatifOptions {
  std::vector<Hypothesis> hypotheses;
  bool analyze_wait_states = true;  // run the wait-state analysis on both traces
};

struct RegionTimeChange {
  std::string region;  // region name; "(outside regions)" for time outside every region
  double original_s = 0, simulated_s = 0;  // exclusive time summed over ranks
};

struct WaitChange {
  Pattern pattern;
  std::string call_path;  // "" = total of the pattern over all call paths and ranks
  uint32_t rank = kNone;
  double original_s = 0, simulated_s = 0;
};

struct WhatifSummary {
  double original_runtime_s = 0, simulated_runtime_s = 0;  // last event - first event over ranks
  double gain_s = 0, gain_percent = 0;
  uint64_t dependencies = 0, messages_matched = 0, messages_cut = 0;
  uint64_t collective_instances = 0, collectives_incomplete = 0;
  uint64_t collectives_cut = 0, region_instances_cut = 0;  // CUT REGION
  uint64_t deadlocks_broken = 0;  // dependencies ignored to resolve a cycle
  std::string message;            // one-line verdict
};

struct WhatifResult {
  WhatifSummary summary;
  std::vector<std::string> hypotheses;  // Describe() of each
  std::vector<double> original_end_s, simulated_end_s;  // per rank, from the trace start
  std::vector<RegionTimeChange> regions;  // sorted by |change|, largest first
  std::vector<WaitChange> pattern_totals;  // per pattern with a non-zero side
  std::vector<WaitChange> wait_changes;    // per pattern, call path, rank; by |change|
  Trace simulated;  // the re-timed trace (cut events removed)
};

/// Re-times `trace` under `options.hypotheses`. Throws InputError (naming the
/// hypothesis' config file and line) if a hypothesis names an unknown region.
WhatifResult SimulateWhatif(const Trace& trace, const WhatifOptions& options);

/// The re-timing alone (no comparison): the simulated trace.
Trace RetimeTrace(const Trace& trace, const std::vector<Hypothesis>& hypotheses,
                  WhatifSummary* summary = nullptr);

}  // namespace qnm::trace
