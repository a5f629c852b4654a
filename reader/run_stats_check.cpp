#include "reader/run_stats_check.h"

#include <cstdio>
#include <vector>

#include "util/input_error.h"

#include "util/plausible_range.h"

namespace qnm {
namespace {

struct Checker {
  const std::string& file;
  int line;

  // The field's name is built only for a value that fails: records hold per-rank lists of
  // thousands of values, and naming each one cost a third of reading a campaign of small files.
  void Value(double value, const PlausibleRange& range, const char* field, const std::string& prefix = "") const {
    if (Known(value) && !range.Contains(value)) RequirePlausible(value, range, prefix + field, file, line);
  }
  void Values(const std::vector<double>& values, const PlausibleRange& range, const char* field,
              const std::string& prefix = "") const {
    for (std::size_t k = 0; k < values.size(); ++k)
      if (Known(values[k]) && !range.Contains(values[k]))
        RequirePlausible(values[k], range, prefix + field + "[" + std::to_string(k) + "]", file, line);
  }
};

}  // namespace

void RequirePlausibleRecord(const RunStats& run, const std::string& file, int line) {
  const Checker check{file, line};
  if (run.procs != 0) check.Value(run.procs, kProcessCount, "procs");
  if (run.procs_requested != 0) check.Value(run.procs_requested, kProcessCount, "procs_requested");
  check.Value(run.threads_per_proc, kProcessCount, "threads_per_proc");
  check.Value(run.wall_time_s, kRunTimeS, "wall time");
  check.Values(run.app_time_s_per_rank, kPartTimeS, "app time of rank");
  check.Values(run.mpi_time_s_per_rank, kPartTimeS, "MPI time of rank");
  check.Value(run.app_time_mean_s, kPartTimeS, "mean app time");
  check.Value(run.app_time_max_s, kPartTimeS, "max app time");
  check.Value(run.mpi_time_mean_s, kPartTimeS, "mean MPI time");
  check.Value(run.mpi_time_max_s, kPartTimeS, "max MPI time");
  check.Value(run.compute_time_mean_s, kPartTimeS, "mean computation time");
  check.Values(run.p2p_calls_per_rank, kCount, "point-to-point calls of rank");
  check.Values(run.p2p_bytes_sent_per_rank, kCount, "point-to-point bytes of rank");
  check.Values(run.collective_calls_per_rank, kCount, "collective calls of rank");
  check.Values(run.collective_bytes_sent_per_rank, kCount, "collective bytes of rank");
  check.Value(run.messages_per_rank, kCount, "messages per rank");
  check.Value(run.bytes_sent_per_rank, kCount, "bytes sent per rank");
  check.Value(run.bytes_per_message, kCount, "bytes per message");
  check.Value(run.mpi_calls_per_rank, kCount, "MPI calls per rank");
  check.Values(run.comm_matrix_bytes, kCount, "communication matrix bytes");
  check.Values(run.comm_matrix_messages, kCount, "communication matrix messages");
  check.Value(run.mops_total, kMopsRate, "Mop/s total");
  check.Value(run.mops_per_proc, kMopsRate, "Mop/s per process");
  for (const CallSiteStats& site : run.call_sites) {
    const std::string name = "call site " + std::to_string(site.id) + " ";  // once per site, not per value
    check.Values(site.time_s_per_rank, kSummedTimeS, "time of rank", name);
    check.Values(site.calls_per_rank, kCount, "calls of rank", name);
    check.Values(site.bytes_sent_per_rank, kCount, "bytes of rank", name);
    check.Value(site.total_time_s, kSummedTimeS, "total time", name);
    check.Value(site.total_calls, kCount, "total calls", name);
    check.Value(site.total_bytes_sent, kCount, "total bytes", name);
  }
  // The time a model is fitted to: a run must have taken a plausible time.
  check.Value(run.TotalTimeSeconds(), kRunTimeS, "run time");
  RequirePartsWithinWhole(run, file, line);
}

void RequirePartsWithinWhole(const RunStats& run, const std::string& file, int line) {
  // Parts come from other timers or repetitions than the whole (Extra-P's
  // main->MPI, mpiP's MPI time vs AppTime), so a little noise is allowed;
  // beyond it the file contradicts itself and a model would be fitted to a
  // negative computation time.
  auto within = [](double part_s, double whole_s) {
    return part_s <= whole_s * (1 + kPartOverWholeNoise) + kPartOverWholeNoiseS;
  };
  auto refuse = [&](const std::string& part, double part_s, const std::string& whole, double whole_s) {
    char text[256];
    std::snprintf(text, sizeof text, "%s %.6g s is larger than %s %.6g s (a part cannot exceed the whole)",
                  part.c_str(), part_s, whole.c_str(), whole_s);
    throw InputError(file, line, text);
  };
  const double total_s = run.TotalTimeSeconds();
  if (Known(total_s)) {
    if (Known(run.mpi_time_mean_s) && !within(run.mpi_time_mean_s, total_s))
      refuse("mean MPI time", run.mpi_time_mean_s, "the run time", total_s);
    if (Known(run.compute_time_mean_s) && !within(run.compute_time_mean_s, total_s))
      refuse("mean computation time", run.compute_time_mean_s, "the run time", total_s);
  }
  if (run.mpi_time_s_per_rank.size() == run.app_time_s_per_rank.size())
    for (std::size_t r = 0; r < run.mpi_time_s_per_rank.size(); ++r) {
      const double mpi_s = run.mpi_time_s_per_rank[r], app_s = run.app_time_s_per_rank[r];
      if (Known(mpi_s) && Known(app_s) && !within(mpi_s, app_s))
        refuse("MPI time of rank " + std::to_string(r), mpi_s, "its app time", app_s);
    }
}

}  // namespace qnm
