#include "ingest/ingest.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <new>
#include <numeric>
#include <set>
#include <sstream>

#include "app_outputs/pattern_output.h"
#include "app_outputs/wrf_rsl.h"
#include "hpctoolkit/hpctoolkit_readers.h"
#include "ingest/duplicate_runs.h"
#include "ingest/input_size_limits.h"
#include "ingest/job_records_beside.h"
#include "ingest/reader_table.h"
#include "ingest/repetition_spread.h"
#include "ingest/run_archive.h"
#include "ingest/run_pairing.h"
#include "job_records/flux_job_record.h"
#include "job_records/job_record_readers.h"
#include "paraver/extrae_files.h"
#include "paraver/paraver_trace.h"
#include "profiles/mpitrace_profile.h"
#include "profiles/profile_readers.h"
#include "reader/experiment_factors.h"
#include "reader/micro_benchmark_files.h"
#include "reader/pattern_suggestion.h"
#include "reader/run_info_file.h"
#include "reader/run_stats_check.h"
#include "reader/series_identity.h"
#include "textio/compressed_file.h"
#include "textio/content_digest.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

struct FoundFile {
  std::string path;
};

// Every filesystem call below takes an error_code: one entry that cannot be
// examined (a path longer than PATH_MAX, a vanished file) is that entry's
// problem, never the whole walk's (issue 19).
bool Exists(const std::string& path) {
  std::error_code ignored;
  return fs::exists(path, ignored);
}

// X.def and the manifest of an archive qnm-predict wrote belong to the anchor X.otf2.
bool HasOtf2Anchor(const fs::path& file) {
  return (file.extension() == ".def" || file.extension() == ".qnm-manifest") &&
         Exists(fs::path(file).replace_extension(".otf2").string());
}

// Walks `root` depth-first, one directory at a time; entries that cannot be
// read are listed in `skipped` with the reason, like any unreadable file.
void WalkDirectory(const std::string& root, std::vector<FoundFile>* below, std::vector<SkippedFile>* skipped) {
  std::vector<fs::path> folders{root};
  while (!folders.empty()) {
    fs::path folder = std::move(folders.back());
    folders.pop_back();
    std::error_code error;
    fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, error), end;
    for (; !error && it != end; it.increment(error)) {
      const std::string entry = it->path().string();
      std::error_code entry_error;
      const fs::file_status link_status = it->symlink_status(entry_error);
      if (!entry_error && fs::is_directory(link_status)) {  // symbolic links to folders are not followed
        // An OTF2 archive is read through its anchor `X.otf2`; its `X/` event
        // folder and `X.def` definitions belong to it and are not runs of their own.
        if (!Exists(entry + ".otf2")) folders.push_back(it->path());
        continue;
      }
      const fs::file_status status = entry_error ? fs::file_status{} : it->status(entry_error);
      if (entry_error) {
        // A dangling or looping symbolic link is no file (as before); anything
        // else that cannot be examined (a path longer than PATH_MAX) is counted.
        if (entry_error != std::errc::no_such_file_or_directory &&
            entry_error != std::errc::too_many_symbolic_link_levels)
          skipped->push_back({entry, entry + ": cannot examine (" + entry_error.message() + ")"});
        continue;
      }
      if (!fs::is_regular_file(status)) continue;
      if (HasOtf2Anchor(it->path()) || IsTauProfileOfAnchor(entry) || IsPartOfHpctoolkitDatabase(entry) ||
          IsPartOfParaverTrace(entry) || IsPartOfExtraeRun(entry, root) || IsWrfRslOfAnchor(entry) ||
          IsMpitraceOfAnchor(entry))
        continue;
      below->push_back({entry});
    }
    if (error && error != std::errc::permission_denied)
      skipped->push_back({folder.string(), folder.string() + ": cannot walk directory (" + error.message() + ")"});
  }
}

std::vector<FoundFile> FindFiles(const std::vector<std::string>& paths, std::vector<SkippedFile>* skipped) {
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
    WalkDirectory(path, &below, skipped);
    std::sort(below.begin(), below.end(), [](auto& a, auto& b) { return a.path < b.path; });
    found.insert(found.end(), below.begin(), below.end());
  }
  return found;
}

