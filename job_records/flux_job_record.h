#pragma once
// A Flux job's record as a job script leaves it in the job's output (docs/formats/flux-job.md):
// the jobspec (`flux job info ID jobspec`: Flux RFC 14/25, canonical jobspec version 1, one JSON
// line) and an eventlog (RFC 18: one JSON object per line, {"timestamp", "name", "context"}), either
// the job's own (`flux job eventlog -f json ID`, `flux job info ID eventlog`: submit, alloc, start,
// finish, ...; RFC 21) or its execution system's (`flux job info ID guest.exec.eventlog`: init,
// starting, shell.init, shell.start, complete, done). The converged-computing cloud study appends
// both to every run's output behind "START OF JOBSPEC" / "START OF EVENTLOG" lines.
//
// What it gives a run: the processes (the jobspec's tasks), the nodes and ranks per node (its node
// and slot counts), the cores of each task (threads), the program (the command), the job's run time
// (as `flux jobs` computes RUNTIME: finish - alloc; from an exec eventlog, complete - init) and
// whether it succeeded (the finish/complete status, a wait(2) status).
#include <string>
#include <string_view>
#include <vector>

#include "job_records/flux_eventlog.h"
#include "job_records/flux_jobspec.h"
#include "record/run_stats.h"

namespace qnm {

struct FluxJobRecord {
  bool has_jobspec = false;
  bool has_eventlog = false;
  FluxJobspec jobspec;
  FluxEventlog eventlog;
};

/// True when `text` holds a Flux jobspec line ({"resources": [...], ..., "version": 1}) and an
/// eventlog line ({"timestamp": ..., "name": ...}, or `flux job eventlog`'s text "1724293585.766 alloc"):
/// a scan, no JSON parsing; a file without a "resources" key costs one search.
bool HasFluxJobRecord(std::string_view text);

/// Finds and reads the jobspec and the eventlog in `text`: an eventlog is a block of consecutive
/// event lines; of a job's eventlog and its execution system's, the job's counts, as `flux jobs`
/// counts it. Throws InputError naming `path` and the line when a jobspec or event line is damaged
/// (flux_jobspec.h, flux_eventlog.h), or the file holds two different jobspecs or the eventlogs of
/// two runs.
FluxJobRecord ReadFluxJobRecord(std::string_view text, const std::string& path);

/// The run the record describes, alone (no application output read it): the program, processes,
/// nodes, threads and the job's run time. Throws InputError naming `path` when the job did not
/// succeed (a non-zero status, a severity-0 exception), has no finish/complete event or no tasks.
RunStats FluxJobRecordToRunStats(const FluxJobRecord& record, const std::string& path);

/// Adds what the record knows and an application's output (`run`, read from the same file) does
/// not: nodes, ranks per node, threads; the job's run time and status as details. Nothing is taken
/// when the jobspec's processes differ from the run's (returned as a note, "" when it agreed).
/// The run's own time is kept: a job that ended badly after the program printed its results (a
/// rank hanging at exit) keeps the program's reading, with a note saying so.
std::string ApplyFluxJobRecord(const FluxJobRecord& record, const std::string& path, RunStats* run);

}  // namespace qnm
