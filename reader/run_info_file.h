#pragma once
// Files a job script leaves beside a run that say where and how it ran:
// an `info` file (a `uname -a` line, "threads/node: 16", "nodes: 4"; LLNL's
// NPB-MZ campaign on cab), `host_info`/`hostfile`/`machinefile` (one host per
// line, "host slots=N" allowed) and `env` (KEY=VALUE: HOSTNAME,
// SLURMD_NODENAME, OMP_NUM_THREADS, SLURM_JOB_NODELIST). They are identity
// sources for the run in the same folder, never runs themselves.
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

struct RunInfoFile {
  std::string path;
  std::vector<std::string> hosts;  // host names the file names (uname host, host lines, HOSTNAME)
  std::string hosts_from;          // which line(s) gave them: "uname line", "host lines", "HOSTNAME"
  int threads_per_node = 0;        // "threads/node: N" (0 = not said)
  int threads_per_proc = 0;        // OMP_NUM_THREADS=N (0 = not said)
  int nodes = 0;                   // "nodes: N", SLURM_NNODES (0 = not said)
  bool Empty() const { return hosts.empty() && threads_per_node == 0 && threads_per_proc == 0 && nodes == 0; }
};

/// True for the base names a run-info file has: info, host_info, hostinfo,
/// hostfile, machinefile, nodefile, hostname, env, environment.
bool IsRunInfoFileName(const std::string& path);

/// Reads what `text` says (unknown lines are ignored: `info` files also list
/// CPU clocks and dates). Never throws; an empty result means it said nothing usable.
RunInfoFile ParseRunInfoFile(std::string_view text, const std::string& path);

}  // namespace qnm
