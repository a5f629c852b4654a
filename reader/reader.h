#pragma once
// The contract every reader keeps (Ingest's table of readers, ingest/reader_table.h):
// a reader is one row {name, sniff, read}; read() gets the file (ReaderInput) and
// returns its runs as run-statistics records (record/run_stats.h) with what ingest
// shows of them (ReaderOutput), and throws InputError naming the file and line on
// bad input. The helpers below give every reader's records the identity their file
// name adds and count the runs of a file that did not finish.
//
// Adding a format: write `<family>/<format>.cpp` with a sniff and a read function
// (app_outputs/, profiles/ or job_records/), declare them in that family's
// readers header, add one row to ReaderTable() in ingest/reader_table.cpp.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "reader/file_name_info.h"
#include "reader/run_selection.h"
#include "record/run_stats.h"

namespace qnm {

/// What part a file plays in pairing: an mpiP report and an NPB stdout of the
/// same run merge; an MPI profile that names no program (mpitrace) merges with
/// the one application output of one run in its folder (NPB, CloverLeaf,
/// LULESH); every other file stands alone.
enum class PairingRole { kNone, kMpipReport, kNpbOutput, kMpiProfile, kAppOutput };

/// The rows a table reader keeps (`--series NAME`): a row naming another
/// series is dropped as it is read, so a million-row table filtered to one
/// series never holds the other rows' records (issue 19, memory).
struct TableRowFilter {
  std::string series;       // a row is kept when its series contains this (case-insensitive); empty = all
  std::size_t dropped = 0;  // rows dropped, counted by the reader
};

/// What a reader gets for one file.
struct ReaderInput {
  std::string path;
  std::string_view text;      // the whole file (empty for readers that open `path` themselves)
  FileNameInfo name;          // what the file name says (ParseFileName)
  const RunSelection* selection = nullptr;  // --parameter/--metric/--callpath/--where, or none
  TableRowFilter* table_filter = nullptr;   // --series: table rows of other series dropped as read, or none
  std::string format_path;  // `path` without a compression suffix (textio/compressed_file.h), whose extension says
                            // what the file holds; empty: `path`
  bool streamed = false;     // `text` is only the file's (unpacked) head: a Reader::streams reader reads `path`
  long long max_file_bytes = 0;  // --max-file-size (> 0), for a reader that streams its file

