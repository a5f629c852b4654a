#pragma once
// `flux jobs --json` (docs/formats/flux-job.md): Flux's listing of many jobs as one JSON document,
// {"jobs": [job, ...]}, or one job object when one job id was asked for. Each job holds what Flux's
// job-list service keeps (flux-core's JobInfo.to_dict): "id" (a number) and "jobid" (its f58 text),
// "name", "ntasks", "nnodes", "ncores", "nodelist" (a hostlist, "node[1-4]"), "t_run" and "t_cleanup"
// (seconds since 1970: the job entered RUN at alloc and CLEANUP at finish), "runtime" (their
// difference), "state" ("INACTIVE"), "result" ("COMPLETED", "FAILED", "CANCELED", "TIMEOUT"; job-list's
// own number 1, 2, 4, 8 in raw listings), "success", "waitstatus", "exception" {"occurred", "type",
// "note"}, "queue", "cwd". Unset values are left out (a running job has no t_cleanup and no result).
#include <string>
#include <string_view>


namespace qnm {

/// True when `text` is a JSON object whose first key is "jobs", or which has Flux's "t_submit" and
/// "ntasks" keys near its start: what `flux jobs --json` prints.
bool LooksLikeFluxJobsListing(std::string_view text);

// The reader (job_record_readers.h: SniffFluxJobsListing, ReadFluxJobsListing) takes every completed
// job of the listing as a run (its name, tasks, nodes, cores per task as threads, hosts, RUNTIME =
// t_cleanup - t_run); jobs that did not complete (failed, canceled, timed out, still active) are
// counted in a note, and a listing with none completed is refused with the first's reason.

}  // namespace qnm
