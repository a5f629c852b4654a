#include "ingest/ingest.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "ingest/cube_profile.h"
#include "ingest/experiment_name.h"
#include "ingest/extrap_experiment.h"
#include "ingest/file_name_info.h"
#include "ingest/mpip_report.h"
#include "ingest/npb_output.h"
#include "ingest/run_pairing.h"
#include "ingest/statistics_table.h"
#include "ingest/text_lines.h"
#include "trace/trace_run_stats.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

struct FoundFile {
  std::string path;
  std::string directory_tag;  // first sub-directory below a walked root, or empty
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
      found.push_back({path, ""});
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
      fs::path relative = it->path().lexically_relative(path);
      std::string tag;
      if (std::distance(relative.begin(), relative.end()) > 1) tag = relative.begin()->string();
      below.push_back({it->path().string(), tag});
    }
    if (error) throw InputError(path, 0, "cannot walk directory: " + error.message());
    std::sort(below.begin(), below.end(), [](auto& a, auto& b) { return a.path < b.path; });
    found.insert(found.end(), below.begin(), below.end());
  }
  return found;
}

bool HasExtension(const std::string& path, const char* extension) {
  return EndsWith(ToLower(path), extension);
}

// Identity a file name adds to a record: data set, machine, app, class, threads.
void ApplyFileName(const FileNameInfo& info, const std::string& directory_tag, RunStats* run) {
  if (run->procs == 0 && info.mpip_tasks > 0) {  // concise mpiP reports have no per-rank rows
    run->procs = info.mpip_tasks;
    run->derivations["procs"] = "mpiP file name <app>.<tasks>.<pid>.<index>.mpiP";
  }
  run->data_set = info.data_set;
  run->variant = info.Variant();
  if (run->machine.empty()) {
    run->machine = !info.data_set.empty() ? info.data_set : directory_tag;
    if (!run->variant.empty() && !run->machine.empty()) run->machine += "/" + run->variant;
    if (!run->machine.empty())
      run->derivations.emplace("machine", info.data_set.empty()
                                              ? "directory name below the walked path"
                                              : "data-set tag of the file name (+ configuration words)");
  }
  if (run->app.empty()) {
    std::string app, problem_class;
    if (!info.mpip_app.empty() && SplitNpbBinaryName(info.mpip_app, &app, &problem_class)) {
      run->app = app;
      run->problem_class = problem_class;
    } else if (!info.app.empty()) {
      run->app = info.app;
      run->problem_class = info.problem_class;
    } else if (!info.mpip_app.empty()) {
      run->app = info.mpip_app;
    }
  }
  if (run->threads_per_proc == 1 && info.threads_total > 0 && run->procs > 0 &&
      run->derivations.count("threads_per_proc") == 0 && info.threads_total % run->procs == 0) {
    run->threads_per_proc = info.threads_total / run->procs;
    run->derivations["threads_per_proc"] = "file name th<total threads> / procs";
  }
}

// mpiP keeps argv[0]: "…/bin/bt-mz.C.4" -> bt-mz, C (renamed reports, §1).
void ApplyMpipCommand(const MpipReport& report, RunStats* run) {
  if (!run->app.empty()) return;
  auto tokens = SplitWhitespace(report.command);
  if (tokens.empty()) return;
  std::string program = BaseName(std::string(tokens[0]));
  std::string app, problem_class;
  if (SplitNpbBinaryName(program, &app, &problem_class)) {
    run->app = app;
    run->problem_class = problem_class;
  } else {
    run->app = program;
  }
}

