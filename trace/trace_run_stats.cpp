#include "trace/trace_run_stats.h"

#include <numeric>

namespace qnm::trace {
namespace {

std::string DirectoryName(const std::string& anchor) {
  std::string dir = anchor.substr(0, anchor.find_last_of('/') == std::string::npos ? 0 : anchor.find_last_of('/'));
  std::size_t slash = dir.find_last_of('/');
  return slash == std::string::npos ? dir : dir.substr(slash + 1);
}

/// The application's name from the trace's folder, without a trailing process
/// count ("tracer-stencil4d-64" with 64 ranks -> "tracer-stencil4d"), so that
/// traces of one code at several process counts form one series, as mpiP
/// reports of it do.
std::string AppName(const std::string& folder, std::size_t ranks) {
  const std::string count = std::to_string(ranks);
  for (const std::string& suffix : {"-" + count, "_" + count, "." + count, "-p" + count, "_p" + count, ".p" + count})
    if (folder.size() > suffix.size() && folder.compare(folder.size() - suffix.size(), suffix.size(), suffix) == 0)
      return folder.substr(0, folder.size() - suffix.size());
  return folder;
}


}  // namespace

SentBytes SentBytesFromEvents(const Trace& trace) {
  const std::size_t ranks = trace.ranks.size();
  SentBytes sent;
  sent.Resize(trace.call_paths.size(), ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    const LocationTrace& rank = trace.ranks[r];
    std::vector<uint32_t> stack;
    for (const Event& event : rank.events) {
      switch (event.kind) {
        case EventKind::kEnter: stack.push_back(event.ref); break;
        case EventKind::kLeave: if (!stack.empty()) stack.pop_back(); break;
        case EventKind::kSend:
        case EventKind::kIsend: {
          double bytes = static_cast<double>(rank.messages[event.ref].bytes);
          sent.p2p_calls[r] += 1;
          sent.p2p_bytes[r] += bytes;
          if (!stack.empty()) sent.by_call_path[stack.back() * ranks + r] += bytes;
          break;
        }
        case EventKind::kCollEnd: {
          const CollectiveRecord& record = rank.collectives[event.ref];
          if (IsHandleOp(record.op)) break;
          double bytes = static_cast<double>(record.bytes_sent);
          sent.collective_bytes[r] += bytes;
          if (!stack.empty()) sent.by_call_path[stack.back() * ranks + r] += bytes;
          break;
        }
        default: break;
      }
    }
  }
  return sent;
}

RunStats RunStatsFromTrace(const Trace& trace, const WaitStateResult& profile) {
  return RunStatsFromTrace(trace, profile, SentBytesFromEvents(trace));
}

RunStats RunStatsFromTrace(const Trace& trace, const WaitStateResult& profile, const SentBytes& sent) {
  const CallPaths& paths = trace.call_paths;
  const std::size_t ranks = trace.ranks.size();
  RunStats run;
  run.app = AppName(DirectoryName(trace.path), ranks);
  run.procs = static_cast<int>(ranks);
  run.sources = {trace.path};
  run.tool_version = trace.creator;
  run.details["trace_records"] = std::to_string(trace.RawEventCount());
  run.details["timer_resolution_hz"] = std::to_string(trace.timer_resolution);
  run.SetNodes(trace.nodes, "otf2: system-tree nodes of class 'node' holding the ranks");

  // Bytes sent per call path and rank: sends and collectives, from the records.
  const std::vector<double>& bytes = sent.by_call_path;
  run.p2p_calls_per_rank = sent.p2p_calls;
  run.p2p_bytes_sent_per_rank = sent.p2p_bytes;
  run.collective_calls_per_rank.assign(ranks, 0.0);
  run.collective_bytes_sent_per_rank = sent.collective_bytes;

  run.app_time_s_per_rank.assign(ranks, 0.0);
  run.mpi_time_s_per_rank.assign(ranks, 0.0);
  for (std::size_t r = 0; r < ranks; ++r)
    run.app_time_s_per_rank[r] = trace.Seconds(trace.ranks[r].last_ticks - trace.ranks[r].first_ticks);
  double mpi_calls = 0;
  for (uint32_t c : paths.PreOrder()) {
    const Region& region = paths.RegionOf(c);
    if (!region.is_mpi) continue;
    CallSiteStats site;
    site.id = static_cast<int>(c);
    site.mpi_function = region.name.rfind("MPI_", 0) == 0 ? region.name.substr(4) : region.name;
    site.source_location = paths.PathString(c);
    site.activity = ClassifyMpiCall(region.name);
    site.time_s_per_rank.assign(ranks, 0.0);
    site.calls_per_rank.assign(ranks, 0.0);
    site.bytes_sent_per_rank.assign(ranks, 0.0);
    for (std::size_t r = 0; r < ranks; ++r) {
      uint32_t rank = static_cast<uint32_t>(r);
      site.time_s_per_rank[r] = profile.ExclusiveTime(c, rank);
      site.calls_per_rank[r] = static_cast<double>(profile.visits[c * ranks + r]);
      site.bytes_sent_per_rank[r] = bytes[c * ranks + r];
      run.mpi_time_s_per_rank[r] += site.time_s_per_rank[r];
      if (region.call_class == CallClass::kCollective) run.collective_calls_per_rank[r] += site.calls_per_rank[r];
      mpi_calls += site.calls_per_rank[r];
    }
    site.total_time_s = std::accumulate(site.time_s_per_rank.begin(), site.time_s_per_rank.end(), 0.0);
    site.total_calls = std::accumulate(site.calls_per_rank.begin(), site.calls_per_rank.end(), 0.0);
    site.total_bytes_sent = std::accumulate(site.bytes_sent_per_rank.begin(), site.bytes_sent_per_rank.end(), 0.0);
    run.call_sites.push_back(std::move(site));
  }
  run.mpi_calls_per_rank = ranks ? mpi_calls / static_cast<double>(ranks) : kUnknown;
  run.derivations["app_time_s_per_rank"] = "trace: first to last event of each rank";
  run.derivations["mpi_time_s_per_rank"] =
      "trace: exclusive time in MPI call paths (measurement-off time is not MPI)";
  run.derivations["p2p_calls_per_rank"] = "trace: MpiSend + MpiIsend records";
  run.derivations["collective_calls_per_rank"] =
      "trace: visits of MPI collective regions incl. Barrier and non-blocking collectives";
  run.derivations["collective_bytes_sent_per_rank"] =
      "trace: sizeSent of MpiCollectiveEnd (Score-P: the root of a Bcast counts every copy)";
  run.derivations["call_sites"] = "trace: one per MPI call path; source_location = call path";
  run.Derive();
  return run;
}

}  // namespace qnm::trace

