#pragma once
// POP's efficiency factors of measured runs (Wagner et al. 2017, §3; the POP Centre of Excellence's
// methodology, as BSC's modelfactors and NAG's pypop compute them): how much of a run's time its
// processes spend computing, and why the rest is lost.
//
//   load balance             LB = mean compute / max compute
//   communication efficiency CE = max compute / runtime
//   parallel efficiency      PE = LB x CE = mean compute / runtime
//   computation scalability  CS = total compute at the smallest P / total compute at P
//   global efficiency        GE = PE x CS
//   speedup                  runtime at the smallest P / runtime at P
//
// With a Paraver trace's hardware counters (PAPI_TOT_INS, PAPI_TOT_CYC) in useful computation,
// computation scalability splits into its causes, as modelfactors prints them:
//   IPC                      useful instructions / useful cycles
//   frequency                useful cycles / total useful computation time
//   IPC scalability          IPC at P / IPC at the smallest P
//   instruction scalability  useful instructions at the smallest P / at P
//   frequency scalability    frequency at P / frequency at the smallest P
//
// "Compute" is POP's useful computation: from a Paraver trace the time in state Running
// (paraver/paraver_trace.h keeps it as pop_useful_* details), from any other record with per-rank
// times the application time less the MPI time of each rank; runtime is the longest rank's.
#include <string>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

struct PopEfficiency {
  int procs = 0;
  double runtime_s = kUnknown;
  double compute_mean_s = kUnknown, compute_max_s = kUnknown, compute_sum_s = kUnknown;
  double load_balance = kUnknown;
  double communication_efficiency = kUnknown;
  double parallel_efficiency = kUnknown;
  // Relative to the series' smallest process count (unknown for a run alone).
  double computation_scalability = kUnknown;
  double global_efficiency = kUnknown;
  double speedup = kUnknown;
  // From hardware counters in useful computation (unknown without them).
  double useful_instructions = kUnknown, useful_cycles = kUnknown;
  double ipc = kUnknown, frequency_ghz = kUnknown;
  double ipc_scalability = kUnknown, instruction_scalability = kUnknown, frequency_scalability = kUnknown;
  std::string compute_from;  // "useful computation (Paraver state Running)" or "application - MPI time per rank"
  std::string runtime_from;  // what runtime_s is: "the trace's elapsed time" or the longest rank's application time
};

/// The factors of one run, when it has what they need (per-rank application and MPI times, or a
/// Paraver trace's useful computation); `procs` 0 otherwise.
PopEfficiency PopEfficiencyOfRun(const RunStats& run);

/// The factors at each process count of `series` that has them (its run of median time stands for
/// repetitions), with computation scalability, global efficiency and speedup relative to the smallest
/// such count; empty when no run has them.
std::vector<PopEfficiency> PopEfficienciesOfSeries(const Series& series);

}  // namespace qnm