// True when the first reader that takes the file with head `head` (on disk at
// `path`) sums it as it streams by (Reader::streams): the file is left on disk
// for it, `*format_path` is its name without a compression suffix and
// `*sniffed` its unpacked head. Archives of runs and CUBE profiles never are.
bool StreamsFromDisk(const std::string& path, std::string_view head, std::string* format_path,
                     std::string* sniffed) {
  *format_path = path;
  *sniffed = std::string(head);
  if (!CompressionOf(head).empty()) {
    *sniffed = UnpackedHead(head, kSniffHeadBytes);
    if (IsTarHead(*sniffed) || IsArchiveOfRuns(path, *sniffed)) return false;
    *format_path = WithoutCompressionSuffix(path);
  } else if (IsArchiveOfRuns(path, head.substr(0, 512))) {
    return false;
  }
  for (const Reader& reader : ReaderTable())
    if (reader.sniff(*format_path, *sniffed)) return reader.streams;
  return false;
}

// The file's head first (kSniffHeadBytes): a file its reader streams is left
// on disk (`*streamed_as` is its format path, and the unpacked head is
// returned); a file larger than the limit of the formats it looks like is
// refused before it is read whole.
// How large a file no reader recognises may be read: larger when the user's patterns may read it.
long long UnrecognisedLimit(const IngestOptions& options) {
  return options.selection.output_patterns.empty() ? kUnrecognisedMaxBytes : kPatternMaxBytes;
}

std::string ReadBounded(const std::string& path, const IngestOptions& options, std::string* streamed_as) {
  streamed_as->clear();
  if (IsExtraeIntermediateFile(path)) throw InputError(path, 0, ExtraeIntermediateReason(path));
  const long long size_bytes = FileSizeBytes(path);
  std::string head = ReadFileHead(path, kSniffHeadBytes);
  // No format has a run in 0 bytes: one reason for every empty file, not each reader's own.
  if (head.empty()) throw InputError(path, 0, "empty file (0 bytes)");
  std::string format_path, sniffed;
  if (StreamsFromDisk(path, head, &format_path, &sniffed)) {
    *streamed_as = format_path;
    return sniffed;
  }
  if (head.size() < kSniffHeadBytes) {  // the whole file
    // It is below every format's limit (the least, 16 MiB, is 64 times the head), so only
    // --max-file-size can refuse it; asking every reader's sniff for a limit otherwise cost a tenth
    // of reading a campaign of small files.
    static_assert(kSniffHeadBytes < static_cast<std::size_t>(kUnrecognisedMaxBytes), "a head is below every limit");
    if (options.max_file_bytes > 0) (void)InputReadLimitBytes(path, size_bytes, head, options.max_file_bytes);
    return head;
  }
  return ReadFile(path, InputReadLimitBytes(path, size_bytes, head, options.max_file_bytes, UnrecognisedLimit(options)));
}

// What a file holds, before a reader sees it. A file compressed as a whole
// (compressed_file.h) becomes the file it holds: `text` is replaced by what it
// unpacks to, within the limit of the format that looks like, and
// `format_path` is its name without the suffix, which the readers' sniffs and
// the file-name identity see. A tar archive of runs (run_archive.h), plain or
// compressed, is left as it is and said so; a CUBE4 profile (a tar, maybe
// gzipped) is the CUBE reader's.
enum class Holds { kFile, kArchiveOfRuns };

