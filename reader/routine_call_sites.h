#pragma once
// Call sites of a profile that counts per MPI routine, not per call site (TAU's
// flat timers, IPM's hash): one CallSiteStats per routine, in the order the
// routines are first met, with dense per-rank calls and time (and bytes, when
// the profile has them), and their totals over the ranks.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// A run of `procs` ranks of a per-rank profile read from `sources`: `threads` per process (at
/// least 1) and zeroed per-rank application and MPI times for the reader to fill.
RunStats PerRankProfileRun(std::size_t procs, int threads, std::vector<std::string> sources);

/// The ranks of a folder of per-rank profile files are 0..P-1, P the largest rank + 1: the first of
/// them without a file in `by_rank`, or -1 when each has one.
template <class File>
int FirstMissingRank(const std::map<int, File>& by_rank) {
  if (by_rank.empty() || static_cast<int>(by_rank.size()) == by_rank.rbegin()->first + 1) return -1;
  for (int rank = 0;; ++rank)
    if (!by_rank.count(rank)) return rank;
}

class RoutineCallSites {
 public:
  /// Sites go to `run->call_sites`; `with_bytes`: the profile counts bytes per routine.
  RoutineCallSites(RunStats* run, std::size_t procs, bool with_bytes)
      : run_(run), procs_(procs), with_bytes_(with_bytes) {}

  /// The site of `routine` (without "MPI_"), made on first use with `source_location`.
  CallSiteStats& Of(const std::string& routine, const std::string& source_location);

  /// Each site's totals over the ranks (total_time_s, total_calls, and total_bytes_sent with bytes).
  void SumTotals();

 private:
  RunStats* run_;
  std::size_t procs_;
  bool with_bytes_;
  std::map<std::string, std::size_t> index_;  // routine -> position in run_->call_sites
};

}  // namespace qnm
