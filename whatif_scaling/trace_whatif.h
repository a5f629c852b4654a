#pragma once
// What-if on a run read from an OTF2 trace: the trace is simulated under the
// hypotheses (whatif/whatif_simulation.h, after SILAS, Hermanns 2008) and the
// simulated trace's statistics — the same record every reader produces
// (trace/trace_run_stats.h) — stand for the run, so the series is fitted and
// predicted as the code would run with the hypotheses.
#include <vector>

#include "record/run_stats.h"
#include "whatif/whatif_hypothesis.h"
#include "whatif/whatif_simulation.h"

namespace qnm {

/// True when `run` was read from an OTF2 trace (its only source is a .otf2 anchor).
bool IsTraceRun(const RunStats& run);

/// The what-if record of a trace run: the trace at run.sources[0] re-read and
/// simulated; the simulated trace's statistics under the run's identity
/// (series, app, machine, hosts, data set, ...). Its run time is the
/// simulation's (last event - first event over ranks), the same measure
/// TraceRunTime gives the original. `summary` (may be null) receives the
/// simulation's summary. Throws InputError as the reader and the simulation do.
RunStats SimulateTraceRun(const RunStats& run, const std::vector<trace::Hypothesis>& hypotheses,
                          trace::WhatifSummary* summary);

/// `run` with its run time set to the trace's span (what the simulation
/// compares), so that original and what-if are timed alike. A record whose
/// trace has the same span is returned unchanged.
RunStats WithTraceSpan(const RunStats& run, double span_s);

}  // namespace qnm