Holds Unwrap(const std::string& path, const IngestOptions& options, std::string* text, std::string* format_path) {
  *format_path = path;
  if (CompressionOf(*text).empty())
    return IsArchiveOfRuns(path, std::string_view(*text).substr(0, 512)) ? Holds::kArchiveOfRuns : Holds::kFile;
  const std::string head = UnpackedHead(*text, kSniffHeadBytes);
  if (IsArchiveOfRuns(path, head)) return Holds::kArchiveOfRuns;
  if (IsTarHead(head) || EndsWith(ToLower(path), ".cubex")) return Holds::kFile;  // damaged or not, the CUBE reader's
  *format_path = WithoutCompressionSuffix(path);
  if (EndsWith(ToLower(*format_path), ".otf2"))
    throw InputError(path, 0, "a compressed OTF2 anchor: unpack the trace (anchor, .def and its folder) first");
  const long long limit = InputReadLimitBytes(*format_path, 0, head, options.max_file_bytes, UnrecognisedLimit(options));
  *text = Unpack(*text, path, limit);
  return Holds::kFile;
}

// Readings that many files share (every perflog of a campaign read through one variable) once,
// with their count: "21 files: ReFrame perflog: run time from performance variable 'total_time' [s]".
std::vector<std::string> CollapseRepeats(const std::vector<std::string>& readings) {
  std::vector<std::string> order;
  std::map<std::string, int> count;
  for (const std::string& reading : readings)
    if (count[reading]++ == 0) order.push_back(reading);
  for (std::string& reading : order)
    if (count[reading] > 1) reading = std::to_string(count[reading]) + " files: " + reading;
  return order;
}

// A file of one run (an application's output) with its Flux job's record appended
// (job_records/flux_job_record.h): the record adds the nodes and threads the output does not say;
// a damaged record is a note, and the output's own reading stays.
void ApplyAppendedFluxRecord(const std::string& path, std::string_view text, std::vector<RunStats>* runs,
                             std::vector<std::string>* notes) {
  if (runs->size() != 1 || !HasFluxJobRecord(text)) return;
  try {
    const FluxJobRecord record = ReadFluxJobRecord(text, path);
    if (std::string note = ApplyFluxJobRecord(record, path, &runs->front()); !note.empty())
      notes->push_back(std::move(note));
  } catch (const InputError& error) {
    notes->push_back(std::string(error.what()) + ": the Flux job record in the output is not read; the output's own "
                                                 "reading stays");
  }
}

// "; --pattern 'procs=...' --pattern 'time=...' reads 35 runs of it (...)" when the file's own lines suggest the
// patterns that read it (reader/pattern_suggestion.h) and the pattern reader reads a run with them; else empty.
// A document (a README, notes) or a script is no program's output: none is suggested for it. The caller has seen
// that the file is text (no NUL in its head, read whole).
std::string PatternSuggestion(const ReaderInput& input) {
  const std::string name = ToLower(fs::path(input.FormatPath()).filename().string());
  for (std::string_view document : {".md", ".rst", ".html", ".htm", ".tex", ".org", ".adoc", ".ipynb"})
    if (EndsWith(name, document)) return "";
  for (std::string_view document : {"readme", "license", "licence", "sources", "changelog", "copying"})
    if (StartsWith(name, document)) return "";
  // A script (a job's, a build's) says what it asks for, not what a run measured.
  for (std::string_view script : {".sh", ".bash", ".pbs", ".slurm", ".sbatch", ".job", ".bsub", ".lsf", ".qsub", ".py"})
    if (EndsWith(name, script)) return "";
  if (StartsWith(input.text, "#!")) return "";
  const SuggestedPatterns suggested = SuggestOutputPatterns(input.text);
  if (suggested.time.empty()) return "";
  RunSelection selection;
  try {
    for (const std::string* spec : {&suggested.procs, &suggested.time})
      if (!spec->empty()) AddOutputPattern(ParseOutputPattern(*spec), &selection.output_patterns);
  } catch (const std::exception&) {
    return "";
  }
  ReaderInput tried = input;
  tried.selection = &selection;
  ReaderOutput output;
  try {
    output = ReadByOutputPatterns(tried);
  } catch (const InputError&) {
    return "";
  }
  if (output.runs.empty()) return "";
  const std::string lines = suggested.procs.empty()
                                ? "its line " + std::to_string(suggested.time_line) + ": check it"
                                : "its lines " + std::to_string(suggested.procs_line) + " and " +
                                      std::to_string(suggested.time_line) + ": check them";
  return "; " + suggested.Options() + " reads " + std::to_string(output.runs.size()) +
         (output.runs.size() == 1 ? " run" : " runs") + " of it (written from " + lines + ")";
}

