#include "reader/routine_call_sites.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace qnm {

RunStats PerRankProfileRun(std::size_t procs, int threads, std::vector<std::string> sources) {
  RunStats run;
  run.procs = static_cast<int>(procs);
  run.threads_per_proc = std::max(1, threads);
  run.sources = std::move(sources);
  run.app_time_s_per_rank.assign(procs, 0.0);
  run.mpi_time_s_per_rank.assign(procs, 0.0);
  return run;
}

CallSiteStats& RoutineCallSites::Of(const std::string& routine, const std::string& source_location) {
  auto [at, added] = index_.emplace(routine, run_->call_sites.size());
  if (added) {
    CallSiteStats stats;
    stats.id = static_cast<int>(run_->call_sites.size() + 1);
    stats.mpi_function = routine;
    stats.activity = ClassifyMpiCall(routine);
    stats.source_location = source_location;
    stats.time_s_per_rank.assign(procs_, 0.0);
    stats.calls_per_rank.assign(procs_, 0.0);
    if (with_bytes_) stats.bytes_sent_per_rank.assign(procs_, 0.0);
    run_->call_sites.push_back(std::move(stats));
  }
  return run_->call_sites[at->second];
}

void RoutineCallSites::SumTotals() {
  for (CallSiteStats& site : run_->call_sites) {
    site.total_time_s = std::accumulate(site.time_s_per_rank.begin(), site.time_s_per_rank.end(), 0.0);
    site.total_calls = std::accumulate(site.calls_per_rank.begin(), site.calls_per_rank.end(), 0.0);
    if (with_bytes_)
      site.total_bytes_sent = std::accumulate(site.bytes_sent_per_rank.begin(), site.bytes_sent_per_rank.end(), 0.0);
  }
}

}  // namespace qnm
