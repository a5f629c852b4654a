// `qnm-predict report`: the HTML page of a study (report/). Checks the page's
// content as text; tests/report_browser_test.sh checks it rendered in chromium.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>

#include "command_runner.h"
#include "report/html_text.h"
#include "report/study_report.h"
#include "temp_dir.h"
#include "util/atomic_file.h"

namespace {

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

qnm::report::Study BundledStudy() {
  qnm::report::StudyOptions options;
  options.procs = {1, 2, 4, 8, 16, 32, 64};
  options.procs_spec = "1..64:x2";
  return qnm::report::BuildStudy(options);
}

}  // namespace

TEST_CASE("report escapes every character HTML gives a meaning", "[report]") {
  CHECK(qnm::report::EscapeHtml("<a href='x'>\"&\"</a>") ==
        "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
  CHECK(qnm::report::HtmlNumber(std::nan("")) == "\u2013");
  CHECK(qnm::report::SortKey(0.5) == "0.5");
}

TEST_CASE("report of the bundled series has every section, chart and unit", "[report]") {
  const qnm::report::Study study = BundledStudy();
  REQUIRE(study.series.size() == 1);
  REQUIRE(study.validations.size() == 1);
  const std::string html = qnm::report::RenderStudyHtml(study);
  for (const char* id : {"id=\"toc\"", "id=\"inputs\"", "id=\"summary\"", "id=\"series-1\"", "id=\"glossary\""})
    CHECK(Count(html, id) == 1);
  // Table of contents links to each section.
  CHECK(Count(html, "href=\"#series-1\"") == 3);  // contents, series list, summary
  // Charts: run time, LOO error, components, the measured runs' POP efficiencies (mpiP: every rank's
  // time), and one per fitted input (time_scale excluded).
  int inputs = 0;
  for (const qnm::InputCurve& input : study.predictions[0].model.inputs) inputs += input.key != "time_scale";
  CHECK(Count(html, "<svg class=\"chart\"") == std::size_t(4 + inputs));
  CHECK(Count(html, "</svg>") == std::size_t(4 + inputs));
  CHECK(Count(html, "<h3>Efficiencies of the measured runs</h3>") == 1);
  // Its runtime is the profile's window (mpiP: the longest rank's AppTime), not the run time predicted above.
  CHECK(Count(html, "Runtime: the longest rank's application time in the profile (MPI_Init to MPI_Finalize)") == 1);
  CHECK(Count(html, "class=\"sortable efficiency\"") == 1);
  CHECK(Count(html, "<code>pop_load_balance</code>") == 1);  // named in "Names and units" too
  CHECK(Count(html, "class=\"bar\"") >= 7 * 2);  // 7 predicted P, at least compute and one MPI part each
  // One row per predicted P (1..64 and the measured 1..16 are the same seven).
  const std::size_t table = html.find("class=\"sortable predictions\"");
  REQUIRE(table != std::string::npos);
  const std::string predictions = html.substr(table, html.find("</table>", table) - table);
  CHECK(Count(predictions, "<tr") == 1 + 7);
  // Units in every header of numbers; interval bounds in their own columns.
  CHECK(predictions.find("<th>90% lower (s)</th><th>90% upper (s)</th>") != std::string::npos);
  CHECK(html.find("MPI service A (s)") != std::string::npos);
  // Self-contained: no external reference of any kind.
  CHECK_FALSE(std::regex_search(html, std::regex(R"((src|href)\s*=\s*"(https?:)?//)")));
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("@media print") != std::string::npos);
  CHECK(html.find("bundled default series") != std::string::npos);
}

TEST_CASE("report shows names from the inputs as text, never as markup", "[report]") {
  qnm::testing::TempDir dir("qnm-report", "escape");
  const std::string table = (dir.path / "x<img src=y>.csv").string();
  std::ofstream(table) << "series,procs,time_s\n"
                          "\"<script>alert(1)</script>\",1,100\n\"<script>alert(1)</script>\",2,52\n"
                          "\"<script>alert(1)</script>\",4,27\n\"<script>alert(1)</script>\",8,15\n";
  std::ofstream((dir.path / "notes<b>.txt").string()) << "not a run\n";  // skipped: listed with its reason
  qnm::report::StudyOptions options;
  options.paths = {dir.path.string()};
  options.procs = {1, 2, 4, 8, 16};
  const std::string html = qnm::report::RenderStudyHtml(qnm::report::BuildStudy(options));
  CHECK(html.find("<script>alert") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(html.find("<img") == std::string::npos);
  CHECK(Count(html, "<script>") == 1);  // the sort script only
  CHECK(html.find("<h3>Skipped files and why</h3>") != std::string::npos);
  CHECK(html.find("notes&lt;b&gt;.txt") != std::string::npos);
  CHECK(html.find("notes<b>") == std::string::npos);
}

TEST_CASE("report counts skipped files by why, says the formats once, and lists each file folded",
          "[report]") {
  qnm::testing::TempDir dir("qnm-report", "skipped");
  std::ofstream((dir.path / "runs.csv").string()) << "series,procs,time_s\na,1,100\na,2,52\na,4,27\na,8,15\n";
  std::ofstream((dir.path / "README.txt").string()) << "not a run\n";
  std::ofstream((dir.path / "notes.txt").string()) << "nor this\n";
  std::ofstream((dir.path / "index.csv").string()) << "benchmark,npb_time_s\nbt,1.0\n";
  qnm::report::StudyOptions options;
  options.paths = {dir.path.string()};
  options.procs = {1, 2, 4, 8, 16};
  const std::string html = qnm::report::RenderStudyHtml(qnm::report::BuildStudy(options));
  CHECK(html.find("<tr><td class=\"num\">2</td><td>not a recognised format</td></tr>") != std::string::npos);
  CHECK(html.find("<tr><td class=\"num\">1</td><td>a statistics table needs the columns procs and time_s</td></tr>") !=
        std::string::npos);
  CHECK(Count(html, "mpiP report, mpitrace profile") == 1);  // the formats read, said once
  CHECK(html.find("<summary>every skipped file (3)</summary>") != std::string::npos);
  const std::string readme = (dir.path / "README.txt").string();
  CHECK(html.find("<tr><td>" + readme + "</td><td>not a recognised format</td></tr>") != std::string::npos);
  const std::string index = (dir.path / "index.csv").string();
  CHECK(html.find("<tr><td>" + index + "</td><td>line 1: a statistics table needs") != std::string::npos);
}

TEST_CASE("report command writes the page and refuses bad input with one line", "[report]") {
  qnm::testing::TempDir dir("qnm-report", "cli");
  const std::string page = (dir.path / "study.html").string();
  std::string out;
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " report --procs 1..32:x2 -o " + page + " 2>&1",
                                   &out) == 0);
  const std::string html = qnm::ReadFile(page);
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("</html>") != std::string::npos);

  const std::string bad = (dir.path / "broken.csv").string();
  std::ofstream(bad) << "series,procs,time_s\nx,one,1\n";
  const int code = qnm::testing::RunCommand(
      std::string(QNM_CLI_PATH) + " report " + bad + " -o " + (dir.path / "bad.html").string() + " 2>&1", &out);
  CHECK(code != 0);
  CHECK(out.find("broken.csv") != std::string::npos);
  CHECK(Count(out, "\n") == 1);
  CHECK_FALSE(std::filesystem::exists(dir.path / "bad.html"));
}

TEST_CASE("report --trace adds wait states, imbalance ranking and region names", "[report]") {
  qnm::report::StudyOptions options;
  options.procs = {1, 2, 4};
  options.traces = {std::string(QNM_TEST_DATA_DIR) + "/otf2/tracer-stencil4d-32"};
  const std::string html = qnm::report::RenderStudyHtml(qnm::report::BuildStudy(options));
  CHECK(Count(html, "id=\"trace-1\"") == 1);
  CHECK(Count(html, "href=\"#trace-1\"") == 1);
  CHECK(html.find("Late Sender <code>mpi_latesender</code>") != std::string::npos);
  CHECK(html.find("wait states: share of the total time, by pattern") != std::string::npos);
  CHECK(html.find("<td>TRACER_Loop</td>") != std::string::npos);  // a region of the imbalance ranking
  CHECK(html.find("<code>TRACER_Loop</code>") != std::string::npos);   // and among the names whatif takes
  CHECK(html.find("<code>MPI_Waitall</code>") == std::string::npos);   // MPI calls are not regions to balance

  options.traces = {"/nonexistent/trace.otf2"};
  CHECK_THROWS_WITH(qnm::report::BuildStudy(options), Catch::Contains("/nonexistent/trace.otf2"));
}

TEST_CASE("report refuses -o naming one of its inputs", "[report]") {
  qnm::testing::TempDir dir("qnm-report", "overwrite");
  const std::string table = (dir.path / "runs.csv").string();
  std::ofstream(table) << "series,procs,time_s\na,1,10\na,2,5.5\na,4,3\n";
  std::string out;
  CHECK(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " report " + table + " -o " + table + " 2>&1", &out) != 0);
  CHECK(out.find("runs.csv") != std::string::npos);
  CHECK(qnm::ReadFile(table) == "series,procs,time_s\na,1,10\na,2,5.5\na,4,3\n");
}

