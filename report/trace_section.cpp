#include "report/trace_section.h"

#include <algorithm>
#include <cmath>

#include "imbalance/dissimilarity.h"
#include "report/html_text.h"
#include "report/svg_plot.h"
#include "report/whatif_section.h"
#include "trace/activity_times.h"
#include "trace/otf2_reader.h"
#include "trace/wait_state_report.h"
#include "trace/wait_states.h"

namespace qnm::report {
namespace {

std::string Cell(double value, const char* format = "%.4g") {
  return "<td class=\"num\" data-sort=\"" + SortKey(value) + "\">" + HtmlNumber(value, format) + "</td>";
}
std::string Text(const std::string& text) { return "<td>" + EscapeHtml(text) + "</td>"; }

/// Share of Time per wait-state pattern, as horizontal bars (log-free: shares add up).
std::string PatternChart(const std::vector<trace::MetricNode>& tree) {
  std::vector<const trace::MetricNode*> patterns;
  for (const trace::MetricNode& node : tree)
    if (node.is_pattern && node.value_s > 0) patterns.push_back(&node);
  if (patterns.empty() || tree.empty() || !(tree.front().value_s > 0)) return "";
  std::sort(patterns.begin(), patterns.end(),
            [](const auto* a, const auto* b) { return a->value_s > b->value_s; });
  if (patterns.size() > 12) patterns.resize(12);
  double largest = 0;
  for (const auto* node : patterns) largest = std::max(largest, 100 * node->value_s / tree.front().value_s);
  PlotAxis x;
  x.low = -0.6;
  x.high = patterns.size() - 0.4;
  x.label = "wait-state pattern (hover a bar for its name)";
  for (std::size_t i = 0; i < patterns.size(); ++i) x.ticks.emplace_back(double(i), std::to_string(i + 1));
  PlotAxis y = FitAxis({0.0, largest * 1.1}, false, "share of Time (%)");
  y.low = 0;
  SvgPlot plot("wait states: share of the total time, by pattern", x, y, 560, 300);
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const double share = 100 * patterns[i]->value_s / tree.front().value_s;
    plot.Rect(i - 0.35, 0, i + 0.35, share, "#b2182b",
              std::to_string(i + 1) + ". " + patterns[i]->name + ": " + HtmlNumber(patterns[i]->value_s) + " s (" +
                  HtmlNumber(share, "%.2f") + "%)");
  }
  plot.LegendEntry("#b2182b", "numbers: the rows of the table below");
  return plot.Render();
}

}  // namespace

std::string TraceAnchor(std::size_t index) { return "trace-" + std::to_string(index + 1); }

