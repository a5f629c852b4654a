#pragma once
// A series of one run per process count, built in a test from a function of P.
#include <functional>
#include <string>
#include <vector>

#include "record/run_stats.h"

namespace qnm::testing {

/// One group per P of `procs`, each holding the run `run_at(P)` (its procs set to P) and its
/// time as the group's median, minimum and maximum.
inline Series SingleRunSeries(const std::string& name, const std::vector<int>& procs,
                              const std::function<RunStats(int procs)>& run_at) {
  Series series;
  series.name = name;
  for (int p : procs) {
    RunGroup group;
    group.procs = p;
    RunStats run = run_at(p);
    run.procs = p;
    group.median_time_s = group.min_time_s = group.max_time_s = run.wall_time_s;
    group.runs.push_back(std::move(run));
    series.groups.push_back(std::move(group));
  }
  return series;
}

}  // namespace qnm::testing
