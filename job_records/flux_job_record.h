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

#include "record/run_stats.h"

namespace qnm {

struct FluxJobspec {
  int line = 0;                       // 1-based line of the jobspec in its file
  long long tasks = 0;                // processes: count.total, or count.per_slot x the slots
  int nodes = 0;                      // the node resource's count (0: the jobspec names no nodes)
  int slots_per_node = 0;             // slots per node (with nodes), else the slots in all
  int cores_per_slot = 0;             // cores of each slot (a task's threads)
  int gpus_per_slot = 0;              // GPUs of each slot
  std::vector<std::string> command;   // tasks[0].command
  std::string program;                // the command's program: its first word that is no container or launcher
};

struct FluxEventlog {
  enum class Kind { kJob, kExec };
  Kind kind = Kind::kJob;
  int first_line = 0;       // 1-based line of its first event
  int end_line = 0;         // line of the event that ends the run (finish / complete), 0 if none
  double begin_s = 0;       // timestamp the run time counts from (alloc, else start; exec: init)
  double end_s = 0;         // finish / complete
  bool ended = false;       // a finish (job) or complete (exec) event was read
  int status = 0;           // its wait(2) status
  std::string exception;    // the first severity-0 exception's "type: note", empty if none
  double RunTimeSeconds() const { return end_s - begin_s; }
};

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

/// Finds and reads the jobspec and the eventlog in `text`. An eventlog is the longest run of
/// consecutive event lines. Throws InputError naming `path` and
/// the line when a jobspec or event line is damaged (not JSON, no resources or tasks, counts that
/// are not positive whole numbers, timestamps out of order) or the file holds two different jobspecs.
FluxJobRecord ReadFluxJobRecord(std::string_view text, const std::string& path);

/// What a wait(2) status says: "exit code 1", "killed by signal 9", "exit code 143 (128 + signal 15)".
std::string DescribeWaitStatus(int status);

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
