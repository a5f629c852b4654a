#pragma once
// OpenFOAM solver logs: the standard output of an application such as
// simpleFoam or pimpleFoam (`log.simpleFoam` from the tutorials' RunFunctions,
// or a job's .out). docs/formats/openfoam-log.md. Every OpenFOAM application
// prints a banner ("Build  : 7", "Exec   : simpleFoam -parallel", "Case   :
// /path/case", "nProcs : 64", in parallel "Slaves :" with every other
// process's "host.pid", or openfoam.com's "Hosts  :" with "(host count)"
// lines, and in v2412 and v2606 banners the Pstream line "(8 ranks, 1 nodes)"); a solver then prints one
// "Time = <t>" line per time step or
// iteration, each followed by "ExecutionTime = <cpu> s  ClockTime = <wall> s",
// and "End" when it finishes. A file may hold several executions (a job's
// output: utilities, then the solver), each opened by its "Build" line.
// OpenFOAM times no communication: the records are runtime only.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One execution of an OpenFOAM application in a log.
struct OpenfoamExecution {
  int line = 0;                // of its "Build" line, 1-based
  std::string version;         // the banner box's "Version:" ("7", "v2106", "dev"); empty when stripped
  std::string build;           // "Build  :" as printed ("2.3.0-f5222ca19ce6", "v2106 OPENFOAM=2106")
  std::string arch;            // "Arch   :" without quotes ("LSB;label=32;scalar=64"); empty when not printed
  std::string command;         // "Exec   :" as printed
  std::string program;         // the command's first word without its folder and ".exe": "simpleFoam"
  std::string solver_module;   // foamRun's "-solver NAME", else its "Selecting solver NAME"; empty otherwise
  std::string case_path;       // "Case   :" as printed; empty when not printed or blanked
  std::string io;              // "I/O    :" (uncollated, collated); empty when not printed
  std::string host;            // "Host   :" without quotes: the master's host
  int nprocs = 0;              // "nProcs : N"; 0 = not printed
  int nprocs_line = 0;
  std::vector<std::string> slave_hosts;  // "Slaves :" entries without ".pid", in rank order 1..N-1
  bool slave_hosts_blank = false;        // an entry was blank ("" in anonymised logs)
  std::vector<std::pair<std::string, int>> host_counts;  // "Hosts  :" "(host count)" lines, in order
  int hosts_line = 0;          // of the "Slaves"/"Hosts" line
  std::string comms_type;      // Pstream "commsType : nonBlocking"
  std::string float_transfer;  // Pstream "floatTransfer : 0"
  int pstream_ranks = 0, pstream_nodes = 0;  // Pstream "node communication : ... (8 ranks, 1 nodes)" (v2412, v2606); 0 = not printed
  int pstream_line = 0;
  std::map<std::string, std::vector<std::string>> linear_solvers;  // field -> solvers ("p" -> {"GAMG"})
  int steps = 0;               // "Time = " lines
  std::string first_time, last_time;  // their values as printed
  int timed_steps = 0;         // "ExecutionTime = " lines
  double first_execution_s = kUnknown, last_execution_s = kUnknown;  // ExecutionTime: the master's CPU seconds
  double first_clock_s = kUnknown, last_clock_s = kUnknown;          // ClockTime: wall seconds since start
  int last_execution_line = 0;
  int last_step_line = 0;      // of the last "Time = " line
  int end_line = 0;            // of "End": the application finished; 0 = it did not
  std::string error;           // the first line of "--> FOAM FATAL ERROR" (or a crash, an MPI abort, a job's cancellation), quoted
  int error_line = 0;
  int last_line = 0;           // the execution's last line

  bool IsSolver() const { return timed_steps > 0 && steps > 0; }
  bool Finished() const { return end_line > 0; }
  /// The application the run is of: foamRun's solver module (OpenFOAM 11+), else the program.
  const std::string& Application() const { return solver_module.empty() ? program : solver_module; }
};

/// True when one of the first lines holds an OpenFOAM banner's "Build  :" line and an "Exec   :"
/// line follows it.
bool LooksLikeOpenfoamLog(std::string_view text);

/// Parses every execution of a log; throws InputError naming `path` (and the line) when the file
/// has no banner, or a number the banner or a step prints is malformed.
std::vector<OpenfoamExecution> ParseOpenfoamLog(std::string_view text, const std::string& path);

/// The run-statistics record of a finished solver execution: app = the program ("simpleFoam") or
/// foamRun's solver module ("incompressibleFluid"), the
/// problem from the case's name, the steps run and their time values, procs and nodes from the
/// banner, the last ExecutionTime as the run's time.
RunStats OpenfoamExecutionToRunStats(const OpenfoamExecution& execution, const std::string& path);

}  // namespace qnm