IngestedFile ReadOne(const std::string& path, const std::string& format_path, std::string_view text,
                     const IngestOptions& options, std::vector<std::string>* notes, std::vector<std::string>* readings,
                     TableRowFilter* table_filter, bool streamed = false) {
  ReaderInput input{path, text, ParseFileName(format_path), &options.selection, table_filter, format_path};
  input.streamed = streamed;
  input.max_file_bytes = options.max_file_bytes;
  auto taken = [&](ReaderOutput output, bool flux_reader) {
    notes->insert(notes->end(), output.notes.begin(), output.notes.end());
    readings->insert(readings->end(), output.readings.begin(), output.readings.end());
    // One validation path for every reader (util/plausible_range.h, parts
    // within the whole): formats that check as they parse pass it again.
    for (const RunStats& run : output.runs) RequirePlausibleRecord(run, path, 0);
    if (!flux_reader) ApplyAppendedFluxRecord(path, text, &output.runs, notes);
    IngestedFile file;
    file.path = path;
    file.role = output.role;
    file.name = std::move(input.name);
    file.runs = std::move(output.runs);
    file.mpip_report = std::move(output.mpip_report);
    file.bytes_beside = output.bytes_beside;
    const std::string digest = output.content_digest.empty() ? ContentDigest(text) : output.content_digest;
    for (std::size_t r = 0; r < file.runs.size(); ++r)
      if (!StartsWith(file.runs[r].origin, kMeasurementOrigin))  // an identity of its own: no file in it
        file.runs[r].origin = digest + "#" + (file.runs[r].origin.empty() ? std::to_string(r) : file.runs[r].origin);
    return file;
  };
  // The user's patterns (--pattern) read what no reader reads: a file no reader takes, or one a
  // reader took by its name and then refused (NPB's reader takes every *.out); only text.
  const bool textual = !streamed && text.substr(0, 1 << 16).find('\0') == std::string_view::npos;
  const bool patterns = !options.selection.output_patterns.empty() && textual;
  for (const Reader& reader : ReaderTable()) {
    if (!reader.sniff(format_path, text)) continue;
    if (!patterns) {
      try {
        return taken(reader.read(input), reader.read == ReadFluxJobOutput);
      } catch (const InputError& refused) {  // a reader that takes files by their name, and then none of its text
        if (!textual || !StartsWith(refused.message(), kNotRecognisedFormat)) throw;
        const std::string suggestion = PatternSuggestion(input);
        if (suggestion.empty()) throw;
        throw InputError(refused.file(), refused.line(), refused.message() + suggestion);
      }
    }
    ReaderOutput output;
    try {
      output = reader.read(input);
    } catch (const InputError& refused) {
      ReaderOutput by_patterns = ReadByOutputPatterns(input);
      if (by_patterns.runs.empty())  // the reader's reason stands, and the user's patterns are said to have failed too
        throw InputError(refused.file(), refused.line(),
                         refused.message() + "; no line matches the --pattern of the run time either");
      return taken(std::move(by_patterns), false);
    }
    return taken(std::move(output), reader.read == ReadFluxJobOutput);
  }
  if (IsExtraeIntermediateFile(format_path)) throw InputError(path, 0, ExtraeIntermediateReason(format_path));
  if (IsZipHead(text))  // an office document, a Java archive, or runs zipped under another name
    throw InputError(path, 0, "a zip archive not named .zip: not read (an archive of runs is read under a .zip name)");
  if (const std::string reason = NotARunReason(text); !reason.empty()) throw InputError(path, 0, reason);
  if (patterns) {
    ReaderOutput by_patterns = ReadByOutputPatterns(input);
    if (!by_patterns.runs.empty()) return taken(std::move(by_patterns), false);
    throw InputError(path, 0, std::string(kNotRecognisedFormat) + " (no line matches the --pattern of the run time; " +
                                  ReadableFormatList() + ")");
  }
  throw InputError(path, 0,
                   std::string(kNotRecognisedFormat) + " (" + ReadableFormatList() + ")" +
                       (textual ? PatternSuggestion(input) : std::string()));
}

