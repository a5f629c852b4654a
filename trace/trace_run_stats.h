#pragma once
// The run-statistics record (record/run_stats.h) from a trace, so that a
// Score-P trace feeds the predictor like an mpiP report: app/MPI/compute time
// per rank, messages and bytes, call counts, and one call site per MPI call
// path with per-rank times.
#include "record/run_stats.h"
#include "trace/replay_records.h"
#include "trace/streaming_analysis.h"
#include "trace/trace_events.h"
#include "trace/wait_states.h"

namespace qnm::trace {

/// `profile` supplies exclusive times and visits (AnalyzeWaitStates computes them).
RunStats RunStatsFromTrace(const Trace& trace, const WaitStateResult& profile);
/// The same with the bytes sent already summed (the streaming analysis: the
/// trace holds no events).
RunStats RunStatsFromTrace(const Trace& trace, const WaitStateResult& profile, const SentBytes& sent);
/// The bytes sent, summed over the stored events of `trace`.
SentBytes SentBytesFromEvents(const Trace& trace);

}  // namespace qnm::trace

namespace qnm::trace {

/// Reads the OTF2 trace at `path` (anchor or directory) with the streaming
/// analysis on `jobs` threads (0: every core) and returns its run statistics;
/// the entry point for ingest/. Throws InputError on a bad trace.
RunStats ReadTraceRunStats(const std::string& path, int jobs = 0);
/// The same with every option of the streaming analysis.
RunStats ReadTraceRunStats(const std::string& path, const StreamingAnalysisOptions& options);

/// The record as a short table for people (JSON: RunToJson in record/run_stats_json.h).
std::string RunStatsTable(const RunStats& run);

}  // namespace qnm::trace
