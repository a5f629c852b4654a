#include "profiles/ipm_log.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

#include "profiles/ipm_banner.h"
#include "reader/routine_call_sites.h"
#include "reader/series_identity.h"
#include "textio/text_lines.h"
#include "textio/xml_text.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

struct Reader : XmlText {
  // A non-negative, finite number attribute (IPM prints them with %e).
  double Number(const pugi::xml_node& node, const char* name) const {
    const pugi::xml_attribute attribute = node.attribute(name);
    if (!attribute) Fail(node, std::string("<") + node.name() + "> without " + name + "=");
    auto value = ParseDouble(Trim(attribute.value()));
    if (!value || !std::isfinite(*value) || *value < 0)
      Fail(node, std::string(name) + "=\"" + std::string(attribute.value()).substr(0, 40) +
                     "\" is no non-negative number");
    return *value;
  }
  int Rank(const pugi::xml_node& node, const char* name, int limit) const {
    const double value = Number(node, name);
    if (value != std::floor(value) || value >= limit)
      Fail(node, std::string(name) + " " + FormatDouble("%g", value) + " is no rank of " + std::to_string(limit));
    return static_cast<int>(value);
  }
};

}  // namespace

bool LooksLikeIpmXml(std::string_view text) {
  return text.substr(0, 512).find("<ipm_job_profile") != std::string_view::npos;
}

bool HasIpmBanner(std::string_view text) {
  for (std::size_t at = text.find("##IPMv"); at != std::string_view::npos; at = text.find("##IPMv", at + 1))
    if (at == 0 || text[at - 1] == '\n') return true;
  return false;
}

