#pragma once
// The closed queueing network that turns MPI service time into MPI contention
// (Buckwalter 2005, Figure 1; LoPC, Frank/Agarwal/Vernon PPoPP 1997): P customers (the
// processes) cycle through compute (delay), the switch (delay) and the MPI
// service queues. A process's MPI work A is spread uniformly over K identical
// queues (one per process, or one per node that processes share), so a queue
// is visited with demand A/K; waiting behind other processes at a queue is
// the contention C. With one process, or compute >> A, C -> 0.
#include <string>

#include "models/machine_profile.h"
#include "mva/solver.h"

namespace qnm {

/// Number of MPI service queues K for `procs` processes of `threads_per_proc`
/// threads: one per process without a profile or with one-per-node placement;
/// one per node in use for block (cores_per_node/threads ranks per node) and
/// cyclic (min(P, nodes)) placement.
long MpiServiceStations(int procs, int threads_per_proc, const MachineProfile* machine);

struct ContentionInput {
  int procs = 1;
  double compute_s = 0.0;       // W per process
  double switch_delay_s = 0.0;  // S per process
  double mpi_active_s = 0.0;    // A per process (total over the K queues)
  long mpi_stations = 1;        // K
};

/// Builds the network (one class, population P).
mva::Network BuildContentionNetwork(const ContentionInput& input);

/// Contention C = residence at the MPI queues - A. Returns false with `error`
/// when the solver fails.
bool SolveContention(const ContentionInput& input, const mva::Options& options,
                     double* contention_s, std::string* error);

/// Finds A >= 0 with A + C(A) = mpi_less_switch_s (Boost.Math TOMS 748); C
/// rises with A, so the root is unique. input.mpi_active_s is ignored.
bool SolveMpiActive(const ContentionInput& input, double mpi_less_switch_s,
                    const mva::Options& options, double* mpi_active_s, double* contention_s,
                    std::string* error);

}  // namespace qnm
