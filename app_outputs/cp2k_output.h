#pragma once
// CP2K's main output: the standard output of cp2k.psmp / cp2k.popt, kept as `*.out` or `*.log`
// (docs/formats/cp2k-output.md). A run opens with its banner ("PROGRAM STARTED AT"), the header
// ("CP2K| version string: CP2K version 7.1", "GLOBAL| Project name H2O-64", "GLOBAL| Run type MD",
// "GLOBAL| Total number of message passing processes 64", "GLOBAL| Number of threads for this
// process 4"), what the input holds ("- Atoms: 192", "- Spherical basis functions: 2560",
// "max_scf: 50", "MD| Number of Time Steps 10"), and, when it finishes, process 0's message-passing
// counts ("DBCSR MESSAGE PASSING PERFORMANCE", "MESSAGE PASSING PERFORMANCE"), the timing report
// over all ranks ("T I M I N G") and "PROGRAM ENDED AT". Read as printed by CP2K 6.1 to 9.1.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One row of the timing report: CP2K's timers reduced over the ranks (src/common/timings_report.F,
/// collect_reports_from_ranks and print_reports): calls the maximum over ranks, times the sum over
/// ranks divided by the processes (AVERAGE) and the maximum over ranks (MAXIMUM).
struct Cp2kTimingRow {
  int line = 0;                    // 1-based
  std::string name;                // "mp_waitall_1", "CP2K" (the first 30 characters, as printed)
  long long calls_max = -1;        // CALLS MAXIMUM; -1 when the I7 field overflowed ("*******")
  double self_mean_s = kUnknown, self_max_s = kUnknown;    // SELF TIME AVERAGE, MAXIMUM
  double total_mean_s = kUnknown, total_max_s = kUnknown;  // TOTAL TIME AVERAGE, MAXIMUM
};

/// One row of a message-passing table: process 0's own counters (mp_perf_env: add_perf counts the
/// calls of the process that makes them; nothing reduces them over the ranks).
struct Cp2kMessageRow {
  int line = 0;
  std::string operation;          // "MP_Bcast", "MP_ISend", as printed
  long long calls = -1;           // -1 when the I10 field overflowed
  double mean_bytes = kUnknown;   // AVE VOLUME [Bytes]; 0 when not printed (under 1 byte); unknown on overflow
  bool dbcsr = false;             // from the "DBCSR MESSAGE PASSING PERFORMANCE" table
};

/// One run of cp2k in an output (a job's stdout may hold several).
struct Cp2kRun {
  int start_line = 0;             // "PROGRAM STARTED AT" (or the version line when the banner is missing)
  std::string version;            // "7.1", "2023.2 (Development Version)"
  std::string revision;           // "git:e635599", "svn:18464"
  std::string compiled_for;       // "CP2K| Program compiled for ARCHER2"
  std::string flags;              // "CP2K| cp2kflags: omp libint ...", its wrapped lines joined
  std::vector<std::string> accelerator_flags;  // the flags of a GPU build ("dbcsr_acc", "grid_cuda", "grid_hip")
  std::string input_file;         // "CP2K| Input file name H2O-64.inp"
  std::string host;               // "PROGRAM STARTED ON nid001123" (process 0's host)
  std::string project, run_type;  // GLOBAL| Project name, Run type
  std::string cpu_model;
  int processes = 0;              // GLOBAL| Total number of message passing processes; 0 = not printed
  int threads = 0;                // GLOBAL| Number of threads for this process; 0 = not printed
  long long atoms = 0, atomic_kinds = 0, basis_functions = 0;  // the first "Total number of" block
  long long max_scf = -1;         // the first "max_scf:"
  long long md_steps = -1;        // "MD| Number of Time Steps" / "MD_PAR| Number of time steps"
  long long md_steps_done = 0;    // the last "STEP NUMBER =" / "MD| Step number"
  long long scf_steps = 0;        // "*** SCF run converged in N steps ***", summed
  std::vector<Cp2kMessageRow> messages;
  int timing_line = 0;            // the "T I M I N G" title; 0 = no report
  bool timing_closed = false;     // the report's closing dashed line was read
  std::vector<Cp2kTimingRow> timing;
  bool sorted_by_self = false;    // the report is ordered by SELF MAXIMUM (GLOBAL%TIMINGS%SORT_BY_SELF_TIME)
  int ended_line = 0;             // "PROGRAM ENDED AT"
  int abort_line = 0;             // the box around "[ABORT]"
  std::string abort_message;      // its text, and where CP2K stopped ("qs_scf.F:542")
  int last_line = 0;              // the run's last line in the file
};

/// True when one of the first lines of `text` is CP2K's "CP2K| version string:".
bool LooksLikeCp2kOutput(std::string_view text);

/// Every run of an output, finished or not; throws InputError naming `path` and the line when a
/// number is malformed, a timing report is damaged, or the file holds no CP2K header.
std::vector<Cp2kRun> ParseCp2kOutput(std::string_view text, const std::string& path);

/// Why a run cannot be read (cut, killed, aborted: no finished timing report), or empty when it can.
/// `line` receives the line to name.
std::string Cp2kRunUnfinished(const Cp2kRun& run, int* line);

/// The share of the run time under which the timing report must reach for its mp_ rows to be
/// taken as the run's MPI time: CP2K leaves out every routine whose time is below THRESHOLD x the
/// largest (default 0.02, GLOBAL%TIMINGS%THRESHOLD); at 0.1% the left-out wrappers are each under
/// a thousandth of the run.
inline constexpr double kCp2kCompleteReportShare = 0.001;

/// The run-statistics record of a finished run: app "cp2k", the problem from its input, procs and
/// threads, the CP2K timer as run time, MPI time from the mp_ wrappers' self times when the report
/// is complete enough, messages and bytes from process 0's counters.
RunStats Cp2kRunToRunStats(const Cp2kRun& run, const std::string& path);

}  // namespace qnm
