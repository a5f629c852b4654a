// A Flux job's record in a job's output (flux_job_record.h, docs/formats/flux-job.md).
#include "job_records/flux_job_record.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "job_records/job_record_readers.h"
#include "reader/experiment_factors.h"
#include "reader/micro_benchmark_files.h"
#include "textio/line_reader.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/plausible_range.h"
#include "util/text_format.h"

namespace qnm {
namespace {

[[noreturn]] void Fail(const std::string& path, int line, const std::string& why) { throw InputError(path, line, why); }

}  // namespace

bool HasFluxJobRecord(std::string_view text) {
  bool jobspec = false;
  for (std::size_t at = text.find("\"resources\""); at != std::string_view::npos && !jobspec;
       at = text.find("\"resources\"", at + 1)) {
    const std::size_t begin = text.rfind('\n', at);
    const std::size_t line_begin = begin == std::string_view::npos ? 0 : begin + 1;
    const std::size_t end = text.find('\n', at);
    jobspec = IsFluxJobspecLine(text.substr(line_begin, end == std::string_view::npos ? end : end - line_begin));
  }
  if (!jobspec) return false;  // (most files end here: no "resources" key at all)
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(&line))
    if (IsFluxEventLine(line)) return true;
  return false;
}

FluxJobRecord ReadFluxJobRecord(std::string_view text, const std::string& path) {
  FluxJobRecord record;
  std::string jobspec_text;
  std::vector<std::vector<FluxEventLine>> blocks;  // runs of consecutive event lines
  bool in_block = false;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(&line)) {
    const int number = lines.ErrorLine();
    if (IsFluxJobspecLine(line)) {
      in_block = false;
      const std::string_view spec = Trim(line);
      if (record.has_jobspec) {
        if (spec != jobspec_text) Fail(path, number, "two different Flux jobspecs in one file: one job's record each");
        continue;
      }
      record.jobspec = ReadFluxJobspec(spec, path, number);
      record.has_jobspec = true;
      jobspec_text = std::string(spec);
      continue;
    }
    if (!IsFluxEventLine(line)) {
      in_block = false;
      continue;
    }
    if (!in_block) blocks.emplace_back();
    blocks.back().push_back({number, line});
    in_block = true;
  }
  // The job's own eventlog counts as `flux jobs` does; the exec system's when it is the only one.
  std::optional<FluxEventlog> job, exec;
  for (const std::vector<FluxEventLine>& block : blocks) {
    FluxEventlog log = ReadFluxEventlog(block, path);
    std::optional<FluxEventlog>& slot = log.kind == FluxEventlog::Kind::kJob ? job : exec;
    if (slot && slot->ended && log.ended && (slot->begin_s != log.begin_s || slot->end_s != log.end_s))
      Fail(path, log.first_line,
           "two Flux eventlogs of different runs in one file (the first at line " + std::to_string(slot->first_line) +
               "): one job's record each");
    if (!slot || (!slot->ended && log.ended)) slot = log;
  }
  if (job || exec) {
    record.has_eventlog = true;
    record.eventlog = job ? *job : *exec;
  }
  return record;
}

