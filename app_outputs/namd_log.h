#pragma once
// NAMD logs: the standard output of namd2/namd3 (docs/formats/namd-log.md). An
// execution prints Charm++'s start-up lines ("Charm++> Running in SMP mode: 4
// processes, 31 worker threads (PEs) + 1 comm threads per process, 124 PEs
// total", "Charm++> Running on MPI version: 3.1", "Charm++> Running on 2 hosts"),
// the banner ("Info: NAMD 2.14 for Linux-x86_64-MPI", "Info: Based on
// Charm++/Converse 61002 for mpi-linux-x86_64"), the layout ("Info: Running on
// 128 processors, 128 nodes, 2 physical nodes."), the parameters ("Info: TIMESTEP
// 2", "Info: NUMBER OF STEPS 500", "Info: PME GRID DIMENSIONS 108 108 80"), the
// structure ("Info: STRUCTURE SUMMARY:" then "Info: 92224 ATOMS"), the run
// commands ("TCL: Running for 500 steps"), "Info: Benchmark time:" lines and, when
// it ends, "WallClock: 281.382935  CPUTime: 268.385834  Memory: 232.488873 MB" and
// "[Partition 0][Node 0] End of program". Read as printed by NAMD 2.9 to 3.0.
// NAMD times no communication: the records are runtime only.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One execution of NAMD in a log (a job's output may hold several, one after another).
struct NamdExecution {
  int line = 0;                // of its first line (Charm++'s start-up, else the banner), 1-based
  int banner_line = 0;         // "Info: NAMD 2.14 for Linux-x86_64-MPI"
  std::string version;         // "2.14", "3.0.1", "3.0b6"
  std::string platform;        // "Linux-x86_64-MPI", "Linux-x86_64-multicore-CUDA"
  std::string charm_machine;   // "mpi-linux-x86_64", from "Info: Based on Charm++/Converse N for <machine>"
  std::string mpi_version;     // "3.1" of "Charm++> Running on MPI version: 3.1"
  int smp_processes = 0;       // "Running in SMP mode: P processes, T worker threads (PEs)" (or "numNodes P")
  int smp_worker_threads = 0;  // T
  int multicore_pes = 0;       // "Charm++> Running in Multicore mode: N threads (PEs)"
  int non_smp_pes = 0;         // "Charm++> Running in non-SMP mode: N processes (PEs)" / "numPes N"
  int running_line = 0;        // of "Info: Running on N processors, M nodes, K physical nodes."
  int pes = 0;                 // N: Charm++ PEs
  int charm_nodes = 0;         // M: Charm++ nodes (processes)
  int physical_nodes = 0;      // K
  int hosts = 0;               // "Charm++> Running on N hosts" / "N unique compute nodes"
  std::string host;            // process 0's host, from "Info: 1 NAMD  <version>  <platform>  <PEs>  <host>  <user>"
  bool cuda = false, hip = false;  // "Pe N physical rank N will use/binding to CUDA device", the platform's CUDA/HIP
  std::string config_file;     // "Info: Configuration file is <file>"
  long long atoms = 0;         // "Info: N ATOMS" under "Info: STRUCTURE SUMMARY:"
  std::string timestep_fs;     // "Info: TIMESTEP  2" as printed
  long long number_of_steps = -1;  // "Info: NUMBER OF STEPS  N"
  long long tcl_run_steps = -1;    // the sum of "TCL: Running for N steps"; -1 = none
  long long minimize_steps = -1;   // the sum of "TCL: Minimizing for N steps"; -1 = none
  std::string pme_grid;        // "108 108 80" of "Info: PME GRID DIMENSIONS"
  std::string cutoff;          // "Info: CUTOFF  12" as printed
  long long first_ldb_step = -1;   // "Info: FIRST LDB TIMESTEP  50": the steps each Benchmark line covers
  std::vector<double> benchmark_s_per_step;  // "Info: Benchmark time: N CPUs X s/step Y days/ns ..."
  std::vector<double> benchmark_days_per_ns;
  int wallclock_line = 0;      // of "WallClock:": the execution finished
  double wallclock_s = kUnknown, cpu_time_s = kUnknown, memory_mb = kUnknown;
  bool end_of_program = false;     // "[Partition 0][Node 0] End of program"
  int fatal_line = 0;              // the first "FATAL ERROR:" line, or Charm++'s "Reason:" after "Called CmiAbort"
  std::string fatal;               // its text
  int traceback_line = 0;          // the first "[9] Stack Traceback:": a process crashed
  bool cmi_abort = false;          // "------------- Processor 0 Exiting: Called CmiAbort ------------"
};

/// The network layer a build runs on: "mpi", "verbs", "ucx", "ofi", "netlrts", "multicore", ... (from
/// the Charm++ machine name, else the platform, else an "MPI version" line); empty when none says.
std::string NamdNetworkLayer(const NamdExecution& e);
/// True for an SMP build (worker threads and a comm thread in each process).
bool NamdSmpBuild(const NamdExecution& e);

/// True when one of the first lines of `text` is NAMD's banner ("Info: NAMD 2.14 for Linux-x86_64-MPI").
bool LooksLikeNamdLog(std::string_view text);

/// Every execution of a log, finished or not; throws InputError naming `path` (and the line) when the
/// file has no NAMD banner or a number NAMD printed is malformed.
std::vector<NamdExecution> ParseNamdLog(std::string_view text, const std::string& path);

/// The run-statistics record of a finished execution: app "namd", the problem from its configuration
/// file, atoms, steps, time step, PME grid and cut-off; procs and threads by the build's layout;
/// the WallClock as the run's time. Throws InputError when the log gives no process count.
RunStats NamdExecutionToRunStats(const NamdExecution& e, const std::string& path);

}  // namespace qnm
