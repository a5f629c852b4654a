#include "extrap/extrap_selection.h"

#include <algorithm>
#include <set>

#include "extrap/extrap_data_builder.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

std::string List(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// "100, 200, 400" (at most 8 values) of parameter `k` over all points.
std::string ValuesOf(const ExtrapData& data, std::size_t k) {
  std::set<double> values;
  for (const std::vector<double>& point : data.points) values.insert(point[k]);
  std::string text;
  int shown = 0;
  for (double v : values) {
    if (++shown > 8) return text + ", …";
    text += (text.empty() ? "" : ", ") + FormatExtrapNumber(v);
  }
  return text;
}

std::size_t ChooseParameter(const ExtrapData& data, const RunSelection& selection, const std::string& path) {
  const std::vector<std::string>& names = data.parameters;
  if (!selection.parameter.empty()) {
    auto it = std::find(names.begin(), names.end(), selection.parameter);
    if (it == names.end())
      throw InputError(path, 0, "--parameter " + selection.parameter + ": the experiment's parameters are " + List(names));
    return static_cast<std::size_t>(it - names.begin());
  }
  std::vector<std::size_t> process_like;
  for (std::size_t k = 0; k < names.size(); ++k)
    if (IsProcessCountName(names[k])) process_like.push_back(k);
  if (process_like.size() == 1) return process_like[0];
  if (process_like.empty())
    throw InputError(path, 0, "no parameter is named like a process count (parameters: " + List(names) +
                                  "); say which one is with --parameter NAME");
  std::vector<std::string> candidates;
  for (std::size_t k : process_like) candidates.push_back(names[k]);
  throw InputError(path, 0, "several parameters are named like a process count (" + List(candidates) +
                                "); choose one with --parameter NAME");
}

}  // namespace

std::string WhereSuffix(const RunSelection& selection) {
  std::string text;
  for (const auto& [name, value] : selection.where) text += " " + name + "=" + FormatExtrapNumber(value);
  return text;
}

ExtrapExperiment SelectSeries(const ExtrapData& data, const RunSelection& selection, const std::string& path) {
  const std::size_t chosen = ChooseParameter(data, selection, path);
  // Each other parameter must be fixed by --where; a name --where gives that
  // the experiment lacks is a mistake, not a filter that matches nothing.
  std::vector<std::pair<std::size_t, double>> fixed;
  for (const auto& [name, value] : selection.where) {
    auto it = std::find(data.parameters.begin(), data.parameters.end(), name);
    if (it == data.parameters.end())
      throw InputError(path, 0, "--where " + name + "=…: the experiment's parameters are " + List(data.parameters));
    std::size_t k = static_cast<std::size_t>(it - data.parameters.begin());
    if (k == chosen) throw InputError(path, 0, "--where fixes " + name + ", the process-count parameter itself");
    fixed.emplace_back(k, value);
  }
  std::vector<std::string> free;
  std::string example;
  for (std::size_t k = 0; k < data.parameters.size(); ++k)
    if (k != chosen && std::none_of(fixed.begin(), fixed.end(), [&](auto& f) { return f.first == k; })) {
      free.push_back(data.parameters[k] + " (values " + ValuesOf(data, k) + ")");
      if (example.empty()) example = data.parameters[k];
    }
  if (!free.empty())
    throw InputError(path, 0, std::to_string(data.parameters.size()) + " parameters (" + List(data.parameters) +
                                  "): scaling in " + data.parameters[chosen] + " needs the others fixed with --where " +
                                  example + "=VALUE; not fixed: " + List(free));
  ExtrapExperiment experiment;
  experiment.parameter = data.parameters[chosen];
  std::vector<std::size_t> kept;
  std::set<double> seen;
  for (std::size_t p = 0; p < data.points.size(); ++p) {
    const std::vector<double>& point = data.points[p];
    if (!std::all_of(fixed.begin(), fixed.end(), [&](auto& f) { return point[f.first] == f.second; })) continue;
    if (!seen.insert(point[chosen]).second)
      throw InputError(path, 0, "two points at " + experiment.parameter + "=" + FormatExtrapNumber(point[chosen]) +
                                    " after fixing" + WhereSuffix(selection));
    kept.push_back(p);
    experiment.points.push_back(point[chosen]);
  }
  if (kept.empty()) {
    std::string values;
    for (auto& [k, v] : fixed) values += (values.empty() ? "" : "; ") + data.parameters[k] + " takes " + ValuesOf(data, k);
    throw InputError(path, 0, "no point has" + WhereSuffix(selection) + " (" + values + ")");
  }
  for (const ExtrapMeasurement& m : data.measurements) {
    ExtrapMeasurement selected{m.callpath, m.metric, {}};
    for (std::size_t p : kept) selected.values.push_back(m.values[p]);
    experiment.measurements.push_back(std::move(selected));
  }
  return experiment;
}

const ExtrapMeasurement& RunTimeMeasurement(const ExtrapExperiment& experiment, const RunSelection& selection,
                                            const std::string& path) {
  std::vector<std::string> metrics;
  for (const ExtrapMeasurement& m : experiment.measurements)
    if (std::find(metrics.begin(), metrics.end(), m.metric) == metrics.end()) metrics.push_back(m.metric);
  std::string metric = selection.metric;
  if (metric.empty()) {
    bool found = false;
    for (const char* name : {"time", "runtime"})
      if (!found && std::find(metrics.begin(), metrics.end(), name) != metrics.end()) {
        metric = name;
        found = true;
      }
    if (!found && metrics.size() == 1) {
      metric = metrics[0];  // may be "": a text experiment without METRIC
      found = true;
    }
    if (!found)
      throw InputError(path, 0, "no metric 'time' (metrics: " + List(metrics) + "); choose the run time with --metric NAME");
  } else if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end()) {
    throw InputError(path, 0, "--metric " + metric + ": the experiment's metrics are " + List(metrics));
  }
  std::vector<std::string> callpaths;
  for (const ExtrapMeasurement& m : experiment.measurements) {
    if (m.metric != metric) continue;
    callpaths.push_back(m.callpath);
    if (selection.callpath.empty() ? m.callpath.find("->") == std::string::npos : m.callpath == selection.callpath)
      return m;
  }
  if (!selection.callpath.empty())
    throw InputError(path, 0, "--callpath " + selection.callpath + ": metric '" + metric + "' has call paths " + List(callpaths));
  throw InputError(path, 0, "metric '" + metric + "' has no root call path (no call path without '->'); choose one with --callpath");
}

}  // namespace qnm
