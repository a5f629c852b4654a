#pragma once
// IBM Spectrum LSF's job report in a job's output file (`bsub -o job.out`; docs/formats/lsf-job-output.md). LSF
// writes it at the head of the file, before the program's own output, or (its output written to the file as the
// job runs) appends it after a line of dashes:
//   Sender: LSF System <lsfadmin@polus-c2-ib>
//   Subject: Job 1371603: <... mpiexec mpi_solve 128 PI> in cluster <MSUCluster> Done
//   Job <...> was submitted from host <polus-ib> by user <u> in cluster <MSUCluster> at Sat Nov 29 01:46:25 2025
//   Job was executed on host(s) <9*polus-c2-ib>, in queue <short>, as user <u> in cluster <MSUCluster> at ...
//                               <9*polus-c3-ib>
//   Started at Sat Nov 29 01:46:25 2025
//   Terminated at Sat Nov 29 01:46:28 2025
//   Your job looked like:
//   ------------------------------------------------------------
//   # LSBATCH: User input
//   #BSUB -n 8
//   OMP_NUM_THREADS=1 mpiexec mpi_solve 128 PI
//   ------------------------------------------------------------
//   Successfully completed.                      (or "Exited with exit code 1.", "TERM_RUNLIMIT: ...")
//   Resource usage summary:
//       CPU time :                                   11.00 sec.
//       Run time :                                   5 sec.
//   The output (if any) follows:
// A report is a run: its processes from the script's launch command (launch/launch_command.h), else `#BSUB -n`,
// else the job slots of the hosts it ran on; its layout from what the script fixes ('#BSUB -R "span[ptile=N]"',
// '#BSUB -nnodes N', the launcher's -ppn), not from the hosts LSF happened to place a job on (kept as a detail:
// jobs that share nodes land on one host or several by the scheduler's choice); its time LSF's "Run time" (whole
// seconds: the job's, start-up included), else Terminated - Started. A job that did not complete is noted, not
// read. A file with reports of several jobs appended holds several runs.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reader/reader.h"
#include "record/run_stats.h"

namespace qnm {

/// One job's report.
struct LsfJobReport {
  int line = 0;        // of its first line ("Sender: LSF System", else "Job was executed on host(s)"), 1-based
  std::string job_id;  // "1371603", from "Subject: Job 1371603:"
  std::string queue;   // "short"
  std::vector<std::pair<std::string, int>> hosts;  // host, its job slots (<9*host>; <host> is 1)
  int bsub_n = 0;                                  // the script's "#BSUB -n N"; 0 = not given
  int ptile = 0;        // its '#BSUB -R "span[ptile=N]"': N processes on each host; 0 = not given
  int bsub_nodes = 0;   // its "#BSUB -nnodes N" (LSF with CSM: Summit, Lassen); 0 = not given
  std::string command;  // the script's first line that runs an MPI launcher
  int command_line = 0;
  double run_time_s = kUnknown;  // "Run time : 5 sec."
  double cpu_time_s = kUnknown;  // "CPU time : 11.00 sec."
  double between_s = kUnknown;   // "Terminated at" - "Started at"
  std::string outcome;           // "Successfully completed.", "Exited with exit code 1.", "TERM_RUNLIMIT: ..."
  int outcome_line = 0;
  bool completed = false;  // "Successfully completed."
};

/// True when a line "Sender: LSF System <...>" is followed by "Subject: Job ...", or a line "Job was executed on
/// host(s) <" by "Resource usage summary:": the report at the file's head (LSF writing it first) or after the
/// program's output ("The output (if any) is above this job summary.").
bool LooksLikeLsfJobOutput(std::string_view text);

/// Every job report of the text; throws InputError naming `path` and the line of a malformed host list, slot
/// count, `#BSUB -n` or time.
std::vector<LsfJobReport> ParseLsfJobOutput(std::string_view text, const std::string& path);

bool SniffLsfJobOutput(const std::string& path, std::string_view text);
/// The runs of a job output's reports. Left to the user's patterns (an InputError ingest passes on to them) when
/// a --pattern names the run time: the user said where the program prints it.
ReaderOutput ReadLsfJobOutput(const ReaderInput& input);

}  // namespace qnm