// Identity from the info/env/hostfile beside each run (run_info_file.h): a
// folder holding one run is that run's folder; with several runs an info file
// cannot say which one it describes and is not used.
void ApplyRunInfoFiles(const std::set<std::string>& run_files, const std::map<std::string, std::string>& archived_info,
                       std::vector<RunStats>* runs, IngestSummary* sum) {
  std::map<std::string, std::vector<std::string>> archived_by_folder;  // members of archives of runs
  for (const auto& [path, text] : archived_info)
    archived_by_folder[fs::path(path).parent_path().string()].push_back(path);
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
    if (auto archived = archived_by_folder.find(folder); archived != archived_by_folder.end())
      info_files.insert(info_files.end(), archived->second.begin(), archived->second.end());
    std::sort(info_files.begin(), info_files.end());
    for (const std::string& path : info_files) {
      if (members.size() != 1) {
        sum->notes.push_back(path + " is beside " + std::to_string(members.size()) +
                             " runs: not used (it cannot say which run it describes)");
        continue;
      }
      try {
        auto archived = archived_info.find(path);
        RunInfoFile info = ParseRunInfoFile(archived != archived_info.end() ? archived->second : ReadFile(path), path);
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

// --ranks-per-node and --work-units: what the user says of every run wins over the files.
void ApplyUserLayout(const RunSelection& selection, std::vector<RunStats>* runs) {
  for (RunStats& run : *runs) {
    run.SetRanksPerNode(selection.ranks_per_node, "--ranks-per-node");
    if (selection.work_units > 0) {
      run.work_units = selection.work_units;
      run.work_units_equal = true;
      run.derivations["work_units"] = "--work-units: no process count beyond it has work";
    }
  }
}

}  // namespace

std::string SkippedFile::Kind() const {
  std::string kind = reason;
  std::size_t colon = kind.find(": ");
  if (colon != std::string::npos) kind = kind.substr(colon + 2);
  return kind.substr(0, kind.find(" ("));
}

std::string SkippedFile::Brief() const {
  const std::string unrecognised = kNotRecognisedFormat;
  const std::size_t at = reason.find(": " + unrecognised + " (");
  if (at == std::string::npos) return reason;
  const std::size_t suggestion = reason.rfind(kPatternSuggestionMark);  // after the list of formats
  return reason.substr(0, at + 2 + unrecognised.size()) +
         (suggestion == std::string::npos ? "" : reason.substr(suggestion));
}

std::string IngestSummary::NoRunsReason(bool patterns_given) const {
  // A reader's refusal says more than "not a recognised format": the first of them, else the first file.
  const auto refused =
      std::find_if(skipped.begin(), skipped.end(), [](const SkippedFile& f) { return !f.Unrecognised(); });
  std::string why = skipped.empty() ? "" : (refused != skipped.end() ? *refused : skipped.front()).Brief();
  if (skipped.size() > 1) why += "; " + std::to_string(skipped.size() - 1) + " more files skipped";
  if (!patterns_given && !skipped.empty() && why.find(kPatternSuggestionMark) == std::string::npos)
    why += "; " + std::string(kOutputPatternHint);
  return why;
}

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
  for (const std::string& note : readings) out << "  note: " << note << "\n";
  for (const std::string& note : notes) out << "  note: " << note << "\n";
  for (const std::string& warning : warnings) out << "  warning: " << warning << "\n";
  std::map<std::string, int> by_kind;
  for (const SkippedFile& file : skipped) ++by_kind[file.Kind()];
  // The list of formats once, not after every file that is none of them.
  const std::string unrecognised = kNotRecognisedFormat;
  for (const auto& [kind, count] : by_kind)
    out << "  " << count << " x " << kind << (kind == unrecognised ? " (" + ReadableFormatList() + ")" : "") << "\n";
  for (const SkippedFile& file : skipped) out << "  skipped " << file.Brief() << "\n";
  return out.str();
}

namespace {

// Stable order by first source, moving each record at most once: std::stable_sort
// would hold a second buffer of every record (a million table rows: +0.9 GB).
void SortBySource(std::vector<RunStats>* runs) {
  auto before = [&](std::size_t a, std::size_t b) { return (*runs)[a].sources.front() < (*runs)[b].sources.front(); };
  std::vector<std::size_t> order(runs->size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (std::is_sorted(order.begin(), order.end(), before)) return;
  std::stable_sort(order.begin(), order.end(), before);
  // Apply the permutation in place, cycle by cycle: position i receives order[i].
  for (std::size_t start = 0; start < order.size(); ++start) {
    if (order[start] == start) continue;
    RunStats held = std::move((*runs)[start]);
    std::size_t at = start;
    while (order[at] != start) {
      const std::size_t from = order[at];
      (*runs)[at] = std::move((*runs)[from]);
      order[at] = at;
      at = from;
    }
    (*runs)[at] = std::move(held);
    order[at] = at;
  }
}

// Pairing, identity, duplicates and order of the records of every file read.
std::vector<RunStats> Combine(std::vector<IngestedFile> files, const std::map<std::string, std::string>& archived_info,
                              std::chrono::steady_clock::time_point start, IngestSummary* summary);

// Drops the table rows of other series (IngestOptions::series_filter).
std::size_t DropOtherSeriesRows(const std::string& filter, std::vector<RunStats>* runs) {
  const std::string wanted = ToLower(filter);
  const std::size_t before = runs->size();
  runs->erase(std::remove_if(runs->begin(), runs->end(),
                             [&](const RunStats& run) {
                               return IsStatisticsTableRow(run) && !TableRowMayBeInSeries(run, wanted);
                             }),
              runs->end());
  return before - runs->size();
}

std::string OutOfMemoryReason(std::size_t size_bytes) {
  char size[64];
  std::snprintf(size, sizeof size, "%.1f MB", static_cast<double>(size_bytes) / 1e6);
  return std::string("out of memory holding its records (a ") + size +
         " file; a record takes about 1.5 KB, e.g. one per table row or repetition)";
}

}  // namespace

std::vector<RunStats> IngestPaths(const std::vector<std::string>& paths, const IngestOptions& options,
                                  IngestSummary* summary) {
  IngestSummary local;
  IngestSummary& sum = summary ? *summary : local;
  sum = IngestSummary{};
  auto start = std::chrono::steady_clock::now();
  std::vector<SkippedFile> unwalkable;
  std::vector<FoundFile> found = FindFiles(paths, &unwalkable);
  if (!unwalkable.empty() && options.strict) throw InputError(unwalkable.front().path, 0, unwalkable.front().reason);
  sum.skipped = unwalkable;
  sum.files_seen = static_cast<int>(found.size() + unwalkable.size());
  std::vector<IngestedFile> files;
  std::vector<std::string> reader_notes;  // what readers said besides their runs (ignored columns)
  std::vector<std::string> readings;      // how they read a file (other column names)
  std::size_t sum_dropped = 0;
  std::map<std::string, std::string> archived_info;  // info/env/host files inside archives of runs, by path
  // A file that cannot be read fails the whole ingest under --strict, else is skipped with its reason.
  auto skip = [&](const std::string& path, const InputError& error) {
    if (options.strict) throw error;
    sum.skipped.push_back({path, error.what()});
  };
  // An OTF2 trace unpacked from an archive: read from disk, named as the archive member it was.
  auto read_trace = [&](const ArchivedTraces::Anchor& anchor, const ArchivedTraces& traces) {
    ++sum.files_seen;
    try {
      TableRowFilter table_filter{options.series_filter, 0};
      // A trace its reader streams (a Paraver X.prv, or X.prv.gz) is read from its unpacked copy on disk.
      std::string format_path, head;
      const bool streamed = StreamsFromDisk(anchor.archive_path, std::string_view(anchor.bytes).substr(0, kSniffHeadBytes),
                                            &format_path, &head);
      IngestedFile file = streamed ? ReadOne(anchor.disk_path, format_path, head, options, &reader_notes, &readings,
                                             &table_filter, true)
                                   : ReadOne(anchor.disk_path, anchor.archive_path, anchor.bytes, options,
                                             &reader_notes, &readings, &table_filter);
      file.path = anchor.archive_path;
      for (RunStats& run : file.runs)
        for (std::string& source : run.sources) source = traces.InArchive(source);
      files.push_back(std::move(file));
      ++sum.files_read;
    } catch (const InputError& error) {
      skip(anchor.archive_path, InputError(anchor.archive_path, error.line(), traces.InArchive(error.message())));
    } catch (const std::bad_alloc&) {
      skip(anchor.archive_path, InputError(anchor.archive_path, 0, OutOfMemoryReason(anchor.bytes.size())));
    } catch (const std::exception& error) {
      skip(anchor.archive_path, InputError(anchor.archive_path, 0, traces.InArchive(error.what())));
    }
  };
  // A reader's failure on one file: skipped with its reason (--strict: thrown); `bytes`, its size, for
  // running out of memory. Records cost far more than their text (a 4 MB Extra-P line of 1e6
  // repetitions is 1e6 records): say so in one line naming the file.
  auto guarded = [&](const std::string& path, const std::function<std::size_t()>& bytes,
                     const std::function<void()>& body) {
    try {
      body();
    } catch (const InputError& error) {
      skip(path, error);
    } catch (const std::bad_alloc&) {
      skip(path, InputError(path, 0, OutOfMemoryReason(bytes())));
    } catch (const std::exception& error) {
      skip(path, InputError(path, 0, error.what()));
    }
  };
  // One file a reader streams from disk (ReadBounded), handed its head.
  auto read_streamed = [&](const std::string& path, const std::string& format_path, const std::string& head) {
    const auto size = [&path] { return static_cast<std::size_t>(std::max(0LL, FileSizeBytes(path))); };
    guarded(path, size, [&] {
      TableRowFilter table_filter{options.series_filter, 0};
      files.push_back(ReadOne(path, format_path, head, options, &reader_notes, &readings, &table_filter, true));
      sum.bytes_read += static_cast<double>(size()) + files.back().bytes_beside;
      if (!options.series_filter.empty()) sum_dropped += DropOtherSeriesRows(options.series_filter, &files.back().runs);
      ++sum.files_read;
    });
  };
  // One file's bytes (a file on disk, or a member of an archive of runs) to its records. `depth`: 0 on
  // disk, 1 in an archive, 2 in an archive inside it (read too: a campaign tarred run by run); `shared`:
  // the outermost archive's unpacked-bytes budget, which the archives inside it take from.
  std::function<void(const std::string&, std::string, int, std::size_t*)> read_bytes =
      [&](const std::string& path, std::string text, int depth, std::size_t* shared) {
    guarded(path, [&text] { return text.size(); }, [&] {
      if (depth > 0)  // a file on disk met its limit as it was read (ReadBounded)
        (void)InputReadLimitBytes(path, static_cast<long long>(text.size()), text, options.max_file_bytes,
                                  UnrecognisedLimit(options));
      std::string format_path;
      if (Unwrap(path, options, &text, &format_path) == Holds::kArchiveOfRuns) {
        if (depth >= 2)
          throw InputError(path, 0, "an archive inside an archive inside an archive, not opened (unpack the outer ones)");
        std::size_t outermost = static_cast<std::size_t>(64.0 * static_cast<double>(text.size())) + (1u << 20);
        if (depth == 0) shared = &outermost;
        const long long member_limit = options.max_file_bytes > 0 ? options.max_file_bytes : 512LL << 20;
        ArchivedTraces traces(path);
        ForEachArchivedFile(text, path, member_limit, [&](ArchivedFile member) {
          ++sum.files_seen;
          if (IsRunInfoFileName(member.path)) {  // read beside its run, as on disk
            ++sum.files_beside_runs;
            archived_info[member.path] = std::move(member.bytes);
            return;
          }
          read_bytes(member.path, std::move(member.bytes), depth + 1, shared);
        }, &traces, shared);
        for (const ArchivedTraces::Anchor& anchor : traces.Anchors()) read_trace(anchor, traces);
        return;
      }
      TableRowFilter table_filter{options.series_filter, 0};
      files.push_back(ReadOne(path, format_path, text, options, &reader_notes, &readings, &table_filter));
      if (depth == 0) sum.bytes_read += files.back().bytes_beside;  // in an archive: its bytes count
      sum_dropped += table_filter.dropped;
      if (!options.series_filter.empty()) sum_dropped += DropOtherSeriesRows(options.series_filter, &files.back().runs);
      ++sum.files_read;
    });
  };
  for (std::size_t f = 0; f < found.size(); ++f) {
    if (options.progress && (f % 16 == 0 || f + 1 == found.size()))
      std::fprintf(stderr, "\ringest: %zu/%zu files", f + 1, found.size());
    if (IsRunInfoFileName(found[f].path)) {  // read beside its run below, not a run itself
      ++sum.files_beside_runs;
      continue;
    }
    std::string text, streamed_as;
    try {
      text = ReadBounded(found[f].path, options, &streamed_as);
    } catch (const InputError& error) {
      skip(found[f].path, error);
      continue;
    } catch (const std::exception& error) {
      skip(found[f].path, InputError(found[f].path, 0, error.what()));
      continue;
    }
    if (!streamed_as.empty()) {
      read_streamed(found[f].path, streamed_as, text);
      continue;
    }
    sum.bytes_read += static_cast<double>(text.size());
    read_bytes(found[f].path, std::move(text), 0, nullptr);
  }
  if (options.progress) std::fprintf(stderr, "\n");
  std::size_t records = 0;
  for (const IngestedFile& file : files) records += file.runs.size();
  try {
    std::vector<RunStats> runs = Combine(std::move(files), archived_info, start, &sum);
    ApplyUserLayout(options.selection, &runs);
    sum.notes.insert(sum.notes.begin(), reader_notes.begin(), reader_notes.end());
    sum.readings = CollapseRepeats(readings);
    if (sum_dropped > 0)
      sum.notes.push_back(std::to_string(sum_dropped) + " table rows of series not matching '" +
                          options.series_filter + "' skipped as read");
    return runs;
  } catch (const std::bad_alloc&) {
    const std::string& named = found.size() == 1 ? found.front().path : paths.front();
    throw InputError(named, 0, "out of memory combining the " + std::to_string(records) +
                                   " records read (about 1.5 KB each); read fewer files or series at once");
  }
}

namespace {

std::vector<RunStats> Combine(std::vector<IngestedFile> files, const std::map<std::string, std::string>& archived_info,
                              std::chrono::steady_clock::time_point start, IngestSummary* summary) {
  IngestSummary& sum = *summary;
  std::set<std::string> run_files;  // first source of each record read from a run's own file
  for (const IngestedFile& file : files)
    for (const RunStats& run : file.runs)
      if (!IsStatisticsTableRow(run)) run_files.insert(run.sources.front());
  PairingResult paired = PairRuns(std::move(files));
  sum.files_paired = paired.files_paired;
  sum.notes = paired.notes;
  std::vector<RunStats> runs = std::move(paired.runs);
  ApplyRunInfoFiles(run_files, archived_info, &runs, &sum);
  ApplyJobRecordsBeside(sum.skipped, &runs, &sum);
  ReconcileMachineNames(&runs);
  runs = CountMeasurementsOnce(std::move(runs), &sum.duplicates);
  if (sum.duplicates.Total() > 0) sum.notes.push_back(sum.duplicates.Note());
  SortBySource(&runs);
  for (std::string& note : SplitByExperimentFactors(&runs)) sum.notes.push_back(std::move(note));
  sum.warnings = RepetitionSpreadWarnings(runs);
  sum.runs = static_cast<int>(runs.size());
  sum.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return runs;
}

}  // namespace

}  // namespace qnm
