// The reader table (reader_table.h): one row per input format, in the order a
// file is offered to them. A new format is one file of its family (app_outputs/,
// profiles/, job_records/) with its sniff/read pair, declared in the family's
// readers header, plus one row in ReaderTable() below.
#include <algorithm>
#include <filesystem>
#include <utility>

#include "app_outputs/app_output_readers.h"
#include "app_outputs/minife_output.h"
#include "app_outputs/npb_output.h"
#include "caliper/caliper_profile.h"
#include "cube/cube_reader.h"
#include "extrap/extrap_readers.h"
#include "hpctoolkit/hpctoolkit_readers.h"
#include "ingest/reader_table.h"
#include "job_records/job_record_readers.h"
#include "paraver/paraver_header.h"
#include "paraver/paraver_trace.h"
#include "profiles/ipm_banner.h"
#include "profiles/ipm_log.h"
#include "profiles/mpip_report.h"
#include "profiles/profile_readers.h"
#include "reader/experiment_factors.h"
#include "reader/micro_benchmark_files.h"
#include "reader/series_identity.h"
#include "tables/document_tables.h"
#include "tables/jube_result.h"
#include "tables/statistics_table.h"
#include "textio/compressed_file.h"
#include "textio/line_reader.h"
#include "textio/text_lines.h"
#include "timing_tools/hyperfine_export.h"
#include "timing_tools/time_report.h"
#include "trace/trace_run_stats.h"
#include "util/input_error.h"

