#pragma once
// What MPI launchers and batch systems print when a launched job failed: a run's output whose report of
// `time` follows such a line timed a failure, not a run (bash's and zsh's reports carry no exit status).
// The marks, as each prints them:
//   Open MPI   "Primary job  terminated normally, but 1 process returned a non-zero exit code",
//              "mpirun noticed that process rank 1 ... exited on signal 11", "MPI_ABORT was invoked",
//              "mpirun was unable to launch", "mpirun has exited due to process rank", "*** Process received signal
//              ***"
//   MPICH, Intel MPI  "BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES", "application called MPI_Abort"
//   Slurm      "srun: error:", "slurmstepd: error: *** STEP ... CANCELLED", "DUE TO TIME LIMIT"
//   Flux       "flux-job: task(s) exited with exit code"
#include <string_view>

namespace qnm {

/// The mark of `line` that says a launched job failed (above), or empty.
std::string_view LaunchFailureMark(std::string_view line);

}  // namespace qnm
