// JUBE result tables (tables/jube_result.h) on a real JUBE run (tests/data/jube/SOURCES.md: Debian's JUBE 2.5.1
// ran stencil_scaling.xml here): the result folder's pretty and csv tables, `jube result`'s printed tables, the
// series named after the benchmark its configuration.xml names; and the column names JUBE writes (its platform's
// taskspernode and threadspertask, a pattern's runtime_avg statistic) read by every statistics table.
#include "tables/jube_result.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "tables/statistics_table.h"
#include "tables/table_column_aliases.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kFolder = std::string(QNM_TEST_DATA_DIR) + "/jube";
const std::string kResult = kFolder + "/bench_run/000000/result";

qnm::ReaderOutput Read(const std::string& path, const std::string& text) {
  qnm::ReaderInput input;
  input.path = path;
  input.text = text;
  return qnm::ReadJubeResult(input);
}

std::string Refusal(const std::string& path, const std::string& text) {
  try {
    Read(path, text);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

// What JUBE's run measured (result.dat's runtime_avg[s], the mean of two iterations), at tasks 4, 8, 16, 32.
const std::vector<double> kSeconds = {121.981, 61.971, 31.901, 17.206};

}  // namespace

TEST_CASE("JUBE: a run's result folder, its tables named after the benchmark", "[jube]") {
  CHECK(qnm::IsJubeResultFile(kResult + "/result.dat"));
  CHECK_FALSE(qnm::IsJubeResultFile(kFolder + "/jube-result.txt"));
  CHECK(qnm::JubeBenchmarkName(kResult + "/result.dat") == "stencil_strong_scaling");
  const std::string pretty = qnm::ReadFile(kResult + "/result.dat");
  REQUIRE(qnm::LooksLikeJubePrettyTable(pretty));
  const qnm::ReaderOutput output = Read(kResult + "/result.dat", pretty);
  REQUIRE(output.runs.size() == 4);
  for (std::size_t i = 0; i < output.runs.size(); ++i) {
    const qnm::RunStats& run = output.runs[i];
    INFO(i);
    CHECK(run.series.str() == "stencil_strong_scaling");
    CHECK(run.procs == 4 << i);
    CHECK(run.nodes == 1 << i);
    CHECK(run.ranks_per_node == 4);
    CHECK(run.threads_per_proc == 1);
    CHECK(run.wall_time_s == kSeconds[i]);
    CHECK(run.sources.front() == kResult + "/result.dat:" + std::to_string(4 + i));  // the pipe table's rows
  }
  REQUIRE_FALSE(output.readings.empty());
  CHECK(output.readings.front() == kResult +
                                       "/result.dat: a JUBE result table of benchmark 'stencil_strong_scaling' "
                                       "(its run's configuration.xml)");
  // The csv style: the file is the table; a table not named `result` adds its name.
  const qnm::ReaderOutput csv = Read(kResult + "/scaling_csv.dat", qnm::ReadFile(kResult + "/scaling_csv.dat"));
  REQUIRE(csv.runs.size() == 4);
  CHECK(csv.runs[3].series.str() == "stencil_strong_scaling: scaling_csv");
  CHECK(csv.runs[3].wall_time_s == kSeconds[3]);
  CHECK(csv.runs[3].sources.front() == kResult + "/scaling_csv.dat:5");
}

TEST_CASE("JUBE: `jube result`'s printed tables, anywhere, and a result table without its run", "[jube]") {
  // `jube result -a bench_run > jube-result.txt`: the pretty table under "result:", then the csv table, which
  // has no title and is not read from the printout (its own file is).
  const std::string printed = qnm::ReadFile(kFolder + "/jube-result.txt");
  REQUIRE(qnm::LooksLikeJubePrettyTable(printed));
  const qnm::ReaderOutput output = Read(kFolder + "/jube-result.txt", printed);
  REQUIRE(output.runs.size() == 4);
  CHECK(output.runs[0].series.str() == "result");
  CHECK(output.runs[2].wall_time_s == kSeconds[2]);
  CHECK(output.runs[2].sources.front() == kFolder + "/jube-result.txt:6");
  // A result folder copied without its run's configuration.xml: the table's name.
  const std::filesystem::path copy = std::filesystem::temp_directory_path() / "qnm-jube-test" / "result";
  std::filesystem::create_directories(copy);
  std::filesystem::copy_file(kResult + "/scaling_csv.dat", copy / "scaling_csv.dat",
                             std::filesystem::copy_options::overwrite_existing);
  qnm::IngestOptions options;
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({copy.string()}, options, &summary);
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].series.str() == "scaling_csv");
  std::filesystem::remove_all(copy.parent_path());
  // A Markdown report opening with "Results:" and a table stays the document reader's.
  const std::filesystem::path report = std::filesystem::temp_directory_path() / "qnm-jube-report.md";
  std::ofstream(report) << "Results:\n| procs | time |\n|---|---|\n| 1 | 2.0 |\n| 2 | 1.1 |\n";
  qnm::IngestSummary report_summary;
  const std::vector<qnm::RunStats> report_runs = qnm::IngestPaths({report.string()}, options, &report_summary);
  REQUIRE(report_runs.size() == 2);
  CHECK(report_runs[0].series.str() == "qnm-jube-report");  // the document's name, not JUBE's "Results"
  std::filesystem::remove(report);
  // Refused: a pretty table of other columns only.
  CHECK(Refusal("t.txt", "result:\n| nodes | bandwidth |\n|---|---|\n| 1 | 3.5 |\n") ==
        "t.txt:1: no JUBE result table whose columns name a run's processes and time (such as tasks and runtime; "
        "docs/formats/jube-result.md)");
  CHECK_FALSE(qnm::LooksLikeJubePrettyTable("| procs | time |\n|---|---|\n| 1 | 2 |\n"));  // a Markdown table
  CHECK_FALSE(qnm::LooksLikeJubePrettyTable("Total time: 3 s\n| a | b |\n|---|---|\n"));
}

