// Tables in Markdown and Org documents (tables/document_tables.h): a README-like report and an Org
// notebook carrying mpi4jax's measured shallow-water times (tests/data/document-tables/SOURCES.md),
// read by ingest as a user gives them; tables that are no statistics table passed over; the document's
// lines in every error; what is refused.
#include "tables/document_tables.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "tables/latex_tables.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kFolder = std::string(QNM_TEST_DATA_DIR) + "/document-tables";

std::map<std::string, std::map<int, double>> TimesBySeries(const std::vector<qnm::RunStats>& runs) {
  std::map<std::string, std::map<int, double>> times;
  for (const qnm::RunStats& run : runs) times[run.series][run.procs] = run.TotalTimeSeconds();
  return times;
}

std::string ErrorOf(const std::string& text, const std::string& path, qnm::DocumentKind kind) {
  try {
    qnm::ReadDocumentTables(text, path, kind);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("document tables: a Markdown report's strong-scaling table is a series named by its heading") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder + "/shallow-water-report.md"}, {}, &summary);
  const auto times = TimesBySeries(runs);
  REQUIRE(times.size() == 2);
  const auto& cpu = times.at("shallow-water-report: CPU strong scaling");
  const std::map<int, double> expected = {{1, 111.95}, {2, 89.67}, {4, 38.57}, {6, 28.70}, {8, 20.62}, {16, 15.73}};
  REQUIRE(cpu.size() == expected.size());
  for (const auto& [procs, time_s] : expected) CHECK(cpu.at(procs) == Approx(time_s).epsilon(1e-12));
  CHECK(times.at("shallow-water-report: GPU").at(1) == Approx(6.28));
  // Each run cites the document's line of its row (the first CPU row is line 25).
  const auto first = std::find_if(runs.begin(), runs.end(), [](const qnm::RunStats& run) {
    return run.series == "shallow-water-report: CPU strong scaling" && run.procs == 1;
  });
  REQUIRE(first != runs.end());
  CHECK(first->sources.front() == kFolder + "/shallow-water-report.md:25");
  // The settings table is passed over with a note; the table-like lines in the code block are no table.
  const std::string report = summary.Report();
  CHECK(report.find("1 Markdown table passed over") != std::string::npos);
  CHECK(report.find("line 16 ('setting', 'value')") != std::string::npos);
}

TEST_CASE("document tables: an Org table under its #+caption, an hline among its rows, a source block skipped") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder + "/shallow-water-notes.org"}, {}, &summary);
  const auto times = TimesBySeries(runs);
  REQUIRE(times.size() == 1);
  const auto& cpu = times.at("shallow-water-notes: CPU strong scaling");
  CHECK(cpu.size() == 6);
  CHECK(cpu.at(4) == Approx(38.57));
  CHECK(cpu.at(16) == Approx(15.73));
  const auto tables = qnm::FindDocumentTables(
      "* A\n#+name: t\n| np | time |\n|---+---|\n| 1 | 2 |\n\n* B\n| np | time |\n|---+---|\n| 2 | 1 |\n",
      qnm::DocumentKind::kOrg);
  REQUIRE(tables.size() == 2);
  CHECK(tables[0].heading == "t");  // #+name when there is no caption
  CHECK(tables[1].heading == "B");
  CHECK(tables[1].header_line == 8);
  REQUIRE(tables[1].rows.size() == 1);
  CHECK(tables[1].rows[0].first == 10);
}

TEST_CASE("document tables: two tables under one heading are two series, told apart by their lines") {
  const std::string text =
      "## Scaling\n\n| np | time |\n|---|---|\n| 1 | 4.0 |\n| 2 | 2.1 |\n\n"
      "| np | time | size |\n|---|---|---|\n| 1 | 4.0 | 100 |\n| 2 | 4.3 | 200 |\n";
  const auto times = TimesBySeries(qnm::ReadDocumentTables(text, "lab.md", qnm::DocumentKind::kMarkdown));
  REQUIRE(times.size() == 2);
  CHECK(times.count("lab: Scaling (line 3)") == 1);
  CHECK(times.count("lab: Scaling (line 8)") == 1);
  // Markdown's escaped '|' and emphasis around a cell.
  const auto tables =
      qnm::FindDocumentTables("| a \\| b | *c* |\n|-|-|\n| `1` | **2** |\n", qnm::DocumentKind::kMarkdown);
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].header == std::vector<std::string>{"a | b", "c"});
  CHECK(tables[0].rows[0].second == std::vector<std::string>{"1", "2"});
}

