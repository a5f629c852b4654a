#pragma once
// Entry point of ingest/: walks files and directories, dispatches each file to
// the first reader of the table in reader_table.h that sniffs it (mpiP report, OTF2
// anchor, statistics table CSV/JSON, NPB output),
// pairs the files of one run (an NPB stdout with its mpiP report), reads the
// info/env/host files beside a run for its identity (series_identity.h), counts
// a measurement read from several files once (duplicate_runs.h) and returns
// one RunStats per run. Group the result with GroupIntoSeries() (run_stats.h).
#include <string>
#include <vector>

#include "ingest/duplicate_runs.h"
#include "reader/run_selection.h"
#include "record/run_stats.h"

namespace qnm {

struct IngestOptions {
  bool strict = false;    // a malformed file fails the whole ingest instead of being skipped
  bool progress = false;  // progress on stderr (the CLI sets it when stderr is a terminal)
  RunSelection selection;  // --parameter/--metric/--callpath/--where for multi-parameter experiments
  long long max_file_bytes = 0;  // > 0: read no file larger (else per format, input_size_limits.h)
  // Non-empty: statistics-table rows naming a series that does not contain it
  // (case-insensitive, as --series matches) are dropped as each file is read,
  // not after all are combined; rows citing a source file are kept (they may
  // give that file's run its machine). Only for --group-by content.
  std::string series_filter;
};

/// The reason of a file no reader took (its specifics follow in parentheses).
inline constexpr char kNotRecognisedFormat[] = "not a recognised format";
/// What follows a file's "not a recognised format (...)" when its own lines suggest the patterns that read it
/// (reader/pattern_suggestion.h): "; --pattern 'procs=...' --pattern 'time=...' reads 35 runs of it (...)".
inline constexpr char kPatternSuggestionMark[] = "; --pattern '";
/// What a user whose files gave no run may not know: said with "no runs found" when no --pattern
/// was given.
inline constexpr char kOutputPatternHint[] =
    "a program's output no reader of ours knows is read by where it says its values: --pattern FIELD=REGEX or "
    "--pattern-file FILE (docs/formats/output-patterns.md)";

struct SkippedFile {
  std::string path;
  std::string reason;  // "file:line: message" or "file: not a recognised format (...)"

  /// The kind of failure: the message without the file and line before it and the specifics in
  /// parentheses after it ("empty file" of "runs/a.out: empty file (0 bytes)"), to count files by.
  std::string Kind() const;
  /// True when no reader took the file (its reason says kNotRecognisedFormat), rather than one
  /// refusing it.
  bool Unrecognised() const { return reason.find(kNotRecognisedFormat) != std::string::npos; }
  /// The reason as a listing of many files shows it: an unrecognised file's list of the formats
  /// read left out (the listing gives it once).
  std::string Brief() const;
};

struct IngestSummary {
  int files_seen = 0;
  int files_read = 0;
  int runs = 0;
  int files_paired = 0;  // files merged into a run read from another file
  int files_beside_runs = 0;  // info/env/hostfiles found (run_info_file.h); not runs themselves
  int files_beside_used = 0;  // ... of them that named a run's hosts or threads
  DuplicateSummary duplicates;      // the same measurement read from several files (duplicate_runs.h)
  std::vector<std::string> notes;   // pairs refused, info files not used, duplicates counted once
  // How the readers read a file: a table's columns under other names, a table that is one series
  // named after its file (Report() lists them before `notes`).
  std::vector<std::string> readings;
  std::vector<std::string> warnings;  // repetitions that spread more than their series' noise (repetition_spread.h)
  std::vector<SkippedFile> skipped;
  // Bytes of the files read, and of the other files their readers opened (a trace's events,
  // HPCToolkit's metric-db files); an archive counts as its own bytes.
  double bytes_read = 0;
  double elapsed_s = 0;
  /// One closing paragraph: files read, paired and skipped, and why.
  std::string Report() const;
  /// Why no run was found, in one line: the first reader's refusal (else the first skipped file's
  /// reason, without the list of formats read), how many more files were skipped, and, when
  /// `patterns_given` is false, kOutputPatternHint.
  std::string NoRunsReason(bool patterns_given) const;
};

/// Reads every file under `paths` (directories are walked, sorted by name).
/// Throws InputError on the first bad file when options.strict, and when a
/// path does not exist.
std::vector<RunStats> IngestPaths(const std::vector<std::string>& paths,
                                  const IngestOptions& options, IngestSummary* summary);

}  // namespace qnm
