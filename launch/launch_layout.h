#pragma once
// A run's layout and program from the command that launched it (launch/launch_command.h), each count the command
// does not say from what else the tool or the file says (a hyperfine parameter, the user's pattern, the file's
// name, an LSF job script's #BSUB lines): one rule for hyperfine's exports, the reports of `time` and LSF's jobs.
#include <string>

#include "launch/launch_command.h"
#include "record/run_stats.h"

namespace qnm {

/// A count of a run's layout and what said it ("hyperfine parameter np"); 0 = not said.
struct SaidCount {
  int value = 0;
  std::string from;
};

/// What said a run's processes, threads, nodes and ranks per node, other than its command.
struct RunLayout {
  SaidCount procs, threads, nodes, ranks_per_node;
};

/// Sets `run`'s processes, threads per process, ranks per node and nodes from `launch` (derivations
/// "<by_command><launcher> <words>": "GNU time -v command: mpirun -np 4"), each one the command does not
/// say from `otherwise`.
void ApplyLaunchLayout(const LaunchCommand& launch, const std::string& by_command, const RunLayout& otherwise,
                       RunStats* run);

/// Sets `run`'s app to the command's program and its command.arguments setting to the program's arguments
/// (reader/experiment_factors.h); false, changing nothing, when the command names no program.
bool ApplyLaunchProgram(const LaunchCommand& launch, const std::string& by_command, RunStats* run);

}  // namespace qnm