TEST_CASE("an input curve that misses its measured points says so in the table, the chart and the text",
          "[report]") {
  // The bundled BT-MZ series: messages per process grow 113 -> 1500 from P = 2 to 16, which the
  // bounded message families cannot follow; compute time per process they fit within 1%.
  const qnm::report::Study study = BundledStudy();
  const std::string html = qnm::report::RenderStudyHtml(study);
  int noted = 0;
  for (const qnm::InputCurve& input : study.predictions[0].model.inputs) {
    double worst = 1;
    for (const auto& [procs, value] : input.measured) {
      const double fitted = input.Evaluate(procs);
      if (value > 0 && fitted > 0) worst = std::max({worst, fitted / value, value / fitted});
    }
    if (worst < 1.5) {
      CHECK(input.fit_note.empty());
      continue;
    }
    ++noted;
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.1fx", worst);
    CHECK(input.fit_note.find(factor) != std::string::npos);
    CHECK(Count(html, input.fit_note) == 2);  // the inputs table and the chart's caption
  }
  CHECK(noted >= 1);
  const qnm::InputCurve& compute = study.predictions[0].model.inputs.front();
  CHECK(compute.key == "compute_s");
  CHECK(compute.fit_note.empty());
  const qnm::InputCurve* messages = nullptr;
  for (const qnm::InputCurve& input : study.predictions[0].model.inputs)
    if (input.key == "messages_per_rank") messages = &input;
  REQUIRE(messages != nullptr);
  CHECK(messages->fit_note.rfind("misses the measured P=16 by ", 0) == 0);
}

