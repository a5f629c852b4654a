// The record's field table (record/run_stats_fields.h) drives the table reader,
// the JSON and CSV writers; docs/statistics-table.md must list the same columns.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "record/run_stats_fields.h"
#include "record/run_stats_json.h"
#include "tables/statistics_table.h"

namespace {

// column -> record field, from the "| column | record field ... |" table of the doc.
std::map<std::string, std::string> DocumentedColumns() {
  std::ifstream in(std::string(QNM_SOURCE_DIR) + "/docs/statistics-table.md");
  REQUIRE(in.good());
  std::map<std::string, std::string> columns;
  std::string line;
  bool in_table = false;
  const std::regex name("`([^`]+)`");
  while (std::getline(in, line)) {
    if (line.rfind("| column | record field", 0) == 0) {
      in_table = true;
      continue;
    }
    if (!in_table || line.rfind("|---", 0) == 0) continue;
    if (line.empty() || line[0] != '|') break;
    std::size_t second = line.find('|', 1), third = line.find('|', second + 1);
    std::string column_cell = line.substr(1, second - 1);
    std::string member_cell = line.substr(second + 1, third - second - 1);
    std::smatch member;
    REQUIRE(std::regex_search(member_cell, member, name));
    for (std::sregex_iterator it(column_cell.begin(), column_cell.end(), name), end; it != end; ++it)
      columns[(*it)[1]] = member[1];
  }
  return columns;
}

}  // namespace

TEST_CASE("docs/statistics-table.md lists the columns of the field table", "[record][fields]") {
  std::map<std::string, std::string> documented = DocumentedColumns();
  std::map<std::string, std::string> table;
  for (const qnm::RunStatsField& field : qnm::RunStatsFields()) table[field.column] = field.member;
  CHECK(documented == table);
  CHECK(table.size() == 30);  // 27 + ranks_per_node, nodes, metric (issue 18)
}

TEST_CASE("The table reader accepts exactly the field table's columns", "[record][fields]") {
  const std::vector<std::string>& columns = qnm::StatisticsTableColumns();
  REQUIRE(columns.size() == qnm::RunStatsFields().size());
  for (std::size_t c = 0; c < columns.size(); ++c) CHECK(columns[c] == qnm::RunStatsFields()[c].column);
}

TEST_CASE("The CSV writer writes the written columns and reads back the same values", "[record][fields]") {
  qnm::RunStats run;
  run.series = "lu.B, g5k";
  run.app = "lu";
  run.procs = 8;
  run.wall_time_s = 39.49;
  run.mops_total = 12632.51;
  run.iterations = 250;
  run.sources = {"a.out", "b.mpiP"};
  std::string csv = qnm::RunsToCsv({run});
  std::string header = csv.substr(0, csv.find('\n'));
  std::string expected;
  for (const qnm::RunStatsField& field : qnm::RunStatsFields())
    if (field.written) expected += (expected.empty() ? "" : ",") + std::string(field.column);
  CHECK(header == expected);
  std::vector<qnm::RunStats> back = qnm::ReadStatisticsCsv(csv, "written.csv");
  REQUIRE(back.size() == 1);
  CHECK(back[0].series == "lu.B, g5k");
  CHECK(back[0].procs == 8);
  CHECK(back[0].wall_time_s == Approx(39.49));
  CHECK(back[0].mops_total == Approx(12632.51));
  CHECK(back[0].iterations == 250);
  // "a.out;b.mpiP" reads back as the run's two files (series identity cites each by name).
  REQUIRE(back[0].sources.size() >= 2);
  CHECK(back[0].sources[back[0].sources.size() - 2] == "a.out");
  CHECK(back[0].sources.back() == "b.mpiP");
  nlohmann::json json = qnm::RunToJson(run);
  for (const qnm::RunStatsField& field : qnm::RunStatsFields())
    if (field.written && field.kind != qnm::RunStatsField::Kind::kSources) CHECK(json.contains(field.column));
}
