// sacct --json (slurm_accounting_json.h, docs/formats/slurm-sacct.md).
#include "job_records/slurm_accounting_json.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/json_input.h"

namespace qnm {
namespace {

using Json = nlohmann::json;

const Json* Path(const Json& object, std::initializer_list<const char*> keys) {
  const Json* at = &object;
  for (const char* key : keys)
    if (!(at = JsonMember(*at, key))) return nullptr;
  return at;
}

// A whole number as sacct writes it: a plain number, or (data_parser v0.0.39 and later) an object
// {"set": true, "infinite": false, "number": 4}; nothing when unset, infinite or not whole.
std::optional<long long> Whole(const Json* value) {
  if (!value) return std::nullopt;
  if (value->is_object()) {
    const Json* set = JsonMember(*value, "set");
    const Json* infinite = JsonMember(*value, "infinite");
    if ((set && set->is_boolean() && !set->get<bool>()) || (infinite && infinite->is_boolean() && infinite->get<bool>()))
      return std::nullopt;
    return Whole(JsonMember(*value, "number"));
  }
  if (value->is_number_integer()) return value->get<long long>();
  if (value->is_number_float()) {
    const double v = value->get<double>();
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9e15) return static_cast<long long>(v);
  }
  return std::nullopt;
}

std::string WholeText(const Json* value) {
  const std::optional<long long> v = Whole(value);
  return v ? std::to_string(*v) : std::string();
}

std::string Text(const Json* value) {
  if (!value) return {};
  if (value->is_string()) return value->get<std::string>();
  if (value->is_number_integer()) return std::to_string(value->get<long long>());
  return {};
}

// A state: "COMPLETED" (v0.0.38's steps), {"current": "COMPLETED"} (its jobs), {"current":
// ["COMPLETED"]} or ["CANCELLED", "TIMEOUT"] (later releases: the base state first, then flags).
std::string State(const Json* value) {
  if (!value) return {};
  if (value->is_object()) return State(JsonMember(*value, "current"));
  if (value->is_array()) return value->empty() ? std::string() : Text(&value->front());
  return Text(value);
}

// sacct's ExitCode text "return_code:signal" from {"status": ..., "return_code": 0, "signal": {"id": 9}};
// empty for a status of SUCCESS, which says nothing (Slurm 22.05 writes it with return code 0 even for
// a step sacct's table shows FAILED with exit code 1:0).
std::string ExitCode(const Json* value) {
  if (!value || State(JsonMember(*value, "status")) == "SUCCESS") return {};
  const std::optional<long long> code = Whole(JsonMember(*value, "return_code"));
  if (!code) return {};
  std::optional<long long> signal = Whole(Path(*value, {"signal", "id"}));
  if (!signal) signal = Whole(Path(*value, {"signal", "signal_id"}));
  return std::to_string(*code) + ":" + std::to_string(signal.value_or(0));
}

// The CPUs of a job's allocation: its allocated TRES "cpu" count, else the CPUs it required.
std::string AllocatedCpus(const Json& job) {
  if (const Json* allocated = Path(job, {"tres", "allocated"}); allocated && allocated->is_array())
    for (const Json& tres : *allocated)
      if (Text(JsonMember(tres, "type")) == "cpu") return WholeText(JsonMember(tres, "count"));
  return WholeText(Path(job, {"required", "CPUs"}));
}

// The allocation's id as sacct's JobID prints it: "1234", an array task "1234_7", a
// heterogeneous job's component "1234+1".
std::string JobId(const Json& job, const std::string& path, int line) {
  const std::optional<long long> id = Whole(JsonMember(job, "job_id"));
  if (!id || *id <= 0) throw InputError(path, line, "a sacct --json job without a positive \"job_id\"");
  const std::optional<long long> array_job = Whole(Path(job, {"array", "job_id"}));
  const std::optional<long long> task = Whole(Path(job, {"array", "task_id"}));
  if (array_job && *array_job > 0 && task && *task >= 0)
    return std::to_string(*array_job) + "_" + std::to_string(*task);
  const std::optional<long long> het_job = Whole(Path(job, {"het", "job_id"}));
  const std::optional<long long> offset = Whole(Path(job, {"het", "job_offset"}));
  if (het_job && *het_job > 0 && offset && *offset >= 0) return std::to_string(*het_job) + "+" + std::to_string(*offset);
  return std::to_string(*id);
}

// A step's own part of its id: 0 (v0.0.38), "batch", "extern", or the whole "1234.0" of later
// releases (its part after the last '.').
std::string StepName(const Json* id) {
  if (!id) return {};
  std::string text = id->is_string() ? id->get<std::string>() : WholeText(id);
  const std::size_t dot = text.rfind('.');
  if (dot != std::string::npos) text = text.substr(dot + 1);
  return text;
}

void AddRow(SacctTable* table, SacctRow row) {
  row.job_id = row.values["jobid"];
  const std::size_t dot = row.job_id.find('.');
  row.job = row.job_id.substr(0, dot);
  row.step = dot == std::string::npos ? "" : row.job_id.substr(dot + 1);
  table->rows.push_back(std::move(row));
}

}  // namespace

