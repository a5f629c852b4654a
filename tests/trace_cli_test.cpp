// `qnm-predict trace analyze|stats` end to end through the built binary.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/command_runner.h"

#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

std::string TraceDir(const std::string& tag) {
  return std::string(QNM_TEST_DATA_DIR) + "/otf2/" + tag;
}

/// Runs the CLI with `args`; returns the exit code and fills stdout (stderr merged when asked).
int RunCli(const std::string& args, std::string* out, bool merge_stderr = false) {
  std::string command = std::string(QNM_CLI_PATH) + " " + args + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  return qnm::testing::RunCommand(command, out);
}

}  // namespace

TEST_CASE("trace cli: analyze json reproduces the expected patterns", "[trace]") {
  std::string out;
  REQUIRE(RunCli("trace analyze " + TraceDir("synthetic-patterns-4rank") + " --format json", &out) == 0);
  nlohmann::json report = nlohmann::json::parse(out);
  std::ifstream file(TraceDir("synthetic-patterns-4rank") + "/expected_patterns.json");
  nlohmann::json expected = nlohmann::json::parse(file);
  for (const auto& [id, entry] : expected["patterns"].items()) {
    INFO(id);
    CHECK(report["patterns"][id]["total"].get<double>() == Approx(entry["total"].get<double>()).margin(1e-15));
    CHECK(report["patterns"][id]["instances"].size() == entry["instances"].size());
  }
  CHECK(report["ranks"] == 4);
  CHECK(report["metrics"]["mpi_latesender"]["parent"] == "mpi_point2point");
  CHECK(report["worst_callpaths"][0]["callpath"] == "main/MPI_Win_fence");
  CHECK(report["dissimilarity"].is_object());
}

TEST_CASE("trace cli: table, csv, output file and cube", "[trace]") {
  std::string out;
  REQUIRE(RunCli("trace analyze " + TraceDir("tracer-stencil4d-32") + " --top 3", &out) == 0);
  CHECK(out.find("Metric tree") != std::string::npos);
  CHECK(out.find("Late Sender [mpi_latesender]") != std::string::npos);
  CHECK(out.find("Worst call paths") != std::string::npos);
  CHECK(out.find("Worst ranks") != std::string::npos);
  CHECK(out.find("Dissimilarity") != std::string::npos);
  CHECK(out.find("MPI_Finalize is not in the trace") != std::string::npos);

  fs::path dir = fs::temp_directory_path() / ("qnm-trace-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string csv = (dir / "report.csv").string(), cube = (dir / "report.cubex").string();
  REQUIRE(RunCli("trace analyze " + TraceDir("synthetic-patterns-4rank") + " --format csv -o " + csv +
                     " --cube " + cube, &out) == 0);
  CHECK(out.empty());
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  CHECK(header == "metric,callpath,rank,value_s");
  bool found = false;
  while (std::getline(in, line))
    if (line == "mpi_latereceiver,\"main/MPI_Ssend\",2,0.0001") found = true;
  CHECK(found);
  CHECK(fs::file_size(cube) > 1024);
  fs::remove_all(dir);
}

TEST_CASE("trace cli: stats and errors", "[trace]") {
  std::string out;
  REQUIRE(RunCli("trace stats " + TraceDir("pipit-ping-pong-otf2") + " --format json", &out) == 0);
  nlohmann::json stats = nlohmann::json::parse(out);
  CHECK(stats["procs"] == 2);
  CHECK(stats["per_rank"]["p2p_calls"][0] == 8);  // 8 message sizes, one send each way
  CHECK(stats["tool_version"] == "Score-P 7.1");

  CHECK(RunCli("trace analyze /nonexistent/trace", &out, true) == 1);
  CHECK(out == "qnm-predict: /nonexistent/trace: no such trace anchor file\n");
  CHECK(RunCli("trace analyze " + TraceDir("pipit-ping-pong-otf2") + " --format xml", &out, true) == 1);
  CHECK(out.find("--format must be table, json or csv") != std::string::npos);
}

TEST_CASE("trace cli: each table of analyze has one time unit, named in its heading", "[trace]") {
  std::string out;
  REQUIRE(RunCli("trace analyze " + TraceDir("tracer-stencil4d-32"), &out) == 0);
  // Before issue 22 a column mixed "0.713 ms" and "95.210 us"; now the
  // heading names the unit and no cell carries one.
  CHECK(out.find("Metric tree (sum over ranks, s;") != std::string::npos);
  CHECK(out.find("Worst call paths (waiting time in wait states, ms,") != std::string::npos);
  CHECK(out.find("Worst ranks (waiting time, ms;") != std::string::npos);
  const std::string tables = out.substr(0, out.find("Dissimilarity"));
  CHECK(tables.find(" us ") == std::string::npos);
  CHECK(tables.find(" ms ") == std::string::npos);
  CHECK(tables.find("Barrier Completion [mpi_barrier_completion]") != std::string::npos);
  CHECK(tables.find("<0.001") != std::string::npos);  // a tiny nonzero time is not shown as 0
  // The worst call paths keep their columns: every time starts at the same offset.
  std::size_t start = tables.find("Worst call paths"), column = std::string::npos;
  std::size_t line = tables.find('\n', start) + 1;
  for (int k = 0; k < 3; ++k) {
    const std::size_t end = tables.find('\n', line);
    const std::string row = tables.substr(line, end - line);
    const std::size_t at = row.find_first_of("0123456789", row.find("  ", 2));
    if (column == std::string::npos) column = at;
    CHECK(at == column);
    line = end + 1;
  }
}

TEST_CASE("trace cli: analyze lists the region names a whatif takes", "[trace]") {
  std::string out;
  REQUIRE(RunCli("trace analyze " + TraceDir("tracer-stencil4d-32"), &out) == 0);
  const std::size_t at = out.find("Regions (names for whatif --balance R and --scale R=F)\n");
  REQUIRE(at != std::string::npos);
  const std::string regions = out.substr(at, out.find("\n\n", at) - at);
  CHECK(regions.find("\n  TRACER_Loop\n") != std::string::npos);
  CHECK(regions.find("\n  TRACER_WallTime_InLoop") != std::string::npos);
  CHECK(regions.find("MPI_") == std::string::npos);  // MPI calls are not regions to balance
}
