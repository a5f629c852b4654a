// Extra-P's JSON formats as Extra-P 4.2 reads them (extrap/fileio/file_reader/
// json_file_reader.py, jsonlines_file_reader.py, talpas_file_reader.py;
// docs/formats/extrap.md):
//  - JSON: {"parameters": [names], "measurements": {callpath: {metric:
//    [{"point": [coordinates], "values": [repetitions]}]}}};
//  - legacy id-based JSON: "parameters", "callpaths", "metrics" as
//    [{"id", "name"}], "coordinates" as [{"id", "parameter_value_pairs":
//    [{"parameter_id", "parameter_value"}]}], "measurements" as
//    [{"coordinate_id", "callpath_id", "metric_id", "value"}], one value per
//    repetition (ids are 1-based, lists sorted by id);
//  - JSON Lines: one {"params": {name: value}, "callpath", "metric", "value"}
//    per line (defaults "<root>" and "<default>"), repetitions as repeated lines;
//  - TALPas: the same per line with ';' between members and "parameters".
#include <nlohmann/json.hpp>

#include <algorithm>

#include "extrap/extrap_data.h"
#include "extrap/extrap_data_builder.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

// ordered: parameters keep the order of the first line, as in Extra-P (Python dicts keep order).
using Json = nlohmann::ordered_json;

double Number(const Json& value, const std::string& what, const std::string& path, int line) {
  if (!value.is_number()) throw InputError(path, line, what + " is not a number");
  double number = value.get<double>();
  if (!std::isfinite(number)) throw InputError(path, line, what + " is not a finite number");
  return number;
}

std::string Text(const Json& value, const std::string& what, const std::string& path, int line) {
  if (!value.is_string()) throw InputError(path, line, what + " is not a string");
  return value.get<std::string>();
}

const Json& Member(const Json& object, const char* name, const std::string& where, const std::string& path, int line) {
  if (!object.is_object()) throw InputError(path, line, where + " is not a JSON object");
  auto found = object.find(name);
  if (found == object.end()) throw InputError(path, line, where + " has no \"" + name + "\"");
  return *found;
}

ExtrapData ParseCurrentJson(const Json& root, const std::string& path) {
  std::vector<std::string> names;
  const Json& parameters = Member(root, "parameters", "the experiment", path, 0);
  if (!parameters.is_array()) throw InputError(path, 0, "\"parameters\" is not a list of names");
  for (const Json& name : parameters) names.push_back(Text(name, "a parameter name", path, 0));
  ExtrapDataBuilder builder(names);
  const Json& measurements = Member(root, "measurements", "the experiment", path, 0);
  if (!measurements.is_object()) throw InputError(path, 0, "\"measurements\" is not an object of call paths");
  for (const auto& [callpath, metrics] : measurements.items()) {
    if (!metrics.is_object()) throw InputError(path, 0, "call path '" + callpath + "' does not map metrics");
    for (const auto& [metric, list] : metrics.items()) {
      const std::string where = "'" + callpath + "'/'" + metric + "'";
      if (!list.is_array()) throw InputError(path, 0, where + " is not a list of points");
      for (const Json& item : list) {
        const Json& point_json = Member(item, "point", where + " entry", path, 0);
        std::vector<double> point;
        if (point_json.is_array())
          for (const Json& c : point_json) point.push_back(Number(c, where + " coordinate", path, 0));
        else
          point.push_back(Number(point_json, where + " point", path, 0));
        const Json& values_json = Member(item, "values", where + " entry", path, 0);
        if (!values_json.is_array()) throw InputError(path, 0, where + ": \"values\" is not a list");
        std::vector<double> values;
        for (const Json& v : values_json) values.push_back(Number(v, where + " value", path, 0));
        if (values.empty()) throw InputError(path, 0, where + " has an empty \"values\" list at " + DescribePoint(point));
        builder.Add(callpath, metric, point, values);
      }
    }
  }
  return builder.Take();
}

