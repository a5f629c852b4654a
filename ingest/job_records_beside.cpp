// Flux job records beside the runs they describe (job_records_beside.h).
#include "ingest/job_records_beside.h"

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "job_records/flux_job_record.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm {

void ApplyJobRecordsBeside(const std::vector<SkippedFile>& skipped, std::vector<RunStats>* runs,
                           IngestSummary* summary) {
  namespace fs = std::filesystem;
  constexpr long long kMaxBytes = 4 << 20;  // a job's output, not a trace: skipped files are read again
  // (folder, tasks) -> the nodes each record there says, and one record's path for the derivation.
  std::map<std::pair<std::string, long long>, std::set<int>> nodes;
  std::map<std::pair<std::string, long long>, std::string> example;
  for (const SkippedFile& file : skipped) {
    // Only files no reader took (miniFE's stdout beside its YAML): a file a reader refused is damaged
    // or no run, and reading every skipped file again cost a twentieth of ingest's time.
    if (!file.Unrecognised()) continue;
    std::error_code error;
    if (!fs::is_regular_file(file.path, error) || fs::file_size(file.path, error) > kMaxBytes || error) continue;
    try {
      const std::string text = ReadFile(file.path, kMaxBytes);
      if (!HasFluxJobRecord(text)) continue;
      const FluxJobRecord record = ReadFluxJobRecord(text, file.path);
      if (!record.has_jobspec || record.jobspec.nodes <= 0) continue;
      const auto key = std::make_pair(fs::path(file.path).parent_path().string(), record.jobspec.tasks);
      nodes[key].insert(record.jobspec.nodes);
      example.emplace(key, file.path);
    } catch (const InputError&) {
      continue;  // a damaged record says nothing (the file's own skip reason stands)
    }
  }
  if (nodes.empty()) return;
  std::set<std::pair<std::string, long long>> disagreeing;
  for (RunStats& run : *runs) {
    if (run.nodes > 0 || run.sources.empty()) continue;
    const auto key =
        std::make_pair(fs::path(run.sources.front()).parent_path().string(), static_cast<long long>(run.procs));
    const auto found = nodes.find(key);
    if (found == nodes.end()) continue;
    if (found->second.size() != 1) {
      if (disagreeing.insert(key).second)
        summary->notes.push_back(key.first + ": the Flux job records beside its runs of " + std::to_string(run.procs) +
                                 " processes name " + std::to_string(found->second.size()) +
                                 " node counts: none is taken");
      continue;
    }
    run.SetNodes(*found->second.begin(), "the Flux jobspec of the job's output beside the run (" + example.at(key) +
                                             "; every record of " + std::to_string(run.procs) +
                                             " tasks in the folder names these nodes)");
  }
}

}  // namespace qnm