TEST_CASE("a runtime-only series' page names its configuration: the default, chosen or given", "[report]") {
  qnm::testing::TempDir dir("qnm-report", "configuration");
  const std::string table = std::string(QNM_TEST_DATA_DIR) + "/tables/lu_b_g5k_median.csv";
  const std::string page = (dir.path / "study.html").string();
  std::string out;
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " report -o " + page + " " + table + " 2>&1", &out) ==
          0);
  std::string html = qnm::ReadFile(page);
  CHECK(html.find("Configuration <b>nodes + split + cost 0.5</b>, the default") != std::string::npos);
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " report --configuration per-series -o " + page + " " +
                                       table + " 2>&1",
                                   &out) == 0);
  html = qnm::ReadFile(page);
  CHECK(html.find("Configuration <b>Amdahl alone</b>, chosen for this series: of 4 configurations") !=
        std::string::npos);
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " report --configuration Occam+nodes -o " + page +
                                       " " + table + " 2>&1",
                                   &out) != 0);
  CHECK(out.find("--configuration") != std::string::npos);
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " report --configuration 'nodes + split' -o " + page +
                                       " " + table + " 2>&1",
                                   &out) == 0);
  html = qnm::ReadFile(page);
  CHECK(html.find("Configuration <b>nodes + split</b>, given with --configuration.") != std::string::npos);
}
