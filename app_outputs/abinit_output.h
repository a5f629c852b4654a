#pragma once
// ABINIT's main output file (`run.abo`, `t01.out`; docs/formats/abinit-output.md). A run opens with
// its header (".Version 9.11.6 of ABINIT", ".(MPI version, prepared for a x86_64_linux_intel18.0
// computer)", ".Starting date : Wed 29 Nov 2023." and "- ( at 15h29 )", "- input  file    -> t01.abi"),
// the echo of its input variables (" -outvars: echo values of preprocessed input variables": one
// "name value..." line per variable that is not at its default, "nkpt1 29" for a dataset's own value),
// then one "== DATASET  1 ===" part per dataset, each naming the process count ("-   nproc =    4" up to
// 9.x, "-   mpi_nproc: 16, omp_nthreads: 1 (-1 if OMP is not activated)" from late 9.x), and, when it
// ends, the timing analysis ("-<BEGIN_TIMER mpi_nprocs = 4, omp_nthreads = 1, mpi_rank = world>" and
// its routine table, or "- Timing analysis has been suppressed with timopt=0"), "- Proc.   0 individual
// time (sec): cpu=  1.1  wall=  1.2", " Calculation completed." and "+Overall time at end (sec) :
// cpu=  4.6  wall=  4.8". The overall time and the world timer are SUMS over the processes (ABINIT
// adds every process's cpu and wall time, MPI_SUM): process 0's time is the run's time. An error
// stops a run with a YAML document ("--- !ERROR" / "--- !BUG", "message: |", its text, "..."). Read as
// printed by ABINIT 7.11 to 10.4. ABINIT prints no host names, and times no MPI call as such: the
// records are runtime only.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One row of the timing analysis ("- fourwf%(pot)  0.280  6.1  0.281  5.9  3840  -1.00  1.00  1.00").
struct AbinitTimerRow {
  int line = 0;
  std::string name;                            // "fourwf%(pot)", "others (147)"
  double cpu_s = kUnknown, wall_s = kUnknown;  // of the block's processes (world: summed over them)
  long long calls = 0;                         // as printed (-1 = not counted)
};

/// One run of ABINIT in an output file (a job's output may hold several, one after another).
struct AbinitRun {
  int line = 0;              // of its ".Version N of ABINIT" line, 1-based
  std::string version;       // "9.11.6", "10.1.4.5"
  std::string build;         // "MPI", "sequential" (".(MPI version, prepared for a ... computer)")
  std::string build_target;  // "x86_64_linux_gnu13.2"
  std::string start_date;    // "Fri 13 Sep 2024" of ".Starting date : Fri 13 Sep 2024."
  std::string start_time;    // "19h29" of "- ( at 19h29 )"
  std::string input_file;    // "- input  file    -> /path/t01.abi", as printed
  int nproc_line = 0;        // the first "-   nproc =" / "-   mpi_nproc:" line
  int nproc = 0;             // its process count
  int omp_threads = 0;       // "omp_nthreads: T" of that line (-1: OpenMP not activated); 0 = not printed
  int timer_procs = 0;       // "-<BEGIN_TIMER mpi_nprocs = N, omp_nthreads = T, ...>"
  int timer_threads = 0;
  int datasets = 0;          // "== DATASET  N ==" parts read
  // The echo of the preprocessed input variables: a variable's name as printed ("nkpt1", "ecut") ->
  // the values of its first line ("29", "5.80000000E+00 Hartree").
  std::map<std::string, std::string> variables;
  int variables_line = 0;    // of " -outvars: echo values of preprocessed input variables"
  bool timing_suppressed = false;     // "- Timing analysis has been suppressed with timopt=0"
  int world_timer_line = 0;           // "-<BEGIN_TIMER ..., mpi_rank = world>"
  double world_timer_cpu_s = kUnknown, world_timer_wall_s = kUnknown;  // its "- cpu_time = X, wall_time = Y"
  std::vector<AbinitTimerRow> world_timer;
  double total_cpu_s = kUnknown, total_wall_s = kUnknown;  // "- Total cpu time (s,m,h):", "- Total wall clock time"
  int proc0_line = 0;                 // "- Proc.   0 individual time (sec): cpu= X  wall= Y"
  double proc0_cpu_s = kUnknown, proc0_wall_s = kUnknown;
  bool completed = false;             // " Calculation completed."
  int overall_line = 0;               // "+Overall time at end (sec) : cpu= X  wall= Y"
  double overall_cpu_s = kUnknown, overall_wall_s = kUnknown;
  int error_line = 0;                 // the first "--- !ERROR" / "--- !BUG" document
  std::string error_message;          // its message, on one line
  int skipped_driver_line = 0;        // "abinit : before driver, ... => will skip driver" (a dry run)
  int last_line = 0;                  // the run's last line with text
};

/// True when one of the first lines of `text` is ABINIT's ".Version N of ABINIT" header line.
bool LooksLikeAbinitOutput(std::string_view text);

/// Every run of an output, finished or not; throws InputError naming `path` and the line when a count
/// or a time is malformed, or the file holds no ABINIT header.
std::vector<AbinitRun> ParseAbinitOutput(std::string_view text, const std::string& path);

/// Why a run cannot be read (an error, no closing time, a dry run, no process count), or empty when it
/// can. `line` receives the line to name.
std::string AbinitRunUnfinished(const AbinitRun& run, int* line);

/// The values of a variable over the datasets ("nkpt" -> {"29", "260"} from "nkpt1 29", "nkpt2 260";
/// {"60"} from "nkpt 60"); empty when the echo does not print it (it is at its default).
std::vector<std::string> AbinitVariable(const AbinitRun& run, const std::string& name);

/// The run-statistics record of a finished run: app "abinit", procs and threads, process 0's wall
/// time as the run's time, the input's name and key sizes as the problem, the k-point/band/FFT
/// distribution as declared settings, the timing analysis as details.
RunStats AbinitRunToRunStats(const AbinitRun& run, const std::string& path);

}  // namespace qnm
