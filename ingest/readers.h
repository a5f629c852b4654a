#pragma once
// The readers of ingest/ as a table: every input format is one row
// {name, sniff, read} in reader_table.cpp, and every reader produces the same
// run-statistics record (record/run_stats.h). IngestPaths() offers each file
// to the rows in order; the first whose sniff() accepts it reads it.
//
// Adding a format (e.g. CUBE4, Extra-P): write `ingest/<format>_reader.cpp`
// with a sniff and a read function, declare them below, add one row to
// ReaderTable() in reader_table.cpp. Nothing else in the house changes.
// Convention: read() throws InputError naming the file and line on bad input.
#include <string>
#include <string_view>
#include <vector>

#include "ingest/file_name_info.h"
#include "ingest/run_pairing.h"
#include "ingest/run_selection.h"
#include "ingest/statistics_table.h"
#include "record/run_stats.h"

namespace qnm {

/// What a reader gets for one file.
struct ReaderInput {
  std::string path;
  std::string_view text;      // the whole file (empty for readers that open `path` themselves)
  FileNameInfo name;          // what the file name says (ParseFileName)
  const RunSelection* selection = nullptr;  // --parameter/--metric/--callpath/--where, or none
  TableRowFilter* table_filter = nullptr;   // --series: table rows of other series dropped as read, or none
  std::string format_path;  // `path` without a compression suffix (compressed_file.h), whose extension says
                            // what the file holds; empty: `path`
  bool streamed = false;     // `text` is only the file's (unpacked) head: a Reader::streams reader reads `path`
  long long max_file_bytes = 0;  // --max-file-size (> 0), for a reader that streams its file