RunStats ReadIpmXml(std::string_view text, const std::string& path) {
  const Reader reader{{text, path}};
  pugi::xml_document document;
  reader.Load(&document);
  const pugi::xml_node profile = document.child("ipm_job_profile");
  if (!profile) throw InputError(path, 1, "an IPM log's root element is <ipm_job_profile>");
  const pugi::xml_node first = profile.child("task");
  if (!first) throw InputError(path, 0, "an IPM log without <task>");
  const double size = reader.Number(first, "mpi_size");
  if (size < 1 || size > (1 << 24) || size != std::floor(size)) reader.Fail(first, "mpi_size is no process count");
  const int procs = static_cast<int>(size);
  // Per-rank arrays follow the tasks the log holds, not the size it declares.
  const auto tasks = std::distance(profile.children("task").begin(), profile.children("task").end());
  if (tasks != procs)
    throw InputError(path, 0,
                     "the log holds " + std::to_string(tasks) + " <task> of mpi_size " + std::to_string(procs));

  RunStats run;
  run.procs = procs;
  run.sources = {path};
  run.app_time_s_per_rank.assign(procs, 0.0);
  run.mpi_time_s_per_rank.assign(procs, 0.0);
  run.p2p_calls_per_rank.assign(procs, 0.0);
  run.p2p_bytes_sent_per_rank.assign(procs, 0.0);
  run.collective_calls_per_rank.assign(procs, 0.0);
  run.collective_bytes_sent_per_rank.assign(procs, 0.0);
  std::vector<std::string> hosts(procs);
  std::vector<bool> seen(procs, false);
  std::string program;         // rank 0's <cmdline realpath>, else its first word
  double job_start_s = -1;     // rank 0's <job start>, seconds since the epoch (UTC)
  RoutineCallSites sites(&run, procs, true);
  double mpi_calls = 0;
  for (const pugi::xml_node& task : profile.children("task")) {
    if (reader.Number(task, "mpi_size") != size) reader.Fail(task, "tasks of different mpi_size in one log");
    const int rank = reader.Rank(task, "mpi_rank", procs);
    if (seen[rank]) reader.Fail(task, "rank " + std::to_string(rank) + " twice");
    seen[rank] = true;
    const pugi::xml_node perf = task.child("perf");
    if (!perf) reader.Fail(task, "<task> without <perf>");
    run.app_time_s_per_rank[rank] = reader.Number(perf, "wtime");
    run.mpi_time_s_per_rank[rank] = reader.Number(perf, "mtime");
    if (run.mpi_time_s_per_rank[rank] > run.app_time_s_per_rank[rank] * (1 + 1e-6) + 1e-6)
      reader.Fail(perf, "MPI time mtime above the wall clock wtime");
    if (rank == 0) {
      const double threads = perf.attribute("omp_num_threads") ? reader.Number(perf, "omp_num_threads") : 1;
      if (threads >= 1 && threads <= 4096 && threads == std::floor(threads))
        run.threads_per_proc = static_cast<int>(threads);
      run.tool_version = std::string("IPM ") + task.attribute("ipm_version").value();
      const pugi::xml_node command = task.child("cmdline");
      program = command.attribute("realpath").value();
      if (const std::optional<double> start = ParseDouble(task.child("job").attribute("start").value()))
        job_start_s = *start;
      if (program.empty()) {
        const std::vector<std::string_view> words = SplitWhitespace(command.child_value());
        if (!words.empty()) program = std::string(words.front());
      }
      if (!program.empty()) {
        run.app = BaseName(program);
        run.derivations["app"] = "IPM <cmdline realpath>: " + program;
      }
    }
    hosts[rank] = std::string(Trim(task.child_value("host")));
    // The hash: one entry per (call, bytes, partner, region, call site, thread) with count and
    // total, min and max time; every call IPM counted, in and out of regions.
    for (const pugi::xml_node& entry : task.child("hash").children("hent")) {
      std::string call = entry.attribute("call").value();
      if (call.empty()) reader.Fail(entry, "<hent> without call=");
      const std::string routine = StartsWith(call, "MPI_") ? call.substr(4) : call;
      const double count = reader.Number(entry, "count");
      const double bytes = reader.Number(entry, "bytes") * count;
      const std::vector<std::string_view> times = SplitWhitespace(entry.child_value());
      auto total = times.empty() ? std::nullopt : ParseDouble(times.front());
      if (!total || !std::isfinite(*total) || *total < 0) reader.Fail(entry, "<hent> needs its total time");
      mpi_calls += count;
      CallSiteStats& site = sites.Of(routine, "IPM hash");
      site.time_s_per_rank[rank] += *total;
      site.calls_per_rank[rank] += count;
      site.bytes_sent_per_rank[rank] += bytes;
      // Sends and collectives as mpiP's records count them.
      if (IsPointToPointSend(routine)) {
        run.p2p_calls_per_rank[rank] += count;
        run.p2p_bytes_sent_per_rank[rank] += bytes;
      } else if (CountsAsCollective(site.activity)) {
        run.collective_calls_per_rank[rank] += count;
        run.collective_bytes_sent_per_rank[rank] += bytes;
      }
    }
  }
  for (int r = 0; r < procs; ++r)
    if (!seen[r]) throw InputError(path, 0, "no <task> of rank " + std::to_string(r) + " of " + std::to_string(procs));
  sites.SumTotals();
  run.mpi_calls_per_rank = mpi_calls / procs;
  run.derivations["procs"] = "IPM <task mpi_size>";
  run.derivations["app_time_s_per_rank"] = "IPM <perf wtime> per rank (MPI_Init to MPI_Finalize)";
  run.derivations["mpi_time_s_per_rank"] = "IPM <perf mtime> per rank";
  run.derivations["p2p_calls_per_rank"] = "IPM <hent>: count of the send calls (Send, Isend, Sendrecv, ...)";
  run.derivations["p2p_bytes_sent_per_rank"] = "IPM <hent>: bytes x count of the send calls";
  run.derivations["collective_calls_per_rank"] = "IPM <hent>: count of the collective and Barrier calls";
  run.derivations["collective_bytes_sent_per_rank"] = "IPM <hent>: bytes x count of the collective calls";
  run.derivations["call_sites"] = "IPM: one per MPI routine of the hash";
  if (run.threads_per_proc > 1) run.derivations["threads_per_proc"] = "IPM <perf omp_num_threads> of rank 0";
  if (std::none_of(hosts.begin(), hosts.end(), [](const std::string& host) { return host.empty(); }))
    ApplyRankHosts(hosts, "IPM <host> of every task", &run);
  // The job's banner and ipm_parse's report of this log are the same run (ipm_banner.h).
  if (job_start_s >= 0 && job_start_s < 1e11)
    run.origin = IpmRunOrigin(program, hosts[0], procs, static_cast<long long>(job_start_s));
  run.Derive();
  return run;
}

}  // namespace qnm
