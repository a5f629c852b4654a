#pragma once
// What `time` printed of a run (docs/formats/time-report.md): the simplest scaling study is a
// program's output with the shell's or GNU time's report appended,
//   time mpirun -np 16 ./app > np16.log 2>&1          (bash:  real 0m12.345s / user ... / sys ...)
//   /usr/bin/time -v mpirun -np 16 ./app 2> run.err    (GNU:   Command being timed: "mpirun -np 16 ./app"
//                                                              ... Elapsed (wall clock) time (h:mm:ss or m:ss):
//                                                              0:12.34)
// The reports read, as each shell or program prints them by default:
//   bash            real\t0m12.345s  user\t…  sys\t…   (minutes unbounded; a decimal comma in some locales)
//   POSIX (-p)      real 12.34  user …  sys …          (bash's `time -p`, GNU time -p, dash, ksh)
//   GNU time        0.22user 0.13system 0:12.34elapsed 75%CPU (…)
//   GNU time -v     its block, from "Command being timed" to "Exit status"
//   zsh             mpirun -np 16 ./app  0.22s user 0.13s system 75% cpu 12.345 total
//   tcsh            0.220u 0.130s 0:12.34 75.0% 0+0k 0+0io 0pf+0w
//   fish            ________________________________________________________
//                   Executed in  634.67 millis    fish           external
//                      usr time  395.89 millis  470.00 micros  395.42 millis   (and sys time; micros, millis,
//                                                                              secs or mins)
// Each report is a run whose time is the elapsed (real) time of the command timed, the launcher's
// start-up included. GNU time -v and zsh name the command: its launcher gives the processes, threads
// and layout, and its program the series (launch/launch_command.h). So does a shell's trace of the command
// (bash's and zsh's `set -x`: "+ mpirun -np 4 ./app") since the report before. A report without a command takes
// them from the user's --pattern for them (`procs@path=np(\d+)`, `procs=Running on (\d+) ranks`), else
// from the file's name (np16.log, 64ranks.out); its series is the program the file's name or folder
// names. Several reports without commands in one file (a loop of `time mpirun ...`) are repetitions of
// one run. A command that failed (GNU time's exit status, "Command exited with non-zero status"; for the
// reports without a status, a line since the report before in which the launcher or batch system says the
// job failed: Open MPI's "Primary job terminated normally, but ...", "exited on signal", srun's errors) is
// noted, not read. A file of one report is its run's application output: an MPI profile in its folder (an
// mpiP report of the same process count) pairs with it into one record, the report's time and the
// profile's per-rank data (ingest/run_pairing.h).
#include <string>
#include <string_view>
#include <vector>

#include "reader/reader.h"

namespace qnm {

enum class TimeReportStyle { kBash, kPosix, kGnu, kGnuVerbose, kZsh, kTcsh, kFish };
// "bash time", "time -p", "GNU time", "GNU time -v", "zsh time", "tcsh time", "fish time"
const char* ToString(TimeReportStyle style);

struct TimeReport {
  int line = 0;  // of its elapsed time, 1-based
  TimeReportStyle style = TimeReportStyle::kBash;
  double elapsed_s = 0;
  double user_s = -1, system_s = -1;  // < 0: not given
  std::string command;  // the command timed, when the report names it (GNU time -v, zsh) or a shell's trace
                        // (`set -x`: "+ mpirun -np 4 ./app") runs a launcher since the report before; else empty
  int traced_line = 0;  // the trace's line when the command is from it; 0 otherwise
  int exit_status = 0;  // GNU time's; 0 when the report does not say
  int signal = 0;       // GNU time's "Command terminated by signal N"
  // A line since the report before saying the launched job failed (launch/launch_failure.h), for the reports
  // that carry no exit status: its number and text; 0 when none.
  int failure_line = 0;
  std::string failure;
};

/// Every report of `text`; throws InputError naming `path` and the line when a report's time is
/// malformed (a real line whose minutes or seconds are no number).
std::vector<TimeReport> ParseTimeReports(std::string_view text, const std::string& path);

/// True when `text` holds a report (above).
bool HasTimeReport(std::string_view text);

bool SniffTimeReport(const std::string& path, std::string_view text);
/// The runs of a file's reports (above). Left to the user's patterns (an InputError ingest passes on to
/// them) when a --pattern names the run time: the user said where it is. Refused, naming the first
/// report's line, when no report names its processes and no pattern or file name does.
ReaderOutput ReadTimeReport(const ReaderInput& input);

}  // namespace qnm
