#pragma once
// Kripke outputs (docs/formats/kripke-output.md): LLNL's deterministic Sn particle-transport proxy
// application (LLNL/Kripke, 1.2.x) prints to standard output its banner and version, its
// compilation options, the input (zones, groups, Legendre order, quadrature, iterations, the MPI
// tasks and their spatial decomposition, the per-task sets and data layout), the solver's
// iterations, rank 0's timers (a table and the TIMER_NAMES/TIMER_DATA lines, the latter to six
// decimals) and its figures of merit. Kripke times its sweeps (SweepSolver, communication and
// waiting included) and their local work (SweepSubdomain) but no MPI call apart: the records are
// runtime-only.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One run of Kripke in an output.
struct KripkeRun {
  int line = 0;                                // its "LLNL-CODE-775068" line
  std::string version;                         // "1.2.5-dev", from the banner's "Version" line
  std::map<std::string, std::string> options;  // "Compilation Options" and "Input Parameters", by key
  std::map<std::string, int> option_lines;     // each option's line
  int threads = 0;                             // "OpenMP Thread->Core mapping for N threads on rank 0"
  std::map<std::string, double> timers_s;      // rank 0's timers: TIMER_DATA, else the table
  int timers_line = 0;                         // the timers' first line; 0: the run did not finish
  std::map<std::string, std::string> merits;   // "Figures of Merit", by name
  bool solver_terminated = false;              // "Solver terminated"
};

/// True when `text` is Kripke's output (its code number and licence line).
bool LooksLikeKripkeOutput(std::string_view text);

/// Every run of an output; throws InputError naming `path` and the line when a value is
/// malformed or the file holds no run.
std::vector<KripkeRun> ParseKripkeOutput(std::string_view text, const std::string& path);

/// The record of a finished run: MPI tasks, threads, rank 0's Generate + Solve time, the problem
/// (zones, groups, Legendre order, quadrature, iterations) as the class, the per-task sets, layout
/// and sweep method as declared settings, every timer and figure of merit as details.
RunStats KripkeRunToRunStats(const KripkeRun& run, const std::string& path);

}  // namespace qnm
