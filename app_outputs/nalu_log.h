#pragma once
// Logs of Nalu-Wind (and Sandia's Nalu before it; docs/formats/nalu-wind-log.md): the unstructured-mesh
// wind-energy CFD code of ExaWind. naluX writes its log to `-o <file>` (by default the input deck's name
// with .log). After the time loop, nalu.C prints the wall time each process spent in main(), reduced over
// the processes (stk::wall_time, NaluEnv::nalu_time):
//   Timing for Simulation: nprocs= 192
//              main() --   	avg: 2634.76 	min: 2634.76 	max: 2634.76
// STK's summary line repeats the average ("STKPERF: Total Time: 2634.76"). The banner names the program
// and its version ("Nalu-Wind Version: v1.2.0"), each time step ends with
//   WallClockTime: 1000 Pre: 0.00268602 NLI: 2.5739 Post: 0.403615 Total: 2.98021
// and "Timing for Eq: <name>" blocks give each equation's phases as avg/min/max over the processes.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One run of naluX in a log.
struct NaluRun {
  int line = 0;                  // its first line (the banner, else the first line of the log or after the last run)
  std::string program;           // "Nalu-Wind" or "Nalu" (the banner's name), "" when the log has no banner
  std::string version;           // "v1.2.0", from "Nalu-Wind Version: v1.2.0"
  std::string trilinos_version;  // "13.1-g53550bee94b"
  int procs = 0;                 // "Timing for Simulation: nprocs= N"
  int procs_line = 0;
  double main_avg_s = -1, main_min_s = -1, main_max_s = -1;  // "main() -- avg: min: max:"
  int main_line = 0;
  int time_steps = 0;                         // "WallClockTime:" lines (one per time step)
  double step_time_sum_s = 0;                 // the sum of their "Total:"
  double solver_avg_s = 0, solver_max_s = 0;  // "Timing for Eq:" phases summed over equations: avg, max
  bool completed = false;                     // "Simulation Shall Complete"
};

/// True when `text` is a Nalu-Wind (or Nalu) log: its banner, or its main() timing lines.
bool LooksLikeNaluLog(std::string_view text);

/// Every run of a log (reruns appended to one file each begin at a banner); throws InputError naming
/// `path` and the line of a malformed value, or when no run is in it.
std::vector<NaluRun> ParseNaluLog(std::string_view text, const std::string& path);

/// Why a run gives no record ("" when it does): no main() timing (the run did not finish: killed at its
/// wall-time limit, or it failed); `line` gets the run's line.
std::string NaluRunUnfinished(const NaluRun& run, int* line);

/// The record of a finished run: processes, the run's time (main()'s slowest process), the application
/// named by the banner, the time-step loop and the equations' phases as details.
RunStats NaluRunToRunStats(const NaluRun& run, const std::string& path);

}  // namespace qnm
