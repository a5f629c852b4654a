// JSON network reader (mva-vector/1 `model` schema) built on nlohmann-json.
#include "mva/network_json.h"

#include <algorithm>
#include <cmath>

#include "mva/jmva_xml.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/json_input.h"
#include "util/plausible_range.h"

namespace qnm::mva {
namespace {

using nlohmann::json;

[[noreturn]] void Fail(const std::string& file, const std::string& where, const std::string& what) {
  throw InputError(file, 0, where + ": " + what);
}

// No number of a model is larger than this: service times, think times and
// visits beyond it are corruption, not a model (negative ones are left to
// Network::IsValid, which names the station or class).
constexpr double kLargestModelNumber = 1e12;

double Number(const json& node, const std::string& file, const std::string& where) {
  if (!node.is_number()) Fail(file, where, "expected a number, found " + std::string(node.type_name()));
  const double value = node.get<double>();
  if (!(std::fabs(value) <= kLargestModelNumber))
    Fail(file, where, node.dump() + " is beyond 1e12 (not a plausible model value)");
  return value;
}

long WholeNumber(const json& node, const std::string& file, const std::string& where) {
  const double value = Number(node, file, where);
  if (value != std::floor(value) || std::fabs(value) > 9e15)
    Fail(file, where, "expected a whole number, found " + node.dump());
  return static_cast<long>(value);
}

/// node[key] as a string, `fallback` when absent.
std::string Text(const json& node, const char* key, const std::string& fallback, const std::string& file,
                 const std::string& where) {
  if (!node.contains(key)) return fallback;
  if (!node[key].is_string()) Fail(file, where + "." + key, "expected a string");
  return node[key].get<std::string>();
}

std::vector<double> Numbers(const json& node, const std::string& file, const std::string& where) {
  if (!node.is_array()) Fail(file, where, "expected an array of numbers");
  std::vector<double> values;
  for (size_t i = 0; i < node.size(); ++i)
    values.push_back(Number(node[i], file, where + "[" + std::to_string(i) + "]"));
  return values;
}

CustomerClass ReadClass(const json& node, const std::string& file, const std::string& where) {
  if (!node.is_object()) Fail(file, where, "expected an object");
  CustomerClass c;
  c.name = Text(node, "name", where, file, where);
  if (!node.contains("population")) Fail(file, where, "missing 'population'");
  c.population = WholeNumber(node["population"], file, where + ".population");
  RequirePlausible(static_cast<double>(c.population), kPopulation, where + ".population", file, 0);
  if (node.contains("think_time"))
    c.think_time_s = Number(node["think_time"], file, where + ".think_time");
  return c;
}

Station ReadStation(const json& node, size_t classes, const std::string& file,
                    const std::string& where) {
  if (!node.is_object()) Fail(file, where, "expected an object");
  Station s;
  s.name = Text(node, "name", where, file, where);
  const std::string type = Text(node, "type", "queue", file, where);
  if (!ParseStationType(type, &s.type))
    Fail(file, where, "unknown type '" + type +
                          "' (expected queue, delay, load_dependent or multi_server)");
  if (node.contains("demands")) {
    s.demand_s = Numbers(node["demands"], file, where + ".demands");
  } else if (node.contains("visits") && node.contains("service_times")) {
    const std::vector<double> visits = Numbers(node["visits"], file, where + ".visits");
    const std::vector<double> times = Numbers(node["service_times"], file, where + ".service_times");
    if (visits.size() != times.size()) Fail(file, where, "visits and service_times differ in length");
    for (size_t c = 0; c < visits.size(); ++c) {
      s.demand_s.push_back(visits[c] * times[c]);
      if (!(std::fabs(s.demand_s.back()) <= kLargestModelNumber))
        Fail(file, where, "demand (visits x service time) beyond 1e12 (not a plausible model value)");
    }
  } else {
    Fail(file, where, "missing 'demands' (or 'visits' and 'service_times')");
  }
  if (s.demand_s.size() != classes)
    Fail(file, where, "has " + std::to_string(s.demand_s.size()) + " demands for " +
                          std::to_string(classes) + " classes");
  if (node.contains("servers")) {
    const long servers = WholeNumber(node["servers"], file, where + ".servers");
    if (servers < 1 || servers > 1000000L) Fail(file, where, "servers must be 1 to 1e6");
    s.servers = static_cast<int>(servers);
  }
  if (node.contains("rate_multipliers"))
    s.rate_multipliers = Numbers(node["rate_multipliers"], file, where + ".rate_multipliers");
  // A load_dependent station given only by its server count is a multi-server station.
  if (s.type == StationType::kLoadDependent && s.rate_multipliers.empty() && node.contains("servers"))
    s.type = StationType::kMultiServer;
  if (node.contains("count")) s.count = WholeNumber(node["count"], file, where + ".count");
  return s;
}

Network ReadModel(const json& document, const std::string& file);

}  // namespace

Network NetworkFromJson(const json& document, const std::string& file) {
  try {
    return ReadModel(document, file);
  } catch (const json::exception& e) {  // a type the checks above did not foresee
    throw InputError(file, 0, std::string("unexpected JSON content: ") + e.what());
  }
}

namespace {
Network ReadModel(const json& document, const std::string& file) {
  const json& model = document.is_object() && document.contains("model") ? document["model"] : document;
  if (!model.is_object()) Fail(file, "model", "expected an object with 'classes' and 'stations'");
  if (!model.contains("classes") || !model["classes"].is_array())
    Fail(file, "model", "missing array 'classes'");
  if (!model.contains("stations") || !model["stations"].is_array())
    Fail(file, "model", "missing array 'stations'");
  Network network;
  const json& classes = model["classes"];
  for (size_t c = 0; c < classes.size(); ++c)
    network.classes.push_back(ReadClass(classes[c], file, "classes[" + std::to_string(c) + "]"));
  const json& stations = model["stations"];
  for (size_t k = 0; k < stations.size(); ++k)
    network.stations.push_back(ReadStation(stations[k], network.classes.size(), file,
                                           "stations[" + std::to_string(k) + "]"));
  std::string error;
  if (!network.IsValid(&error)) throw InputError(file, 0, error);
  return network;
}
}  // namespace

json ParseJsonText(const std::string& text, const std::string& file) {
  return ParseJsonDocument(text, file);
}

Network ReadNetworkFile(const std::string& path) {
  const std::string text = ReadFile(path);
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '<') return NetworkFromJmvaXml(text, path);
  return NetworkFromJson(ParseJsonText(text, path), path);
}

}  // namespace qnm::mva