bool LooksLikeSacctJson(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i == text.size() || text[i] != '{') return false;
  ++i;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const std::string_view rest = text.substr(i);
  if (!StartsWith(rest, "\"jobs\"") && !StartsWith(rest, "\"meta\"")) return false;
  return text.find("\"job_id\"") != std::string_view::npos;
}

SacctTable ParseSacctJson(std::string_view text, const std::string& path) {
  const Json document = ParseJsonDocument(text, path);
  const Json* jobs = JsonMember(document, "jobs");
  if (!jobs || !jobs->is_array())
    throw InputError(path, 1, "a sacct --json document without its \"jobs\" array");
  if (jobs->empty()) throw InputError(path, 1, "a sacct --json document whose \"jobs\" array is empty");
  const std::vector<int> lines = JsonArrayObjectLines(text, "jobs");
  SacctTable table;
  table.layout = SacctTable::Layout::kJson;
  table.header_line = 1;
  table.fields = {"jobid",     "jobname", "ntasks",  "nnodes",    "alloccpus",  "elapsedraw", "state",
                  "exitcode",  "nodelist", "cluster", "partition", "account", "submitline", "workdir"};
  for (std::size_t j = 0; j < jobs->size(); ++j) {
    const Json& job = (*jobs)[j];
    const int line = j < lines.size() ? lines[j] : 0;
    if (!job.is_object()) throw InputError(path, line, "a sacct --json job that is not an object");
    SacctRow allocation;
    allocation.line = line;
    const std::string id = JobId(job, path, line);
    auto& a = allocation.values;
    a["jobid"] = id;
    a["jobname"] = Text(JsonMember(job, "name"));
    a["nnodes"] = WholeText(JsonMember(job, "allocation_nodes"));
    a["alloccpus"] = AllocatedCpus(job);
    a["elapsedraw"] = WholeText(Path(job, {"time", "elapsed"}));
    a["state"] = State(JsonMember(job, "state"));
    a["exitcode"] = ExitCode(JsonMember(job, "exit_code"));
    a["nodelist"] = Text(JsonMember(job, "nodes"));
    a["cluster"] = Text(JsonMember(job, "cluster"));
    a["partition"] = Text(JsonMember(job, "partition"));
    a["account"] = Text(JsonMember(job, "account"));
    a["submitline"] = Text(JsonMember(job, "submit_line"));
    a["workdir"] = Text(JsonMember(job, "working_directory"));
    AddRow(&table, std::move(allocation));
    const Json* steps = JsonMember(job, "steps");
    if (!steps) continue;
    if (!steps->is_array()) throw InputError(path, line, "job " + id + ": \"steps\" is not an array");
    for (const Json& step : *steps) {
      const std::string name = StepName(Path(step, {"step", "id"}));
      if (name.empty() || !std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; }))
        throw InputError(path, line, "job " + id + ": a step without a step id");
      SacctRow row;
      row.line = line;
      auto& s = row.values;
      s["jobid"] = id + "." + name;
      s["jobname"] = Text(Path(step, {"step", "name"}));
      s["ntasks"] = WholeText(Path(step, {"tasks", "count"}));
      s["nnodes"] = WholeText(Path(step, {"nodes", "count"}));
      s["elapsedraw"] = WholeText(Path(step, {"time", "elapsed"}));
      s["state"] = State(JsonMember(step, "state"));
      s["exitcode"] = ExitCode(JsonMember(step, "exit_code"));
      s["nodelist"] = Text(Path(step, {"nodes", "range"}));
      s["cluster"] = a["cluster"];
      s["submitline"] = Text(JsonMember(step, "submit_line"));
      AddRow(&table, std::move(row));
    }
  }
  return table;
}

}  // namespace qnm
