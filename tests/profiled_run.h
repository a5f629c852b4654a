#pragma once
// A run as an mpiP report gives it to the decomposition: mean application and
// MPI time per rank, messages per rank and their size.
#include "record/run_stats.h"

namespace qnm::testing {

inline RunStats ProfiledRun(int procs, double app_time_s, double mpi_time_s, double messages_per_rank,
                            double bytes_per_message) {
  RunStats run;
  run.procs = procs;
  run.app_time_mean_s = app_time_s;
  run.mpi_time_mean_s = mpi_time_s;
  run.messages_per_rank = messages_per_rank;
  run.bytes_per_message = bytes_per_message;
  return run;
}

}  // namespace qnm::testing