  const std::string& FormatPath() const { return format_path.empty() ? path : format_path; }
};

/// What a reader returns for one file.
struct ReaderOutput {
  std::vector<RunStats> runs;
  PairingRole role = PairingRole::kNone;  // NPB stdout and mpiP report pair up (run_pairing.h)
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

// Rows defined in their own files.
bool SniffCubeProfile(const std::string& path, std::string_view text);  // cube_reader.cpp
ReaderOutput ReadCubeProfile(const ReaderInput& input);
bool SniffExtrapExperiment(const std::string& path, std::string_view text);  // extrap_reader.cpp
ReaderOutput ReadExtrapExperiment(const ReaderInput& input);
bool SniffQnmExport(const std::string& path, std::string_view text);  // qnm_export_reader.cpp
ReaderOutput ReadQnmExport(const ReaderInput& input);
bool SniffArmPerformanceReport(const std::string& path, std::string_view text);  // arm_performance_report.cpp
ReaderOutput ReadArmPerformanceReport(const ReaderInput& input);
bool SniffLammpsLog(const std::string& path, std::string_view text);  // lammps_log.cpp
ReaderOutput ReadLammpsLog(const ReaderInput& input);
bool SniffVaspOutcar(const std::string& path, std::string_view text);  // vasp_outcar.cpp
ReaderOutput ReadVaspOutcar(const ReaderInput& input);
bool SniffCastepOutput(const std::string& path, std::string_view text);  // castep_output.cpp
ReaderOutput ReadCastepOutput(const ReaderInput& input);
bool SniffGromacsLog(const std::string& path, std::string_view text);  // gromacs_log.cpp
ReaderOutput ReadGromacsLog(const ReaderInput& input);
bool SniffOpenfoamLog(const std::string& path, std::string_view text);  // openfoam_log.cpp
ReaderOutput ReadOpenfoamLog(const ReaderInput& input);
bool SniffCp2kOutput(const std::string& path, std::string_view text);  // cp2k_output.cpp
ReaderOutput ReadCp2kOutput(const ReaderInput& input);
bool SniffPetscLog(const std::string& path, std::string_view text);  // petsc_log.cpp
ReaderOutput ReadPetscLog(const ReaderInput& input);
bool SniffQeOutput(const std::string& path, std::string_view text);  // qe_output.cpp
ReaderOutput ReadQeOutput(const ReaderInput& input);
bool SniffLuleshOutput(const std::string& path, std::string_view text);  // lulesh_output.cpp
ReaderOutput ReadLuleshOutput(const ReaderInput& input);
bool SniffMpitraceProfile(const std::string& path, std::string_view text);  // mpitrace_profile.cpp
ReaderOutput ReadMpitraceProfile(const ReaderInput& input);
bool SniffComdOutput(const std::string& path, std::string_view text);  // comd_output.cpp
ReaderOutput ReadComdOutput(const ReaderInput& input);
bool SniffMinifeOutput(const std::string& path, std::string_view text);  // minife_output.cpp
ReaderOutput ReadMinifeOutput(const ReaderInput& input);
bool SniffKripkeOutput(const std::string& path, std::string_view text);  // kripke_output.cpp
ReaderOutput ReadKripkeOutput(const ReaderInput& input);
bool SniffLaghosOutput(const std::string& path, std::string_view text);  // laghos_output.cpp
ReaderOutput ReadLaghosOutput(const ReaderInput& input);
bool SniffQuicksilverOutput(const std::string& path, std::string_view text);  // quicksilver_output.cpp
ReaderOutput ReadQuicksilverOutput(const ReaderInput& input);
bool SniffHplOutput(const std::string& path, std::string_view text);  // hpl_output.cpp
ReaderOutput ReadHplOutput(const ReaderInput& input);
bool SniffAmgOutput(const std::string& path, std::string_view text);  // amg_output.cpp
ReaderOutput ReadAmgOutput(const ReaderInput& input);
bool SniffLeafOutput(const std::string& path, std::string_view text);  // cloverleaf_output.cpp
ReaderOutput ReadLeafOutput(const ReaderInput& input);
bool SniffNamdLog(const std::string& path, std::string_view text);  // namd_log.cpp
ReaderOutput ReadNamdLog(const ReaderInput& input);
bool SniffCrayPatReport(const std::string& path, std::string_view text);  // craypat_report.cpp
ReaderOutput ReadCrayPatReport(const ReaderInput& input);
bool SniffSacctTable(const std::string& path, std::string_view text);  // slurm_accounting.cpp
ReaderOutput ReadSacctTable(const ReaderInput& input);
bool SniffSacctJson(const std::string& path, std::string_view text);  // slurm_accounting.cpp
ReaderOutput ReadSacctJson(const ReaderInput& input);
bool SniffPbsJobStatus(const std::string& path, std::string_view text);  // pbs_job_status.cpp
ReaderOutput ReadPbsJobStatus(const ReaderInput& input);
bool SniffAbinitOutput(const std::string& path, std::string_view text);  // abinit_output.cpp
ReaderOutput ReadAbinitOutput(const ReaderInput& input);
bool SniffAmberMdout(const std::string& path, std::string_view text);  // amber_mdout.cpp
ReaderOutput ReadAmberMdout(const ReaderInput& input);
bool SniffWrfRsl(const std::string& path, std::string_view text);  // wrf_rsl.cpp
ReaderOutput ReadWrfRsl(const ReaderInput& input);
bool SniffNwchemOutput(const std::string& path, std::string_view text);  // nwchem_output.cpp
ReaderOutput ReadNwchemOutput(const ReaderInput& input);
bool SniffOtfCptReport(const std::string& path, std::string_view text);  // otf_cpt_report.cpp
ReaderOutput ReadOtfCptReport(const ReaderInput& input);
bool SniffReframePerflog(const std::string& path, std::string_view text);  // reframe_perflog.cpp
ReaderOutput ReadReframePerflog(const ReaderInput& input);
bool SniffReframeRunReport(const std::string& path, std::string_view text);  // reframe_perflog.cpp
ReaderOutput ReadReframeRunReport(const ReaderInput& input);
bool SniffTauProfile(const std::string& path, std::string_view text);  // tau_reader.cpp
ReaderOutput ReadTauProfile(const ReaderInput& input);
/// True for a TAU profile.<n>.<c>.<t> other than profile.0.0.0 with a profile.0.0.0 beside it:
/// a file its anchor reads, not a run of its own (tau_reader.cpp).
bool IsTauProfileOfAnchor(const std::string& path);
bool SniffHpctoolkitExperiment(const std::string& path, std::string_view text);  // hpctoolkit_reader.cpp
ReaderOutput ReadHpctoolkitExperiment(const ReaderInput& input);
/// True for a metric-db file, or a file under src/, of a folder holding experiment.xml, or for
/// profile.db, cct.db, trace.db, FORMATS.md, metrics/ and src/ beside a format-4 meta.db: a file of
/// an HPCToolkit database that its experiment.xml or meta.db reads or keeps, not a run of its own.
bool IsPartOfHpctoolkitDatabase(const std::string& path);
bool SniffHpctoolkitMeta(const std::string& path, std::string_view text);  // hpctoolkit_reader.cpp
ReaderOutput ReadHpctoolkitMeta(const ReaderInput& input);

/// Every reader, in the order they are offered a file.
const std::vector<Reader>& ReaderTable();

/// The formats of ReaderTable(), "mpiP report, ..., NPB output", for help
/// texts, so every command that ingests lists every format it reads.
std::string ReadableFormatList();

/// The identity a file name adds to a record read from it: app, class and
/// threads from NPB/mpiP naming (each only where the reader left it empty),
/// the configuration words ("eth O3"), and the data-set tag, which names no
/// machine (ingest/series_identity.h) but serves `--group-by file-prefix`.
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
/// (run_pairing.h).
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
/// The same for a run a reader read from a folder of files (TAU profiles, HPCToolkit databases):
/// named after `folder_name` when its files name no program (derivation `how`), and the bytes of
/// the other files the reader opened.
ReaderOutput FolderRunOutput(RunStats run, const FileNameInfo& info, const std::string& folder_name,
                             const std::string& how, double bytes_beside);

}  // namespace qnm
