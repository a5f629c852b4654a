#include "ingest/extrap_experiment.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "ingest/text_lines.h"
#include "util/input_error.h"
#include "util/plausible_range.h"
#include "util/utf8_text.h"

namespace qnm {
namespace {

using Json = nlohmann::json;

const char* const kSupported = "qnm-predict reads Extra-P experiments over one parameter, the process count p";
const char* const kDefaultMetric = "time";  // what the text format means when it names no METRIC

bool IsProcessParameter(const std::string& name) {
  std::string lower = ToLower(name);
  return lower == "p" || lower == "procs" || lower == "processes" || lower == "ranks" || lower == "np" ||
         lower == "nprocs";
}

void CheckParameters(const std::vector<std::string>& names, const std::string& path, int line) {
  if (names.size() != 1) {
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
    throw InputError(path, line, std::to_string(names.size()) + " parameters (" + list + "); " + kSupported);
  }
  if (!IsProcessParameter(names[0]))
    throw InputError(path, line, "parameter '" + names[0] + "' is not a process count; " + kSupported);
}

double ParseNumber(std::string token, const std::string& path, int line) {
  token.erase(std::remove(token.begin(), token.end(), '('), token.end());
  token.erase(std::remove(token.begin(), token.end(), ')'), token.end());
  std::optional<double> value = ParseDouble(token);
  if (!value || !std::isfinite(*value)) throw InputError(path, line, "'" + token + "' is not a number");
  return *value;
}

// Measurements keyed by (call path, metric), in first-appearance order.
class MeasurementTable {
 public:
  ExtrapMeasurement& At(const std::string& callpath, const std::string& metric, std::size_t points) {
    auto [it, added] = index_.emplace(callpath + '\n' + metric, measurements_.size());
    if (added) measurements_.push_back({callpath, metric, std::vector<std::vector<double>>(points)});
    return measurements_[it->second];
  }
  std::vector<ExtrapMeasurement> Take() { return std::move(measurements_); }