namespace qnm {
namespace {

bool HasExtension(const std::string& path, const char* extension) {
  return EndsWith(ToLower(path), extension);
}

// mpiP keeps argv[0]: "…/bin/bt-mz.C.4" -> bt-mz, C (renamed reports, docs/formats/mpip-format.md §1).
// The program's arguments are a setting of the run (reader/experiment_factors.h): the same binary
// on two inputs in one folder is two series.
void ApplyMpipCommand(const MpipReport& report, RunStats* run) {
  SetCommandArguments(report.command, run);
  auto tokens = SplitWhitespace(report.command);
  if (!run->app.empty()) return;  // the file name, which mpiP builds from argv[0], said it
  if (tokens.empty()) return;
  std::string program = BaseName(std::string(tokens[0]));
  std::string app, problem_class;
  if (SplitNpbBinaryName(program, &app, &problem_class)) {
    run->app = app;
    run->problem_class = problem_class;
    run->derivations["problem_class"] = "mpiP Command line: " + program;
  } else {
    run->app = program;
  }
  run->derivations["app"] = "mpiP Command line: " + program;
}

bool SniffMpip(const std::string&, std::string_view text) { return LooksLikeMpipReport(text); }

ReaderOutput ReadMpip(const ReaderInput& input) {
  MpipReport report = ParseMpipReport(input.text, input.path);
  RunStats run = MpipToRunStats(report);
  ApplyFileName(input.name, &run);
  ApplyMpipCommand(report, &run);
  ApplyHosts(report.hosts, "mpiP MPI Task Assignment", &run);  // the machine (series_identity.h)
  ReaderOutput output;
  output.role = PairingRole::kMpipReport;
  output.runs.push_back(std::move(run));
  return output;
}

bool SniffIpmXml(const std::string&, std::string_view text) { return LooksLikeIpmXml(text); }

ReaderOutput ReadIpmLog(const ReaderInput& input) {
  return OneRunOutput(ReadIpmXml(input.text, input.path), input.name);
}

// IPM's banner in a job's stdout: a summary of the XML log over the ranks, not read (ipm_log.h).
bool SniffIpmBanner(const std::string&, std::string_view text) {
  return HasIpmBanner(text) && !LooksLikeNpbOutput(text);
}

// A banner is its run when the job's XML log is not beside it; with the log, the log is the run
// (per rank, bytes) and the banner one line naming it (ipm_banner.h).
ReaderOutput ReadIpmBanner(const ReaderInput& input) {
  const IpmBanner banner = ParseIpmBanner(input.text, input.path);
  if (const std::string log = IpmLogOfBanner(banner, input.path); !log.empty())
    throw InputError(input.path, 0, "IPM's banner of the run whose XML log " + log +
                                        " is beside it: the run is read from the log (per rank, with bytes)");
  return OneRunOutput(IpmBannerToRunStats(banner, input.path), input.name);
}

bool SniffCaliper(const std::string& path, std::string_view text) {
  return HasExtension(path, ".cali") || LooksLikeCaliperStream(text);
}

ReaderOutput ReadCaliper(const ReaderInput& input) {
  std::string digest;
  ReaderOutput output = OneRunOutput(input.streamed ? ReadCaliperProfileFile(input.path, input.max_file_bytes, &digest)
                                                    : ReadCaliperProfile(input.text, input.path),
                                     input.name);
  output.content_digest = std::move(digest);
  return output;
}

// Caliper's json-split output ({"data": [[...], ...], "columns": ..., "nodes": ...}), before the
// statistics-table JSON row, which takes any .json file.
bool SniffCaliperJson(const std::string& path, std::string_view text) {
  return HasExtension(path, ".json") && LooksLikeCaliperJsonSplit(text);
}

ReaderOutput ReadCaliperJson(const ReaderInput& input) {
  return OneRunOutput(ReadCaliperJsonSplit(input.text, input.path), input.name);
}

// Paraver traces (Extrae): X.prv with its X.pcf and X.row beside it, read from disk.
bool SniffParaver(const std::string& path, std::string_view text) {
  return HasExtension(WithoutCompressionSuffix(path), ".prv") || LooksLikeParaverTrace(text);
}

ReaderOutput ReadParaver(const ReaderInput& input) {
  double companion_bytes = 0;
  const ParaverCompanions companions = FindParaverCompanions(input.path, &companion_bytes);
  std::string digest;
  ReaderOutput output = OneRunOutput(
      input.streamed ? ReadParaverTraceFile(input.path, input.max_file_bytes, companions, &digest)
                     : ReadParaverTrace(input.text, input.path, companions),
      input.name);
  output.content_digest = std::move(digest);
  output.bytes_beside = companion_bytes;
  return output;
}

bool SniffOtf2(const std::string& path, std::string_view) { return HasExtension(path, ".otf2"); }

ReaderOutput ReadOtf2(const ReaderInput& input) {
  ReaderOutput output = OneRunOutput(trace::ReadTraceRunStats(input.path), input.name);
  // The definitions X.def and the event files under X/ that OTF2 read beside the anchor X.otf2.
  const std::filesystem::path anchor(input.path);
  const std::filesystem::path stem = anchor.parent_path() / anchor.stem();
  std::error_code error;
  const auto definitions = std::filesystem::file_size(stem.string() + ".def", error);
  if (!error) output.bytes_beside += static_cast<double>(definitions);
  for (std::filesystem::recursive_directory_iterator it(stem, error), end; !error && it != end; it.increment(error))
    if (std::error_code size_error; it->is_regular_file(size_error)) {
      const auto size = it->file_size(size_error);
      if (!size_error) output.bytes_beside += static_cast<double>(size);
    }
  return output;
}

bool SniffCsvTable(const std::string& path, std::string_view) {
  return HasExtension(path, ".csv") || HasExtension(path, ".tsv");
}

// A table of runs under another name (`data_strong_onenode.data`, `results.txt`: "p,n,iter,theta,time" over rows of
// numbers): a first line of comma-, semicolon- or tab-separated names that name the processes and the time, and a
// second of as many cells, at least two of them numbers. Before NPB's reader, which takes any .dat, .txt, .out.
bool SniffCsvTableByHeader(const std::string& path, std::string_view text) {
  if (SniffCsvTable(path, text)) return false;  // the row above's
  DocumentKind kind;
  if (DocumentKindOfPath(path, &kind)) return false;  // a document's tables are the document reader's
  LineReader lines(text.substr(0, 1 << 16));
  std::string_view line, header;
  while (lines.Next(&line)) {
    const std::string_view trimmed = Trim(line);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    if (header.empty()) {
      header = trimmed;
      continue;
    }
    for (char separator : {',', ';', '\t'}) {
      const std::vector<std::string> names = SplitCsvCells(header, separator);
      const std::vector<std::string> cells = SplitCsvCells(trimmed, separator);
      if (names.size() < 2 || cells.size() != names.size()) continue;
      const auto numbers = std::count_if(cells.begin(), cells.end(), [](const std::string& cell) {
        return ParseDouble(Trim(cell)).has_value();
      });
      if (numbers >= 2 && NamesProcsAndTime(names)) return true;
    }
    return false;
  }
  return false;
}

ReaderOutput ReadCsvTable(const ReaderInput& input) {
  ReaderOutput output;
  output.runs = ReadStatisticsCsv(input.text, input.path, TableOptionsFor(input, &output));
  return output;
}

bool SniffJsonTable(const std::string& path, std::string_view) { return HasExtension(path, ".json"); }

// JUBE's result folder, or its pretty table's "<name>:" line in a file that is no document (a Markdown report
// opening with "Results:" and a table stays the document reader's, which reads every table under any heading).
bool SniffJubeResult(const std::string& path, std::string_view text) {
  const std::string format_path = WithoutCompressionSuffix(path);
  DocumentKind kind;
  return IsJubeResultFile(format_path) || (LooksLikeJubePrettyTable(text) && !DocumentKindOfPath(format_path, &kind));
}

// A Markdown or Org document with a table of runs (a README of prose and settings is none).
bool SniffDocumentTables(const std::string& path, std::string_view text) {
  DocumentKind kind;
  return DocumentKindOfPath(path, &kind) && HasStatisticsTable(text, kind);
}

ReaderOutput ReadDocumentTablesInput(const ReaderInput& input) {
  ReaderOutput output;
  DocumentKind kind = DocumentKind::kMarkdown;
  DocumentKindOfPath(input.FormatPath(), &kind);
  output.runs = ReadDocumentTables(input.text, input.path, kind, TableOptionsFor(input, &output));
  return output;
}

ReaderOutput ReadJsonTable(const ReaderInput& input) {
  ReaderOutput output;
  output.runs = ReadStatisticsJson(input.text, input.path, TableOptionsFor(input, &output));
  return output;
}

// A report of time in an output that is not NPB's (NPB's reader keeps its own output with a report appended).
bool SniffTimeReportNotNpb(const std::string& path, std::string_view text) {
  return !LooksLikeNpbOutput(text) && SniffTimeReport(path, text);
}

// Output-like names go to the NPB reader even without NPB text: its error
// says why (empty, MPI start-up failure, killed run).
bool SniffNpb(const std::string& path, std::string_view text) {
  return LooksLikeNpbOutput(text) || HasExtension(path, ".out") || HasExtension(path, ".log") ||
         HasExtension(path, ".dat") || HasExtension(path, ".txt");
}

ReaderOutput ReadNpb(const ReaderInput& input) {
  // Taken by its name (.out, .log, .txt): a micro-benchmark's output is a machine profile's input.
  if (!LooksLikeNpbOutput(input.text))
    if (const std::string reason = NotARunReason(input.text); !reason.empty())
      throw InputError(input.path, 0, reason);
  NpbOutput npb = ParseNpbOutput(input.text, input.path);
  ReaderOutput output;
  output.role = PairingRole::kNpbOutput;
  output.mpip_report = npb.mpip_report;
  output.runs = NpbToRunStats(npb);
  for (RunStats& run : output.runs) {
    if (!run.app.empty()) run.derivations.emplace("app", "NPB banner: " + run.app + " Benchmark Completed");
    if (!run.problem_class.empty()) run.derivations.emplace("problem_class", "NPB banner: Class = " + run.problem_class);
    ApplyFileName(input.name, &run);
  }
  return output;
}

// A job's output with its Flux job record appended, unless an application reader leaves the output
// unread on purpose because its run is read from another file beside it (miniFE's YAML document): one
// measurement is one run.
bool SniffFluxJobOutput(const std::string& path, std::string_view text) {
  return SniffFluxJobRecord(path, text) && !IsMinifeOutputBesideItsDocument(path, text);
}

}  // namespace

const std::vector<Reader>& ReaderTable() {
  static const std::vector<Reader> kReaders = {
      {"mpiP report", SniffMpip, ReadMpip},
      // mpi_profile.<jobid>.0 of IBM's libmpitrace.so; the other ranks' files are skipped beside it.
      {"mpitrace profile (mpi_profile.<jobid>.0)", SniffMpitraceProfile, ReadMpitraceProfile},
      // Before the statistics tables and NPB output, which take any .csv/.txt file: by its header line.
      {"Slurm accounting table (sacct, sacct -P)", SniffSacctTable, ReadSacctTable},
      // Before the tables in documents and NPB output (which takes any .dat file): JUBE's result folder, or its
      // pretty table's "<name>:" line.
      {"JUBE result table (<outpath>/<id>/result/<table>.dat, jube result)", SniffJubeResult, ReadJubeResult},
      // Before every JSON reader (ReFrame, Caliper, Extra-P, the statistics table): by its first key.
      {"Slurm accounting records (sacct --json)", SniffSacctJson, ReadSacctJson},
      // Before every JSON reader too: an object with Flux's t_submit and ntasks keys.
      {"Flux job listing (flux jobs --json)", SniffFluxJobsListing, ReadFluxJobsListing},
      // Before NPB output too: qstat's own output, by its first 'Job Id:' line (pbs_job_status.h).
      {"PBS job record (qstat -f, qstat -fx)", SniffPbsJobStatus, ReadPbsJobStatus},
      // Before NPB output, which takes any .txt file: a binary log by its header, darshan-parser's output by its
      // first line. Streams: only the header and job region at the log's head are read.
      {"Darshan log (.darshan, or darshan-parser's output)", SniffDarshanLog, ReadDarshanLog, /*streams=*/true},
      // Before NPB output, which takes any .txt file.
      {"Arm (Linaro Forge) Performance Reports text", SniffArmPerformanceReport, ReadArmPerformanceReport},
      // Before NPB output, which takes any .txt file: by its "| Summary information" heading.
      {"Intel APS report (aps --report text)", SniffIntelApsReport, ReadIntelApsReport},
      // Before NPB output, which takes any .log/.out/.txt file (LAMMPS's own logs are log.lammps, log.*).
      {"LAMMPS log (log.lammps)", SniffLammpsLog, ReadLammpsLog},
      // Before NPB output, which takes any .out file (VASP's OUTCAR, job stdout copies).
      {"VASP OUTCAR", SniffVaspOutcar, ReadVaspOutcar},
      {"CASTEP output (.castep)", SniffCastepOutput, ReadCastepOutput},
      {"ONETEP output (<input>.out)", SniffOnetepOutput, ReadOnetepOutput},
      // Before NPB output too: md.log, or a job's .log/.out holding it after the job script.
      {"GROMACS mdrun log (md.log)", SniffGromacsLog, ReadGromacsLog},
      // Before NPB output too: log.simpleFoam, or a job's .out holding the solver's output.
      {"OpenFOAM solver log (log.simpleFoam)", SniffOpenfoamLog, ReadOpenfoamLog},
      // Before NPB output too: cp2k's standard output, saved as .out/.log or a batch job's stdout.
      {"CP2K output (cp2k.psmp/cp2k.popt standard output)", SniffCp2kOutput, ReadCp2kOutput},
      {"OTF-CPT output", SniffOtfCptReport, ReadOtfCptReport},
      {"ReFrame performance log", SniffReframePerflog, ReadReframePerflog},
      {"ReFrame run report (.json)", SniffReframeRunReport, ReadReframeRunReport},
      {"CUBE4 profile (.cubex)", SniffCubeProfile, ReadCubeProfile},
      {"TAU profiles (the folder of profile.0.0.0)", SniffTauProfile, ReadTauProfile},
      {"HPCToolkit database (the folder of experiment.xml)", SniffHpctoolkitExperiment, ReadHpctoolkitExperiment},
      {"HPCToolkit database, format 4 (the folder of meta.db and profile.db)", SniffHpctoolkitMeta,
       ReadHpctoolkitMeta},
      {"IPM XML log (.ipm.xml)", SniffIpmXml, ReadIpmLog},
      // Before NPB output, which takes any .out file.
      {"IPM banner (job stdout; its XML log is read instead when beside it)", SniffIpmBanner, ReadIpmBanner},
      {"Caliper region profile (.cali: spot, runtime-profile)", SniffCaliper, ReadCaliper, /*streams=*/true},
      {"Caliper region profile, json-split (.json)", SniffCaliperJson, ReadCaliperJson},
      {"Paraver trace (.prv, Extrae; its .pcf and .row beside it)", SniffParaver, ReadParaver, /*streams=*/true},
      {"OTF2 trace (anchor .otf2)", SniffOtf2, ReadOtf2},
      // Before the Extra-P row: undoes the export's strong scaling, restores the identity.
      {"Extra-P experiment written by qnm-predict export", SniffQnmExport, ReadQnmExport},
      {"Extra-P experiment (text, .json, .jsonl)", SniffExtrapExperiment, ReadExtrapExperiment},
      // Before the statistics tables: hyperfine's CSV export is a table of its own columns.
      {"hyperfine export (--export-json, --export-csv, --export-markdown, --export-orgmode, --export-asciidoc)", SniffHyperfineExport, ReadHyperfineExport},
      {"statistics table (.csv)", SniffCsvTable, ReadCsvTable},
      {"statistics table under another name (a header of processes and time over rows of numbers)",
       SniffCsvTableByHeader, ReadCsvTable},
      {"statistics table (.json)", SniffJsonTable, ReadJsonTable},
      {"tables in Markdown, Org and LaTeX documents (.md, .org, .tex)", SniffDocumentTables, ReadDocumentTablesInput},
      // Before NPB output too: a job's stdout (or a -log_view file) ending in PETSc's performance summary.
      {"PETSc performance summary (-log_view, -log_summary)", SniffPetscLog, ReadPetscLog},
      // Before NPB output too: pw.x, cp.x and the suite's other programs' standard output.
      {"Quantum ESPRESSO output (pw.x, cp.x standard output)", SniffQeOutput, ReadQeOutput},
      // Before NPB output too: namd2/namd3 standard output, saved as .log/.out or a batch job's stdout.
      {"NAMD log (namd2/namd3 standard output)", SniffNamdLog, ReadNamdLog},
      {"LULESH 2.0 output (standard output)", SniffLuleshOutput, ReadLuleshOutput},
      // Before NPB output too: CoMD's standard output, or its CoMD-mpi.<date>.yaml.
      {"CoMD output (standard output, CoMD-mpi.<date>.yaml)", SniffComdOutput, ReadComdOutput},
      // Before NPB output too: miniFE's YAML document, or a job's stdout printing it.
      {"miniFE output (miniFE.<nx>x<ny>x<nz>.P<ranks>.<date>.yaml, or a job log printing it)", SniffMinifeOutput,
       ReadMinifeOutput},
      // Before NPB output too: Kripke's standard output, or a job's .out holding it.
      {"Kripke output (kripke standard output)", SniffKripkeOutput, ReadKripkeOutput},
      // Before NPB output too: Laghos's standard output, or a job's .out holding it.
      {"Laghos output (laghos standard output)", SniffLaghosOutput, ReadLaghosOutput},
      // Before NPB output too: Quicksilver's standard output, or a job's .out holding it.
      {"Quicksilver output (qs standard output)", SniffQuicksilverOutput, ReadQuicksilverOutput},
      // Before NPB output too: HPL.out, or xhpl's standard output in a job's .out.
      {"HPL output (HPL.out, xhpl standard output)", SniffHplOutput, ReadHplOutput},
      // Before NPB output too: HPCG-Benchmark_<version>_<date>.txt (or .yaml), or a job's output printing it;
      // HPCG's log (hpcg<date>.txt) too, refused with where the run's figures are.
      {"HPCG report (HPCG-Benchmark_3.1_<date>.txt, HPCG-Benchmark-3.0_<date>.yaml)", SniffHpcgOutput, ReadHpcgOutput},
      // Before NPB output too: AMG's standard output (amg.out), or a job's .out/.log running it.
      {"AMG output (standard output of LLNL's AMG)", SniffAmgOutput, ReadAmgOutput},
      // Before NPB output too: clover.out, tea.out, or a job's stdout holding them.
      {"CloverLeaf and TeaLeaf output (clover.out, tea.out)", SniffLeafOutput, ReadLeafOutput},
      // Before NPB output too: ABINIT's main output (.abo, .out), or a job's stdout holding it.
      {"ABINIT output (.abo, the main output file)", SniffAbinitOutput, ReadAbinitOutput},
      // Before NPB output too: pmemd's and sander's mdout (md.out, prod.out, *.mdout, mdout.*).
      {"AMBER mdout (pmemd, sander)", SniffAmberMdout, ReadAmberMdout},
      // Before NPB output too: WRF's rsl.error.0000 / rsl.out.0000 (also renamed copies, .out/.log).
      {"WRF rsl file (process 0's rsl.error.0000 / rsl.out.0000 of wrf.exe)", SniffWrfRsl, ReadWrfRsl},
      // Before NPB output too: CIME's timing profile (CESM, E3SM: <model>_timing.<case>.<lid>).
      {"CIME timing profile (cesm_timing.*, e3sm_timing.*, ccsm_timing.*)", SniffCimeTiming, ReadCimeTiming},
      // Before NPB output too: an AMReX program's output (WarpX, Nyx, Castro, AMR-Wind, ...; a job's .out).
      {"AMReX program output (TinyProfiler total, 'Run time =')", SniffAmrexOutput, ReadAmrexOutput},
      // Before NPB output too: a Nalu-Wind (or Nalu) log (naluX -o <file>, by default <input deck>.log).
      {"Nalu-Wind log (naluX -o, <input>.log)", SniffNaluLog, ReadNaluLog},
      // Before NPB output too: an FMS model's standard output ending in its mpp_clock table (MOM5, MOM6, SIS2,
      // GFDL's AM/CM, SHiELD, UFS's FV3).
      {"FMS timing table (mpp_clock statistics of MOM5, MOM6, GFDL and UFS models' standard output)", SniffFmsClocks,
       ReadFmsClocks},
      // Before NPB output too: ESMF's profile summary (ESMF_Profile.summary of UFS, CESM's and NorESM's NUOPC
      // builds, ACCESS-OM3).
      {"ESMF profile summary (ESMF_Profile.summary)", SniffEsmfProfileSummary, ReadEsmfProfileSummary},
      // Before NPB output too: the Unified Model's standard output ending in its timer output (atm.fort6.pe0).
      {"Unified Model timer output (atm.fort6.pe0, the UM's standard output)", SniffUmTimers, ReadUmTimers},
      // Before NPB output too: nwchem's standard output, saved as .out/.log or a batch job's stdout.
      {"NWChem output (nwchem standard output)", SniffNwchemOutput, ReadNwchemOutput},
      // Before NPB output too: pat_report's text report (.rpt), or a job's stdout ending in the
      // CrayPat-lite summary. After the application readers above: their own output with a lite summary
      // appended stays theirs (docs/formats/craypat-report.md).
      {"CrayPat report (pat_report .rpt, CrayPat-lite summary in a job's stdout)", SniffCrayPatReport,
       ReadCrayPatReport},
      // Before NPB output, after every application reader: a job's output that only the Flux job record
      // appended to it makes a run of (an application reader's output keeps its own reading, the record
      // adding nodes and threads: ingest.cpp).
      {"Flux job record (jobspec and eventlog in a job's output)", SniffFluxJobOutput, ReadFluxJobOutput},
      // After every application reader too, before the reports of time and NPB output (which takes any .out by its
      // name): a job's output file headed by LSF's job report (bsub -o).
      {"LSF job report (bsub -o: in a job's output file)", SniffLsfJobOutput, ReadLsfJobOutput},
      // After every reader of a program's own output, before NPB's (which takes any .out, .log, .txt by its
      // name): an output with a report of `time` appended (bash, GNU time, zsh, tcsh, fish), NPB's own excepted;
      // the user's --pattern of the run time takes it instead (time_report.h).
      {"report of time (bash time, GNU time [-v], zsh, tcsh, fish) in a run's output", SniffTimeReportNotNpb,
       ReadTimeReport},
      {"NPB output", SniffNpb, ReadNpb},
  };
  return kReaders;
}

std::string ReadableFormatList() {
  std::string out;
  for (const Reader& reader : ReaderTable()) out += (out.empty() ? "" : ", ") + std::string(reader.name);
  return out + "; each also compressed as a whole (gzip, bzip2, xz, zstd, lz4, compress)"  // compressed_file.h
               "; and tar or .zip archives of them, read as the folders they pack";       // run_archive.h
}

}  // namespace qnm
