#pragma once
// Wait-state analysis of an OTF2 trace at the speed of decoding: the ranks are
// read by parallel threads (one OTF2_Reader each, like the analysis processes
// of Scalasca's parallel replay, Geimer et al. 2009, §3) — each thread's block
// of ranks in lock-step windows (an event reader per rank), with the
// point-to-point patterns after each window on the same threads
// (trace/match_while_reading.h), or blocks of ranks read whole — and each
// rank's events go straight from libotf2's callbacks into the forward replay
// pass (RankReplayPass) without being stored. The threads' call trees are
// unified (§3.1) and their replay records joined in rank order, so the
// cross-rank patterns (message matching, collectives, RMA) see exactly the
// records a sequential read would have made: the result is bit-identical to
// ReadOtf2Trace + AnalyzeWaitStates for every number of threads.
//
// Memory: the replay records of the messages not yet analysed (matching
// while reading, trace/match_while_reading.h: a few windows' worth; reading
// blocks whole: one send and one receive record per message and one call
// instance per MPI call that completes something), one record per
// collective/RMA call and a per-rank profile (call paths x ranks), plus
// libotf2's buffers per reader; never the events.
#include <cstddef>
#include <string>
#include <vector>

#include "trace/replay_records.h"
#include "trace/trace_events.h"
#include "trace/wait_states.h"

namespace qnm::trace {

struct StreamingAnalysisOptions {
  /// Threads that read and analyse blocks of ranks; 0 = the cores this
  /// process may run on. More threads than ranks are not started.
  int jobs = 0;
  /// Event records of each rank read per lock-step window (each thread
  /// reading its block of ranks), after which the point-to-point patterns
  /// run on what the window brought and the records they are done with are
  /// dropped (trace/match_while_reading.h); 0: each thread reads its block
  /// of ranks whole and every record is held until the end. Traces of more
  /// than 256 ranks are read in blocks.
  uint64_t window_events = uint64_t{1} << 16;
  /// Windows keep an event reader open per rank (libotf2's buffers, about
  /// 1 MiB each) and a barrier per window; they save the records (about 9
  /// bytes per event, ~0.6 per byte of event file): the trace is read in
  /// windows only if its event files hold at least this many bytes per rank
  /// on average (0: always).
  uint64_t window_min_rank_bytes = uint64_t{32} << 20;
  WaitStateOptions wait_states;

  bool IsValid(std::string* error) const;
};

struct StreamingAnalysis {
  /// Definitions, the call tree, every rank's name, node, first/last time and
  /// record count, the reader's warnings; no events.
  Trace trace;
  WaitStateResult result;
  SentBytes sent;                   // for the run statistics (trace stats)
  int threads = 1;                  // threads that read the trace
  std::size_t record_bytes = 0;     // replay records held for the cross-rank patterns
  /// CPU seconds of each reading thread (decoding + replay pass of its
  /// ranks) — matching while reading: one entry, the reading's critical path,
  /// summed over the windows (per window the slowest reader, or all readers'
  /// CPU spread over the threads if more); of the point-to-point patterns,
  /// which run on the threads again (the slowest thread's time in each step);
  /// and of what runs on one thread (unification, gathering the
  /// collective/RMA records, the other cross-rank patterns). On an idle
  /// machine with a core per thread the wall time is about max(read_cpu_s) +
  /// parallel_cpu_s + serial_cpu_s.
  std::vector<double> read_cpu_s;
  double parallel_cpu_s = 0;
  double serial_cpu_s = 0;
};

/// Reads and analyses the trace at `path` (anchor or its directory). Throws
/// InputError naming the file on bad input (the error of the lowest failing
/// rank, as a sequential read reports it).
StreamingAnalysis AnalyzeTraceStreaming(const std::string& path, const StreamingAnalysisOptions& options = {});

/// The cores this process may run on (its CPU affinity mask), at least 1.
int AvailableCores();

}  // namespace qnm::trace
