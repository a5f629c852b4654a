// A statistics table whose processes are in each row's launch command (tables/statistics_table.cpp,
// CommandColumn; launch/launch_command.h): a benchmark script's log of what it ran and how long it took,
// `command,elapsed_s` (tests/data/tables/stencil-commands.csv, written here by such a script), the layout and
// threads the command asks for, and the refusals.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "tables/statistics_table.h"
#include "util/input_error.h"

namespace {

std::vector<qnm::RunStats> Read(const std::string& csv, std::vector<std::string>* readings = nullptr) {
  return qnm::ReadStatisticsCsv(csv, "runs.csv", nullptr, nullptr, readings);
}

std::string Refusal(const std::string& csv) {
  try {
    Read(csv);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("Statistics tables: a column of launch commands gives each row's processes", "[table][launch]") {
  // A real script's log: mpirun -np 1, 2 and 4, two runs each.
  qnm::IngestOptions options;
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs =
      qnm::IngestPaths({std::string(QNM_TEST_DATA_DIR) + "/tables/stencil-commands.csv"}, options, &summary);
  REQUIRE(runs.size() == 6);
  CHECK(runs[0].procs == 1);
  CHECK(runs[5].procs == 4);
  CHECK(runs[5].wall_time_s == 0.58);
  CHECK(runs[5].series.str() == "stencil-commands");  // no series column: the file's name
  CHECK(runs[5].derivations.at("procs") == "statistics table column 'command': mpirun -np 4");
  bool said = false;
  for (const std::string& reading : summary.readings)
    said = said || reading.find(
                       "no procs column: each row's processes are what its launch command in column "
                       "'command' asks for") != std::string::npos;
  CHECK(said);
  // The layout and threads the command asks for, under another name of the column; the table's own threads
  // column wins over the command's.
  std::vector<qnm::RunStats> layout = Read(
      "Command Line,runtime\n"
      "\"OMP_NUM_THREADS=4 srun -N 1 --ntasks-per-node=8 ./app\",10.5\n"
      "\"OMP_NUM_THREADS=4 srun -N 2 --ntasks-per-node=8 ./app\",5.5\n");
  REQUIRE(layout.size() == 2);
  CHECK(layout[1].procs == 16);
  CHECK(layout[1].nodes == 2);
  CHECK(layout[1].ranks_per_node == 8);
  CHECK(layout[1].threads_per_proc == 4);
  layout = Read("cmd,threads,time_s\nmpirun -np 2 -x OMP_NUM_THREADS=4 ./a,2,3.0\n");
  REQUIRE(layout.size() == 1);
  CHECK(layout[0].threads_per_proc == 2);
  // A procs column is the processes; the command is then only noted as a column not read.
  const std::vector<qnm::RunStats> with_procs = Read("procs,command,time_s\n8,mpirun -np 4 ./a,1.0\n");
  REQUIRE(with_procs.size() == 1);
  CHECK(with_procs[0].procs == 8);
  // A document's table of commands and times (a Markdown report).
  const std::string doc = (std::filesystem::temp_directory_path() / "qnm-command-table.md").string();
  std::ofstream(doc) << "# Runs\n\n| command | time (s) |\n|---|---|\n| mpirun -np 1 ./a | 4.0 |\n"
                        "| mpirun -np 2 ./a | 2.1 |\n";
  qnm::IngestSummary doc_summary;
  const std::vector<qnm::RunStats> doc_runs = qnm::IngestPaths({doc}, options, &doc_summary);
  REQUIRE(doc_runs.size() == 2);
  CHECK(doc_runs[1].procs == 2);
  CHECK(doc_runs[1].wall_time_s == 2.1);
  std::filesystem::remove(doc);
  // Refused: a count that is none, a command without one, and two command columns.
  CHECK(Refusal("command,time_s\nmpirun -np x ./a,1.0\n") ==
        "runs.csv:2: column 'command': 'mpirun -np x ./a': -np x: not a whole number of at least 1");
  CHECK_THAT(Refusal("command,time_s\n./a in.dat,1.0\n"),
             Catch::Contains("missing value for the required column 'procs'"));
  CHECK_THAT(Refusal("command,cmd,time_s\nmpirun -np 2 ./a,mpirun -np 2 ./a,1.0\n"),
             Catch::Contains("a statistics table needs the columns procs and time_s"));
}

TEST_CASE("Statistics tables: a JSON table's key of launch commands gives each object's processes", "[table][launch]") {
  std::vector<std::string> readings;
  const std::vector<qnm::RunStats> runs = qnm::ReadStatisticsJson(
      R"([{"command": "mpirun -np 1 ./app in.dat", "elapsed_s": 12.0},
          {"command": "mpirun -np 2 ./app in.dat", "elapsed_s": 6.3},
          {"command": "OMP_NUM_THREADS=2 srun -N 2 -n 4 ./app in.dat", "elapsed_s": 3.4, "threads": 1}])",
      "runs.json", nullptr, nullptr, &readings);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].procs == 1);
  CHECK(runs[1].procs == 2);
  CHECK(runs[1].derivations.at("procs") == "statistics table column 'command': mpirun -np 2");
  CHECK(runs[2].procs == 4);
  CHECK(runs[2].nodes == 2);
  CHECK(runs[2].ranks_per_node == 2);
  CHECK(runs[2].threads_per_proc == 1);  // the object's own threads, not the command's OMP_NUM_THREADS
  CHECK(std::find(readings.begin(), readings.end(),
                  "runs.json: no procs key: each object's processes are what its launch command in key 'command' "
                  "asks for (mpirun -np, srun -n, ...)") != readings.end());
  auto refusal = [](const std::string& json) {
    try {
      qnm::ReadStatisticsJson(json, "runs.json", nullptr, nullptr, nullptr);
    } catch (const qnm::InputError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK(refusal(R"([{"command": "mpirun -np x ./app", "time_s": 1}])") ==
        "runs.json:1: column 'command': 'mpirun -np x ./app': -np x: not a whole number of at least 1");
  CHECK(refusal(R"([{"command": 16, "time_s": 1}])") == "runs.json:1: key 'command' needs a command line (a string)");
  // A procs key is the processes; the command is then an extra key.
  const std::vector<qnm::RunStats> with_procs = qnm::ReadStatisticsJson(
      R"([{"procs": 8, "command": "mpirun -np 2 ./app", "time_s": 1}])", "runs.json", nullptr, nullptr, nullptr);
  REQUIRE(with_procs.size() == 1);
  CHECK(with_procs[0].procs == 8);
}

TEST_CASE("Statistics tables under another name: a header of processes and time over rows of numbers", "[table]") {
  // Round 48's set S: a power-method study's data_strong_onenode.data ("p,n,iter,theta,time").
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "qnm_table_by_header";
  std::filesystem::create_directories(folder);
  const std::string path = (folder / "data_strong_onenode.data").string();
  {
    std::ofstream out(path);
    out << "p,n,iter,theta,time\n1,10000,300,9985.355091,36.238513\n2,10000,300,9985.355091,18.258686\n";
  }
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({path}, {}, &summary);
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].procs == 2);
  CHECK(runs[1].wall_time_s == Approx(18.258686));
  // A text file whose first line names no processes and time stays no table (an NPB output's banner, a log).
  const std::string log = (folder / "run.txt").string();
  {
    std::ofstream out(log);
    out << "step,residual\n1,0.5\n2,0.25\n";
  }
  qnm::IngestSummary other;
  CHECK(qnm::IngestPaths({log}, {}, &other).empty());
  REQUIRE(other.skipped.size() == 1);
  CHECK(other.skipped[0].reason.find("statistics table") == std::string::npos);
  std::filesystem::remove_all(folder);
}
