#pragma once
// Parallel wait-state analysis over MPI (Geimer et al. 2009, "parallel replay"): each
// analysis process reads a block of the trace's ranks, the call trees are
// unified, point-to-point records travel to the process owning the receiver
// (and the matched receive's request time back to the sender's owner), the
// small collective/RMA tables are replicated, and process 0 collates the
// severities. The result equals AnalyzeWaitStates on the whole trace.
#include <mpi.h>

#include <string>
#include <vector>

#include "trace/trace_events.h"
#include "trace/wait_states.h"

namespace qnm::trace {

/// One phase's wall and CPU seconds, each the maximum over the processes.
struct PhaseTime {
  std::string phase;
  double wall_s = 0, cpu_s = 0;
};

/// What process 0 gets back (other processes get an empty trace and result).
struct ParallelAnalysis {
  /// Definitions, the unified call tree, per-rank record counts and every
  /// reader warning; events only for process 0's own ranks.
  Trace trace;
  WaitStateResult result;
  std::vector<PhaseTime> phase_times;
};

/// Collective over `comm`. Throws on bad input on EVERY process (the message
/// of the lowest failing process on process 0; "" elsewhere), never hangs.
ParallelAnalysis AnalyzeWaitStatesParallel(const std::string& path, MPI_Comm comm,
                                           const WaitStateOptions& options = {});

}  // namespace qnm::trace
