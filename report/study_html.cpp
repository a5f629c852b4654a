#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "ingest/reader_table.h"
#include "report/html_text.h"
#include "report/report_style.h"
#include "report/series_charts.h"
#include "report/series_section.h"
#include "report/study_report.h"
#include "report/trace_section.h"

namespace qnm::report {
namespace {

std::string Cell(double value, const char* format = "%.4g") {
  return "<td class=\"num\" data-sort=\"" + SortKey(value) + "\">" + HtmlNumber(value, format) + "</td>";
}
std::string CountCell(long value) { return "<td class=\"num\">" + std::to_string(value) + "</td>"; }
std::string Text(const std::string& text) { return "<td>" + EscapeHtml(text) + "</td>"; }

const ValidationResult* ValidationOf(const Study& study, const std::string& name) {
  for (const ValidationResult& v : study.validations)
    if (v.series_name == name) return &v;
  return nullptr;
}

// The skipped files counted by kind, then each with its reason (folded: a study of a thousand
// files may skip hundreds); the formats read said once, not after every file no reader took.
std::string SkippedFiles(const std::vector<SkippedFile>& skipped) {
  std::map<std::string, int> by_kind;
  for (const SkippedFile& f : skipped) ++by_kind[f.Kind()];
  std::string html = "<h3>Skipped files and why</h3>\n<table class=\"sortable\"><thead><tr><th>files</th>"
                     "<th>why</th></tr></thead><tbody>\n";
  for (const auto& [kind, count] : by_kind) html += "<tr>" + CountCell(count) + Text(kind) + "</tr>\n";
  html += "</tbody></table>\n";
  if (by_kind.count(kNotRecognisedFormat))
    html += "<p class=\"note\">" + EscapeHtml(std::string(kNotRecognisedFormat)) +
            ": none of the formats read took the file (" + EscapeHtml(ReadableFormatList()) + ").</p>\n";
  html += "<details><summary>every skipped file (" + std::to_string(skipped.size()) +
          ")</summary>\n<table><thead><tr><th>file</th><th>reason</th></tr></thead><tbody>\n";
  for (const SkippedFile& f : skipped) {
    // The reason names the file (and line) first; the row's first cell already names it.
    std::string reason = f.Brief();
    if (reason.compare(0, f.path.size(), f.path) == 0 && reason.size() > f.path.size() &&
        reason[f.path.size()] == ':') {
      reason.erase(0, f.path.size() + 1);
      const std::size_t digits = reason.find_first_not_of("0123456789");
      if (digits != 0 && digits != std::string::npos && reason[digits] == ':')
        reason = "line " + reason.substr(0, digits) + reason.substr(digits);
      reason.erase(0, reason.find_first_not_of(' '));
    }
    html += "<tr>" + Text(f.path) + Text(reason) + "</tr>\n";
  }
  return html + "</tbody></table>\n</details>\n";
}

std::string InputsSection(const Study& study) {
  const IngestSummary& in = study.ingest;
  std::string html = "<section id=\"inputs\">\n<h2>Inputs found</h2>\n<p>" + EscapeHtml(study.origin) + "</p>\n";
  html += "<table><tbody>\n";
  html += "<tr><th>paths given</th>" +
          Text(study.paths.empty() ? std::string("(none: the bundled default series)") : [&] {
            std::string all;
            for (const std::string& p : study.paths) all += (all.empty() ? "" : ", ") + p;
            return all;
          }()) + "</tr>\n";
  html += "<tr><th>files seen</th>" + CountCell(in.files_seen) + "</tr>\n";
  html += "<tr><th>files read</th>" + CountCell(in.files_read) + "</tr>\n";
  html += "<tr><th>files paired with another file's run</th>" + CountCell(in.files_paired) + "</tr>\n";
  html += "<tr><th>runs</th>" + CountCell(in.runs) + "</tr>\n";
  html += "<tr><th>series</th>" + CountCell(long(study.series.size())) + "</tr>\n";
  html += "<tr><th>grouped by</th>" + Text(study.group_by + (study.group_by == "content"
                                                                 ? " (what the files say: application, class, "
                                                                   "threads, machine; docs/series-identity.md)"
                                                                 : "")) + "</tr>\n";
  html += "<tr><th>duplicate measurements counted once</th>" +
          Text(in.duplicates.Total() > 0 ? in.duplicates.Note() : std::string("none")) + "</tr>\n";
  html += "<tr><th>files skipped</th>" + CountCell(long(in.skipped.size())) + "</tr>\n";
  html += "<tr><th>bytes read</th>" + Cell(in.bytes_read, "%.0f") + "</tr>\n";
  html += "</tbody></table>\n";

  html += "<h3>Series and their runs</h3>\n<table class=\"sortable\"><thead><tr><th>#</th><th>series</th>"
          "<th>process counts P</th><th>runs</th><th>median run time at smallest P (s)</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < study.series.size(); ++i) {
    const Series& s = study.series[i];
    std::string procs;
    long runs = 0;
    for (const RunGroup& g : s.groups) {
      procs += (procs.empty() ? "" : ", ") + std::to_string(g.procs) +
               (g.runs.size() > 1 ? " (\u00d7" + std::to_string(g.runs.size()) + ")" : "");
      runs += long(g.runs.size());
    }
    html += "<tr><td class=\"num\">" + std::to_string(i + 1) + "</td><td><a href=\"#" + SeriesAnchor(i) + "\">" +
            EscapeHtml(s.name) + "</a></td>" + Text(procs) + CountCell(runs) +
            Cell(s.groups.empty() ? NAN : s.groups.front().median_time_s) + "</tr>\n";
  }
  html += "</tbody></table>\n";

