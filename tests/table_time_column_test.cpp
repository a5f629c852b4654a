// --metric names a statistics table's run-time column (tables/statistics_table.h, StatisticsTableOptions::
// time_column): a table whose time has a name of its own (`t_sim`), a choice among several, its unit from its
// name, and the refusal that names the columns; through ingest, for a CSV table and a JUBE result table.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "tables/statistics_table.h"
#include "util/input_error.h"

namespace {

std::vector<qnm::RunStats> ReadWithTimeColumn(const std::string& csv, const std::string& column) {
  qnm::StatisticsTableOptions options;
  options.time_column = column;
  return qnm::ReadStatisticsCsv(csv, "study.csv", options);
}

std::string Refusal(const std::string& csv, const std::string& column) {
  try {
    ReadWithTimeColumn(csv, column);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

const char kTable[] = "ranks,t_init,t_sim [ms],t_io\n1,0.5,4000,0.2\n2,0.6,2100,0.2\n4,0.7,1150,0.3\n";

}  // namespace

TEST_CASE("Statistics tables: --metric names the run time's column", "[table][metric]") {
  // Without it, no column is the run's time by its name.
  CHECK_THAT(Refusal(kTable, ""), Catch::Contains("a statistics table needs the columns procs and time_s"));
  // Named with or without its unit; the unit comes from the name.
  for (const std::string name : {"t_sim", "t_sim [ms]", "T_SIM"}) {
    INFO(name);
    const std::vector<qnm::RunStats> runs = ReadWithTimeColumn(kTable, name);
    REQUIRE(runs.size() == 3);
    CHECK(runs[1].procs == 2);
    CHECK(runs[1].wall_time_s == Approx(2.1));
    CHECK(runs[1].derivations.at("wall_time_s") ==
          "statistics table column 't_sim [ms]' (ms), named the run time by --metric");
  }
  // Another column than the one the names would choose: the user's.
  const std::vector<qnm::RunStats> max = ReadWithTimeColumn("np,time_s,time_max\n1,10,11\n2,5.2,5.9\n", "time_max");
  REQUIRE(max.size() == 2);
  CHECK(max[1].wall_time_s == 5.9);
  CHECK(ReadWithTimeColumn("np,time_s,time_max\n1,10,11\n2,5.2,5.9\n", "time_s")[1].wall_time_s == 5.2);
  // JUBE's statistics: runtime_min beside runtime_max is the minimum, in seconds.
  CHECK(ReadWithTimeColumn("np,runtime_min,runtime_max\n1,10,11\n2,5.2,5.9\n", "runtime_min")[1].wall_time_s == 5.2);
  // A name without a unit is seconds.
  CHECK(ReadWithTimeColumn("np,solve\n1,8\n2,4.5\n", "solve")[1].wall_time_s == 4.5);
  CHECK(Refusal(kTable, "t_total") ==
        "study.csv:1: no column 't_total' (--metric names the run time's column) among 'ranks', 't_init', "
        "'t_sim [ms]', 't_io'");
  // Two candidates by name: the refusal says how to choose.
  CHECK_THAT(Refusal("np,time,runtime\n1,2,2\n", ""), Catch::EndsWith("rename one of them to time_s, or name it "
                                                                      "with --metric"));
  CHECK(ReadWithTimeColumn("np,time,runtime\n1,2,2.5\n", "runtime")[0].wall_time_s == 2.5);
  // A JSON table's key, alike.
  qnm::StatisticsTableOptions options;
  options.time_column = "t_sim";
  const std::vector<qnm::RunStats> json = qnm::ReadStatisticsJson(
      R"([{"ranks": 1, "t_init": 0.5, "t_sim": 4.0}, {"ranks": 2, "t_init": 0.6, "t_sim": 2.1}])", "s.json", options);
  REQUIRE(json.size() == 2);
  CHECK(json[1].wall_time_s == 2.1);
}

TEST_CASE("Statistics tables: --metric through ingest, a CSV table and a JUBE result table", "[table][metric][jube]") {
  qnm::IngestOptions options;
  options.selection.metric = "runtime_max";
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths(
      {std::string(QNM_TEST_DATA_DIR) + "/jube/bench_run/000000/result/scaling_csv.dat"}, options, &summary);
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].procs == 4);
  CHECK(runs[0].wall_time_s == 122.246);  // runtime_max[s], not runtime_avg[s]'s 121.981
  CHECK(runs[0].series.str() == "stencil_strong_scaling: scaling_csv");
}