std::string TraceSection(std::size_t index, const std::string& path) {
  const trace::Trace trace = trace::ReadOtf2Trace(path);
  const trace::WaitStateResult result = trace::AnalyzeWaitStates(trace);
  DissimilarityOptions dissimilarity_options;
  dissimilarity_options.report_top = 10;
  const DissimilarityResult dissimilarity =
      ComputeDissimilarity(trace::ActivityTimesFromTrace(trace, result), dissimilarity_options);
  trace::TraceReportInput input;
  input.trace = &trace;
  input.result = &result;
  input.dissimilarity = &dissimilarity;
  const nlohmann::json report = trace::TraceReportJson(input);
  const std::vector<trace::MetricNode> tree = trace::MetricTree(trace, result);

  std::string html = "<section class=\"trace\" id=\"" + TraceAnchor(index) + "\">\n<h2>Trace " +
                     std::to_string(index + 1) + ": " + EscapeHtml(path) + "</h2>\n<p>" +
                     std::to_string(trace.ranks.size()) + " ranks, " + std::to_string(trace.RawEventCount()) +
                     " records" + (trace.creator.empty() ? "" : ", written by " + EscapeHtml(trace.creator)) +
                     ". Times are seconds summed over ranks.</p>\n";
  html += "<h3>Wait states (Scalasca metric tree)</h3>\n<figure>" + PatternChart(tree) + "</figure>\n";
  html += "<table><thead><tr><th>#</th><th>metric</th><th>time (s)</th><th>share of Time (%)</th></tr></thead><tbody>\n";
  std::vector<const trace::MetricNode*> patterns;
  for (const trace::MetricNode& node : tree)
    if (node.is_pattern && node.value_s > 0) patterns.push_back(&node);
  std::sort(patterns.begin(), patterns.end(), [](const auto* a, const auto* b) { return a->value_s > b->value_s; });
  const double total_s = tree.empty() ? NAN : tree.front().value_s;
  for (const trace::MetricNode& node : tree) {
    if (node.value_s == 0 && node.id != "time" && node.id != "comp" && node.id != "mpi") continue;
    const auto rank = std::find(patterns.begin(), patterns.end(), &node);
    const std::string number =
        rank != patterns.end() && rank - patterns.begin() < 12 ? std::to_string(rank - patterns.begin() + 1) : "";
    html += "<tr><td class=\"num\">" + number + "</td><td style=\"padding-left:" +
            std::to_string(7 + 14 * node.depth) + "px\">" + EscapeHtml(node.name) +
            (node.is_pattern ? " <code>" + EscapeHtml(node.id) + "</code>" : "") + "</td>" + Cell(node.value_s) +
            Cell(total_s > 0 ? 100 * node.value_s / total_s : NAN, "%.2f") + "</tr>\n";
  }
  html += "</tbody></table>\n";

  html += "<h3>Worst call paths and ranks (waiting time)</h3>\n<table class=\"sortable\"><thead><tr><th>call path</th>"
          "<th>waiting (s)</th><th>time (s)</th></tr></thead><tbody>\n";
  for (const auto& row : report["worst_callpaths"])
    html += "<tr>" + Text(row["callpath"].get<std::string>()) + Cell(row["waiting"].get<double>()) +
            Cell(row["time"].get<double>()) + "</tr>\n";
  html += "</tbody></table>\n<table class=\"sortable\"><thead><tr><th>rank</th><th>waiting (s)</th><th>time (s)</th>"
          "</tr></thead><tbody>\n";
  for (const auto& row : report["worst_ranks"])
    html += "<tr><td class=\"num\">" + std::to_string(row["rank"].get<long>()) + "</td>" +
            Cell(row["waiting"].get<double>()) + Cell(row["time"].get<double>()) + "</tr>\n";
  html += "</tbody></table>\n";

  const nlohmann::json& d = report["dissimilarity"];
  html += "<h3>Load imbalance (dissimilarity, Calzarossa et al. 2004)</h3>\n<p class=\"note\">" +
          EscapeHtml(d.value("method", std::string())) +
          "; ID: index of dispersion of the ranks' times (0 = balanced), SID: scaled by the share of time.</p>\n";
  html += "<table class=\"sortable\"><thead><tr><th>region</th><th>SID</th><th>ID</th><th>time per rank (s)</th>"
          "<th>share of time (%)</th><th>dominant activity</th></tr></thead><tbody>\n";
  for (const auto& row : d["regions"])
    html += "<tr>" + Text(row["name"].get<std::string>()) + Cell(row["SID_C"].get<double>(), "%.3g") +
            Cell(row["ID_C"].get<double>(), "%.3g") + Cell(row["time_s_per_rank"].get<double>()) +
            Cell(100 * row["time_share"].get<double>(), "%.2f") +
            Text(row.value("dominant_activity", std::string())) + "</tr>\n";
  html += "</tbody></table>\n";

  html += WhatifSuggestionsPart(trace);
  // The names `whatif --balance R` / `--scale R=F` take: user regions, not MPI calls.
  const std::vector<std::string> names = trace::UserRegionNames(trace);
  html += "<h3>Region names (for <code>whatif --balance</code> and <code>--scale</code>)</h3>\n<p>";
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + ("<code>" + EscapeHtml(name) + "</code>");
  html += (list.empty() ? "none" : list) + "</p>\n";
  for (const auto& warning : report["warnings"])
    html += "<p class=\"note\">trace: " + EscapeHtml(warning.get<std::string>()) + "</p>\n";
  return html + "</section>\n";
}

}  // namespace qnm::report
