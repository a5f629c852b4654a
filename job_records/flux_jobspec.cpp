// A Flux jobspec (flux_jobspec.h, docs/formats/flux-job.md).
#include "job_records/flux_jobspec.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "launch/launch_command.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/json_input.h"

namespace qnm {
namespace {

using Json = nlohmann::json;

[[noreturn]] void Fail(const std::string& path, int line, const std::string& why) { throw InputError(path, line, why); }

// A whole count of a jobspec resource or task (RFC 25: a positive integer).
long long Count(const Json& object, const char* key, const std::string& path, int line, const std::string& what) {
  const auto it = object.find(key);
  if (it == object.end()) Fail(path, line, "a Flux jobspec whose " + what + " has no \"" + key + "\"");
  if (it->is_object())
    Fail(path, line, "a Flux jobspec whose " + what +
                         " count is a range (RFC 14): the job's own count is in its R, not in the jobspec");
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

}  // namespace

bool IsFluxJobspecLine(std::string_view line) {
  line = Trim(line);
  if (line.empty() || line.front() != '{') return false;
  line.remove_prefix(1);
  return StartsWith(Trim(line), "\"resources\"");
}

FluxJobspec ReadFluxJobspec(std::string_view text, const std::string& path, int line) {
  const Json json = ParseJsonLine(Trim(text), path, line, "a Flux jobspec");
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
  const std::size_t program = ProgramWord(spec.command);
  spec.program = BaseName(spec.command[program]);
  spec.arguments.assign(spec.command.begin() + program + 1, spec.command.end());
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

}  // namespace qnm