  if (!in.skipped.empty()) html += SkippedFiles(in.skipped);
  for (const std::string& note : in.notes) html += "<p class=\"note\">note: " + EscapeHtml(note) + "</p>\n";
  for (const std::string& warning : in.warnings)
    html += "<p class=\"warn\">warning: " + EscapeHtml(warning) + "</p>\n";
  for (const std::string& note : study.notes) html += "<p class=\"warn\">" + EscapeHtml(note) + "</p>\n";
  return html + "</section>\n";
}

std::string SummarySection(const Study& study) {
  std::string html =
      "<section id=\"summary\">\n<h2>Summary</h2>\n<p class=\"note\">One row per series; click a column header to "
      "sort (the page reads the same without scripts).</p>\n"
      "<table class=\"sortable\" id=\"summary-table\"><thead><tr><th>series</th><th>model</th><th>measured P</th>"
      "<th>largest predicted P</th><th>predicted T there (s)</th><th>interval width there (%)</th>"
      "<th>LOO median |error| (%)</th><th>LOO within 10% (%)</th><th>LOO within 30% (%)</th>"
      "<th>forward RMS log error</th><th>flagged predictions</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < study.predictions.size(); ++i) {
    const SeriesPrediction& p = study.predictions[i];
    const ProcsPrediction* last = nullptr;
    int flagged = 0;
    for (const ProcsPrediction& q : p.predictions) {
      if (q.Ok()) last = &q;
      flagged += !q.flags.empty();
    }
    const ValidationResult* v = ValidationOf(study, p.model.series_name);
    const double width = last && std::isfinite(last->total.upper_s)
                             ? 100 * (last->total.upper_s - last->total.lower_s) / last->total.value_s
                             : NAN;
    html += "<tr><td data-sort=\"" + EscapeHtml(p.model.series_name) + "\"><a href=\"#" + SeriesAnchor(i) + "\">" +
            EscapeHtml(p.model.series_name) + "</a></td>" + Text(ToString(p.model.kind)) +
            CountCell(long(p.observed.size())) + CountCell(last ? last->procs : 0) +
            Cell(last ? last->total.value_s : NAN) + Cell(width, "%.0f") +
            Cell(v ? 100 * v->summary.median_abs_relative_error : NAN, "%.1f") +
            Cell(v ? 100 * v->summary.within_10_fraction : NAN, "%.0f") +
            Cell(v ? 100 * v->summary.within_30_fraction : NAN, "%.0f") +
            Cell(p.model.summary.forward_log_rms, "%.3f") + CountCell(flagged) + "</tr>\n";
  }
  return html + "</tbody></table>\n</section>\n";
}

