#pragma once
// `sacct --json`: Slurm's accounting records in the data model of its REST API
// (docs/formats/slurm-sacct.md), {"meta": ..., "errors": [...], "jobs": [job, ...]} with each job's
// steps inside it. Read into the same SacctTable a text table fills (slurm_accounting.h): one row
// per job allocation and one per step, under sacct's field names (jobid, jobname, ntasks, nnodes,
// alloccpus, elapsedraw, state, exitcode, nodelist, cluster, ...), so a JSON record and a -P table
// of the same jobs give the same runs. The shape is that of Slurm 22.05's data_parser v0.0.38
// (checked on real output of Slurm 22.05.8); the changes of later releases that reach the fields
// read are taken too: a state as a list of flags (["COMPLETED"]), numbers as {"set", "infinite",
// "number"} objects, a step id as "1234.0", the job's submit_line.
#include <string>
#include <string_view>

#include "job_records/slurm_accounting.h"

namespace qnm {

/// True when `text` is a JSON object whose first key is "jobs" or "meta" and which holds a
/// "job_id": what sacct --json prints.
bool LooksLikeSacctJson(std::string_view text);

/// The rows of every job and step; throws InputError naming `path` (and the job's line) when the
/// document is not JSON, has no "jobs" array, or a job lacks its id.
SacctTable ParseSacctJson(std::string_view text, const std::string& path);

}  // namespace qnm
