#pragma once
// A Flux jobspec: what a job asked for (`flux job info ID jobspec`; Flux RFC 14 and RFC 25,
// canonical jobspec version 1), one JSON line {"resources": [...], "tasks": [...], "attributes": ...,
// "version": 1}: a node resource holding slots of cores (and GPUs), or slots alone, and the task's
// command with its count per slot or in all (docs/formats/flux-job.md).
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

struct FluxJobspec {
  int line = 0;                        // 1-based line of the jobspec in its file
  long long tasks = 0;                 // processes: count.total, or count.per_slot x the slots
  int nodes = 0;                       // the node resource's count (0: the jobspec names no nodes)
  int slots_per_node = 0;              // slots per node (with nodes), else the slots in all
  int cores_per_slot = 0;              // cores of each slot (a task's threads)
  int gpus_per_slot = 0;               // GPUs of each slot
  std::vector<std::string> command;    // tasks[0].command
  std::string program;                 // the command's program: its first word that is no container or launcher
  std::vector<std::string> arguments;  // the command's words after its program
};

/// True for a line that is a JSON object whose first key is "resources": a jobspec as Flux prints it.
bool IsFluxJobspecLine(std::string_view line);

/// The jobspec on `line` of `path`; throws InputError naming both when it is not JSON, of another
/// version than 1, without resources, tasks or a command, or with counts that are not positive whole
/// numbers (or are ranges: the job's own counts are in its R) or make more than 1e8 tasks.
FluxJobspec ReadFluxJobspec(std::string_view text, const std::string& path, int line);

}  // namespace qnm
