#pragma once
// PBS job records: what `qstat -f` (Torque, PBS Pro and OpenPBS) and `qstat -fx` (PBS Pro's finished
// jobs) print of a job (docs/formats/pbs-qstat.md), the batch record users of PBS clusters keep
// of a run, saved as qstat prints it. A record is
//   Job Id: 8.scheduler
//       Job_Name = OPM
//       resources_used.walltime = 00:00:55
//       job_state = F
//       exec_host = hpc-2/0*120
//       Resource_List.mpiprocs = 60
//       Resource_List.select = 1:ncpus=120:mpiprocs=60:slot_type=hpc
//       Exit_status = 0
// one attribute a line; qstat wraps a long value onto lines that start with a tab (or deeper
// indentation). A finished job (job_state F, or C of Torque) with exit status 0 is a run: its MPI
// processes from mpiprocs (PBS Pro's select), else Torque's nodes=N:ppn=P or the CPUs (noted), its
// time resources_used.walltime. PBS times no MPI call: the records are runtime only.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One job's record as qstat printed it.
struct PbsJob {
  int line = 0;                                   // of "Job Id:", 1-based
  std::string id;                                 // "8.scheduler"
  std::map<std::string, std::string> attributes;  // "Resource_List.mpiprocs" -> "60", wrapped lines joined
  std::map<std::string, int> lines;               // the line of each attribute

  /// The value of `name`, or empty.
  const std::string& Value(const std::string& name) const;
  /// The line of `name`, else the record's.
  int LineOf(const std::string& name) const;
};

/// True when `text` is qstat's output: its first line (or the one after the prompt line that ran
/// qstat) opens a record ("Job Id: ...") followed by an attribute line ("    Job_Name = ...").
/// A record a job's own script printed among its output is of a running job and not looked for.
bool LooksLikePbsJobStatus(std::string_view text);

/// Every record of `text`; throws InputError naming `path` and the line when a line inside a record
/// is no attribute and follows none, or a record has no attribute.
std::vector<PbsJob> ParsePbsJobStatus(std::string_view text, const std::string& path);

/// Why `job` is not a run ("job 8.scheduler: job_state R (running): not finished"), or empty.
std::string PbsJobNotRead(const PbsJob& job);

/// The run-statistics record of a finished job: app the job's name and the class its script's name,
/// each without the run's own process or node count; procs, threads and nodes from its resources;
/// the hosts of exec_host; the used walltime as the run's time. Throws InputError naming `path`
/// and the attribute's line when a value is malformed.
RunStats PbsJobToRunStats(const PbsJob& job, const std::string& path);

}  // namespace qnm
