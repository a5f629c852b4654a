#pragma once
// A Flux eventlog (Flux RFC 18: one JSON object per line, {"timestamp", "name", "context"}; or the
// text `flux job eventlog ID` prints by default, "1724293585.765980 alloc"): the job's own (RFC 21:
// submit, alloc, start, finish, release, clean; `flux job eventlog -f json ID`, `flux job info ID
// eventlog`) or its execution system's (init, starting, shell.init, shell.start, complete, done;
// `flux job info ID guest.exec.eventlog`). What it gives a run: when it began and ended, and how
// (docs/formats/flux-job.md).
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

struct FluxEventlog {
  enum class Kind { kJob, kExec };
  Kind kind = Kind::kJob;
  int first_line = 0;     // 1-based line of its first event
  int end_line = 0;       // line of the event that ends the run (finish / complete), 0 if none
  double begin_s = 0;     // timestamp the run time counts from (alloc, else start; exec: init)
  double end_s = 0;       // finish / complete
  bool ended = false;     // a finish (job) or complete (exec) event was read
  int status = 0;         // its wait(2) status
  std::string exception;  // the first severity-0 exception's "type: note", empty if none
  double RunTimeSeconds() const { return end_s - begin_s; }
};

/// True for a line that is an event: RFC 18's JSON object with a "timestamp" first, or the text form
/// (ten digits, a point, digits, a space, a lowercase name).
bool IsFluxEventLine(std::string_view line);

/// One line of an eventlog and its 1-based number in its file.
struct FluxEventLine {
  int number = 0;
  std::string_view text;
};

/// The eventlog of consecutive event `lines`. Throws InputError naming `path` and the line when an
/// event is damaged (not JSON, no timestamp or name, a context that is no object), out of time
/// order, an end event has no wait status, an end has no beginning (alloc/start, init), or the lines
/// mix the job's events with the execution system's.
FluxEventlog ReadFluxEventlog(const std::vector<FluxEventLine>& lines, const std::string& path);

/// What a wait(2) status says: "exit code 1", "killed by signal 9", "exit code 143 (128 + signal 15)".
std::string DescribeWaitStatus(int status);

}  // namespace qnm
