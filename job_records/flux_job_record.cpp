// A Flux job's record in a job's output (flux_job_record.h, docs/formats/flux-job.md).
#include "job_records/flux_job_record.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "job_records/job_record_readers.h"
#include "reader/experiment_factors.h"
#include "reader/micro_benchmark_files.h"
#include "textio/line_reader.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/json_input.h"
#include "util/plausible_range.h"
#include "util/text_format.h"

namespace qnm {
namespace {

using Json = nlohmann::json;

std::string_view Trimmed(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

// A jobspec line: a JSON object whose first key is "resources" (flux job info ID jobspec).
bool IsJobspecLine(std::string_view line) {
  line = Trimmed(line);
  if (line.empty() || line.front() != '{') return false;
  line.remove_prefix(1);
  line = Trimmed(line);
  return StartsWith(line, "\"resources\"");
}

// An event line: RFC 18's JSON ({"timestamp": 1724293585.76, "name": "init", ...}), or the text
// `flux job eventlog ID` prints by default ("1724293585.766 submit userid=1000 urgency=16").
enum class EventForm { kNone, kJson, kText };

EventForm EventLineForm(std::string_view line) {
  line = Trimmed(line);
  if (line.empty()) return EventForm::kNone;
  if (line.front() == '{') {
    line.remove_prefix(1);
    return StartsWith(Trimmed(line), "\"timestamp\"") ? EventForm::kJson : EventForm::kNone;
  }
  // EPOCH.FRACTION NAME: ten digits (a date of 2001-2286), a point, digits, one space, a lowercase name.
  std::size_t i = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
  if (i != 10 || i >= line.size() || line[i] != '.') return EventForm::kNone;
  ++i;
  const std::size_t fraction = i;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
  if (i == fraction || i + 1 >= line.size() || line[i] != ' ') return EventForm::kNone;
  const char first = line[i + 1];
  return first >= 'a' && first <= 'z' ? EventForm::kText : EventForm::kNone;
}

struct Event {
  int line = 0;
  double timestamp = 0;
  std::string name;
  Json context;  // an object, maybe empty
};

[[noreturn]] void Fail(const std::string& path, int line, const std::string& why) { throw InputError(path, line, why); }

// One line of JSON, at `line` of its file: "a Flux <what> line that is not JSON: ..." otherwise.
Json ParseJsonLine(std::string_view text, const std::string& path, int line, const char* what) {
  try {
    return ParseJsonDocument(text, path);
  } catch (const InputError& error) {
    Fail(path, line, std::string("a Flux ") + what + " line that is not JSON: " + error.message());
  }
}

Event ParseJsonEvent(std::string_view text, const std::string& path, int line) {
  const Json json = ParseJsonLine(text, path, line, "eventlog");
  Event event;
  event.line = line;
  const auto timestamp = json.find("timestamp");
  const auto name = json.find("name");
  if (timestamp == json.end() || !timestamp->is_number() || name == json.end() || !name->is_string())
    Fail(path, line, "a Flux eventlog line needs a numeric \"timestamp\" and a \"name\" (RFC 18)");
  event.timestamp = timestamp->get<double>();
  event.name = name->get<std::string>();
  if (const auto context = json.find("context"); context != json.end()) {
    if (!context->is_object()) Fail(path, line, "a Flux event's \"context\" must be an object (RFC 18)");
    event.context = *context;
  }
  return event;
}

// "1724293601.490522 complete status=0": flux job eventlog's text (libeventlog's formatter: the
// timestamp as %lf, the name, then each context key=value with the value as compact JSON, so a string
// is quoted and may hold spaces: note="resource allocation expired").
Event ParseTextEvent(std::string_view text, int line) {
  Event event;
  event.line = line;
  event.context = Json::object();
  const std::size_t space = text.find(' ');
  event.timestamp = ParseDouble(text.substr(0, space)).value_or(0);
  std::size_t at = space + 1;
  std::size_t name_end = text.find(' ', at);
  event.name =
      std::string(text.substr(at, name_end == std::string_view::npos ? std::string_view::npos : name_end - at));
  at = name_end;
  while (at != std::string_view::npos && at < text.size()) {
    while (at < text.size() && text[at] == ' ') ++at;
    const std::size_t equals = text.find('=', at);
    if (equals == std::string_view::npos) break;
    const std::string key(text.substr(at, equals - at));
    std::size_t end = equals + 1;
    if (end < text.size() && text[end] == '"') {  // a JSON string: to its closing quote
      for (++end; end < text.size() && text[end] != '"'; ++end)
        if (text[end] == '\\') ++end;
      end = std::min(end + 1, text.size());
    } else {
      end = std::min(text.find(' ', end), text.size());
    }
    const std::string value(text.substr(equals + 1, end - equals - 1));
    try {  // (the guarded parser: a value nested a thousand deep is refused, not recursed into)
      event.context[key] = ParseJsonDocument(value, "");
    } catch (const InputError&) {
      event.context[key] = value;
    }
    at = end;
  }
  return event;
}

std::optional<long long> ContextInteger(const Event& event, const char* key) {
  const auto it = event.context.find(key);
  if (it == event.context.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<long long>();
  if (it->is_number_float() && std::floor(it->get<double>()) == it->get<double>())
    return static_cast<long long>(it->get<double>());
  return std::nullopt;
}

std::string ContextText(const Event& event, const char* key) {
  const auto it = event.context.find(key);
  return it != event.context.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool IsJobEvent(const std::string& name) {
  static const std::set<std::string> kNames = {"submit", "validate", "depend",  "priority", "alloc",
                                               "start",  "finish",   "release", "free",     "clean"};
  return kNames.count(name) > 0;
}

bool IsExecEvent(const std::string& name) {
  return name == "init" || name == "starting" || name == "complete" || name == "done" || StartsWith(name, "shell.");
}

// One eventlog: its events in order; its kind from their names.
FluxEventlog ReadEventlog(const std::vector<Event>& events, const std::string& path) {
  FluxEventlog log;
  log.first_line = events.front().line;
  bool job = false, exec = false;
  for (const Event& event : events) {
    job = job || IsJobEvent(event.name);
    exec = exec || IsExecEvent(event.name);
  }
  if (job && exec)
    Fail(path, log.first_line,
         "a Flux eventlog mixing the job's events (submit, alloc, finish) with its execution system's (init, "
         "shell.start, complete): save each eventlog on its own lines");
  log.kind = job ? FluxEventlog::Kind::kJob : FluxEventlog::Kind::kExec;
  std::optional<double> alloc, start, init;
  double previous = -1;
  for (const Event& event : events) {
    if (!std::isfinite(event.timestamp) || event.timestamp <= 0)
      Fail(path, event.line, "a Flux event's timestamp must be a positive number of seconds since 1970");
    if (event.timestamp < previous)
      Fail(path, event.line,
           "Flux event '" + event.name + "' is earlier than the event before it: an eventlog is in order");
    previous = event.timestamp;
    if (event.name == "alloc" && !alloc) alloc = event.timestamp;
    if (event.name == "start" && !start) start = event.timestamp;
    if (event.name == "init" && !init) init = event.timestamp;
    if (event.name == "exception" && log.exception.empty() && ContextInteger(event, "severity").value_or(1) == 0)
      log.exception = ContextText(event, "type") + ": " + ContextText(event, "note");
    const bool ends = log.kind == FluxEventlog::Kind::kJob ? event.name == "finish" : event.name == "complete";
    if (ends && !log.ended) {
      const std::optional<long long> status = ContextInteger(event, "status");
      if (!status || *status < 0 || *status > 65535)
        Fail(path, event.line,
             "Flux event '" + event.name + "' needs a wait status (\"status\": 0-65535) in its context");
      log.ended = true;
      log.end_s = event.timestamp;
      log.end_line = event.line;
      log.status = static_cast<int>(*status);
    }
  }
  const std::optional<double> begin = log.kind == FluxEventlog::Kind::kJob ? (alloc ? alloc : start) : init;
  if (log.ended && !begin)
    Fail(path, log.end_line,
         log.kind == FluxEventlog::Kind::kJob
             ? "a Flux job eventlog with a finish event but no alloc or start event: its run time is unknown"
             : "a Flux exec eventlog with a complete event but no init event: its run time is unknown");
  if (begin) log.begin_s = *begin;
  return log;
}

// A whole count of a jobspec resource or task (RFC 25: a positive integer).
long long Count(const Json& object, const char* key, const std::string& path, int line, const std::string& what) {
  const auto it = object.find(key);
  if (it == object.end()) Fail(path, line, "a Flux jobspec whose " + what + " has no \"" + key + "\"");
  if (it->is_object())
    Fail(path, line,
         "a Flux jobspec whose " + what +
             " count is a range (RFC 14): the job's own count is in its R, "
             "not in the jobspec");
  if (!it->is_number_integer() || it->get<long long>() < 1 || it->get<long long>() > 100000000)
    Fail(path, line, "a Flux jobspec whose " + what + " " + key + " is not a positive whole number");
  return it->get<long long>();
}

// A resource's "type" (RFC 14: a string), or "" when it has none or another kind of value.
std::string TypeOf(const Json& resource) {
  const auto type = resource.find("type");
  return type != resource.end() && type->is_string() ? type->get<std::string>() : std::string();
}

const Json* WithOfType(const Json& resource, const char* type) {
  const auto with = resource.find("with");
  if (with == resource.end() || !with->is_array()) return nullptr;
  for (const Json& child : *with)
    if (child.is_object() && TypeOf(child) == type) return &child;
  return nullptr;
}

std::string BaseNameOf(const std::string& word) {
  const std::size_t slash = word.find_last_of('/');
  return slash == std::string::npos ? word : word.substr(slash + 1);
}

// The program a command runs: its first word that is no launcher (sudo, env, time, numactl), no
// container runtime with its options and image (singularity/apptainer exec [--opt value] IMAGE), no
// container image run as a program (IMAGE.sif), no VAR=value; a shell running a script is the script.
std::string ProgramOf(const std::vector<std::string>& command) {
  static const std::set<std::string> kLaunchers = {"sudo",    "env",  "time", "numactl",
                                                   "taskset", "nice", "chrt", "stdbuf"};
  static const std::set<std::string> kShells = {"bash", "sh", "dash", "zsh"};
  auto is_image = [](const std::string& word) {
    return EndsWith(word, ".sif") || EndsWith(word, ".simg") || StartsWith(word, "docker://") ||
           StartsWith(word, "oras://") || StartsWith(word, "library://");
  };
  for (std::size_t w = 0; w < command.size(); ++w) {
    const std::string name = BaseNameOf(command[w]);
    if (name.empty() || kLaunchers.count(name) || command[w].find('=') != std::string::npos ||
        (!command[w].empty() && command[w][0] == '-'))
      continue;
    if (name == "singularity" || name == "apptainer") {  // ... exec|run [options] IMAGE PROGRAM
      std::size_t image = w + 1;
      while (image < command.size() && !is_image(command[image])) ++image;
      if (image == command.size()) return name;
      w = image;
      continue;
    }
    if (is_image(command[w])) continue;
    if (kShells.count(name) && w + 1 < command.size() && !command[w + 1].empty() && command[w + 1][0] != '-')
      return BaseNameOf(command[w + 1]);
    return name;
  }
  return command.empty() ? std::string() : BaseNameOf(command.front());
}

FluxJobspec ReadJobspec(std::string_view text, const std::string& path, int line) {
  const Json json = ParseJsonLine(text, path, line, "jobspec");
  FluxJobspec spec;
  spec.line = line;
  const auto version = json.find("version");
  if (version != json.end() && !(version->is_number_integer() && version->get<long long>() == 1))
    Fail(path, line, "a Flux jobspec of a version other than 1 (RFC 25)");
  const auto resources = json.find("resources");
  if (resources == json.end() || !resources->is_array() || resources->size() != 1 || !(*resources)[0].is_object())
    Fail(path, line, "a Flux jobspec needs \"resources\": one node or slot resource (RFC 25)");
  const Json& top = (*resources)[0];
  const std::string top_type = TypeOf(top);
  const Json* slot = nullptr;
  if (top_type == "node") {
    spec.nodes = static_cast<int>(Count(top, "count", path, line, "node resource"));
    slot = WithOfType(top, "slot");
    if (!slot) Fail(path, line, "a Flux jobspec whose node resource holds no slot (RFC 25)");
  } else if (top_type == "slot") {
    slot = &top;
  } else {
    Fail(path, line,
         "a Flux jobspec whose resources start with '" + top_type.substr(0, 40) + "', not a node or slot (RFC 25)");
  }
  spec.slots_per_node = static_cast<int>(Count(*slot, "count", path, line, "slot resource"));
  if (const Json* core = WithOfType(*slot, "core"))
    spec.cores_per_slot = static_cast<int>(Count(*core, "count", path, line, "core resource"));
  if (const Json* gpu = WithOfType(*slot, "gpu"))
    spec.gpus_per_slot = static_cast<int>(Count(*gpu, "count", path, line, "gpu resource"));
  const auto tasks = json.find("tasks");
  if (tasks == json.end() || !tasks->is_array() || tasks->empty() || !(*tasks)[0].is_object())
    Fail(path, line, "a Flux jobspec needs \"tasks\" (RFC 25)");
  const Json& task = (*tasks)[0];
  const auto command = task.find("command");
  if (command == task.end() || !command->is_array() || command->empty())
    Fail(path, line, "a Flux jobspec whose task has no \"command\" (RFC 25)");
  for (const Json& word : *command) {
    if (!word.is_string()) Fail(path, line, "a Flux jobspec whose command holds a word that is not a string");
    spec.command.push_back(word.get<std::string>());
  }
  spec.program = ProgramOf(spec.command);
  const auto count = task.find("count");
  if (count == task.end() || !count->is_object())
    Fail(path, line, "a Flux jobspec whose task has no \"count\" (per_slot or total; RFC 25)");
  if (count->contains("total")) {
    spec.tasks = Count(*count, "total", path, line, "task");
  } else {  // each count is at most 1e8: their product in double, checked before it is a whole number
    const double tasks = static_cast<double>(Count(*count, "per_slot", path, line, "task")) * spec.slots_per_node *
                         std::max(1, spec.nodes);
    if (tasks > 1e8) Fail(path, line, "a Flux jobspec of more than 100 million tasks");
    spec.tasks = static_cast<long long>(tasks);
  }
  return spec;
}

}  // namespace

bool HasFluxJobRecord(std::string_view text) {
  bool jobspec = false;
  for (std::size_t at = text.find("\"resources\""); at != std::string_view::npos && !jobspec;
       at = text.find("\"resources\"", at + 1)) {
    const std::size_t begin = text.rfind('\n', at);
    const std::size_t line_begin = begin == std::string_view::npos ? 0 : begin + 1;
    const std::size_t end = text.find('\n', at);
    jobspec = IsJobspecLine(text.substr(line_begin, end == std::string_view::npos ? end : end - line_begin));
  }
  if (!jobspec) return false;  // (most files end here: no "resources" key at all)
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(&line))
    if (EventLineForm(line) != EventForm::kNone) return true;
  return false;
}

FluxJobRecord ReadFluxJobRecord(std::string_view text, const std::string& path) {
  FluxJobRecord record;
  std::string jobspec_text;
  std::vector<std::vector<Event>> blocks;  // runs of consecutive event lines
  bool in_block = false;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(&line)) {
    const int number = lines.ErrorLine();
    if (IsJobspecLine(line)) {
      in_block = false;
      const std::string_view spec = Trimmed(line);
      if (record.has_jobspec) {
        if (spec != jobspec_text) Fail(path, number, "two different Flux jobspecs in one file: one job's record each");
        continue;
      }
      record.jobspec = ReadJobspec(spec, path, number);
      record.has_jobspec = true;
      jobspec_text = std::string(spec);
      continue;
    }
    const EventForm form = EventLineForm(line);
    if (form == EventForm::kNone) {
      in_block = false;
      continue;
    }
    const Event event =
        form == EventForm::kJson ? ParseJsonEvent(Trimmed(line), path, number) : ParseTextEvent(Trimmed(line), number);
    if (!in_block) blocks.emplace_back();
    blocks.back().push_back(event);
    in_block = true;
  }
  // The job's own eventlog counts as `flux jobs` does; the exec system's when it is the only one.
  std::optional<FluxEventlog> job, exec;
  for (const std::vector<Event>& block : blocks) {
    FluxEventlog log = ReadEventlog(block, path);
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

std::string DescribeWaitStatus(int status) {
  const int signal = status & 0x7f;
  if (signal != 0 && signal != 0x7f) return "killed by signal " + std::to_string(signal);
  const int code = (status >> 8) & 0xff;
  std::string out = "exit code " + std::to_string(code);
  if (code > 128 && code < 128 + 65) out += " (128 + signal " + std::to_string(code - 128) + ")";
  return out;
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
  std::string arguments;
  bool after_program = false;
  for (const std::string& word : spec.command) {
    if (after_program)
      arguments += (arguments.empty() ? "" : " ") + word;
    else if (BaseNameOf(word) == spec.program)
      after_program = true;
  }
  SetCommandArguments(spec.program + (arguments.empty() ? "" : " " + arguments), &run);
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
