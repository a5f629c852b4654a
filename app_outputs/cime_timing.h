#pragma once
// The timing profile CIME writes after every run of a model it drives (CESM, E3SM, NorESM, ...;
// docs/formats/cime-timing.md): `$CASEROOT/timing/<model>_timing.<case>.<lid>`, also `ccsm_timing.*` from
// CESM 1. Its "TIMING PROFILE" section gives the case, machine, grid, compset and run length, the
// processor layout of each component
//   component       comp_pes    root_pe   tasks  x threads instances (stride)
//   cpl = cpl        3456        0        1152   x 3       1      (1     )
// and the overall metrics ("Run Time    :    2951.082 seconds        8.085 seconds/day"). The run
// time is CIME's `Run Time`: the coupler's run loop, the time its throughput and cost are computed from
// (initialisation and finalisation are given apart). The MPI tasks are the layout's: the highest task a
// component uses, root_pe + (tasks - 1) x stride, plus one; `total pes active` counts hardware threads
// (and in CIME 5 and later multiplies them in once more), so it is a cross-check, not the count.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One component's row of the layout table.
struct CimeComponent {
  std::string name;   // "atm", "cpl", ...
  std::string model;  // "cam", "cpl", ...
  int tasks = 0, threads = 0, root_pe = 0, stride = 1;
  int line = 0;
};

struct CimeTimingProfile {
  std::string header;  // "CCSM TIMING PROFILE", "TIMING PROFILE"
  std::string case_name, machine, grid, compset, stop_option, stop_n, run_length, tag;
  std::vector<CimeComponent> components;
  long long total_pes_active = 0;  // as printed
  long long pe_cost_count = 0;     // "pe count for cost estimate"
  int tasks_per_node = 0;          // "mpi tasks per node" (CIME 5+): MPI tasks
  int pes_per_node = 0;            // "pes per node" (CESM 1): hardware threads
  double init_s = -1, run_s = -1, final_s = -1;
  double model_cost = -1, throughput_sypd = -1;
  int run_line = 0;  // the "Run Time" line
};

/// True when `text` holds a CIME timing profile (its section header and its overall metrics).
bool LooksLikeCimeTiming(std::string_view text);

/// The profile of `text`; throws InputError naming `path` and the line of a layout row that does not
/// parse, or when the run's time is missing (the run did not finish) or not a number.
CimeTimingProfile ParseCimeTiming(std::string_view text, const std::string& path);

/// The run: procs and threads from the layout, the run time, the model (from the file's name:
/// `cesm_timing.*` -> cesm), the class from compset, grid and run length, the machine.
RunStats CimeTimingToRunStats(const CimeTimingProfile& profile, const std::string& path);

}  // namespace qnm
