#pragma once
// Quicksilver outputs (docs/formats/quicksilver-output.md): LLNL's Monte Carlo particle-transport
// proxy application (LLNL/Quicksilver) prints to standard output its version and git hash, the MPI
// ranks and OpenMP threads, its input ("Simulation:" and the geometry, material and cross-section
// blocks), a line per cycle, and at the end rank 0's cumulative timer table: every timer's calls
// and its minimum, average and maximum over the ranks in microseconds (main, cycleInit,
// cycleTracking, cycleTracking_Kernel, cycleTracking_MPI, cycleTracking_Test_Done,
// cycleFinalize), the Figure Of Merit and its PASS/FAIL checks. cycleTracking_MPI times the
// particles' buffering, their non-blocking sends and receives and, nested in it, the allreduce
// that tests for the cycle's end (cycleTracking_Test_Done): the records carry its average as the
// mean MPI time per rank, so the queueing model fits Quicksilver runs without a profiler.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One timer of the cumulative table, in microseconds over the ranks.
struct QuicksilverTimer {
  long long calls = 0;  // rank 0's
  double min_us = 0, avg_us = 0, max_us = 0;
};

/// One run of Quicksilver in an output.
struct QuicksilverRun {
  int line = 0;                                     // its "Quicksilver Version" line
  std::string version, git_hash;                    // "2023-Aug-18-15:12:10", "eb68bb8d..."
  int ranks = 0, threads = 0;                       // "Number of MPI ranks", "Number of OpenMP Threads"
  std::map<std::string, std::string> simulation;    // the "Simulation:" block, by key
  std::map<std::string, QuicksilverTimer> timers;   // the cumulative table, by name
  int timers_line = 0;                              // its first row; 0: the run did not finish
  std::string figure_of_merit;                      // as printed
  int checks_passed = 0, checks_failed = 0;         // "PASS::" / "FAIL::" lines
};

/// True when `text` is Quicksilver's output.
bool LooksLikeQuicksilverOutput(std::string_view text);

/// Every run of an output; throws InputError naming `path` and the line when a value is
/// malformed or the file holds no run.
std::vector<QuicksilverRun> ParseQuicksilverOutput(std::string_view text, const std::string& path);

/// The record of a finished run: ranks, threads, the slowest rank's main timer, the mean MPI time
/// of cycleTracking_MPI, the input as the class, its checks as the verification.
RunStats QuicksilverRunToRunStats(const QuicksilverRun& run, const std::string& path);

}  // namespace qnm
