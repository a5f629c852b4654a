#include "ingest/ingest.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "ingest/duplicate_runs.h"
#include "ingest/readers.h"
#include "ingest/repetition_spread.h"
#include "ingest/run_info_file.h"
#include "ingest/run_pairing.h"
#include "ingest/series_identity.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

struct FoundFile {
  std::string path;
};

bool HasOtf2Anchor(const fs::path& file) {
  return file.extension() == ".def" && fs::exists(fs::path(file).replace_extension(".otf2"));
}

std::vector<FoundFile> FindFiles(const std::vector<std::string>& paths) {
  std::vector<FoundFile> found;
  for (const std::string& path : paths) {
    std::error_code error;
    fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status)) throw InputError(path, 0, "no such file or directory");
    if (!fs::is_directory(status)) {
      found.push_back({path});
      continue;
    }
    std::vector<FoundFile> below;
    for (fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, error), end;
         !error && it != end; it.increment(error)) {
      // An OTF2 archive is read through its anchor `X.otf2`; its `X/` event
      // folder and `X.def` definitions belong to it and are not runs of their own.
      if (it->is_directory(error) && fs::exists(it->path().string() + ".otf2")) {
        it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(error)) continue;
      if (HasOtf2Anchor(it->path())) continue;
      below.push_back({it->path().string()});
    }
    if (error) throw InputError(path, 0, "cannot walk directory: " + error.message());
    std::sort(below.begin(), below.end(), [](auto& a, auto& b) { return a.path < b.path; });
    found.insert(found.end(), below.begin(), below.end());
  }
  return found;
}

// FNV-1a of the file's bytes: the first part of every record's origin, so one
// file read under two names is one measurement and two files never are.
std::string ContentDigest(std::string_view bytes) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return std::string(text) + ":" + std::to_string(bytes.size());
}

IngestedFile ReadOne(const FoundFile& found, std::string_view text, const IngestOptions& options,
                     std::vector<std::string>* notes) {
  ReaderInput input{found.path, text, ParseFileName(found.path), &options.selection};
  for (const Reader& reader : ReaderTable()) {
    if (!reader.sniff(found.path, text)) continue;
    ReaderOutput output = reader.read(input);
    notes->insert(notes->end(), output.notes.begin(), output.notes.end());
    IngestedFile file;
    file.path = found.path;
    file.role = output.role;
    file.name = std::move(input.name);
    file.runs = std::move(output.runs);
    file.mpip_report = std::move(output.mpip_report);
    const std::string digest = ContentDigest(text);
    for (std::size_t r = 0; r < file.runs.size(); ++r)
      file.runs[r].origin = digest + "#" + (file.runs[r].origin.empty() ? std::to_string(r) : file.runs[r].origin);
    return file;
  }
  throw InputError(found.path, 0, "not a recognised format (mpiP report, NPB output, OTF2 anchor .otf2, CUBE4 .cubex, Extra-P experiment, Arm Performance Reports text, OTF-CPT output, .csv or .json table)");
}

// Identity from the info/env/hostfile beside each run (run_info_file.h): a
// folder holding one run is that run's folder; with several runs an info file
// cannot say which one it describes and is not used.
void ApplyRunInfoFiles(const std::set<std::string>& run_files, std::vector<RunStats>* runs,
                       IngestSummary* sum) {
  std::map<std::string, std::vector<std::size_t>> by_folder;
  for (std::size_t r = 0; r < runs->size(); ++r)
    if (run_files.count((*runs)[r].sources.front()))
      by_folder[fs::path((*runs)[r].sources.front()).parent_path().string()].push_back(r);
  for (const auto& [folder, members] : by_folder) {
    std::error_code error;
    std::vector<std::string> info_files;
    for (fs::directory_iterator it(folder.empty() ? "." : folder, error), end; !error && it != end; it.increment(error))
      if (it->is_regular_file(error) && IsRunInfoFileName(it->path().string()))
        info_files.push_back(it->path().string());
    std::sort(info_files.begin(), info_files.end());
    for (const std::string& path : info_files) {
      if (members.size() != 1) {
        sum->notes.push_back(path + " is beside " + std::to_string(members.size()) +
                             " runs: not used (it cannot say which run it describes)");
        continue;
      }
      try {
        RunInfoFile info = ParseRunInfoFile(ReadFile(path), path);
        if (info.Empty()) continue;
        RunStats& run = (*runs)[members.front()];
        ApplyRunInfo(info, &run);
        run.sources.push_back(path);
        ++sum->files_beside_used;
      } catch (const std::exception& e) {
        sum->notes.push_back(path + ": not read (" + e.what() + ")");
      }
    }
  }
}

}  // namespace