  const std::string& FormatPath() const { return format_path.empty() ? path : format_path; }
};

/// What a reader returns for one file.
struct ReaderOutput {
  std::vector<RunStats> runs;
  PairingRole role = PairingRole::kNone;  // NPB stdout and mpiP report pair up (ingest/run_pairing.h)
  std::string mpip_report;                // NPB stdout: the mpiP report it names, or empty
  std::vector<std::string> notes;         // one line each, shown in ingest's summary (ignored columns)
  std::vector<std::string> readings;      // how the file was read (a table's other column names): ingest's
                                          // summary and the first line of predict, validate, plot, report
  std::string content_digest;  // a streamed file's ContentDigest (ingest saw only its head); empty: of `text`
  double bytes_beside = 0;  // bytes of the other files the reader opened itself (a trace's definitions and
                            // events, TAU's other ranks, HPCToolkit's metric-db files): ingest's "MB read"
};

struct Reader {
  const char* name;  // "mpiP report", shown in messages
  /// True when this reader takes the file (by its text or its name).
  bool (*sniff)(const std::string& path, std::string_view text);
  /// Reads the file; throws InputError("file", line, why) on bad input.
  ReaderOutput (*read)(const ReaderInput& input);
  /// True when the reader sums its file as it streams by from disk: ingest
  /// hands it the file's head, not the file (ReaderInput::streamed), and no
  /// size limit applies but --max-file-size.
  bool streams = false;
};

/// The identity a file name adds to a record read from it: app, class and
/// threads from NPB/mpiP naming (each only where the reader left it empty),
/// the configuration words ("eth O3"), and the data-set tag, which names no
/// machine (reader/series_identity.h) but serves `--group-by file-prefix`.
void ApplyFileName(const FileNameInfo& info, RunStats* run);

/// Adds what a run's own files say of its configuration (a build, an accelerator) after the file
/// name's words: `words` with blanks as '-', joined to the variant by '-' ("vasp6.4.2-complex").
void AppendConfiguration(std::string words, RunStats* run);

/// A file of several runs (appended reruns) named for one node count ("al3x3_2nodes.castep"): when
/// its runs ran on different process counts, the name's nodes cannot be every run's, so no run
/// keeps them (ApplyFileName set them on each).
void DropNameNodesOfDifferingRuns(const FileNameInfo& info, std::vector<RunStats>* runs);

/// The runs of a file of several (a job's output with appended reruns) that did not finish: how
/// many, and the first one's line and reason.
struct UnfinishedRuns {
  int count = 0;
  int first_line = 0;
  std::string first_why;
  void Add(int line, const std::string& why) {
    if (++count == 1) first_line = line, first_why = why;
  }
  /// Once every run of `path` (`total` of them) is read into `output`: throws
  /// InputError(path, first_line, first_why) when none finished; else, when some did not, notes
  /// "<path>: N of its `total` <what> (the first at line L: <why>): not read".
  void Finish(const std::string& path, std::size_t total, const std::string& what, ReaderOutput* output) const;
};

/// The output of a reader whose file holds several runs of one program (a job's output with appended
/// reruns): each run `why_not(run, &line)` finds finished (an empty reason) becomes `to_record(run)`,
/// named by the file (ApplyFileName) and given its build (`configure(run, &record)`, which appends
/// it with AppendConfiguration); the others are counted and noted (UnfinishedRuns, `what`: "NAMD
/// executions did not finish"); a file's name gives no run its nodes when their process counts differ.
template <typename Run, typename WhyNot, typename ToRecord, typename Configure>
ReaderOutput FinishedRunsOutput(const ReaderInput& input, const std::vector<Run>& runs, WhyNot why_not,
                                ToRecord to_record, Configure configure, const std::string& what) {
  ReaderOutput output;
  UnfinishedRuns unfinished;
  for (const Run& one : runs) {
    int line = 0;
    if (const std::string why = why_not(one, &line); !why.empty()) {
      unfinished.Add(line, why);
      continue;
    }
    RunStats run = to_record(one);
    ApplyFileName(input.name, &run);
    configure(one, &run);
    output.runs.push_back(std::move(run));
  }
  DropNameNodesOfDifferingRuns(input.name, &output.runs);
  unfinished.Finish(input.path, runs.size(), what, &output);
  return output;
}

/// FinishedRunsOutput for an application's own output that names no build beside its runs
/// (CloverLeaf, LULESH, CoMD, miniFE, Kripke, Laghos, Quicksilver, AMG): its records are the
/// application output of their run, which an MPI profile in the same folder pairs with
/// (ingest/run_pairing.h).
template <typename Run, typename WhyNot, typename ToRecord>
ReaderOutput AppOutputRuns(const ReaderInput& input, const std::vector<Run>& runs, WhyNot why_not, ToRecord to_record,
                           const std::string& what) {
  ReaderOutput output = FinishedRunsOutput(input, runs, why_not, to_record, [](const Run&, RunStats*) {}, what);
  output.role = PairingRole::kAppOutput;
  return output;
}

/// The output of a reader whose file holds one run: `run` with the file
/// name's identity applied (ApplyFileName).
ReaderOutput OneRunOutput(RunStats run, const FileNameInfo& info);
/// OneRunOutput for an application's own output that holds one run (an ESMF profile summary, a UM log):
/// its record is the application output of its run, as AppOutputRuns' are.
ReaderOutput AppOutputRun(RunStats run, const FileNameInfo& info);
/// The same for a run a reader read from a folder of files (TAU profiles, HPCToolkit databases):
/// named after `folder_name` when its files name no program (derivation `how`), and the bytes of
/// the other files the reader opened.
ReaderOutput FolderRunOutput(RunStats run, const FileNameInfo& info, const std::string& folder_name,
                             const std::string& how, double bytes_beside);

}  // namespace qnm
