#pragma once
// LAMMPS log files (log.lammps, the example logs LAMMPS ships as
// examples/*/log.<date>.<name>.g++.<P>; docs/formats/lammps-log.md). A log is
// one execution: the "LAMMPS (<version>)" banner, the echoed input, and per
// `run` or `minimize` command a "Loop time of T on P procs for N steps with A
// atoms" line, the "x% CPU use with P MPI tasks x T OpenMP threads" line and
// the "MPI task timing breakdown" table (min/avg/max over the MPI ranks per
// section: Pair, Bond, Kspace, Neigh, Comm, Output, Modify, Other). Logs
// before 2016 print "Pair  time (%) = avg (share)" rows instead (averages only),
// and 2014 logs say "(M MPI x T OpenMP)" on the Loop time line.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One row of a timing breakdown, seconds over the MPI ranks; min and max are
/// NaN where LAMMPS prints only the average (the "Other" row, pre-2016 logs).
struct LammpsSectionTimes {
  double min_s = kUnknown, avg_s = kUnknown, max_s = kUnknown;
};

/// One completed `run` or `minimize`: its "Loop time of" line and what follows it.
struct LammpsLoop {
  int line = 0;             // of the "Loop time of" line, 1-based
  double loop_time_s = kUnknown;
  int loop_procs = 0;       // "on P procs": MPI tasks x OpenMP threads
  int mpi_tasks = 0;        // "with P MPI tasks x T OpenMP threads" / "(P MPI x T OpenMP)"; 0 = not printed
  int threads = 0;          // 0 = not printed
  bool tasks_on_loop_line = false;  // read from "(P MPI x T OpenMP)" (2014), not the CPU use line
  long long steps = 0;
  long long atoms = 0;
  bool minimize = false;    // followed by "Minimization stats:"
  /// Section name (the current names: "Kspce" and "Outpt" of old logs read as Kspace, Output) -> times.
  std::map<std::string, LammpsSectionTimes> sections;
  bool has_max = false;     // the table has min/avg/max columns (2016 and later)
};

struct LammpsLog {
  std::string version;             // "8 Apr 2021", from the banner; empty without one
  int banner_threads = 0;          // "using T OpenMP thread(s) per MPI task"; 0 = not printed
  std::string units, atom_style;   // the echoed `units`/`atom_style` commands or "Unit style : lj"
  std::string pair_style;          // "(1) pair lj/cut/intel, perpetual", else the echoed pair_style
  std::string precision;           // INTEL package "Precision: mixed"
  // The long-range solver's settings as LAMMPS prints them at its initialization ("PPPM
  // initialization ...": "G vector (1/distance) = 0.29", "grid = 45 54 50", "stencil order = 5"),
  // of the first run: "pppm G 0.29 grid 45 54 50 order 5"; empty without a long-range solver.
  std::string kspace_settings;
  std::string total_wall_time;     // "0:00:01" as printed; empty when the log ends without it
  double total_wall_time_s = kUnknown;
  std::vector<LammpsLoop> loops;
};

/// True when `text` has the LAMMPS banner on one of its first lines, or a
/// "Loop time of ... procs for ... steps with ... atoms" line.
bool LooksLikeLammpsLog(std::string_view text);

/// Parses a log; throws InputError naming `path` (and the line) when the log has
/// no completed run, a malformed Loop time line or timing table, or runs of
/// different process counts.
LammpsLog ParseLammpsLog(std::string_view text, const std::string& path);

/// The run-statistics record of a log: app "lammps", the problem key, procs and
/// threads, the summed Loop times, and mean MPI (Comm) and compute time.
RunStats LammpsLogToRunStats(const LammpsLog& log, const std::string& path);

}  // namespace qnm
