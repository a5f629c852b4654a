#pragma once
// CloverLeaf and TeaLeaf outputs (docs/formats/cloverleaf-output.md): the UK Mini-App Consortium's
// hydrodynamics (CloverLeaf, 2D and 3D) and heat-conduction (TeaLeaf) mini-apps, the reference
// Fortran versions (UK-MAC/CloverLeaf_ref, CloverLeaf3D_ref, TeaLeaf_ref) and the ports that keep
// their output. Rank 0 writes `clover.out` / `tea.out`:
//   "Clover Version    1.300" (or "Tea Version    1.402"), "Task Count      4", " Thread Count:  2"
//   (OpenMP builds); the input deck echoed between "*clover" and "*endclover" ("*tea" .. "*endtea"),
//   then read back ("x_cells  960"); a "Step N time ..." line and a running "Wall clock" per step;
//   at the end "Calculation complete", "Clover is finishing" (or "Tea is finishing"), the run's
//   "Wall clock  6.3942480087280273" and "First step overhead" (in either order), and with
//   `profiler_on` a "Profiler Output" table of the kernels' times on the task whose kernels took
//   longest. Neither times MPI beyond its halo exchanges on that one task: the records are runtime
//   only (the table is kept as details).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One run of CloverLeaf or TeaLeaf in an output.
struct LeafRun {
  int line = 0;                                     // its "... Version" line, 1-based
  std::string code;                                 // "Clover" or "Tea", as the version line names it
  std::string version;                              // "1.300", as printed
  int procs = 0;                                    // "Task Count"
  int threads = 0;                                  // "Thread Count:" (0: not printed, a build without OpenMP)
  long long x_cells = 0, y_cells = 0, z_cells = 0;  // the deck's mesh, as read back (z: CloverLeaf3D)
  std::string deck;             // the echoed deck as its digest sees it (docs/formats/cloverleaf-output.md)
  std::string tiles_per_chunk;  // CloverLeaf 1.3's tiling: a tuning setting, not the problem
  long long last_step = 0;      // the last "Step N time" line's N
  int finishing_line = 0;       // "Clover is finishing" / "Tea is finishing" (0: the run did not finish)
  double wall_clock_s = -1;     // the run's "Wall clock" after the finishing line
  int wall_clock_line = 0;
  double first_step_overhead_s = 0;
  bool has_first_step_overhead = false;
  std::string test_result;  // "PASSED" / "NOT PASSED" ("This test is considered ..."), or empty
  std::vector<std::pair<std::string, double>> profile;  // "Profiler Output" rows: kernel, seconds
  double last_running_wall_clock_s = -1;  // the last per-step "Wall clock" (how far an unfinished run got)
  // " Output file clover.out opened. All output will go there.": the program's standard output (or a
  // batch job's, which holds it), whose run wrote its output to that file. 0: not printed.
  int output_elsewhere_line = 0;
  std::string output_file;  // "clover.out", as that line names it
};

/// True when `text` looks like a CloverLeaf or TeaLeaf output (its version and task count lines, with
/// the echoed deck or the closing lines), or the program's standard output that names the file its
/// output went to (read as an error that says to read that file).
bool LooksLikeLeafOutput(std::string_view text);

/// Every run of an output, finished or not; throws InputError naming `path` (and the line) when a
/// value the program printed is malformed, or the file holds no run (its standard output: which file
/// to read instead).
std::vector<LeafRun> ParseLeafOutput(std::string_view text, const std::string& path);

/// The record of a finished run: procs the task count, threads, the run's wall clock, the class the
/// mesh, the steps and the input deck's digest.
RunStats LeafRunToRunStats(const LeafRun& run, const std::string& path);

}  // namespace qnm
