#include "report/series_section.h"

#include <cmath>
#include <map>

#include "report/efficiency_section.h"
#include "report/html_text.h"
#include "report/series_charts.h"
#include "report/whatif_section.h"

namespace qnm::report {
namespace {

std::string Cell(double value, const char* format = "%.4g") {
  return "<td class=\"num\" data-sort=\"" + SortKey(value) + "\">" + HtmlNumber(value, format) + "</td>";
}

std::string Text(const std::string& text) { return "<td>" + EscapeHtml(text) + "</td>"; }


std::string ModelPart(const SeriesModel& model) {
  std::string html = "<h3>Model and fitted inputs</h3>\n<p>";
  html += model.kind == ModelKind::kQueueing
              ? "Queueing model (Buckwalter 2005, LoPC contention): T(P) = W + I + S + A + C (I: load imbalance), each input fitted as a "
                "curve of P and the contention network solved by MVA at every P."
              : "Runtime-only model (no MPI profile): a weighted average of candidate curves of T(P), weighted "
                "by forward validation.";
  if (const RuntimeConfigurationChoice& c = model.summary.configuration; !c.chosen.empty())
    html += c.made ? " Configuration <b>" + EscapeHtml(c.chosen) +
                         "</b>, chosen for this series: of " + std::to_string(c.names.size()) +
                         " configurations, the one whose forecast of its largest training P from the ones before "
                         "it erred least (models/runtime_configuration.h)."
                   : " Configuration <b>" + EscapeHtml(c.chosen) + "</b>" +
                         (c.by_default ? ", the default (chosen on series gathered after the tool's choices were made; "
                                         "--configuration per-series chooses one per series)."
                                       : ", given with --configuration.");
  html += "</p>\n<p class=\"note\">" + EscapeHtml(model.summary.BriefReport()) + "</p>\n";
  if (model.kind == ModelKind::kQueueing) {
    html += "<p>Machine: " + EscapeHtml(model.machine.name) + " \u2014 latency " +
            HtmlNumber(model.machine.latency_s) + " s, bandwidth " +
            (model.machine.bandwidth_bytes_per_s >= 1e299 ? std::string("unbounded")
                                                          : HtmlNumber(model.machine.bandwidth_bytes_per_s) + " B/s") +
            (model.machine.estimated ? " <span class=\"warn\">(estimated from the series)</span>" : "") + "</p>\n";
  }
  if (!model.inputs.empty()) {
    html += "<table><thead><tr><th>input</th><th>unit</th><th>fitted formula (P = processes)</th>"
            "<th>forward-validation RMS log error</th></tr></thead><tbody>\n";
    for (const InputCurve& input : model.inputs) {
      html += "<tr>" + Text(input.name) + Text(input.unit) + "<td class=\"formula\">" + EscapeHtml(input.formula) +
              (input.fit_note.empty() ? "" : " <span class=\"warn\">(" + EscapeHtml(input.fit_note) + ")</span>") +
              "</td>" + Cell(input.forward_log_rms, "%.3f") + "</tr>\n";
    }
    html += "</tbody></table>\n<p class=\"note\">Forward validation: each curve is fitted on the smaller P only "
            "and scored on the next larger P; RMS of ln(predicted/measured) (0.1 \u2248 10%).</p>\n";
  }
  for (const InputPanel& panel : InputCharts(model))
    html += "<figure class=\"input-chart\">" + panel.svg + "<figcaption class=\"formula\">" +
            EscapeHtml(panel.caption) + "</figcaption></figure>\n";
  for (const std::string& note : model.summary.notes) html += "<p class=\"note\">note: " + EscapeHtml(note) + "</p>\n";
  return html;
}

std::string PredictionPart(const SeriesPrediction& prediction) {
  std::map<int, double> measured;
  for (const ProcsObservation& o : prediction.observed) measured[o.procs] = o.measured_time_s;
  const int level_pct = static_cast<int>(std::lround(prediction.model.level * 100));
  std::string html = "<h3>Predictions</h3>\n";
  // Lower and upper bounds in columns of their own: one number and one unit per column.
  html += "<table class=\"sortable predictions\"><thead><tr><th>P</th><th>measured (s)</th><th>predicted T (s)</th>"
          "<th>" + std::to_string(level_pct) + "% lower (s)</th><th>" + std::to_string(level_pct) +
          "% upper (s)</th>";
  for (const ComponentName& name : ComponentNames()) html += "<th>" + std::string(name.name) + " (s)</th>";
  html += "<th>extrapolation (octaves)</th><th>flags</th></tr></thead><tbody>\n";
  for (const ProcsPrediction& p : prediction.predictions) {
    auto it = measured.find(p.procs);
    html += std::string(p.flags.empty() ? "<tr>" : "<tr class=\"flagged\">") + "<td class=\"num\">" +
            std::to_string(p.procs) + "</td>" + Cell(it == measured.end() ? NAN : it->second);
    if (!p.Ok()) {
      html += "<td colspan=\"10\">" + EscapeHtml(std::string(ToString(p.termination)) + ": " + p.message) + "</td>";
    } else {
      html += Cell(p.total.value_s) + Cell(p.total.lower_s) + Cell(p.total.upper_s) + Cell(p.compute.value_s) +
              Cell(p.imbalance.value_s) + Cell(p.switch_delay.value_s) + Cell(p.mpi_active.value_s) + Cell(p.contention.value_s) +
              Cell(p.extrapolation, "%.2g");
    }
    std::string flags;
    for (const std::string& flag : p.flags) flags += (flags.empty() ? "" : "; ") + flag;
    html += Text(flags) + "</tr>\n";
  }
  html += "</tbody></table>\n";
  return html;
}

std::string ValidationPart(const ValidationResult& validation) {
  const ValidationSummary& s = validation.summary;
  std::string html = "<h3>Validation (" + EscapeHtml(s.mode) + ")</h3>\n";
  html += "<p>Median |error| " + HtmlNumber(100 * s.median_abs_relative_error, "%.1f") + "%, max |error| " +
          HtmlNumber(100 * s.max_abs_relative_error, "%.1f") + "%; within 10%: " +
          HtmlNumber(100 * s.within_10_fraction, "%.0f") + "% of points, within 30%: " +
          HtmlNumber(100 * s.within_30_fraction, "%.0f") + "%; measured inside the " +
          HtmlNumber(100 * s.level, "%.0f") + "% interval: " + HtmlNumber(100 * s.interval_coverage, "%.0f") +
          "% (" + std::to_string(s.predicted_points) + " points).</p>\n";
  html += "<figure>" + ValidationErrorChart(validation) + "</figure>\n";
  html += "<table class=\"sortable validation\"><thead><tr><th>P</th><th>measured (s)</th><th>predicted (s)</th>"
          "<th>relative error (%)</th><th>within 10%</th><th>within 30%</th><th>inside interval</th></tr></thead><tbody>\n";
  auto yes = [](bool v) { return std::string(v ? "<td class=\"ok\">yes</td>" : "<td class=\"bad\">no</td>"); };
  for (const ValidationRow& row : validation.rows) {
    if (row.training) continue;
    html += "<tr><td class=\"num\">" + std::to_string(row.procs) + "</td>" + Cell(row.measured_s) +
            Cell(row.predicted.total.value_s) + Cell(100 * row.relative_error, "%.1f") + yes(row.within_10) +
            yes(row.within_30) + yes(row.inside_interval) + "</tr>\n";
  }
  html += "</tbody></table>\n";
  for (const std::string& note : validation.notes) html += "<p class=\"note\">note: " + EscapeHtml(note) + "</p>\n";
  return html;
}

}  // namespace

std::string SeriesAnchor(std::size_t index) { return "series-" + std::to_string(index + 1); }

std::string SeriesSection(std::size_t index, const SeriesPrediction& prediction, const ValidationResult* validation,
                          const SeriesWhatifPrediction* whatif, const std::vector<PopEfficiency>* efficiencies) {
  std::string html = "<section class=\"series\" id=\"" + SeriesAnchor(index) + "\">\n<h2>" +
                     std::to_string(index + 1) + ". " + EscapeHtml(prediction.model.series_name) + "</h2>\n";
  html += ModelPart(prediction.model);
  html += PredictionPart(prediction);
  html += "<figure>" + RunTimeChart(prediction, validation) + "</figure>\n";
  const std::string components = ComponentSharesChart(prediction.predictions);
  if (!components.empty())
    html += "<figure>" + components +
            "<figcaption>Each bar is 100% of the predicted run time at that P; the label above it is the total "
            "per rank. Hover a part for its time.</figcaption></figure>\n";
  html += validation ? ValidationPart(*validation)
                     : "<h3>Validation</h3>\n<p class=\"warn\">Not validated: leaving one process count out left too "
                       "few to fit (see the notes under Inputs).</p>\n";
  if (efficiencies != nullptr) html += EfficiencyPart(*efficiencies);
  if (whatif != nullptr) html += WhatifPart(*whatif);
  return html + "</section>\n";
}

}  // namespace qnm::report
