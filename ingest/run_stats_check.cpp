#include "ingest/run_stats_check.h"

#include <vector>

#include "util/plausible_range.h"

namespace qnm {
namespace {

struct Checker {
  const std::string& file;
  int line;

  void Value(double value, const PlausibleRange& range, const std::string& field) const {
    if (Known(value)) RequirePlausible(value, range, field, file, line);
  }
  void Values(const std::vector<double>& values, const PlausibleRange& range, const std::string& field) const {
    for (std::size_t k = 0; k < values.size(); ++k)
      if (Known(values[k])) RequirePlausible(values[k], range, field + "[" + std::to_string(k) + "]", file, line);
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
    const std::string name = "call site " + std::to_string(site.id) + " ";
    check.Values(site.time_s_per_rank, kSummedTimeS, name + "time of rank");
    check.Values(site.calls_per_rank, kCount, name + "calls of rank");
    check.Values(site.bytes_sent_per_rank, kCount, name + "bytes of rank");
    check.Value(site.total_time_s, kSummedTimeS, name + "total time");
    check.Value(site.total_calls, kCount, name + "total calls");
    check.Value(site.total_bytes_sent, kCount, name + "total bytes");
  }
  // The time a model is fitted to: a run must have taken a plausible time.
  check.Value(run.TotalTimeSeconds(), kRunTimeS, "run time");
}

}  // namespace qnm
