#pragma once
// GROMACS mdrun log files (md.log, the file `gmx mdrun -g` names;
// docs/formats/gromacs-log.md). A log is one execution of mdrun: the version
// header ("GROMACS:      gmx mdrun, version 2021.5"), the command line, the
// hardware and parallel layout ("Running on 2 nodes ...", "Using 256 MPI
// processes", "Using 1 OpenMP thread per MPI process"), the input parameters
// (nsteps, dt, cutoff-scheme, coulombtype), "There are: N Atoms", and at the
// end the "R E A L   C Y C L E   A N D   T I M E   A C C O U N T I N G" table
// (per section: ranks, threads, calls, wall time in seconds averaged over the
// ranks that run it, giga-cycles, share) and the "Time:" line (core and wall
// seconds). Read as printed by GROMACS 2016 to 2021.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One row of the cycle and time accounting table.
struct GromacsCycleRow {
  int line = 0;              // 1-based
  std::string name;          // "Comm. coord.", "PME mesh", "PME wait for PP" (the '*' removed)
  int ranks = 0;             // the "Num Ranks" column; 0 where empty ("Rest", "PME wait for PP *")
  double wall_s = kUnknown;  // "Wall time (s)": the average over the ranks that run the section
  bool on_pme_ranks = false; // marked '*' (separate PME ranks), or a row of the PME mesh breakdown
                             // when the run had separate PME ranks
  bool pme_breakdown = false;  // below "Breakdown of PME mesh computation": a part of "PME mesh"
};

/// The one mdrun execution a log holds (its completed part: header to "Time:").
struct GromacsLog {
  std::string version;        // "2021.5", from "GROMACS:  <program>, version 2021.5"
  std::string program;        // "gmx mdrun", "mdrun_mpi", "gmx_mpi mdrun"
  int header_line = 0;
  std::string command_line;   // the indented line after "Command line:"
  std::string precision;      // "mixed", "single" (the same: mixed precision) or "double"
  int nodes = 0;              // "Running on N nodes" / "Running on 1 node"; 0 = not printed
  std::string host;           // "Hardware detected on host H (the node of MPI rank 0)"
  std::string cpu_brand;      // that node's "Brand:" line of "CPU info" (names the machine with a "nid" host)
  int mpi_ranks = 0;          // "Using N MPI processes" / "Using N MPI threads" (thread-MPI)
  bool thread_mpi = false;    // "MPI threads": ranks are threads of one process
  int openmp_threads = 0;     // "Using T OpenMP thread(s) per MPI process" / "per tMPI thread"
  int separate_pme_ranks = -1;  // "Using N separate PME ranks"; -1 = not printed
  bool gpu = false;           // "Mapping of GPU IDs to ..." / "Using GPU ... kernels": the run used GPUs
  long long atoms = 0;        // "There are: N Atoms"
  long long nsteps = -2;      // input parameter "nsteps", or the command line's override; -2 = not printed
  std::string dt_ps;          // input parameter "dt", as printed
  std::string cutoff_scheme, coulomb_type;  // input parameters "cutoff-scheme", "coulombtype"
  long long reset_step = -1;  // "step N: resetting all time and cycle counters"; -1 = none
  int table_line = 0;         // of "R E A L   C Y C L E ..."
  int pp_ranks = 0, pme_ranks = 0;  // "On N MPI ranks doing PP, and" / "on M MPI ranks doing PME"
  std::vector<GromacsCycleRow> rows;
  double table_total_s = kUnknown;    // the "Total" row's wall time
  double pp_rows_sum_s = kUnknown;    // the PP ranks' rows summed (checked against the Total)
  bool rows_exceed_total = false;     // they add up to more than the Total (GPU waits overlap)
  double load_imbalance_percent = kUnknown;   // "Average load imbalance: X %"
  double imbalance_wait_percent = kUnknown;   // "... spent waiting due to load imbalance: Y %"
  double pp_pme_wait_percent = kUnknown;      // "... spent waiting due to PP/PME imbalance: Z %"
  int time_line = 0;
  double core_time_s = kUnknown, wall_time_s = kUnknown;  // "Time:  <core> <wall> <%>"
  double ns_per_day = kUnknown;                           // "Performance:  <ns/day> <hour/ns>"
};

/// True when one of the first lines of `text` is mdrun's version header or banner
/// (":-) GROMACS - gmx mdrun, 2021.5 (-:", "GROMACS:      mdrun_mpi, version 2018.2").
bool LooksLikeGromacsLog(std::string_view text);

/// Parses a log; throws InputError naming `path` (and the line) when mdrun did not finish (no
/// "Time:" line: crashed, killed, cut or still running; GROMACS's own error message is quoted),
/// when the finished run has no cycle accounting table, or a malformed one, when the file holds
/// several executions (logs concatenated), and when a part of a run continued with -cpi -append
/// (after "Restarting from checkpoint, appending to previous log file.") has no "Time:" line: GROMACS
/// appends at the previous part's last checkpoint, overwriting that part's timing, so the run's total
/// time is unknown.
GromacsLog ParseGromacsLog(std::string_view text, const std::string& path);

/// The run-statistics record of a log: app "gromacs", the problem key, procs, threads, nodes,
/// the wall time, and the mean MPI and compute time from the cycle accounting table.
RunStats GromacsLogToRunStats(const GromacsLog& log, const std::string& path);

/// The rows of the cycle accounting table counted as MPI time (communication or waiting for other
/// ranks); every other row is compute. Exact names as GROMACS prints them, without '*'.
bool IsGromacsCommunicationRow(const std::string& name);

}  // namespace qnm