std::string GlossarySection() {
  std::string html = "<section id=\"glossary\">\n<h2>Names and units</h2>\n<p class=\"note\">The same names as the "
                     "terminal tables, CSV, JSON and charts (docs/glossary.md).</p>\n<table><thead><tr><th>name here</th>"
                     "<th>key in CSV/JSON</th><th>meaning</th></tr></thead><tbody>\n";
  for (const ComponentName& component : ComponentNames())
    html += "<tr><td>" + std::string(component.name) + "</td><td><code>" + component.key + "</code></td><td>" +
            component.meaning + "</td></tr>\n";
  html += "<tr><td>predicted T</td><td><code>total_s</code></td><td>W + I + S + A + C, run time per rank (s)</td></tr>\n"
          "<tr><td>P</td><td><code>procs</code></td><td>MPI processes</td></tr>\n"
          "<tr><td>extrapolation</td><td><code>extrapolation_log2</code></td><td>octaves (factors of 2 of P) "
          "outside the measured range</td></tr>\n"
          "<tr><td>LOO</td><td></td><td>leave-one-out: each measured P predicted by the model fitted on the "
          "others</td></tr>\n"
          // POP's factors of the measured runs (efficiency/pop_efficiency.h, Wagner et al. 2017).
          "<tr><td>load balance</td><td><code>pop_load_balance</code></td><td>POP: mean / max compute per rank of a "
          "measured run (%)</td></tr>\n"
          "<tr><td>communication efficiency</td><td><code>pop_communication_efficiency</code></td><td>POP: max compute "
          "/ runtime (%)</td></tr>\n"
          "<tr><td>parallel efficiency</td><td><code>pop_parallel_efficiency</code></td><td>POP: load balance &times; "
          "communication efficiency (%)</td></tr>\n"
          "<tr><td>computation scalability</td><td></td><td>POP: total compute at the smallest P / total compute at P "
          "(%)</td></tr>\n"
          "<tr><td>IPC scalability</td><td><code>ipc_scalability</code></td><td>POP: instructions per cycle in "
          "useful computation at P / at the smallest P (%; a Paraver trace's PAPI_TOT_INS and PAPI_TOT_CYC)</td></tr>\n"
          "<tr><td>instruction scalability</td><td><code>instruction_scalability</code></td><td>POP: useful "
          "instructions at the smallest P / at P (%)</td></tr>\n"
          "<tr><td>frequency scalability</td><td><code>frequency_scalability</code></td><td>POP: useful cycles per "
          "second of useful computation at P / at the smallest P (%)</td></tr>\n"
          "<tr><td>global efficiency</td><td></td><td>POP: parallel efficiency &times; computation scalability "
          "(%)</td></tr>\n";
  return html + "</tbody></table>\n</section>\n";
}

}  // namespace

std::string RenderStudyHtml(const Study& study) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>qnm-predict study report</title>\n<style>" + std::string(kReportCss) + "</style>\n</head>\n<body>\n";
  html += "<header><h1>qnm-predict study report</h1>\n<p>" + std::to_string(study.series.size()) +
          " series; predictions at P = " + EscapeHtml(study.procs_spec) +
          " and every measured P; validation leave-one-out. Times are seconds per rank.</p></header>\n";
  // The summary first: with 100 series the list of inputs is long.
  html += "<nav id=\"toc\"><strong>Contents</strong><ol>\n<li><a href=\"#summary\">Summary</a></li>\n"
          "<li><a href=\"#inputs\">Inputs found</a></li>\n";
  for (std::size_t i = 0; i < study.predictions.size(); ++i)
    html += "<li><a href=\"#" + SeriesAnchor(i) + "\">" + EscapeHtml(study.predictions[i].model.series_name) +
            "</a></li>\n";
  for (std::size_t i = 0; i < study.trace_paths.size(); ++i)
    html += "<li><a href=\"#" + TraceAnchor(i) + "\">Trace: " + EscapeHtml(study.trace_paths[i]) + "</a></li>\n";
  html += "<li><a href=\"#glossary\">Names and units</a></li>\n</ol></nav>\n";
  html += SummarySection(study);
  html += InputsSection(study);
  for (std::size_t i = 0; i < study.predictions.size(); ++i)
    html += SeriesSection(i, study.predictions[i], ValidationOf(study, study.predictions[i].model.series_name),
                          i < study.whatifs.size() ? &study.whatifs[i] : nullptr,
                          i < study.efficiencies.size() ? &study.efficiencies[i] : nullptr);
  for (const std::string& section : study.trace_sections) html += section;
  html += GlossarySection();
  html += "<script>" + std::string(kSortScript) + "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace qnm::report
