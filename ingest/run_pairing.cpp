#include "ingest/run_pairing.h"

#include <filesystem>
#include <map>
#include <set>

#include "textio/text_lines.h"

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

// In each folder, an MPI profile (mpitrace's, which names no program, or an mpiP report no NPB
// stdout named) and the application output of the same run: the one output whose process count no
// other output of the folder has, with the one profile of that count. A folder of one run each pairs
// them; one of several runs (renamed outputs and profiles side by side) pairs those whose counts
// tell them apart.
void PairProfilesWithOutputs(std::vector<IngestedFile>* files, std::vector<bool>* used, PairingResult* result) {
  std::map<std::string, std::vector<std::size_t>> profiles, outputs;  // folder -> files
  std::set<std::pair<std::string, std::string>> measurements;           // (folder, origin) of an output
  for (std::size_t f = 0; f < files->size(); ++f) {
    const IngestedFile& file = (*files)[f];
    if (file.runs.size() != 1 || (*used)[f]) continue;
    const std::string folder = std::filesystem::path(file.path).parent_path().string();
    // Two outputs of one measurement (CoMD's standard output and its YAML) are one output of the run:
    // the first pairs, the other is counted once with it later (duplicate_runs.h).
    const std::string& origin = file.runs.front().origin;
    if ((file.role == PairingRole::kAppOutput || file.role == PairingRole::kNpbOutput) &&
        StartsWith(origin, kMeasurementOrigin) && !measurements.insert({folder, origin}).second)
      continue;
    // An mpiP report its NPB stdout did not name is a profile of the run whose output is beside it too
    // (CloverLeaf's clover.out and its mpiP report in one run folder).
    if (file.role == PairingRole::kMpiProfile || file.role == PairingRole::kMpipReport) profiles[folder].push_back(f);
    if (file.role == PairingRole::kAppOutput || file.role == PairingRole::kNpbOutput) outputs[folder].push_back(f);
  }
  auto with_procs = [&](const std::vector<std::size_t>& of, int procs) {
    std::vector<std::size_t> out;
    for (std::size_t f : of)  // (an output paired already has given its record away)
      if (!(*files)[f].runs.empty() && (*files)[f].runs.front().procs == procs) out.push_back(f);
    return out;
  };
  for (const auto& [folder, folder_profiles] : profiles) {
    auto found = outputs.find(folder);
    if (found == outputs.end()) continue;
    if (folder_profiles.size() == 1 && found->second.size() == 1 &&
        (*files)[folder_profiles.front()].runs.front().procs != (*files)[found->second.front()].runs.front().procs) {
      const IngestedFile& profile = (*files)[folder_profiles.front()];
      const IngestedFile& output = (*files)[found->second.front()];
      result->notes.push_back(profile.path + " (" + std::to_string(profile.runs.front().procs) + " processes) and " +
                              output.path + " (" + std::to_string(output.runs.front().procs) +
                              ") are in one folder but not of one run: not paired");
      continue;
    }
    for (std::size_t p : folder_profiles) {
      const int procs = (*files)[p].runs.front().procs;
      const std::vector<std::size_t> same_profiles = with_procs(folder_profiles, procs);
      const std::vector<std::size_t> same_outputs = with_procs(found->second, procs);
      if (same_profiles.size() != 1 || same_outputs.size() != 1) continue;
      IngestedFile& output = (*files)[same_outputs.front()];
      const RunStats& profile = (*files)[p].runs.front();
      MergeProfileIntoRun(profile, &output.runs.front(),
                          "the application's output paired with the MPI profile in its folder (" +
                              profile.tool_version +
                              ", the same process count): wall time, threads and problem from the output; per-rank "
                              "data from the profile");
      (*used)[p] = true;
      result->runs.push_back(std::move(output.runs.front()));
      output.runs.clear();
      ++result->files_paired;
    }
  }
}

}  // namespace