RunStats FluxJobRecordToRunStats(const FluxJobRecord& record, const std::string& path) {
  if (!record.has_jobspec)
    Fail(path, 0,
         "a Flux eventlog without the job's jobspec: its processes are unknown "
         "(save `flux job info ID jobspec` beside it)");
  if (!record.has_eventlog)
    Fail(path, record.jobspec.line,
         "a Flux jobspec without the job's eventlog: its run time is "
         "unknown (save `flux job eventlog -f json ID` beside it)");
  const FluxJobspec& spec = record.jobspec;
  const FluxEventlog& log = record.eventlog;
  if (!log.exception.empty())
    Fail(path, log.first_line,
         "the Flux job raised an exception (" + log.exception.substr(0, 200) + "): not a finished run");
  if (!log.ended)
    Fail(path, log.first_line,
         log.kind == FluxEventlog::Kind::kJob ? "the Flux job eventlog has no finish event: the job had not ended"
                                              : "the Flux exec eventlog has no complete event: the job had not ended");
  if (log.status != 0)
    Fail(path, log.end_line, "the Flux job failed (" + DescribeWaitStatus(log.status) + "): not a finished run");
  const char* kind = log.kind == FluxEventlog::Kind::kJob ? "job eventlog" : "exec eventlog";
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(log.end_line));
  run.procs = static_cast<int>(spec.tasks);
  run.derivations["procs"] = "Flux jobspec (line " + std::to_string(spec.line) + "): its tasks";
  run.wall_time_s = log.RunTimeSeconds();
  run.derivations["wall_time_s"] =
      log.kind == FluxEventlog::Kind::kJob
          ? "Flux job eventlog: finish - alloc (what `flux jobs` shows as RUNTIME), the job's whole run"
          : "Flux exec eventlog: complete - init, from the job shells' start-up to the last one's exit (the job's "
            "run without its prolog)";
  RequirePlausible(run.wall_time_s, kRunTimeS, "Flux job run time", path, log.end_line);
  if (spec.nodes > 0) run.SetNodes(spec.nodes, "Flux jobspec: its node count");
  if (spec.cores_per_slot > 1) {
    run.threads_per_proc = spec.cores_per_slot;
    run.derivations["threads_per_proc"] = "Flux jobspec: the cores of each task's slot";
  }
  run.app = spec.program;
  run.derivations["app"] = "Flux jobspec: the program of the task's command";
  SetCommandArguments(JoinNonEmpty({spec.program, JoinNonEmpty(spec.arguments, " ")}, " "), &run);
  run.details["flux_command"] = JoinNonEmpty(spec.command, " ");
  run.details["flux_eventlog"] = kind;
  if (spec.gpus_per_slot > 0) run.details["flux_gpus_per_task"] = std::to_string(spec.gpus_per_slot);
  // The job's identity: when its run began (the same job saved twice is one run, not a repetition).
  run.origin = std::string(kMeasurementOrigin) + "flux:" + FormatDouble("%.6f", log.begin_s);
  run.Derive();
  return run;
}

std::string ApplyFluxJobRecord(const FluxJobRecord& record, const std::string& path, RunStats* run) {
  if (!record.has_jobspec) return "";
  const FluxJobspec& spec = record.jobspec;
  if (run->procs > 0 && spec.tasks != run->procs)
    return path + ": the Flux jobspec's " + std::to_string(spec.tasks) + " tasks are not the " +
           std::to_string(run->procs) + " processes the output reports: its nodes are not taken";
  if (run->nodes == 0 && spec.nodes > 0) run->SetNodes(spec.nodes, "Flux jobspec in the job's output: its node count");
  if (run->threads_per_proc <= 1 && spec.cores_per_slot > 1 && run->derivations.count("threads_per_proc") == 0) {
    run->threads_per_proc = spec.cores_per_slot;
    run->derivations["threads_per_proc"] = "Flux jobspec in the job's output: the cores of each task's slot";
  }
  if (!record.has_eventlog || !record.eventlog.ended) return "";
  const FluxEventlog& log = record.eventlog;
  run->details["flux_run_time_s"] = NumberText(log.RunTimeSeconds());
  run->details["flux_status"] = DescribeWaitStatus(log.status);
  if (log.status == 0 && log.exception.empty()) return "";
  return path + ": the Flux job ended badly (" +
         (log.exception.empty() ? DescribeWaitStatus(log.status) : log.exception.substr(0, 200)) +
         ") after the program had printed its results: the program's own reading is kept";
}

// The reader of a job's output that only the Flux record appended to it makes a run of (no
// application reader took it): after every application reader in ingest's table, before NPB output.
bool SniffFluxJobRecord(const std::string&, std::string_view text) { return HasFluxJobRecord(text); }

ReaderOutput ReadFluxJobOutput(const ReaderInput& input) {
  // A micro-benchmark's output with its job's record is a machine profile's input, as without it.
  if (const std::string reason = NotARunReason(input.text); !reason.empty()) throw InputError(input.path, 0, reason);
  return OneRunOutput(FluxJobRecordToRunStats(ReadFluxJobRecord(input.text, input.path), input.path), input.name);
}

}  // namespace qnm