// Entries of an id-based list sorted by "id", each with its "name".
std::vector<std::string> NamesById(const Json& root, const char* list_name, const std::string& path) {
  const Json& list = Member(root, list_name, "the experiment", path, 0);
  if (!list.is_array()) throw InputError(path, 0, std::string("\"") + list_name + "\" is not a list");
  std::vector<std::pair<double, std::string>> entries;
  for (const Json& entry : list)
    entries.emplace_back(Number(Member(entry, "id", list_name, path, 0), std::string(list_name) + " id", path, 0),
                         Text(Member(entry, "name", list_name, path, 0), std::string(list_name) + " name", path, 0));
  std::stable_sort(entries.begin(), entries.end(), [](auto& a, auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (auto& entry : entries) names.push_back(std::move(entry.second));
  return names;
}

std::size_t IdIndex(const Json& entry, const char* key, std::size_t count, const std::string& path) {
  double id = Number(Member(entry, key, "a measurement", path, 0), key, path, 0);
  if (id < 1 || id > static_cast<double>(count) || id != std::floor(id))
    throw InputError(path, 0, std::string("measurement ") + key + " " + FormatExtrapNumber(id) + " is not one of the " +
                                  std::to_string(count) + " listed");
  return static_cast<std::size_t>(id) - 1;
}

ExtrapData ParseLegacyJson(const Json& root, const std::string& path) {
  std::vector<std::string> parameters = NamesById(root, "parameters", path);
  std::vector<std::string> callpaths = NamesById(root, "callpaths", path);
  std::vector<std::string> metrics = NamesById(root, "metrics", path);
  const Json& coordinates = Member(root, "coordinates", "the experiment", path, 0);
  if (!coordinates.is_array()) throw InputError(path, 0, "\"coordinates\" is not a list");
  std::vector<std::pair<double, std::vector<double>>> by_id;
  for (const Json& c : coordinates) {
    const Json& pairs = Member(c, "parameter_value_pairs", "a coordinate", path, 0);
    if (!pairs.is_array()) throw InputError(path, 0, "\"parameter_value_pairs\" is not a list");
    std::vector<std::pair<double, double>> values;
    for (const Json& pair : pairs)
      values.emplace_back(Number(Member(pair, "parameter_id", "a parameter value pair", path, 0), "parameter_id", path, 0),
                          Number(Member(pair, "parameter_value", "a parameter value pair", path, 0), "parameter_value", path, 0));
    std::stable_sort(values.begin(), values.end(), [](auto& a, auto& b) { return a.first < b.first; });
    std::vector<double> point;
    for (auto& v : values) point.push_back(v.second);
    by_id.emplace_back(Number(Member(c, "id", "a coordinate", path, 0), "coordinate id", path, 0), std::move(point));
  }
  std::stable_sort(by_id.begin(), by_id.end(), [](auto& a, auto& b) { return a.first < b.first; });
  ExtrapData data;
  data.parameters = parameters;
  for (auto& c : by_id) data.points.push_back(std::move(c.second));
  const Json& measurements = Member(root, "measurements", "the experiment", path, 0);
  if (!measurements.is_array()) throw InputError(path, 0, "\"measurements\" is not a list (legacy format)");
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> index;  // callpath x metric -> measurement
  for (const Json& m : measurements) {
    std::size_t point = IdIndex(m, "coordinate_id", data.points.size(), path);
    std::size_t callpath = IdIndex(m, "callpath_id", callpaths.size(), path);
    std::size_t metric = IdIndex(m, "metric_id", metrics.size(), path);
    double value = Number(Member(m, "value", "a measurement", path, 0), "measurement value", path, 0);
    auto [it, added] = index.emplace(std::make_pair(callpath, metric), data.measurements.size());
    if (added)
      data.measurements.push_back({callpaths[callpath], metrics[metric], std::vector<std::vector<double>>(data.points.size())});
    data.measurements[it->second].values[point].push_back(value);
  }
  return data;
}

// One JSON Lines / TALPas object: parameters in the first line's order.
void AddLine(const Json& object, const char* params_key, const std::string& default_callpath,
             const std::string& default_metric, std::vector<std::string>* names, ExtrapDataBuilder* builder,
             const std::string& path, int line) {
  const Json& params = Member(object, params_key, "the line", path, line);
  if (!params.is_object() || params.empty()) throw InputError(path, line, std::string("\"") + params_key + "\" is not an object of parameter values");
  if (names->empty())
    for (const auto& [name, value] : params.items()) names->push_back(name);
  std::vector<double> point;
  for (const std::string& name : *names) {
    auto found = params.find(name);
    if (found == params.end()) throw InputError(path, line, "no value of parameter '" + name + "' (the first line names it)");
    point.push_back(Number(*found, "parameter '" + name + "'", path, line));
  }
  if (params.size() != names->size())
    throw InputError(path, line, std::to_string(params.size()) + " parameters; the first line names " + std::to_string(names->size()));
  std::string callpath = object.contains("callpath") ? Text(object["callpath"], "\"callpath\"", path, line) : default_callpath;
  std::string metric = object.contains("metric") ? Text(object["metric"], "\"metric\"", path, line) : default_metric;
  // A list of values is a list of repetitions (Extra-P's append_to_repetition_dict).
  const Json& value = Member(object, "value", "the line", path, line);
  std::vector<double> values;
  if (value.is_array())
    for (const Json& v : value) values.push_back(Number(v, "a \"value\" entry", path, line));
  else
    values.push_back(Number(value, "\"value\"", path, line));
  if (values.empty()) throw InputError(path, line, "an empty \"value\" list");
  builder->Add(callpath, metric, point, values);
}

ExtrapData ParseLines(std::string_view text, const std::string& path, bool talpas) {
  std::vector<std::string> names;
  ExtrapDataBuilder builder({});
  int line_number = 0;
  for (std::string_view raw : SplitLines(text)) {
    ++line_number;
    std::string_view line = Trim(raw);
    if (line.empty()) continue;
    std::string source(line);
    if (talpas) std::replace(source.begin(), source.end(), ';', ',');  // TALPas separates members with ';'
    Json object = Json::parse(source, nullptr, false);
    if (object.is_discarded()) throw InputError(path, line_number, talpas ? "not a TALPas line (a JSON object with ';' between members)" : "not a JSON object");
    if (talpas) AddLine(object, "parameters", "", "", &names, &builder, path, line_number);
    else AddLine(object, "params", "<root>", "<default>", &names, &builder, path, line_number);
  }
  builder.data().parameters = names;
  ExtrapData data = builder.Take();
  if (data.measurements.empty()) throw InputError(path, 0, "no measurement lines");
  return data;
}

}  // namespace

ExtrapData ParseExtrapJsonData(std::string_view text, const std::string& path) {
  Json root = Json::parse(text.begin(), text.end(), nullptr, false);
  if (root.is_discarded() || !root.is_object()) throw InputError(path, 0, "not a JSON object");
  ExtrapData data = root.contains("callpaths") ? ParseLegacyJson(root, path) : ParseCurrentJson(root, path);
  ValidateExtrapData(data, path);
  return data;
}

ExtrapData ParseExtrapJsonLinesData(std::string_view text, const std::string& path) {
  ExtrapData data = ParseLines(text, path, false);
  ValidateExtrapData(data, path);
  return data;
}

ExtrapData ParseTalpasData(std::string_view text, const std::string& path) {
  ExtrapData data = ParseLines(text, path, true);
  ValidateExtrapData(data, path);
  return data;
}

bool LooksLikeTalpas(std::string_view text) {
  std::string_view head = Trim(text.substr(0, 4096));
  std::string_view first = head.substr(0, head.find('\n'));
  return StartsWith(first, "{") && first.find("\"parameters\"") != std::string_view::npos &&
         first.find(';') != std::string_view::npos;
}

}  // namespace qnm
