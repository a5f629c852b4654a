#include "whatif_scaling/suggestions_at_scale.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "trace/otf2_reader.h"
#include "trace/trace_run_stats.h"
#include "util/input_error.h"
#include "util/json_cells.h"
#include "util/text_format.h"

namespace qnm {
namespace {

/// The traces as one series under the first one's identity.
Series TraceSeries(const std::vector<std::string>& paths) {
  std::vector<RunStats> runs;
  for (const std::string& path : paths) runs.push_back(trace::ReadTraceRunStats(path));
  const SeriesKey key = KeyOf(runs.front());
  std::vector<Series> grouped = GroupIntoSeries(std::move(runs), [&key](const RunStats&) { return key; });
  return std::move(grouped.front());
}

}  // namespace

ScaledSuggestionReport RankSuggestionsAtScale(const std::string& trace_path,
                                              const std::vector<std::string>& scaling_traces, int procs,
                                              const PredictionOptions& options) {
  ScaledSuggestionReport report;
  report.trace_path = trace_path;
  report.scaling_traces = scaling_traces;
  report.target_procs = procs;
  std::vector<std::string> paths = {trace_path};
  paths.insert(paths.end(), scaling_traces.begin(), scaling_traces.end());
  const Series series = TraceSeries(paths);
  for (const RunGroup& group : series.groups) report.traced_procs.push_back(group.procs);
  const bool traced = std::count(report.traced_procs.begin(), report.traced_procs.end(), procs) > 0;
  if (!traced && report.traced_procs.size() < 2)
    throw InputError("--procs", 0,
                     "a gain at P = " + std::to_string(procs) + " needs traces at two or more process counts (" +
                         trace_path + " alone has P = " + std::to_string(report.traced_procs.front()) +
                         ", which cannot be extrapolated); add --scaling-trace TRACE of the same code");

  const trace::Trace trace = trace::ReadOtf2Trace(trace_path);
  const trace::SuggestionReport at_trace = trace::SuggestHypotheses(trace);
  report.original_runtime_s = at_trace.original_runtime_s;
  for (const trace::Suggestion& suggestion : at_trace.ranked) {
    ScaledSuggestion scaled;
    scaled.suggestion = suggestion;
    scaled.at_procs.procs = procs;
    WhatifScalingOptions whatif;
    whatif.hypotheses = {suggestion.hypothesis};
    whatif.prediction = options;
    try {
      const SeriesWhatifPrediction result = RunWhatifPredict({series}, {procs}, whatif).front();
      for (std::size_t i = 0; i < result.gains.size(); ++i)
        if (result.gains[i].procs == procs) {
          scaled.at_procs = result.gains[i];
          const ProcsPrediction& u = result.unchanged.predictions[i];
          const ProcsPrediction& w = result.whatif.predictions[i];
          if (!u.Ok()) scaled.message = u.message;
          else if (!w.Ok()) scaled.message = "what-if: " + w.message;
        }
    } catch (const InputError& error) {  // e.g. the region is not in a trace at another P
      scaled.message = error.what();
    }
    report.ranked.push_back(scaled);
  }
  std::stable_sort(report.ranked.begin(), report.ranked.end(), [](const ScaledSuggestion& a, const ScaledSuggestion& b) {
    const bool a_known = std::isfinite(a.at_procs.gain.value_s), b_known = std::isfinite(b.at_procs.gain.value_s);
    if (a_known != b_known) return a_known;
    return a_known && a.at_procs.gain.value_s > b.at_procs.gain.value_s;
  });
  if (report.traced_procs.size() >= 2 || !traced)
    report.notes.push_back("gain at P = " + std::to_string(procs) + ": each hypothesis simulated on every trace, the "
                           "series fitted with and without it (predict --whatif)");
  return report;
}

std::string ScaledSuggestionTable(const ScaledSuggestionReport& report) {
  std::ostringstream out;
  out << "Suggested hypotheses for " << report.trace_path << ", by predicted gain at P = " << report.target_procs
      << "\n";
  out << "  traced process counts:";
  for (int p : report.traced_procs) out << " " << p;
  out << "\n";
  for (const std::string& note : report.notes) out << "  note: " << note << "\n";
  if (report.ranked.empty()) {
    out << "  none: no computation region is imbalanced over ranks or waits in its MPI calls, and no message is "
           "empty\n";
    return out.str();
  }
  out << "  original run time at the traced P " << FormatDouble("%.6f", report.original_runtime_s) << " s\n";
  char line[512];
  const std::string at = "gain at P=" + std::to_string(report.target_procs);
  std::snprintf(line, sizeof line, "  %4s %12s %8s  %-34s %8s  %s\n", "rank", "gain s", "gain %",
                (at + " s [interval]").c_str(), "gain %", "hypothesis (reason)");
  out << line;
  for (std::size_t i = 0; i < report.ranked.size(); ++i) {
    const ScaledSuggestion& s = report.ranked[i];
    const Interval& g = s.at_procs.gain;
    std::string at_p = std::isfinite(g.value_s) ? FormatDouble("%.4g", g.value_s) : "-";
    if (std::isfinite(g.lower_s) && std::isfinite(g.upper_s))
      at_p += " [" + FormatDouble("%.4g", g.lower_s) + ", " + FormatDouble("%.4g", g.upper_s) + "]";
    std::snprintf(line, sizeof line, "  %4zu %12.6f %8.2f  %-34s %8s  ", i + 1, s.suggestion.gain_s,
                  s.suggestion.gain_percent, at_p.c_str(), FormatFinite("%.2f", s.at_procs.gain_percent, "-").c_str());
    out << line << s.suggestion.hypothesis.Describe() << " (" << s.suggestion.reason << ")";
    if (!s.message.empty()) out << "; no gain at P: " << s.message;
    out << "\n";
  }
  return out.str();
}

std::string ScaledSuggestionJson(const ScaledSuggestionReport& report) {
  nlohmann::json j;
  j["trace"] = report.trace_path;
  j["scaling_traces"] = report.scaling_traces;
  j["traced_procs"] = report.traced_procs;
  j["target_procs"] = report.target_procs;
  j["original_runtime_s"] = report.original_runtime_s;
  j["notes"] = report.notes;
  nlohmann::json rows = nlohmann::json::array();
  for (const ScaledSuggestion& s : report.ranked)
    rows.push_back({{"hypothesis", s.suggestion.hypothesis.Describe()},
                    {"reason", s.suggestion.reason},
                    {"simulated_runtime_s", s.suggestion.simulated_runtime_s},
                    {"gain_s", s.suggestion.gain_s},
                    {"gain_percent", s.suggestion.gain_percent},
                    {"gain_at_procs", {{"procs", report.target_procs},
                                       {"value_s", JsonNumber(s.at_procs.gain.value_s)},
                                       {"lower_s", JsonNumber(s.at_procs.gain.lower_s)},
                                       {"upper_s", JsonNumber(s.at_procs.gain.upper_s)},
                                       {"gain_percent", JsonNumber(s.at_procs.gain_percent)}}},
                    {"message", s.message}});
  j["suggestions"] = rows;
  return j.dump(2) + "\n";
}

}  // namespace qnm