IngestedFile ReadOne(const FoundFile& found, std::string_view text) {
  IngestedFile file;
  file.path = found.path;
  file.name = ParseFileName(found.path);
  if (LooksLikeMpipReport(text)) {
    file.kind = FileKind::kMpipReport;
    MpipReport report = ParseMpipReport(text, found.path);
    RunStats run = MpipToRunStats(report);
    ApplyFileName(file.name, found.directory_tag, &run);
    ApplyMpipCommand(report, &run);
    file.runs.push_back(std::move(run));
  } else if (HasExtension(found.path, ".cubex") || LooksLikeCubeProfile(text)) {
    file.kind = FileKind::kCubeProfile;
    RunStats run = ReadCubeRunStats(text, found.path);
    ApplyExperimentFolder(found.path, found.directory_tag, &run);
    file.runs.push_back(std::move(run));
  } else if (HasExtension(found.path, ".otf2")) {
    file.kind = FileKind::kOtf2Trace;
    RunStats run = trace::ReadTraceRunStats(found.path);
    ApplyFileName(file.name, found.directory_tag, &run);
    file.runs.push_back(std::move(run));
  } else if (HasExtension(found.path, ".jsonl") || LooksLikeExtrapText(text) ||
             (HasExtension(found.path, ".json") && LooksLikeExtrapJson(text))) {
    file.kind = FileKind::kStatisticsTable;
    ExtrapExperiment experiment = HasExtension(found.path, ".jsonl") ? ReadExtrapJsonLines(text, found.path)
                                  : LooksLikeExtrapText(text)         ? ReadExtrapText(text, found.path)
                                                                      : ReadExtrapJson(text, found.path);
    file.runs = ExtrapToRunStats(experiment, std::filesystem::path(found.path).stem().string(), found.path);
  } else if (HasExtension(found.path, ".csv") || HasExtension(found.path, ".json")) {
    file.kind = FileKind::kStatisticsTable;
    file.runs = HasExtension(found.path, ".csv") ? ReadStatisticsCsv(text, found.path)
                                                 : ReadStatisticsJson(text, found.path);
  } else if (LooksLikeNpbOutput(text) || HasExtension(found.path, ".out") ||
             HasExtension(found.path, ".log") || HasExtension(found.path, ".dat") ||
             HasExtension(found.path, ".txt")) {
    // Output-like names go to the NPB reader even without NPB text: its
    // error says why (empty, MPI start-up failure, killed run).
    file.kind = FileKind::kNpbOutput;
    NpbOutput output = ParseNpbOutput(text, found.path);
    file.mpip_report = output.mpip_report;
    file.runs = NpbToRunStats(output);
    for (RunStats& run : file.runs) ApplyFileName(file.name, found.directory_tag, &run);
  } else {
    throw InputError(found.path, 0, "not a recognised format (mpiP report, NPB output, OTF2 anchor .otf2, CUBE4 .cubex, Extra-P .txt/.json/.jsonl, .csv or .json table)");
  }
  return file;
}

}  // namespace

std::string IngestSummary::Report() const {
  std::ostringstream out;
  out << "ingest: read " << files_read << " of " << files_seen << " files";
  char rate[96];
  std::snprintf(rate, sizeof rate, " (%.1f MB in %.2f s)", bytes_read / 1e6, elapsed_s);
  out << rate << ": " << runs << " runs, " << files_paired << " files paired with another file of their run";
  out << ", " << skipped.size() << " skipped\n";
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
  for (std::size_t f = 0; f < found.size(); ++f) {
    if (options.progress && (f % 16 == 0 || f + 1 == found.size()))
      std::fprintf(stderr, "\ringest: %zu/%zu files", f + 1, found.size());
    try {
      std::string text = ReadFile(found[f].path);
      sum.bytes_read += static_cast<double>(text.size());
      files.push_back(ReadOne(found[f], text));
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
  PairingResult paired = PairRuns(std::move(files));
  sum.files_paired = paired.files_paired;
  std::vector<RunStats> runs = std::move(paired.runs);
  std::stable_sort(runs.begin(), runs.end(), [](const RunStats& a, const RunStats& b) {
    return a.sources.front() < b.sources.front();
  });
  sum.runs = static_cast<int>(runs.size());
  sum.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return runs;
}

}  // namespace qnm
