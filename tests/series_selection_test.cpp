// `--series NAME` and the shared scaling tables (issue 18): every one of the
// 42 series of scaling_series.csv is reachable by its exact name, although 10
// names are part of others ("...-omp1" in "...-omp12"); a substring of several
// names is refused in one line listing them; the tables read as they are,
// extra columns ignored with a note; `ingest` lists runs by series, then P.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "command_runner.h"
#include "temp_dir.h"
#include "ingest/ingest.h"
#include "pipeline/series_selection.h"
#include "reader/series_identity.h"
#include "util/input_error.h"

using namespace qnm;

namespace {

const std::string kScaling = std::string(QNM_TEST_DATA_DIR) + "/scaling";

using qnm::testing::RunCli;

std::vector<Series> ScalingSeries(IngestSummary* summary) {
  return GroupIntoSeries(IngestPaths({kScaling + "/scaling_series.csv"}, IngestOptions{true, false}, summary),
                         GroupBy::kContent);
}

}  // namespace

TEST_CASE("scaling_series.csv reads as it is and every series is reachable by its exact name",
          "[series][ingest]") {
  IngestSummary summary;
  std::vector<Series> all = ScalingSeries(&summary);
  REQUIRE(all.size() == 42);
  CHECK(summary.notes.empty());  // `metric` is a known column now: nothing ignored
  int inside_others = 0;
  for (const Series& series : all) {
    INFO(series.name);
    bool inside = std::any_of(all.begin(), all.end(), [&](const Series& other) {
      return other.name != series.name && other.name.find(series.name) != std::string::npos;
    });
    inside_others += inside ? 1 : 0;
    std::vector<Series> chosen = SelectSeries(all, series.name);
    REQUIRE(chosen.size() == 1);
    CHECK(chosen[0].name == series.name);
  }
  CHECK(inside_others == 10);  // the 10 the issue found unreachable
  // The metric each row's time measures is kept with the run.
  for (const Series& series : all)
    if (series.name == "amgcl-Poisson512cubed-constdefl-MareNostrum4-omp1:solve")
      CHECK(series.groups[0].runs[0].details.at("metric") == "solve");
  // A unique substring still selects; an ambiguous one names the candidates.
  CHECK(SelectSeries(all, "Poisson256cubed-deflSA-SuperMUC-omp1:solv").size() == 1);
  try {
    SelectSeries(all, "MareNostrum4-omp2");
    FAIL("an ambiguous substring was accepted");
  } catch (const InputError& error) {
    std::string message = error.what();
    CHECK(message.find("--series 'MareNostrum4-omp2' is part of") != std::string::npos);
    CHECK(message.find("amgcl-Poisson512cubed-constdefl-MareNostrum4-omp24") != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
  CHECK_THROWS_AS(SelectSeries(all, "no-such-series"), InputError);
}

TEST_CASE("export, predict, validate and plot select a name that is part of others", "[series][cli]") {
  const std::string table = kScaling + "/scaling_series.csv";
  const std::string name = "amgcl-Poisson512cubed-constdefl-MareNostrum4-omp1";  // also in ...-omp12, ...-omp1:solve
  std::string out;
  REQUIRE(RunCli("export --series " + name + " " + table, &out) == 0);
  CHECK(out.find("# series: " + name + "\n") != std::string::npos);
  REQUIRE(RunCli("predict --series " + name + " --procs 96 " + table, &out) == 0);
  CHECK(out.find(name) != std::string::npos);
  CHECK(out.find(name + "2") == std::string::npos);
  CHECK(out.find(name + ":solve") == std::string::npos);
  REQUIRE(RunCli("validate --series " + name + " " + table, &out) == 0);
  CHECK(out.find(name + "2") == std::string::npos);
  CHECK(RunCli("export --series MareNostrum4-omp2 " + table, &out) != 0);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  CHECK(out.find("is part of 4 series names") != std::string::npos);
}

TEST_CASE("with --series, only the chosen series' repetition warnings are printed", "[series][cli]") {
  // tests/data/mpip holds series whose repetitions spread (R @wolf-vb, bitonic_mergesort @cn); BT-MZ's do not.
  const std::string mpip = std::string(QNM_TEST_DATA_DIR) + "/mpip";
  auto stderr_of = [&](const std::string& arguments, std::string* err) {
    return qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " " + arguments + " 2>&1 >/dev/null", err);
  };
  std::string err;
  REQUIRE(stderr_of("predict " + mpip + " --procs 32", &err) == 0);
  CHECK(err.find("warning: series R @wolf-vb: 2 repetitions at P=2") != std::string::npos);
  CHECK(err.find("warning: series bitonic_mergesort @cn:") != std::string::npos);
  REQUIRE(stderr_of("predict " + mpip + " --series 'bt-mz.C th=12' --procs 32", &err) == 0);
  CHECK(err.find("warning:") == std::string::npos);
  REQUIRE(stderr_of("validate " + mpip + " --series 'R @wolf-vb' --format csv", &err) == 0);
  CHECK(err.find("warning: series R @wolf-vb: 2 repetitions at P=2") != std::string::npos);
  CHECK(err.find("bitonic") == std::string::npos);
  // The report's "Inputs found" lists the same.
  qnm::testing::TempDir dir("qnm-series", "warnings");
  const std::string html = (dir.path / "r.html").string();
  REQUIRE(stderr_of("report " + mpip + " --series 'R @wolf-vb' --procs 4 -o " + html, &err) == 0);
  std::ifstream in(html);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(page.find("series R @wolf-vb: 2 repetitions at P=2") != std::string::npos);
  CHECK(page.find("bitonic_mergesort @cn: 2 repetitions") == std::string::npos);
}

TEST_CASE("a table with extra columns reads, with one note; ingest sorts by series then P", "[series][ingest][cli]") {
  std::string out;
  // scaling2's layout: ranks_per_node, threads, nodes, machine are record
  // fields; n_runs is not (ignored with a note).
  REQUIRE(RunCli("ingest --format json " + kScaling + "/scaling2_excerpt.csv", &out) == 0);
  CHECK(out.find("column 'n_runs' ignored") != std::string::npos);
  CHECK(out.find("\"ranks_per_node\": 56") != std::string::npos);
  CHECK(out.find("\"nodes\": 8") != std::string::npos);
  // The table: P ascending as numbers (the file lists 1, 2, 4, ... per series already;
  // scaling_series.csv's series in file order are not sorted by name).
  REQUIRE(RunCli("ingest " + kScaling + "/scaling_series.csv", &out) == 0);
  std::vector<std::pair<std::string, int>> rows;
  std::size_t start = out.find('\n') + 1;  // after the header
  for (std::size_t end; (end = out.find('\n', start)) != std::string::npos; start = end + 1) {
    std::string line = out.substr(start, end - start);
    if (line.rfind("ingest:", 0) == 0 || line.rfind("series ", 0) == 0 || line.rfind("  ", 0) == 0 || line.empty())
      continue;
    std::size_t name_end = line.find(' ');
    rows.emplace_back(line.substr(0, name_end), std::stoi(line.substr(name_end)));
  }
  REQUIRE(rows.size() > 300);
  CHECK(std::is_sorted(rows.begin(), rows.end()));
  // Full names: the three compiler variants stay apart.
  std::set<std::string> names;
  for (const auto& row : rows) names.insert(row.first);
  CHECK(names.size() == 42);
}
