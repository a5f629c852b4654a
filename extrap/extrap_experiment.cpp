#include "extrap/extrap_experiment.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "extrap/extrap_data.h"
#include "extrap/extrap_selection.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/plausible_range.h"
#include "util/utf8_text.h"

namespace qnm {
namespace {

using Json = nlohmann::json;

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
  auto has = [&](std::string_view key) { return head.find(key) != std::string_view::npos; };
  // Current: "parameters" and "measurements"; legacy id-based: "callpaths" and "coordinates" first.
  return Trim(head).substr(0, 1) == "{" &&
         ((has("\"measurements\"") && has("\"parameters\"")) || (has("\"callpaths\"") && has("\"coordinates\"")));
}

bool LooksLikeExtrapJsonLines(std::string_view text) {
  std::string_view first = FirstContentLine(text.substr(0, 4096));
  return first.substr(0, 1) == "{" && first.find("\"params\"") != std::string_view::npos;
}

ExtrapExperiment ReadExtrapText(std::string_view text, const std::string& path, const RunSelection& selection) {
  return SelectSeries(ParseExtrapTextData(text, path), selection, path);
}

ExtrapExperiment ReadExtrapJson(std::string_view text, const std::string& path, const RunSelection& selection) {
  return SelectSeries(ParseExtrapJsonData(text, path), selection, path);
}

ExtrapExperiment ReadExtrapJsonLines(std::string_view text, const std::string& path, const RunSelection& selection) {
  return SelectSeries(ParseExtrapJsonLinesData(text, path), selection, path);
}

std::vector<RunStats> ExtrapToRunStats(const ExtrapExperiment& experiment, const std::string& series,
                                       const std::string& path, const RunSelection& selection) {
  const ExtrapMeasurement* root = &RunTimeMeasurement(experiment, selection, path);
  // A text experiment without METRIC has metric "" (Extra-P's default): its values are the run time.
  const std::string metric = root->metric.empty() ? "time" : root->metric;
  auto find = [&](const std::string& callpath) -> const ExtrapMeasurement* {
    for (const ExtrapMeasurement& m : experiment.measurements)
      if (m.metric == root->metric && m.callpath == callpath) return &m;
    return nullptr;
  };
  const ExtrapMeasurement* mpi = find(root->callpath + "->MPI");
  const ExtrapMeasurement* compute = find(root->callpath + "->compute");
  auto value_at = [](const ExtrapMeasurement* m, std::size_t point, std::size_t repetition) {
    if (!m || m->values[point].empty()) return kUnknown;
    return m->values[point][std::min(repetition, m->values[point].size() - 1)];
  };
  std::vector<RunStats> runs;
  std::size_t repetitions = 0;
  for (const std::vector<double>& values : root->values) repetitions += values.size();
  runs.reserve(repetitions);  // one record per repetition: 10^6 on one DATA line are 10^6 records
  TextMapPool shared;         // and one derivations map for all of them
  const SharedText series_text(series), app_text(root->callpath);  // and one block per text
  for (std::size_t p = 0; p < experiment.points.size(); ++p) {
    double procs = experiment.points[p];
    if (procs < 1 || procs > 1e8 || procs != std::floor(procs))
      throw InputError(path, 0, experiment.parameter + "=" + FormatNumber(procs) +
                                    " is not a process count (a whole number from 1); choose the process-count "
                                    "parameter with --parameter NAME");
    for (std::size_t r = 0; r < root->values[p].size(); ++r) {
      RunStats run;
      run.series = series_text;
      run.app = app_text;
      run.procs = static_cast<int>(procs);
      run.sources = {path};
      run.origin = root->callpath + "|" + root->metric + "|" + experiment.parameter + "=" + FormatNumber(procs) + "|r" +
                   std::to_string(r);
      run.wall_time_s = root->values[p][r];
      run.mpi_time_mean_s = value_at(mpi, p, r);
      run.compute_time_mean_s = value_at(compute, p, r);
      // Every value is a time in seconds: finite and within what a run can last.
      const std::string at = " at p=" + FormatNumber(procs);
      RequirePlausible(run.wall_time_s, kRunTimeS, "metric " + metric + " of " + root->callpath + at, path, 0);
      if (mpi && !mpi->values[p].empty())
        RequirePlausible(run.mpi_time_mean_s, kPartTimeS, "metric " + metric + " of " + mpi->callpath + at, path, 0);
      if (compute && !compute->values[p].empty())
        RequirePlausible(run.compute_time_mean_s, kPartTimeS, "metric " + metric + " of " + compute->callpath + at, path, 0);
      run.derivations["wall_time_s"] = "Extra-P: metric " + metric + " of call path " + root->callpath;
      if (mpi) run.derivations["mpi_time_mean_s"] = "Extra-P: metric time of call path " + mpi->callpath;
      if (compute) run.derivations["compute_time_mean_s"] = "Extra-P: metric time of call path " + compute->callpath;
      run.Derive();
      run.derivations.ShareWith(&shared);
      runs.push_back(std::move(run));
    }
  }
  return runs;
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
        Json line = {{"params", {{ValidUtf8(experiment.parameter), coordinate}}},
                     {"callpath", ValidUtf8(m.callpath)},  // names from binary reports; JSON needs UTF-8
                     {"metric", ValidUtf8(m.metric)},
                     {"value", value}};
        out += line.dump() + "\n";
      }
  return out;
}

}  // namespace qnm