std::string IngestSummary::Report() const {
  std::ostringstream out;
  out << "ingest: read " << files_read << " of " << files_seen << " files";
  char rate[96];
  std::snprintf(rate, sizeof rate, " (%.1f MB in %.2f s)", bytes_read / 1e6, elapsed_s);
  out << rate << ": " << runs << " runs, " << files_paired << " files paired with another file of their run";
  out << ", " << skipped.size() << " skipped";
  if (files_beside_runs > 0)
    out << "; " << files_beside_runs << " info/env/host files beside runs (" << files_beside_used << " used)";
  out << "\n";
  for (const std::string& note : notes) out << "  note: " << note << "\n";
  for (const std::string& warning : warnings) out << "  warning: " << warning << "\n";
  std::map<std::string, int> by_kind;
  for (const SkippedFile& file : skipped) {
    std::string kind = file.reason;
    std::size_t colon = kind.find(": ");
    if (colon != std::string::npos) kind = kind.substr(colon + 2);
    kind = kind.substr(0, kind.find(" ("));
    ++by_kind[kind];
  }
  for (const auto& [kind, count] : by_kind) out << "  " << count << " x " << kind << "\n";
  for (const SkippedFile& file : skipped) out << "  skipped " << file.reason << "\n";
  return out.str();
}

std::vector<RunStats> IngestPaths(const std::vector<std::string>& paths, const IngestOptions& options,
                                  IngestSummary* summary) {
  IngestSummary local;
  IngestSummary& sum = summary ? *summary : local;
  sum = IngestSummary{};
  auto start = std::chrono::steady_clock::now();
  std::vector<FoundFile> found = FindFiles(paths);
  sum.files_seen = static_cast<int>(found.size());
  std::vector<IngestedFile> files;
  std::vector<std::string> reader_notes;  // what readers said besides their runs (ignored columns)
  for (std::size_t f = 0; f < found.size(); ++f) {
    if (options.progress && (f % 16 == 0 || f + 1 == found.size()))
      std::fprintf(stderr, "\ringest: %zu/%zu files", f + 1, found.size());
    if (IsRunInfoFileName(found[f].path)) {  // read beside its run below, not a run itself
      ++sum.files_beside_runs;
      continue;
    }
    try {
      std::string text = ReadFile(found[f].path);
      sum.bytes_read += static_cast<double>(text.size());
      files.push_back(ReadOne(found[f], text, options, &reader_notes));
      ++sum.files_read;
    } catch (const InputError& error) {
      if (options.strict) throw;
      sum.skipped.push_back({found[f].path, error.what()});
    } catch (const std::exception& error) {
      if (options.strict) throw InputError(found[f].path, 0, error.what());
      sum.skipped.push_back({found[f].path, found[f].path + ": " + error.what()});
    }
  }
  if (options.progress) std::fprintf(stderr, "\n");
  std::set<std::string> run_files;  // first source of each record read from a run's own file
  for (const IngestedFile& file : files)
    for (const RunStats& run : file.runs)
      if (!IsStatisticsTableRow(run)) run_files.insert(run.sources.front());
  PairingResult paired = PairRuns(std::move(files));
  sum.files_paired = paired.files_paired;
  sum.notes = paired.notes;
  sum.notes.insert(sum.notes.begin(), reader_notes.begin(), reader_notes.end());
  std::vector<RunStats> runs = std::move(paired.runs);
  ApplyRunInfoFiles(run_files, &runs, &sum);
  ReconcileMachineNames(&runs);
  runs = CountMeasurementsOnce(std::move(runs), &sum.duplicates);
  if (sum.duplicates.Total() > 0) sum.notes.push_back(sum.duplicates.Note());
  std::stable_sort(runs.begin(), runs.end(), [](const RunStats& a, const RunStats& b) {
    return a.sources.front() < b.sources.front();
  });
  sum.warnings = RepetitionSpreadWarnings(runs);
  sum.runs = static_cast<int>(runs.size());
  sum.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return runs;
}

}  // namespace qnm