 private:
  std::map<std::string, std::size_t> index_;
  std::vector<ExtrapMeasurement> measurements_;
};

// Index of `value` in `points` (appended when new), through a hash index of
// the points: a linear search per entry made 100,000 points quadratic (issue 19).
std::size_t PointIndex(std::vector<double>* points, std::unordered_map<double, std::size_t>* index, double value) {
  auto [it, added] = index->try_emplace(value, points->size());  // 0.0 and -0.0 are one key, as with ==
  if (added) points->push_back(value);
  return it->second;
}

// One measured value list of the JSON formats, before the points are known.
struct Entry {
  std::string callpath, metric;
  double point;
  std::vector<double> values;
};

// Points in first-appearance order, then each entry's values at its point.
void Tabulate(const std::vector<Entry>& entries, ExtrapExperiment* experiment) {
  std::unordered_map<double, std::size_t> index;
  for (std::size_t k = 0; k < experiment->points.size(); ++k) index.try_emplace(experiment->points[k], k);
  for (const Entry& entry : entries) PointIndex(&experiment->points, &index, entry.point);
  MeasurementTable table;
  for (const Entry& entry : entries) {
    ExtrapMeasurement& m = table.At(entry.callpath, entry.metric, experiment->points.size());
    std::vector<double>& slot = m.values[PointIndex(&experiment->points, &index, entry.point)];
    slot.insert(slot.end(), entry.values.begin(), entry.values.end());
  }
  experiment->measurements = table.Take();
}

std::string FormatNumber(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string_view FirstContentLine(std::string_view text) {
  for (std::string_view line : SplitLines(text)) {
    std::string_view trimmed = Trim(line);
    if (!trimmed.empty() && trimmed[0] != '#') return trimmed;
  }
  return {};
}

}  // namespace

bool LooksLikeExtrapText(std::string_view text) {
  std::string_view first = FirstContentLine(text.substr(0, 4096));
  return first.substr(0, 10) == "PARAMETER " || first == "PARAMETER";
}

bool LooksLikeExtrapJson(std::string_view text) {
  std::string_view head = text.substr(0, 4096);
  return Trim(head).substr(0, 1) == "{" && head.find("\"measurements\"") != std::string_view::npos &&
         head.find("\"parameters\"") != std::string_view::npos;
}

bool LooksLikeExtrapJsonLines(std::string_view text) {
  std::string_view first = FirstContentLine(text.substr(0, 4096));
  return first.substr(0, 1) == "{" && first.find("\"params\"") != std::string_view::npos;
}

ExtrapExperiment ReadExtrapText(std::string_view text, const std::string& path) {
  ExtrapExperiment experiment;
  MeasurementTable table;
  std::vector<std::string> parameters;
  bool have_points = false;
  std::string region, metric = kDefaultMetric;
  int region_line = 0;
  std::map<std::string, int> first_line;  // measurement key -> REGION line, for count errors
  ExtrapMeasurement* current = nullptr;
  std::size_t next_point = 0;
  auto finish = [&](int line) {
    if (current && next_point != experiment.points.size())
      throw InputError(path, line, "REGION " + current->callpath + " (METRIC " + current->metric + ") has " +
                                       std::to_string(next_point) + " DATA lines for " +
                                       std::to_string(experiment.points.size()) + " points");
  };
  int line_number = 0;
  for (std::string_view raw : SplitLines(text)) {
    ++line_number;
    std::string_view line = Trim(raw);
    if (line.empty() || line[0] == '#') continue;
    std::size_t space = line.find_first_of(" \t");
    std::string keyword(line.substr(0, space));
    std::string rest(space == std::string_view::npos ? std::string_view() : Trim(line.substr(space)));
    if (keyword == "PARAMETER") {
      for (auto token : SplitWhitespace(rest)) parameters.emplace_back(token);
      if (rest.empty()) throw InputError(path, line_number, "PARAMETER names no parameter");
    } else if (keyword == "POINTS") {
      CheckParameters(parameters, path, line_number);
      if (have_points) throw InputError(path, line_number, "a second POINTS line; " + std::string(kSupported));
      // "(4) (8)" or "4 8"; a point with two coordinates "(4 2)" means two parameters.
      std::string spaced;
      for (char c : rest) {
        if (c == '(') spaced += " ( ";
        else if (c == ')') spaced += " ) ";
        else spaced += c;
      }
      int depth = 0, in_point = 0;
      for (auto token : SplitWhitespace(spaced)) {
        if (token == "(") {
          if (++depth > 2) throw InputError(path, line_number, "unbalanced '(' in POINTS");
          in_point = 0;
        } else if (token == ")") {
          if (--depth < 0) throw InputError(path, line_number, "unbalanced ')' in POINTS");
        } else {
          if (depth > 0 && ++in_point > 1)
            throw InputError(path, line_number, "a point with several coordinates; " + std::string(kSupported));
          experiment.points.push_back(ParseNumber(std::string(token), path, line_number));
        }
      }
      if (depth != 0) throw InputError(path, line_number, "unbalanced parentheses in POINTS");
      if (experiment.points.empty()) throw InputError(path, line_number, "POINTS lists no point");
      have_points = true;
    } else if (keyword == "METRIC" || keyword == "REGION") {
      if (!have_points) throw InputError(path, line_number, keyword + " before POINTS");
      if (rest.empty()) throw InputError(path, line_number, keyword + " without a name");
      finish(line_number);
      (keyword == "METRIC" ? metric : region) = ValidUtf8(rest);  // names end up in JSON output
      if (keyword == "REGION") region_line = line_number;
      current = nullptr;
      next_point = 0;
    } else if (keyword == "DATA") {
      if (region.empty()) throw InputError(path, line_number, "DATA before any REGION");
      if (!current) {
        current = &table.At(region, metric, experiment.points.size());
        if (!first_line.emplace(region + '\n' + metric, region_line).second)
          throw InputError(path, line_number, "REGION " + region + " (METRIC " + metric + ") measured twice");
      }
      if (next_point >= experiment.points.size())
        throw InputError(path, line_number, "more DATA lines than the " + std::to_string(experiment.points.size()) + " points");
      std::vector<double>& values = current->values[next_point++];
      for (auto token : SplitWhitespace(rest)) values.push_back(ParseNumber(std::string(token), path, line_number));
      if (values.empty()) throw InputError(path, line_number, "DATA without a value");
    } else {
      throw InputError(path, line_number, "unknown section '" + keyword + "' (PARAMETER, POINTS, REGION, METRIC, DATA)");
    }
  }
  finish(line_number);
  if (parameters.empty()) throw InputError(path, 0, "no PARAMETER line");
  if (!have_points) throw InputError(path, 0, "no POINTS line");
  experiment.parameter = parameters[0];
  experiment.measurements = table.Take();
  if (experiment.measurements.empty()) throw InputError(path, 0, "no REGION with DATA");
  return experiment;
}

ExtrapExperiment ReadExtrapJson(std::string_view text, const std::string& path) {
  Json root = Json::parse(text.begin(), text.end(), nullptr, false);
  if (root.is_discarded() || !root.is_object()) throw InputError(path, 0, "not a JSON object");
  if (root.contains("callpaths") || root.contains("coordinates"))
    throw InputError(path, 0, "Extra-P's older id-based JSON format is not read; use the text, JSON "
                              "({\"parameters\", \"measurements\"}) or JSON Lines format");
  const Json& parameters = root["parameters"];
  const Json& measurements = root["measurements"];
  if (!parameters.is_array() || !measurements.is_object())
    throw InputError(path, 0, "an Extra-P JSON experiment needs \"parameters\" (array) and \"measurements\" (object)");
  std::vector<std::string> names;
  for (const Json& name : parameters) {
    if (!name.is_string()) throw InputError(path, 0, "a parameter name is not a string");
    names.push_back(name.get<std::string>());
  }
  CheckParameters(names, path, 0);
  ExtrapExperiment experiment;
  experiment.parameter = names[0];
  // Points first (all call paths may list them in other orders), then values.
  std::vector<Entry> entries;
  for (const auto& [callpath, metrics] : measurements.items()) {
    if (!metrics.is_object()) throw InputError(path, 0, "call path '" + callpath + "' does not map metrics");
    for (const auto& [metric, list] : metrics.items()) {
      if (!list.is_array()) throw InputError(path, 0, "'" + callpath + "'/'" + metric + "' is not a list of points");
      for (const Json& item : list) {
        if (!item.is_object() || !item.contains("point") || !item.contains("values") || !item["point"].is_array() ||
            !item["values"].is_array())
          throw InputError(path, 0, "'" + callpath + "'/'" + metric + "': each entry needs \"point\" and \"values\" lists");
        if (item["point"].size() != 1 || !item["point"][0].is_number())
          throw InputError(path, 0, "'" + callpath + "': a point needs exactly one number; " + std::string(kSupported));
        Entry entry{callpath, metric, item["point"][0].get<double>(), {}};
        for (const Json& value : item["values"]) {
          if (!value.is_number()) throw InputError(path, 0, "'" + callpath + "'/'" + metric + "': a value is not a number");
          entry.values.push_back(value.get<double>());
        }
        entries.push_back(std::move(entry));
      }
    }
  }
  Tabulate(entries, &experiment);
  if (experiment.measurements.empty()) throw InputError(path, 0, "no measurements");
  return experiment;
}

ExtrapExperiment ReadExtrapJsonLines(std::string_view text, const std::string& path) {
  ExtrapExperiment experiment;
  std::vector<Entry> entries;
  std::string parameter;
  int line_number = 0;
  for (std::string_view raw : SplitLines(text)) {
    ++line_number;
    std::string_view line = Trim(raw);
    if (line.empty()) continue;
    Json object = Json::parse(line.begin(), line.end(), nullptr, false);
    if (object.is_discarded() || !object.is_object()) throw InputError(path, line_number, "not a JSON object");
    const Json& params = object["params"];
    if (!params.is_object() || params.empty()) throw InputError(path, line_number, "no \"params\" object");
    std::vector<std::string> names;
    for (const auto& [name, value] : params.items()) names.push_back(name);
    CheckParameters(names, path, line_number);
    if (!parameter.empty() && names[0] != parameter)
      throw InputError(path, line_number, "parameter '" + names[0] + "' after '" + parameter + "'; " + kSupported);
    parameter = names[0];
    if (!params[parameter].is_number()) throw InputError(path, line_number, "parameter value is not a number");
    Entry entry{"main", kDefaultMetric, params[parameter].get<double>(), {}};
    if (object.contains("callpath")) {
      if (!object["callpath"].is_string()) throw InputError(path, line_number, "\"callpath\" is not a string");
      entry.callpath = object["callpath"].get<std::string>();
    }
    if (object.contains("metric")) {
      if (!object["metric"].is_string()) throw InputError(path, line_number, "\"metric\" is not a string");
      entry.metric = object["metric"].get<std::string>();
    }
    const Json& value = object["value"];
    if (value.is_number()) entry.values.push_back(value.get<double>());
    else if (value.is_array())
      for (const Json& v : value) {
        if (!v.is_number()) throw InputError(path, line_number, "a \"value\" entry is not a number");
        entry.values.push_back(v.get<double>());
      }
    if (entry.values.empty()) throw InputError(path, line_number, "no numeric \"value\"");
    entries.push_back(std::move(entry));
  }
  if (entries.empty()) throw InputError(path, 0, "no measurement lines");
  experiment.parameter = parameter;
  Tabulate(entries, &experiment);
  return experiment;
}

std::vector<RunStats> ExtrapToRunStats(const ExtrapExperiment& experiment, const std::string& series,
                                       const std::string& path) {
  const ExtrapMeasurement* root = nullptr;
  for (const ExtrapMeasurement& m : experiment.measurements)
    if (m.metric == "time" && m.callpath.find("->") == std::string::npos) {
      root = &m;
      break;
    }
  if (!root) throw InputError(path, 0, "no call path without '->' has a \"time\" metric (the run time)");
  auto find = [&](const std::string& callpath) -> const ExtrapMeasurement* {
    for (const ExtrapMeasurement& m : experiment.measurements)
      if (m.metric == "time" && m.callpath == callpath) return &m;
    return nullptr;
  };
  const ExtrapMeasurement* mpi = find(root->callpath + "->MPI");
  const ExtrapMeasurement* compute = find(root->callpath + "->compute");
  auto value_at = [](const ExtrapMeasurement* m, std::size_t point, std::size_t repetition) {
    if (!m || m->values[point].empty()) return kUnknown;
    return m->values[point][std::min(repetition, m->values[point].size() - 1)];
  };
  std::vector<RunStats> runs;
  for (std::size_t p = 0; p < experiment.points.size(); ++p) {
    double procs = experiment.points[p];
    if (procs < 1 || procs > 1e8 || procs != std::floor(procs))
      throw InputError(path, 0, "point " + FormatNumber(procs) + " is not a process count");
    for (std::size_t r = 0; r < root->values[p].size(); ++r) {
      RunStats run;
      run.series = series;
      run.app = root->callpath;
      run.procs = static_cast<int>(procs);
      run.sources = {path};
      run.wall_time_s = root->values[p][r];
      run.mpi_time_mean_s = value_at(mpi, p, r);
      run.compute_time_mean_s = value_at(compute, p, r);
      // Every value is a time in seconds: finite and within what a run can last.
      const std::string at = " at p=" + FormatNumber(procs);
      RequirePlausible(run.wall_time_s, kRunTimeS, "metric time of " + root->callpath + at, path, 0);
      if (mpi && !mpi->values[p].empty())
        RequirePlausible(run.mpi_time_mean_s, kPartTimeS, "metric time of " + mpi->callpath + at, path, 0);
      if (compute && !compute->values[p].empty())
        RequirePlausible(run.compute_time_mean_s, kPartTimeS, "metric time of " + compute->callpath + at, path, 0);
      run.derivations["wall_time_s"] = "Extra-P: metric time of call path " + root->callpath;
      if (mpi) run.derivations["mpi_time_mean_s"] = "Extra-P: metric time of call path " + mpi->callpath;
      if (compute) run.derivations["compute_time_mean_s"] = "Extra-P: metric time of call path " + compute->callpath;
      run.Derive();
      runs.push_back(std::move(run));
    }
  }
  return runs;
}

ExtrapExperiment ExtrapFromSeries(const Series& series) {
  ExtrapExperiment experiment;
  std::string root = series.groups.empty() || series.groups[0].runs.empty() || series.groups[0].runs[0].app.empty()
                         ? "main"
                         : series.groups[0].runs[0].app;
  MeasurementTable table;
  std::size_t points = series.groups.size();
  for (const RunGroup& group : series.groups) experiment.points.push_back(group.procs);
  // Fix the call-path order: total, MPI, compute, then MPI call paths.
  table.At(root, "time", points);
  for (std::size_t g = 0; g < points; ++g) {
    for (const RunStats& run : series.groups[g].runs) {
      table.At(root, "time", points).values[g].push_back(run.TotalTimeSeconds());
      if (Known(run.mpi_time_mean_s)) table.At(root + "->MPI", "time", points).values[g].push_back(run.mpi_time_mean_s);
      if (Known(run.compute_time_mean_s))
        table.At(root + "->compute", "time", points).values[g].push_back(run.compute_time_mean_s);
      // MPI call paths, summed per function over call sites, mean over ranks.
      std::map<std::string, double> per_function;
      for (const CallSiteStats& site : run.call_sites)
        if (Known(site.total_time_s) && run.procs > 0)
          per_function["MPI_" + site.mpi_function] += site.total_time_s / run.procs;
      for (const auto& [function, seconds] : per_function)
        table.At(root + "->MPI->" + function, "time", points).values[g].push_back(seconds);
    }
  }
  // Extra-P needs a value at every point: keep only call paths measured at all of them.
  for (ExtrapMeasurement& m : table.Take())
    if (std::all_of(m.values.begin(), m.values.end(), [](auto& v) { return !v.empty(); }))
      experiment.measurements.push_back(std::move(m));
  return experiment;
}

std::string WriteExtrapText(const ExtrapExperiment& experiment) {
  std::ostringstream out;
  out << "# qnm-predict export: Extra-P text format, times in seconds (mean over ranks below the root)\n";
  out << "PARAMETER " << experiment.parameter << "\n";
  out << "POINTS";
  for (double point : experiment.points) out << " (" << FormatNumber(point) << ")";
  out << "\n";
  std::string metric;
  for (const ExtrapMeasurement& m : experiment.measurements) {
    out << "\nREGION " << m.callpath << "\n";
    if (m.metric != metric) out << "METRIC " << (metric = m.metric) << "\n";
    for (const std::vector<double>& values : m.values) {
      out << "DATA";
      for (double value : values) out << " " << FormatNumber(value);
      out << "\n";
    }
  }
  return out.str();
}

std::string WriteExtrapJsonLines(const ExtrapExperiment& experiment) {
  std::string out;
  for (const ExtrapMeasurement& m : experiment.measurements)
    for (std::size_t p = 0; p < experiment.points.size(); ++p)
      for (double value : m.values[p]) {
        double point = experiment.points[p];
        Json coordinate = point == std::floor(point) && std::fabs(point) < 1e15 ? Json(static_cast<long long>(point)) : Json(point);
        Json line = {{"params", {{experiment.parameter, coordinate}}},
                     {"callpath", m.callpath},
                     {"metric", m.metric},
                     {"value", value}};
        out += line.dump() + "\n";
      }
  return out;
}

}  // namespace qnm
