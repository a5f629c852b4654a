#pragma once
// The run-statistics record (record/run_stats.h) from a trace, so that a
// Score-P trace feeds the predictor like an mpiP report: app/MPI/compute time
// per rank, messages and bytes, call counts, and one call site per MPI call
// path with per-rank times.
#include "record/run_stats.h"
#include "trace/trace_events.h"
#include "trace/wait_states.h"

namespace qnm::trace {

/// `profile` supplies exclusive times and visits (AnalyzeWaitStates computes them).
RunStats RunStatsFromTrace(const Trace& trace, const WaitStateResult& profile);

}  // namespace qnm::trace

namespace qnm::trace {

/// Reads the OTF2 trace at `path` (anchor or directory) and returns its run
/// statistics; the entry point for ingest/. Throws InputError on a bad trace.
RunStats ReadTraceRunStats(const std::string& path);

/// The record as a short table for people (JSON: RunToJson in record/run_stats_json.h).
std::string RunStatsTable(const RunStats& run);

}  // namespace qnm::trace
