#pragma once
// The Met Office Unified Model's timer output (docs/formats/um-timers.md): what the UM prints at the end
// of its standard output (atm.fort6.pe0, a job's .out) when its timers are on. UM 7 ends a run with
//    END OF RUN - TIMER OUTPUT
//    PE                      0   Elapsed Wallclock Time:    3943.80157899974
//    Maximum Elapsed Wallclock Time:    3944.07699399998
// then, from every version, the MPP timer summaries over the processes:
//    MPP Timing information :
//    576 processors in atmosphere configuration 24 x 24          (UM 7: "... in configuration 16 x 15")
//    Number of OMP threads : 1
//    MPP : Inclusive timer summary
//    WALLCLOCK  TIMES
//    N  ROUTINE               MEAN    MEDIAN   SD   % of mean    MAX  (PE)    MIN  (PE)
//    01 U_MODEL_4A         1314.55   1314.55  0.06     0.00%  1315.88 (  0)  1314.55 (433)
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One routine's row of the inclusive wallclock summary.
struct UmTimer {
  std::string name;  // "U_MODEL_4A", "AS3 Atmos_Phys2"
  int line = 0;
  double mean_s = 0, median_s = 0, sd_s = 0, max_s = 0, min_s = 0;
  int max_pe = 0, min_pe = 0;
};

/// What a UM log says of its run.
struct UmRun {
  int procs = 0, procs_line = 0;  // "N processors in [atmosphere ]configuration X x Y"
  int nproc_x = 0, nproc_y = 0;
  int omp_threads = 0;        // "Number of OMP threads : T"
  double max_elapsed_s = -1;  // "Maximum Elapsed Wallclock Time:" (UM 7)
  int max_elapsed_line = 0;
  double pe0_elapsed_s = -1;    // "PE 0 Elapsed Wallclock Time:"
  std::vector<UmTimer> timers;  // the inclusive summary's WALLCLOCK TIMES, in its order
  int timers_line = 0;          // its "WALLCLOCK  TIMES" line
};

/// True when `text` holds the UM's timer output ("END OF RUN - TIMER OUTPUT", "MPP Timing information :"
/// or "MPP : Inclusive timer summary" at a line's start).
bool LooksLikeUmTimers(std::string_view text);

/// What a log says; throws InputError naming `path` and the line of a timer row that does not read (a
/// value that is no number, a column too many or too few, a routine name that begins with no letter).
UmRun ParseUmTimers(std::string_view text, const std::string& path);

/// The record of a run: processes, OpenMP threads, the whole run's time (UM 7's maximum elapsed wallclock
/// time, else the U_MODEL timer's slowest process); throws when the log says no processor count or no
/// whole run's time.
RunStats UmRunToRunStats(const UmRun& run, const std::string& path);

}  // namespace qnm