TEST_CASE("Statistics tables: JUBE's column names and a mean's name read as the run's", "[jube][table]") {
  // taskspernode and threadspertask (JUBE's platform parameters); runtime_avg[s] (a pattern's statistic).
  const std::vector<qnm::RunStats> runs = qnm::ReadStatisticsCsv(
      "nodes,taskspernode,threadspertask,tasks,runtime_avg[s],runtime_std[s],runtime_cnt\n"
      "1,4,2,4,10.5,0.1,3\n2,4,2,8,5.6,0.1,3\n",
      "jube.csv");
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].procs == 8);
  CHECK(runs[1].ranks_per_node == 4);
  CHECK(runs[1].threads_per_proc == 2);
  CHECK(runs[1].wall_time_s == 5.6);
  qnm::TableColumnAliases aliases;
  std::string error;
  auto time_column = [&](const std::vector<std::string>& header) {
    aliases = {};
    error.clear();
    return qnm::ResolveTableColumnAliases(header, &aliases, &error) ? aliases.HeaderOf("time_s") : "error: " + error;
  };
  CHECK(time_column({"np", "avg_time [ms]", "time_max"}) == "avg_time [ms]");
  CHECK(aliases.seconds_per_time_unit == 0.001);
  CHECK(time_column({"np", "time_mean", "time_std"}) == "time_mean");
  CHECK(time_column({"np", "Average runtime", "max runtime"}) == "Average runtime");
  CHECK(time_column({"cells", "ranks", "t_init", "t_run", "n_spike"}) == "t_run");  // jubench-arbor's README
  CHECK(time_column({"np", "runtime", "runtime_avg"}) == "runtime");
  CHECK(time_column({"np", "time 1", "time 2", "time_avg"})
            .empty());  // the repetitions are read, not their mean  // the run time by its name comes first
  CHECK(time_column({"np", "runtime_max", "runtime_min"}).empty());  // no mean: no run time
  // JUBE's runtime_min beside runtime_max is a minimum, not a time in minutes; alone, "_min" is minutes.
  CHECK(time_column({"np", "runtime_avg", "runtime_min", "runtime_max"}) == "runtime_avg");
  CHECK(time_column({"np", "runtime_min"}) == "runtime_min");
  CHECK(aliases.seconds_per_time_unit == 60.0);
  CHECK(time_column({"np", "runtime_avg", "time_mean"}) ==
        "error: columns 'runtime_avg' and 'time_mean' could each be the run time (time_s): rename one of them to "
        "time_s, or name it with --metric");
}
