#pragma once
// t_ijp for the dissimilarity indices (Calzarossa et al. 2004) from a trace: the exclusive
// time of every call path, split into activities (computation, point-to-point,
// collective, synchronization, RMA, other MPI) and attributed to the code
// region that issued it (the nearest non-MPI call path).
#include "imbalance/dissimilarity.h"
#include "trace/trace_events.h"
#include "trace/wait_states.h"

namespace qnm::trace {

/// Activities x code regions x ranks. Time with the measurement switched off
/// is left out; "other" (MPI_Init/Finalize, communicator management, I/O)
/// appears only when it is non-zero.
ActivityRegionTimes ActivityTimesFromTrace(const Trace& trace, const WaitStateResult& profile);

}  // namespace qnm::trace
