#include "ingest/run_pairing.h"

#include <map>

#include "ingest/text_lines.h"

namespace qnm {
namespace {

std::string ReportNameFor(const IngestedFile& file) {
  if (!file.mpip_report.empty()) return file.mpip_report;
  std::string stem = file.name.original_name;
  for (const char* extension : {".out.dat", ".out", ".txt", ".log"})
    if (EndsWith(stem, extension)) {
      stem.resize(stem.size() - std::string(extension).size());
      break;
    }
  return stem + ".mpiP";
}

bool SameRun(const RunStats& a, const RunStats& b) {
  return a.app == b.app && a.problem_class == b.problem_class && a.procs == b.procs &&
         a.threads_per_proc == b.threads_per_proc && a.wall_time_s == b.wall_time_s &&
         a.iterations == b.iterations;
}

}  // namespace

void MergeMpipIntoNpb(const RunStats& report, RunStats* npb) {
  npb->app_time_s_per_rank = report.app_time_s_per_rank;
  npb->mpi_time_s_per_rank = report.mpi_time_s_per_rank;
  npb->p2p_calls_per_rank = report.p2p_calls_per_rank;
  npb->p2p_bytes_sent_per_rank = report.p2p_bytes_sent_per_rank;
  npb->collective_calls_per_rank = report.collective_calls_per_rank;
  npb->collective_bytes_sent_per_rank = report.collective_bytes_sent_per_rank;
  npb->call_sites = report.call_sites;
  npb->comm_matrix_bytes = report.comm_matrix_bytes;
  npb->comm_matrix_messages = report.comm_matrix_messages;
  npb->per_rank_complete = report.per_rank_complete;
  npb->mpi_calls_per_rank = report.mpi_calls_per_rank;
  npb->tool_version = report.tool_version;
  if (npb->allocation.empty()) npb->allocation = report.allocation;
  if (npb->hosts.empty()) npb->hosts = report.hosts;
  if (npb->nodes == 0) npb->nodes = report.nodes;  // their derivations come with the others below
  if (npb->ranks_per_node == 0) npb->ranks_per_node = report.ranks_per_node;
  if (npb->machine.empty()) npb->machine = report.machine;  // its derivation comes with the others below
  for (const auto& [key, value] : report.details) npb->details.emplace(key, value);
  for (const auto& [key, value] : report.derivations) npb->derivations.emplace(key, value);
  for (const std::string& source : report.sources) npb->sources.push_back(source);
  // Summaries are re-derived from the per-rank data now present.
  for (double* field : {&npb->app_time_mean_s, &npb->app_time_max_s, &npb->mpi_time_mean_s,
                        &npb->mpi_time_max_s, &npb->compute_time_mean_s, &npb->messages_per_rank,
                        &npb->bytes_sent_per_rank, &npb->bytes_per_message})
    *field = kUnknown;
  npb->derivations["pairing"] =
      "NPB stdout paired with its mpiP report: wall time, threads, Mop/s from NPB; per-rank data from mpiP";
  npb->Derive();
}

PairingResult PairRuns(std::vector<IngestedFile> files) {
  PairingResult result;
  // Report name -> indices of report files holding it.
  std::map<std::string, std::vector<std::size_t>> reports;
  for (std::size_t f = 0; f < files.size(); ++f)
    if (files[f].role == PairingRole::kMpipReport && files[f].runs.size() == 1)
      reports[files[f].name.original_name].push_back(f);

  std::map<std::size_t, std::size_t> record_of_report;  // report file -> index in result.runs
  std::vector<bool> report_used(files.size(), false);
  std::vector<std::pair<std::size_t, RunStats>> npb_pairs;
  for (std::size_t f = 0; f < files.size(); ++f) {
    IngestedFile& file = files[f];
    if (file.role != PairingRole::kNpbOutput || file.runs.size() != 1) continue;
    auto found = reports.find(ReportNameFor(file));
    if (found == reports.end()) continue;
    // Prefer a report of the same data set; else the name must be unique.
    std::size_t chosen = files.size();
    for (std::size_t r : found->second)
      if (files[r].name.data_set == file.name.data_set) chosen = r;
    if (chosen == files.size() && found->second.size() == 1) chosen = found->second.front();
    if (chosen == files.size()) continue;
    const RunStats& report = files[chosen].runs.front();
    RunStats& npb = file.runs.front();
    if (report.procs != npb.procs && report.procs != npb.procs_requested) {
      result.notes.push_back(file.path + " names " + found->first + " but has " +
                             std::to_string(npb.procs) + " processes, the report " +
                             std::to_string(report.procs) + ": not paired");
      continue;
    }
    auto existing = record_of_report.find(chosen);
    if (existing != record_of_report.end()) {
      RunStats& merged = result.runs[existing->second];
      if (SameRun(merged, npb)) {
        merged.sources.push_back(file.path);  // another copy of the same stdout
        ++result.files_paired;
        file.runs.clear();
      }
      continue;
    }
    MergeMpipIntoNpb(report, &npb);
    report_used[chosen] = true;
    record_of_report[chosen] = result.runs.size();
    result.runs.push_back(std::move(npb));
    file.runs.clear();
    ++result.files_paired;
  }
  std::size_t total = result.runs.size();
  for (std::size_t f = 0; f < files.size(); ++f) total += report_used[f] ? 0 : files[f].runs.size();
  if (result.runs.empty() && files.size() == 1 && !report_used[0]) {
    result.runs = std::move(files[0].runs);  // one file (a table): nothing to move record by record
    return result;
  }
  result.runs.reserve(total);
  for (std::size_t f = 0; f < files.size(); ++f) {
    if (!report_used[f])
      for (RunStats& run : files[f].runs) result.runs.push_back(std::move(run));
    std::vector<RunStats>().swap(files[f].runs);  // freed as moved: no second copy of every record
  }
  return result;
}

}  // namespace qnm
