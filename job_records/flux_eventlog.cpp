// A Flux eventlog (flux_eventlog.h, docs/formats/flux-job.md).
#include "job_records/flux_eventlog.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/json_input.h"

namespace qnm {
namespace {

using Json = nlohmann::json;

// An event line: RFC 18's JSON ({"timestamp": 1724293585.76, "name": "init", ...}), or the text
// `flux job eventlog ID` prints by default ("1724293585.766 submit userid=1000 urgency=16").
enum class EventForm { kNone, kJson, kText };

EventForm EventLineForm(std::string_view line) {
  line = Trim(line);
  if (line.empty()) return EventForm::kNone;
  if (line.front() == '{') {
    line.remove_prefix(1);
    return StartsWith(Trim(line), "\"timestamp\"") ? EventForm::kJson : EventForm::kNone;
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

Event ParseJsonEvent(std::string_view text, const std::string& path, int line) {
  const Json json = ParseJsonLine(text, path, line, "a Flux eventlog");
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

}  // namespace

bool IsFluxEventLine(std::string_view line) { return EventLineForm(line) != EventForm::kNone; }

FluxEventlog ReadFluxEventlog(const std::vector<FluxEventLine>& lines, const std::string& path) {
  std::vector<Event> events;
  for (const FluxEventLine& line : lines) {
    const std::string_view text = Trim(line.text);
    events.push_back(EventLineForm(text) == EventForm::kJson ? ParseJsonEvent(text, path, line.number)
                                                             : ParseTextEvent(text, line.number));
  }
  FluxEventlog log;  // its kind from its events' names, its run from the events in order
  if (events.empty()) return log;
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

std::string DescribeWaitStatus(int status) {
  const int signal = status & 0x7f;
  if (signal != 0 && signal != 0x7f) return "killed by signal " + std::to_string(signal);
  const int code = (status >> 8) & 0xff;
  std::string out = "exit code " + std::to_string(code);
  if (code > 128 && code < 128 + 65) out += " (128 + signal " + std::to_string(code - 128) + ")";
  return out;
}

}  // namespace qnm