TEST_CASE("document tables: refusals name the document's line") {
  using qnm::DocumentKind;
  // A bad time in a statistics table: its row's line.
  CHECK(ErrorOf("# R\n\n| np | time |\n|---|---|\n| 1 | 4.0 |\n| 2 | fast |\n", "r.md", DocumentKind::kMarkdown)
            .rfind("r.md:6: column 'time' (time_s) needs a non-negative number", 0) == 0);
  // A row with more cells than the header: refused, not cut.
  CHECK(ErrorOf("| np | time |\n|---|---|\n| 1 | 4.0 | 7 |\n", "r.md", DocumentKind::kMarkdown).rfind("r.md:3:", 0) ==
        0);
  // No statistics table (rows without a rule under the first are no table with a header): not taken.
  CHECK(!qnm::HasStatisticsTable("* T\n| Cores | Time 1 |\n|---+---|\n| 1 | 10.8 |\n", DocumentKind::kOrg));
  CHECK(!qnm::HasStatisticsTable("| np | time |\n| 1 | 4.0 |\n", DocumentKind::kMarkdown));
  CHECK(ErrorOf("| np | time |\n| 1 | 4.0 |\n", "r.md", DocumentKind::kMarkdown) ==
        "r.md: no table whose header names a run's processes and time");
  CHECK(ErrorOf("| np | time |\n|---|---|\n\ntext\n", "r.md", DocumentKind::kMarkdown) ==
        "r.md:1: the table has a header but no rows");
  // Beside a table with rows, an empty one (a template) is passed over, not a refusal of the document.
  CHECK(qnm::ReadDocumentTables("| np | time |\n|---|---|\n\n# B\n\n| np | time |\n|---|---|\n| 2 | 1.0 |\n", "t.md",
                                DocumentKind::kMarkdown)
            .size() == 1);
  qnm::DocumentKind kind;
  CHECK(qnm::DocumentKindOfPath("results/README.MD", &kind));
  CHECK(kind == DocumentKind::kMarkdown);
  CHECK(!qnm::DocumentKindOfPath("results/table.csv", &kind));
}

TEST_CASE("document tables: a column per repetition (Time 1, Time 2) is as many runs a row; their mean is not one") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder + "/nbody-repetitions.md"}, {}, &summary);
  REQUIRE(runs.size() == 16);
  std::map<int, std::vector<double>> by_procs;
  for (const qnm::RunStats& run : runs) {
    CHECK(run.series == "nbody-repetitions: N-body, 10000 bodies, 300 iterations");
    by_procs[run.procs].push_back(run.TotalTimeSeconds());
  }
  CHECK(by_procs.at(5) == std::vector<double>{129, 130});
  CHECK(by_procs.at(8) == std::vector<double>{81, 80});
  CHECK(runs[1].details.at("run") == "Time 2 (s)");
  CHECK(summary.Report().find("columns 'Time 1 (s)', 'Time 2 (s)' read as repetitions") != std::string::npos);
  CHECK(summary.Report().find("column 'Average (s)' ignored") != std::string::npos);
}