#include <cstdio>
#include <sstream>


#include "trace/streaming_analysis.h"

namespace qnm::trace {

RunStats ReadTraceRunStats(const std::string& path, int jobs) {
  StreamingAnalysisOptions options;
  options.jobs = jobs;
  return ReadTraceRunStats(path, options);
}

RunStats ReadTraceRunStats(const std::string& path, const StreamingAnalysisOptions& options) {
  StreamingAnalysis analysis = AnalyzeTraceStreaming(path, options);
  return RunStatsFromTrace(analysis.trace, analysis.result, analysis.sent);
}

std::string RunStatsTable(const RunStats& run) {
  std::ostringstream out;
  char line[256];
  out << "Run statistics from " << (run.sources.empty() ? run.app.str() : run.sources.front()) << "\n";
  auto row = [&](const char* label, double value, const char* unit) {
    std::snprintf(line, sizeof line, "  %-34s %14.6g %s\n", label, value, unit);
    out << line;
  };
  row("processes", run.procs, "");
  row("app time, mean over ranks", run.app_time_mean_s, "s");
  row("app time, max over ranks", run.app_time_max_s, "s");
  row("MPI time, mean over ranks", run.mpi_time_mean_s, "s");
  row("compute time, mean over ranks", run.compute_time_mean_s, "s");
  row("messages sent per rank", run.messages_per_rank, "");
  row("bytes sent per rank", run.bytes_sent_per_rank, "B");
  row("bytes per message", run.bytes_per_message, "B");
  row("MPI calls per rank", run.mpi_calls_per_rank, "");
  out << "\n  Call paths (MPI)                                         calls        time (s)       bytes sent\n";
  for (const CallSiteStats& site : run.call_sites) {
    std::snprintf(line, sizeof line, "  %-52s %10.0f %14.6g %16.0f\n", site.source_location.c_str(),
                  site.total_calls, site.total_time_s, site.total_bytes_sent);
    out << line;
  }
  return out.str();
}

}  // namespace qnm::trace
