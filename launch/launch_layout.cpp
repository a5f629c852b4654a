// A timed run's layout and program from its launch command (launch_layout.h).
#include "launch/launch_layout.h"

#include "reader/experiment_factors.h"

namespace qnm {
namespace {

// The command's count when it says one, else `otherwise`'s.
SaidCount Either(int launched, const std::string& launched_from, const LaunchCommand& launch,
                 const std::string& by_command, const SaidCount& otherwise) {
  if (launched > 0) return {launched, by_command + LaunchDerivation(launch, launched_from)};
  return otherwise;
}

}  // namespace

void ApplyLaunchLayout(const LaunchCommand& launch, const std::string& by_command, const RunLayout& otherwise,
                       RunStats* run) {
  const SaidCount procs = Either(launch.procs, launch.procs_from, launch, by_command, otherwise.procs);
  const SaidCount threads = Either(launch.threads, launch.threads_from, launch, by_command, otherwise.threads);
  const SaidCount per_node =
      Either(launch.ranks_per_node, launch.ranks_per_node_from, launch, by_command, otherwise.ranks_per_node);
  const SaidCount nodes = Either(launch.nodes, launch.nodes_from, launch, by_command, otherwise.nodes);
  if (procs.value > 0) {
    run->procs = procs.value;
    run->derivations["procs"] = procs.from;
  }
  if (threads.value > 0) {
    run->threads_per_proc = threads.value;
    run->derivations["threads_per_proc"] = threads.from;
  }
  if (per_node.value > 0) run->SetRanksPerNode(per_node.value, per_node.from);
  if (nodes.value > 0) run->SetNodes(nodes.value, nodes.from);
}

bool ApplyLaunchProgram(const LaunchCommand& launch, const std::string& by_command, RunStats* run) {
  if (launch.program.empty()) return false;
  run->app = launch.program;
  run->derivations["app"] = by_command + "its program";
  std::string program_and_arguments = launch.program_path;
  for (const std::string& argument : launch.arguments) program_and_arguments += " " + argument;
  SetCommandArguments(program_and_arguments, run);
  return true;
}

}  // namespace qnm
