// Extra-P interop: the text, JSON and JSON Lines readers on files in the
// shapes of Extra-P's documented examples, `export` -> reader round trips,
// and clean one-line errors for what is not supported.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <nlohmann/json.hpp>

#include "command_runner.h"
#include "extrap/extrap_experiment.h"
#include "ingest/ingest.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

using namespace qnm;

namespace {

std::string DataPath(const std::string& relative) { return std::string(QNM_TEST_DATA_DIR) + "/" + relative; }

using qnm::testing::RunCli;

std::string ErrorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("extrap: the documented text example reads as five points x three repetitions", "[ingest][extrap]") {
  std::string path = DataPath("extrap/input.txt");
  ExtrapExperiment experiment = ReadExtrapText(ReadFile(path), path);
  CHECK(experiment.parameter == "p");
  CHECK(experiment.points == std::vector<double>{4, 8, 16, 32, 64});
  REQUIRE(experiment.measurements.size() == 1);
  CHECK(experiment.measurements[0].callpath == "example");
  CHECK(experiment.measurements[0].values[4] == std::vector<double>{528.86, 522.44, 531.78});
  // Through ingest: one series, 15 runs (5 process counts x 3 repetitions).
  IngestSummary summary;
  std::vector<Series> series = GroupIntoSeries(IngestPaths({path}, IngestOptions{true, false}, &summary));
  REQUIRE(series.size() == 1);
  CHECK(series[0].name == "input");
  REQUIRE(series[0].groups.size() == 5);
  CHECK(series[0].groups[0].runs.size() == 3);
  CHECK(series[0].groups[0].median_time_s == Approx(8.14));
  CHECK(series[0].groups[4].procs == 64);
}

TEST_CASE("extrap: JSON and JSON Lines experiments give the same records", "[ingest][extrap]") {
  std::string jsonl = DataPath("extrap/jsonl_example.jsonl"), json = DataPath("extrap/json_example.json");
  for (const std::string& path : {jsonl, json}) {
    INFO(path);
    ExtrapExperiment experiment = path == jsonl ? ReadExtrapJsonLines(ReadFile(path), path) : ReadExtrapJson(ReadFile(path), path);
    std::vector<RunStats> runs = ExtrapToRunStats(experiment, "example", path);
    REQUIRE(runs.size() == 4);  // p=2 x 2 repetitions, p=4 x 2 repetitions
    CHECK(runs[0].procs == 2);
    CHECK(runs[0].wall_time_s == 10.0);
    CHECK(runs[1].wall_time_s == 10.4);
    CHECK(runs[0].mpi_time_mean_s == 1.0);
    CHECK(runs[1].mpi_time_mean_s == 1.0);  // one MPI value for two repetitions: used for both
    CHECK(runs[3].procs == 4);
    CHECK(runs[3].wall_time_s == 5.7);
    CHECK(runs[3].compute_time_mean_s == Approx(5.7 - 1.5));
  }
}

TEST_CASE("extrap: several parameters need --where, other parameters --parameter, in one line", "[ingest][extrap]") {
  std::string path = DataPath("extrap/two_parameters.txt");
  std::string message = ErrorOf([&] { ReadExtrapText(ReadFile(path), path); });
  CHECK(message.find(path + ": 2 parameters (p, n): scaling in p needs the others fixed with --where n=VALUE; not fixed: n (values ") == 0);
  RunSelection n1000;
  AddWhere("n=1000", &n1000);
  CHECK(ReadExtrapText(ReadFile(path), path, n1000).points == std::vector<double>{4, 8, 16});
  std::string jsonl = R"({"params":{"p":4,"n":10},"value":1.0})";
  CHECK(ErrorOf([&] { ReadExtrapJsonLines(jsonl, "x.jsonl"); }).find("x.jsonl: 2 parameters (p, n)") == 0);
  RunSelection n10;
  AddWhere("n=10", &n10);
  CHECK(ReadExtrapJsonLines(jsonl, "x.jsonl", n10).points == std::vector<double>{4});
  CHECK(ErrorOf([&] { ReadExtrapText("PARAMETER n\nPOINTS 1 2\nREGION a\nDATA 1\nDATA 2\n", "n.txt"); })
            .find("n.txt: no parameter is named like a process count (parameters: n); say which one is with --parameter NAME") == 0);
  RunSelection n;
  n.parameter = "n";
  CHECK(ReadExtrapText("PARAMETER n\nPOINTS 1 2\nREGION a\nDATA 1\nDATA 2\n", "n.txt", n).points == std::vector<double>{1, 2});
  CHECK(ErrorOf([&] { ReadExtrapText("PARAMETER p\nPOINTS 1 2\nREGION a\nDATA 1\n", "short.txt"); })
            .find("short.txt:4: REGION 'a' METRIC '' has 1 DATA lines for 2 points") == 0);
  CHECK(ErrorOf([&] { ReadExtrapText("PARAMETER p\nPOINTS 1 2\nREGION a\nDATA 1\nDATA x\n", "bad.txt"); })
            .find("bad.txt:5: 'x' is not a number") == 0);
}

TEST_CASE("extrap: times outside what a run can last are refused, not modelled", "[ingest][extrap][validation]") {
  // Robustness campaign, round 3: 1e30 s, 9.2e18 s and inf came through as run times.
  auto records_error = [](const std::string& second_value) {
    return ErrorOf([&] {
      std::string text = "PARAMETER p\nPOINTS 2 4\nREGION main\nDATA 8.5\nDATA " + second_value + "\n";
      ExtrapToRunStats(ReadExtrapText(text, "e.txt"), "e", "e.txt");
    });
  };
  CHECK(records_error("4.3").empty());
  CHECK(records_error("1e30").find("e.txt: metric time of main at p=4 1e+30 is outside [1e-06, 1e+07] s") == 0);
  CHECK(records_error("0").find("e.txt: metric time of main at p=4 0 is outside") == 0);
  CHECK_FALSE(records_error("inf").empty());
}

TEST_CASE("extrap: a file that is not UTF-8 is refused as Extra-P refuses it, names stay writable", "[ingest][extrap]") {
  // Extra-P opens text experiments as UTF-8 and refuses other bytes; so do we, naming the line.
  CHECK(ErrorOf([] { ReadExtrapText("PARAMETER p\nPOINTS 2 4\nREGION ma\xb4in\nDATA 8.5\nDATA 4.3\n", "u.txt"); })
            .find("u.txt:3: not text (bytes that are not UTF-8)") == 0);
  // Fuzzing, round 3: the JSON Lines writer threw (uncaught) on the byte 0xB4 in a name.
  ExtrapExperiment experiment;
  experiment.points = {2, 4};
  experiment.measurements.push_back({"ma\xb4in", "time", {{8.5}, {4.3}}});
  std::string jsonl = WriteExtrapJsonLines(experiment);
  CHECK(jsonl.find("\"callpath\":\"ma?in\"") != std::string::npos);
  CHECK(ReadExtrapJsonLines(jsonl, "again.jsonl").points.size() == 2);
}

TEST_CASE("extrap: export writes Extra-P's documented shapes and reads back", "[ingest][extrap][cli]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "qnm-extrap-export-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string text_file = (dir / "series.txt").string(), jsonl_file = (dir / "series.jsonl").string();
  // The bundled default series (bt-mz class C, mpiP + NPB output at 1..16 processes).
  std::string out;
  // Per-process values (--no-strong-scaling) read back as the series' run times;
  // the strong-scaling default (time x p) is checked in export_extrap_test.cpp.
  REQUIRE(RunCli("export --no-strong-scaling --format extrap-text -o " + text_file, &out) == 0);
  REQUIRE(RunCli("export --no-strong-scaling --format extrap-jsonl -o " + jsonl_file, &out) == 0);
  std::string text = ReadFile(text_file), jsonl = ReadFile(jsonl_file);

  // Text: PARAMETER, POINTS "(p) (p) ...", then REGION / METRIC / DATA blocks
  // with one DATA line per point, as in Extra-P's docs/examples/input.txt.
  // The series' identity comes first, in comment lines (issue 18).
  CHECK(StartsWith(text, "# qnm-predict export"));
  CHECK(text.find("\n# threads_per_proc: ") != std::string::npos);
  CHECK(text.find("\nPARAMETER p\nPOINTS (1) (2) (4)") != std::string::npos);
  CHECK(text.find("\nREGION bt-mz\nMETRIC time\nDATA ") != std::string::npos);
  CHECK(text.find("\nREGION bt-mz->MPI\n") != std::string::npos);
  CHECK(text.find("\nREGION bt-mz->MPI->MPI_") != std::string::npos);
  // JSON Lines: every line {"params":{"p":<int>},"callpath":...,"metric":...,"value":<number>};
  // the metrics are time and the counts the records hold (visits, bytes_sent).
  std::set<std::string> metrics;
  for (std::string_view line : SplitLines(jsonl)) {
    if (line.empty()) continue;
    nlohmann::json object = nlohmann::json::parse(line);
    REQUIRE(object["params"].size() == 1);
    CHECK(object["params"]["p"].is_number_integer());
    CHECK(object["callpath"].is_string());
    metrics.insert(object["metric"].get<std::string>());
    CHECK(object["value"].is_number());
  }
  CHECK(metrics.count("time") == 1);
  CHECK(metrics.count("visits") == 1);
  CHECK(metrics.count("bytes_sent") == 1);

  // Round trip: both files read back to the same experiment, and to the
  // series' run times.
  ExtrapExperiment from_text = ReadExtrapText(text, text_file), from_jsonl = ReadExtrapJsonLines(jsonl, jsonl_file);
  CHECK(from_text.points == from_jsonl.points);
  REQUIRE(from_text.measurements.size() == from_jsonl.measurements.size());
  for (std::size_t m = 0; m < from_text.measurements.size(); ++m) {
    CHECK(from_text.measurements[m].callpath == from_jsonl.measurements[m].callpath);
    CHECK(from_text.measurements[m].values == from_jsonl.measurements[m].values);
  }
  IngestSummary summary;
  std::vector<Series> original = GroupIntoSeries(IngestPaths({std::string(QNM_SOURCE_DIR) + "/data/default-series"}, {}, &summary));
  std::vector<Series> again = GroupIntoSeries(IngestPaths({text_file}, IngestOptions{true, false}, &summary));
  REQUIRE(original.size() == 1);
  REQUIRE(again.size() == 1);
  REQUIRE(again[0].groups.size() == original[0].groups.size());
  for (std::size_t g = 0; g < again[0].groups.size(); ++g) {
    CHECK(again[0].groups[g].procs == original[0].groups[g].procs);
    CHECK(again[0].groups[g].median_time_s == Approx(original[0].groups[g].median_time_s).epsilon(1e-15));
    CHECK(again[0].groups[g].runs[0].mpi_time_mean_s ==
          Approx(original[0].groups[g].runs[0].mpi_time_mean_s).epsilon(1e-15));
  }
  // Several series cannot be one experiment: a one-line error says how to pick.
  CHECK(RunCli(std::string("export ") + QNM_TEST_DATA_DIR + "/cube", &out) != 0);
  CHECK(out.find("pick one with --series NAME") != std::string::npos);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  fs::remove_all(dir);
}