TEST_CASE("document tables: a LaTeX report's tabular named by its table's caption, booktabs rules, comments") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder + "/shallow-water-report.tex"}, {}, &summary);
  const auto times = TimesBySeries(runs);
  REQUIRE(times.size() == 1);
  const auto& cpu = times.at("shallow-water-report: CPU strong scaling, 3600 x 1800");
  const std::map<int, double> expected = {{1, 111.95}, {2, 89.67}, {4, 38.57}, {6, 28.70}, {8, 20.62}, {16, 15.73}};
  REQUIRE(cpu.size() == expected.size());
  for (const auto& [procs, time_s] : expected) CHECK(cpu.at(procs) == Approx(time_s).epsilon(1e-12));
  const auto sixteen = std::find_if(runs.begin(), runs.end(), [](const qnm::RunStats& run) { return run.procs == 16; });
  REQUIRE(sixteen != runs.end());
  CHECK(sixteen->sources.front() == kFolder + "/shallow-water-report.tex:24");
  CHECK(summary.Report().find("1 LaTeX table passed over") != std::string::npos);
  // Rows spanning lines, \\& in a cell, \multicolumn, an siunitx unit, the section as the name without a caption.
  const auto tables = qnm::FindLatexTables(
      "\\subsection*{Scaling}\n\\begin{tabular*}{\\linewidth}{cc}\n\\multicolumn{1}{c}{$p$} & "
      "Time [\\si{\\second}] \\\\ \\hline\n2 &\n 4.5 \\\\\n A\\&B & 1 \\\\\n\\end{tabular*}\n");
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].heading == "Scaling");
  CHECK(tables[0].header == std::vector<std::string>{"p", "Time [s]"});
  REQUIRE(tables[0].rows.size() == 2);
  CHECK(tables[0].rows[0].first == 4);  // the row starts on the line after the header
  CHECK(tables[0].rows[0].second == std::vector<std::string>{"2", "4.5"});
  CHECK(tables[0].rows[1].second[0] == "A&B");
  qnm::DocumentKind kind;
  CHECK(qnm::DocumentKindOfPath("report/main.tex", &kind));
  CHECK(kind == qnm::DocumentKind::kLatex);
}

TEST_CASE("document tables: hyperfine's table pasted into a report, a mean with its spread (12.3 ± 0.4)") {
  // The Markdown table of tests/data/hyperfine/markup/pipe.md under a heading of a README: the processes from
  // each row's launch command, the time from 'Mean [ms]' without its '± deviation', a '|' of the command kept.
  const std::string text = qnm::ReadFile(std::string(QNM_TEST_DATA_DIR) + "/hyperfine/markup/pipe.md");
  const std::vector<qnm::RunStats> runs =
      qnm::ReadDocumentTables("# Stencil\n\nMeasured on 2 cores.\n\n## hyperfine\n\n" + text + "\nMore text.\n",
                              "README.md", qnm::DocumentKind::kMarkdown);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].series == "README: hyperfine");
  CHECK(runs[0].procs == 1);
  CHECK(runs[0].wall_time_s == Approx(0.3417).epsilon(1e-12));
  CHECK(runs[1].procs == 2);
  CHECK(runs[1].wall_time_s == Approx(0.3497).epsilon(1e-12));
  CHECK(runs[1].sources.front() == "README.md:10");
  // The same table of hyperfine's Org export in an Org notebook: its =command= cells without their marks.
  const std::string org = qnm::ReadFile(std::string(QNM_TEST_DATA_DIR) + "/hyperfine/markup/stencil.org");
  const std::vector<qnm::RunStats> notebook =
      qnm::ReadDocumentTables("* Stencil\n\n" + org, "notes.org", qnm::DocumentKind::kOrg);
  REQUIRE(notebook.size() == 4);
  CHECK(notebook[3].procs == 4);
  CHECK(notebook[3].wall_time_s == 0.526);
  // A user's own table: an average's word alone with a time unit, values with their spread written three ways.
  const std::vector<qnm::RunStats> own = qnm::ReadDocumentTables(
      "| ranks | Avg (s) |\n|---|---|\n| 1 | 12.3 ± 0.4 |\n| 2 | 6.5 +- 0.2 |\n| 4 | 3.4+/-0.1 |\n", "r.md",
      qnm::DocumentKind::kMarkdown);
  REQUIRE(own.size() == 3);
  CHECK(own[0].wall_time_s == 12.3);
  CHECK(own[1].wall_time_s == 6.5);
  CHECK(own[2].wall_time_s == 3.4);
  // A spread that is no number leaves the cell no number.
  CHECK(ErrorOf("| ranks | time_s |\n|---|---|\n| 1 | 12.3 ± x |\n", "r.md", qnm::DocumentKind::kMarkdown) ==
        "r.md:3: column 'time_s' needs a non-negative number, got '12.3 \u00b1 x'");
}
