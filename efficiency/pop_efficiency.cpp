#include "efficiency/pop_efficiency.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace qnm {
namespace {

double DetailNumber(const RunStats& run, const char* key) {
  const auto it = run.details.find(key);
  if (it == run.details.end()) return kUnknown;
  char* end = nullptr;
  const double value = std::strtod(it->second.c_str(), &end);
  return end != it->second.c_str() && *end == '\0' && std::isfinite(value) ? value : kUnknown;
}

// The run of median time among a process count's repetitions (the lower middle of an even count).
const RunStats& MedianRun(const RunGroup& group) {
  std::vector<const RunStats*> runs;
  for (const RunStats& run : group.runs) runs.push_back(&run);
  auto time = [](const RunStats* run) {  // a run of unknown time sorts last (NaN orders nothing)
    const double t = run->TotalTimeSeconds();
    return std::isnan(t) ? std::numeric_limits<double>::infinity() : t;
  };
  std::sort(runs.begin(), runs.end(), [&](const RunStats* a, const RunStats* b) { return time(a) < time(b); });
  return *runs[(runs.size() - 1) / 2];
}

}  // namespace

PopEfficiency PopEfficiencyOfRun(const RunStats& run) {
  PopEfficiency e;
  const double useful_mean = DetailNumber(run, "pop_useful_mean_s");
  const double useful_max = DetailNumber(run, "pop_useful_max_s");
  const double useful_sum = DetailNumber(run, "pop_useful_sum_s");
  const double runtime = DetailNumber(run, "pop_runtime_s");
  const std::size_t ranks = static_cast<std::size_t>(std::max(run.procs, 0));
  if (Known(useful_mean) && Known(useful_max) && Known(useful_sum) && Known(runtime)) {
    e.compute_mean_s = useful_mean;
    e.compute_max_s = useful_max;
    e.compute_sum_s = useful_sum;
    e.runtime_s = runtime;
    e.compute_from = "useful computation (Paraver state Running)";
    e.runtime_from = "the trace's elapsed time";
  } else if (ranks > 0 && run.app_time_s_per_rank.size() == ranks && run.mpi_time_s_per_rank.size() == ranks) {
    double sum = 0, most = 0, longest = 0;
    for (std::size_t r = 0; r < ranks; ++r) {
      const double compute = std::max(0.0, run.app_time_s_per_rank[r] - run.mpi_time_s_per_rank[r]);
      sum += compute;
      most = std::max(most, compute);
      longest = std::max(longest, run.app_time_s_per_rank[r]);
    }
    e.compute_mean_s = sum / static_cast<double>(ranks);
    e.compute_max_s = most;
    e.compute_sum_s = sum;
    e.runtime_s = longest;
    e.compute_from = "application - MPI time per rank";
    e.runtime_from =
        "the longest rank's application time in the profile (MPI_Init to MPI_Finalize), which exceeds the run "
        "time the predictions above use where the program's own timer leaves its set-up out";
  } else {
    return PopEfficiency{};
  }
  // Times that cannot belong to one run (a record's details edited by hand: a total below the
  // maximum, a mean above it, computing longer than the run) give no factors rather than odd ones.
  const double slack = 1 + 1e-9;
  if (!(e.compute_max_s > 0 && e.runtime_s > 0 && e.compute_sum_s * slack >= e.compute_max_s &&
        e.compute_mean_s <= e.compute_max_s * slack && e.compute_max_s <= e.runtime_s * slack))
    return PopEfficiency{};
  e.procs = run.procs;
  e.useful_instructions = DetailNumber(run, "pop_useful_instructions");
  e.useful_cycles = DetailNumber(run, "pop_useful_cycles");
  if (e.useful_instructions > 0 && e.useful_cycles > 0 && e.compute_sum_s > 0) {
    e.ipc = e.useful_instructions / e.useful_cycles;
    e.frequency_ghz = e.useful_cycles / e.compute_sum_s / 1e9;
  }
  e.load_balance = e.compute_mean_s / e.compute_max_s;
  e.communication_efficiency = e.compute_max_s / e.runtime_s;
  e.parallel_efficiency = e.compute_mean_s / e.runtime_s;
  return e;
}

std::vector<PopEfficiency> PopEfficienciesOfSeries(const Series& series) {
  std::vector<PopEfficiency> out;
  for (const RunGroup& group : series.groups) {
    if (group.runs.empty()) continue;
    PopEfficiency e = PopEfficiencyOfRun(MedianRun(group));
    if (e.procs > 0) out.push_back(std::move(e));
  }
  if (out.empty()) return out;
  const PopEfficiency& reference = out.front();
  for (PopEfficiency& e : out) {
    e.computation_scalability = reference.compute_sum_s / e.compute_sum_s;
    e.global_efficiency = e.parallel_efficiency * e.computation_scalability;
    e.speedup = reference.runtime_s / e.runtime_s;
    e.ipc_scalability = e.ipc / reference.ipc;  // unknown (NaN) where either lacks the counters
    e.instruction_scalability = reference.useful_instructions / e.useful_instructions;
    e.frequency_scalability = e.frequency_ghz / reference.frequency_ghz;
    if (!Known(e.ipc) || !Known(reference.ipc)) e.instruction_scalability = kUnknown;
  }
  return out;
}

}  // namespace qnm