void MergeProfileIntoRun(const RunStats& profile, RunStats* run, const std::string& pairing) {
  run->app_time_s_per_rank = profile.app_time_s_per_rank;
  run->mpi_time_s_per_rank = profile.mpi_time_s_per_rank;
  run->p2p_calls_per_rank = profile.p2p_calls_per_rank;
  run->p2p_bytes_sent_per_rank = profile.p2p_bytes_sent_per_rank;
  run->collective_calls_per_rank = profile.collective_calls_per_rank;
  run->collective_bytes_sent_per_rank = profile.collective_bytes_sent_per_rank;
  run->call_sites = profile.call_sites;
  run->comm_matrix_bytes = profile.comm_matrix_bytes;
  run->comm_matrix_messages = profile.comm_matrix_messages;
  run->per_rank_complete = profile.per_rank_complete;
  run->mpi_calls_per_rank = profile.mpi_calls_per_rank;
  run->tool_version = profile.tool_version;
  if (run->allocation.empty()) run->allocation = profile.allocation;
  if (run->hosts.empty()) run->hosts = profile.hosts;
  if (run->nodes == 0) run->nodes = profile.nodes;  // their derivations come with the others below
  if (run->ranks_per_node == 0) run->ranks_per_node = profile.ranks_per_node;
  if (run->machine.empty()) run->machine = profile.machine;  // its derivation comes with the others below
  for (const auto& [key, value] : profile.details) run->details.emplace(key, value);
  for (const auto& [key, value] : profile.derivations) run->derivations.emplace(key, value);
  for (const std::string& source : profile.sources) run->sources.push_back(source);
  // Summaries are re-derived from the per-rank data now present; one the profile gives without
  // per-rank data (mpitrace's messages: rank 0's) is taken as it is, with its derivation.
  const bool per_rank_app = !profile.app_time_s_per_rank.empty(), per_rank_mpi = !profile.mpi_time_s_per_rank.empty();
  const bool per_rank_messages = !profile.p2p_calls_per_rank.empty() || !profile.collective_calls_per_rank.empty();
  const bool per_rank_bytes = !profile.p2p_bytes_sent_per_rank.empty() || !profile.collective_bytes_sent_per_rank.empty();
  const struct {
    double RunStats::*field;
    const char* name;
    bool from_ranks;
  } kSummaries[] = {{&RunStats::app_time_mean_s, "app_time_mean_s", per_rank_app},
                    {&RunStats::app_time_max_s, "app_time_max_s", per_rank_app},
                    {&RunStats::mpi_time_mean_s, "mpi_time_mean_s", per_rank_mpi},
                    {&RunStats::mpi_time_max_s, "mpi_time_max_s", per_rank_mpi},
                    {&RunStats::compute_time_mean_s, "compute_time_mean_s", true},
                    {&RunStats::messages_per_rank, "messages_per_rank", per_rank_messages},
                    {&RunStats::bytes_sent_per_rank, "bytes_sent_per_rank", per_rank_bytes},
                    {&RunStats::bytes_per_message, "bytes_per_message", true}};
  for (const auto& summary : kSummaries) {
    run->*summary.field = kUnknown;
    if (summary.from_ranks || !Known(profile.*summary.field)) continue;
    run->*summary.field = profile.*summary.field;
    if (auto how = profile.derivations.find(summary.name); how != profile.derivations.end())
      run->derivations[summary.name] = how->second;
  }
  run->derivations["pairing"] = pairing;
  run->Derive();
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
    MergeProfileIntoRun(report, &npb,
                        "NPB stdout paired with its mpiP report: wall time, threads, Mop/s from NPB; per-rank data "
                        "from mpiP");
    report_used[chosen] = true;
    record_of_report[chosen] = result.runs.size();
    result.runs.push_back(std::move(npb));
    file.runs.clear();
    ++result.files_paired;
  }
  PairProfilesWithOutputs(&files, &report_used, &result);
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
