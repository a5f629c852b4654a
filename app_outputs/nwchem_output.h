#pragma once
// NWChem outputs: the standard output of `nwchem` (docs/formats/nwchem-output.md), kept as
// h2o.out, job.log or a batch job's stdout. A job prints "argument  1 = h2o.nw", the echo of its
// input deck when the input asks for it ("echo"), the banner "Northwest Computational Chemistry
// Package (NWChem) 7.2.0", the "Job information" block (hostname, program, date, compiled, source,
// nwchem branch, nwchem revision, ga revision, use scalapack, input, prefix, data base, status,
// "nproc = 4", time left), each task's module headers ("NWChem SCF Module", "NWChem DFT Module",
// "NWChem Geometry Optimization") and its " Task  times  cpu:  0.3s  wall:  0.3s", and at the end
// process 0's Global Arrays statistics (when printed), MA's memory statistics, the citation and
// " Total times  cpu:  0.4s  wall:  0.4s" (nwchem.F). OpenMP builds print "NWChem w/ OpenMP: maximum
// threads = 4" first; ARMCI builds of 5.x/6.x "ARMCI configured for 2 cluster nodes. Network
// protocol is 'OpenIB Verbs API'." Read as printed by NWChem 5.1 to 7.3.1 (the QA outputs of
// nwchemgit/nwchem). NWChem times no MPI: the records are runtime only (the GA statistics are
// process 0's one-sided Global Arrays operations, kept as details).
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One NWChem job in an output (a batch job's stdout may hold several, one after another).
struct NwchemJob {
  int line = 0;                 // of its first line ("argument  1 =", the OpenMP or ARMCI line, else the banner)
  int banner_line = 0;          // "Northwest Computational Chemistry Package (NWChem) 7.2.0"
  std::string version;          // "7.2.0", "6.8", "5.1"
  // The "Job information" block, "    key = value" lines.
  int job_information_line = 0;
  std::string hostname, program, date, compiled, source, branch, revision, ga_revision, use_scalapack, input,
      prefix, data_base, status, time_left, batch_job_id;
  int nproc_line = 0;
  int nproc = 0;                // "nproc           =        4"
  int omp_threads = 0;          // "NWChem w/ OpenMP: maximum threads =    4" (OpenMP builds)
  int armci_nodes = 0;          // "ARMCI configured for 2 cluster nodes. Network protocol is '...'."
  std::string armci_network;    // "OpenIB Verbs API"
  std::string argument;         // "h2o.nw" of "argument  1 = h2o.nw"
  std::vector<std::string> echoed_tasks;  // "task scf energy": the task lines of the echo of the input deck
  std::string input_deck;                 // the echoed deck, normalised (lower case, single blanks, no comments,
                                          // no memory/scratch_dir/permanent_dir/echo lines, start/restart unnamed)
  std::vector<std::string> modules;       // the module headers in order of first appearance, less the Input Module
  int geometry_atoms = 0;       // the rows of the first "Geometry ... -> ..." table
  int module_atoms = 0;         // the first "atoms  =" (SCF) or "No. of atoms  :" (DFT)
  std::vector<std::string> basis_names;   // the descriptions of the "Summary of "ao basis"" tables, distinct
  long long basis_functions = 0;          // the first "functions  =" (SCF) or "AO basis - number of functions:" (DFT)
  std::vector<int> task_lines;            // " Task  times  cpu: ...s  wall: ...s", one per task run
  std::vector<double> task_cpu_s, task_wall_s;
  int total_line = 0;           // " Total times  cpu: ...s  wall: ...s": the job finished
  double total_cpu_s = kUnknown, total_wall_s = kUnknown;
  // "GA Statistics for process    0" (process 0's Global Arrays operations; printed by NWChem 5.x to 7.0).
  int ga_stats_line = 0;
  std::vector<double> ga_calls;         // create destroy get put acc scatter gather read&inc
  std::vector<double> ga_bytes_total;   // get put acc scatter gather read&inc
  std::vector<double> ga_bytes_remote;  // the same, to or from other processes' memory
  double ga_max_memory_bytes = kUnknown;  // "Max memory consumed for GA by this process: N bytes"
  double ma_max_heap_bytes = kUnknown, ma_max_stack_bytes = kUnknown;  // MA's "maximum total bytes"
  // Why it stopped, when it did.
  int error_line = 0;           // errquit's message above "For further details see manual section:", else
  std::string error;            // the first line of a GA/ARMCI/MPI abort or a crash
};

/// The build a job ran, as the configuration words of its record: "nwchem<version>", the Job
/// information's 'nwchem branch' when it is not the version ("development", "branch7.0.0"), "ga<ga
/// revision>" (not "N/A"), ARMCI's network protocol: "nwchem7.2.0-ga5.8.1", "nwchem6.3-development-ga10418".
std::string NwchemConfiguration(const NwchemJob& job);

/// True when one of the first lines of `text` is NWChem's banner.
bool LooksLikeNwchemOutput(std::string_view text);

/// Every job of an output, finished or not; throws InputError naming `path` (and the line) when the
/// file has no NWChem banner or a number NWChem printed is malformed.
std::vector<NwchemJob> ParseNwchemOutput(std::string_view text, const std::string& path);

/// The run-statistics record of a finished job: app "nwchem", the problem from its input's name, its
/// tasks, atoms, basis sets and functions; procs from "nproc", threads from the OpenMP line; the
/// "Total times" wall time as the run's time. Throws InputError when the job gives no process count.
RunStats NwchemJobToRunStats(const NwchemJob& job, const std::string& path);

}  // namespace qnm
