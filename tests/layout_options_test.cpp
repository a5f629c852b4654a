// --ranks-per-node and --work-units: what the user knows of the runs and the
// files do not say, on every command that reads runs.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/command_runner.h"
#include "tests/temp_dir.h"

namespace {

using qnm::testing::RunCli;

// hecbiosim GROMACS 61k atoms on ARCHER2, one rank per node (scaling2/series.csv): no ranks-per-node column.
const std::string kGromacs = std::string(QNM_TEST_DATA_DIR) + "/tables/gromacs_61k_archer2_one_rank_per_node.csv";
// The same runs with scaling2's `nodes` column, and still no ranks-per-node column.
const std::string kGromacsNodes = std::string(QNM_TEST_DATA_DIR) + "/tables/gromacs_61k_archer2_nodes.csv";

}  // namespace

TEST_CASE("layout option ranks-per-node: the node-boundary regime split applies once the layout is known",
          "[cli][nodes]") {
  std::string without, with;
  REQUIRE(RunCli("validate " + kGromacs + " --train 1,2,3,4,5", &without) == 0);
  CHECK(without.find("regime change") == std::string::npos);
  REQUIRE(RunCli("validate " + kGromacs + " --train 1,2,3,4,5 --ranks-per-node 1", &with) == 0);
  // P = 1 (one node) is 2x faster than P = 2 (two nodes): fitted to P = 2..5 alone.
  CHECK(with.find("leaving the node is a regime change: P=2") != std::string::npos);
  CHECK(with != without);
  std::string ingest;
  REQUIRE(RunCli("ingest " + kGromacs + " --ranks-per-node 1 --format json", &ingest) == 0);
  CHECK(ingest.find("\"ranks_per_node\": 1") != std::string::npos);
  CHECK(ingest.find("--ranks-per-node") != std::string::npos);  // the derivation says where it came from
}

TEST_CASE("a table's nodes column alone gives the layout: ranks per node = procs / nodes", "[cli][nodes]") {
  std::string out;
  REQUIRE(RunCli("validate " + kGromacsNodes + " --train 1,2,3,4,5", &out) == 0);
  CHECK(out.find("leaving the node is a regime change: P=2 (1 ranks per node") != std::string::npos);
  std::string ingest;
  REQUIRE(RunCli("ingest " + kGromacsNodes + " --format json", &ingest) == 0);
  CHECK(ingest.find("\"ranks_per_node\": 1") != std::string::npos);
  CHECK(ingest.find("procs / nodes") != std::string::npos);  // the derivation says where it came from
}

TEST_CASE("layout option work-units: a process count beyond the units of work is impossible, not predicted",
          "[cli][work-units]") {
  std::string out;
  REQUIRE(RunCli("predict " + kGromacs + " --procs 8,16,32 --work-units 16", &out) == 0);
  CHECK(out.find("impossible: P=32 exceeds the 16 units of work") != std::string::npos);
  CHECK(out.find("impossible: P=16") == std::string::npos);
  std::string bad;
  CHECK(RunCli("predict " + kGromacs + " --work-units 0", &bad) != 0);
  CHECK(bad.find("--work-units") != std::string::npos);
  CHECK(RunCli("predict " + kGromacs + " --ranks-per-node ''", &bad) != 0);
}

TEST_CASE("a rise the training runs never show is held at the curve's minimum, flagged, its interval kept",
          "[predict][flags]") {
  // Vlasiator IPshock-light on Mahti (scaling2/series.csv, 16 ranks per node): every run from
  // P = 32 to 256 faster than the one before; the fitted overheads turn the
  // curve upward beyond P = 1024 (measured: 482 s at 1024, 275 s at 3200) in the configuration
  // without the cost laws (the shipped default's cost laws keep this one falling).
  const std::string vlasiator = std::string(QNM_TEST_DATA_DIR) + "/transfer/vlasiator-light-mahti.csv";
  std::string out;
  const std::string nodes_split = " --configuration 'nodes + split'";
  REQUIRE(RunCli("validate " + vlasiator + nodes_split + " --train 32,48,64,128,256 --format json", &out) == 0);
  CHECK(out.find("turns upward after P=") != std::string::npos);
  CHECK(out.find("held at the curve's minimum") != std::string::npos);
  // Held: P = 2048 and 3200 get the same time, the curve's minimum, below the rising curve's (711 and
  // 794 s) and nearer the measured 287 and 275 s; with the interval's width split evenly, the measured
  // 275 s at P = 3200 is inside it, whose upper end is still the rising curve's. (With the shipped
  // split, 0.6 of the width above, its lower end is 302 s and this over-prediction falls outside.)
  std::string table;
  REQUIRE(RunCli("validate " + vlasiator + nodes_split + " --train 32,48,64,128,256 --interval-upper-share 0.5",
                 &table) == 0);
  auto row_of = [&table](const std::string& procs) {
    const std::size_t row = table.find("\n" + procs + " ");
    REQUIRE(row != std::string::npos);
    return table.substr(row + 1, table.find('\n', row + 1) - row - 1);
  };
  auto predicted = [](const std::string& line) {
    std::istringstream in(line);
    double procs = 0, measured = 0, value = 0;
    in >> procs >> measured >> value;
    return value;
  };
  const std::string at_2048 = row_of("2048"), at_3200 = row_of("3200");
  INFO(at_2048 << "\n" << at_3200);
  CHECK(predicted(at_2048) == predicted(at_3200));
  CHECK(predicted(at_3200) < 700);
  CHECK(predicted(at_3200) > 275);
  CHECK(at_3200.find(" yes") != std::string::npos);  // the "inside" column
}

TEST_CASE("option no-hold keeps the rising curve beyond an unevidenced minimum, flagged", "[predict][flags]") {
  const std::string vlasiator = std::string(QNM_TEST_DATA_DIR) + "/transfer/vlasiator-light-mahti.csv";
  std::string table;
  REQUIRE(RunCli("validate " + vlasiator + " --configuration 'nodes + split' --no-hold --train 32,48,64,128,256",
              &table) == 0);
  CHECK(table.find("rises after the curve's minimum") != std::string::npos);
  CHECK(table.find("held at") == std::string::npos);
}

TEST_CASE("ranks per node alone, from a table's column or --ranks-per-node, gives the nodes a run fills",
          "[cli][nodes]") {
  auto nodes_by_procs = [](const std::string& json_text) {
    std::map<int, int> out;
    const nlohmann::json json = nlohmann::json::parse(json_text.substr(json_text.find('{')));
    for (const auto& run : json.at("runs"))
      out[run["procs"].get<int>()] = run["nodes"].get<int>();
    return out;
  };
  // GROMACS with 2 ranks per node: P = 5 fills ceil(5 / 2) = 3 nodes.
  std::string ingest;
  REQUIRE(RunCli("ingest " + kGromacs + " --ranks-per-node 2 --format json", &ingest) == 0);
  CHECK(ingest.find("\"nodes\": \"ceil(procs / ranks per node) (--ranks-per-node)\"") != std::string::npos);
  std::map<int, int> nodes = nodes_by_procs(ingest.substr(0, ingest.rfind('}') + 1));
  CHECK(nodes[1] == 1);
  CHECK(nodes[5] == 3);
  CHECK(nodes[16] == 8);
  qnm::testing::TempDir dir("qnm-layout", "rpn");
  const std::string table = (dir.path / "rpn.csv").string();
  std::ofstream(table) << "series,procs,time_s,ranks_per_node\ns,1,10,2\ns,3,4,2\ns,4,3,2\n";
  REQUIRE(RunCli("ingest " + table + " --format json", &ingest) == 0);
  CHECK(ingest.find("ceil(procs / ranks per node) (statistics table column ranks_per_node)") != std::string::npos);
  nodes = nodes_by_procs(ingest.substr(0, ingest.rfind('}') + 1));
  CHECK(nodes == std::map<int, int>{{1, 1}, {3, 2}, {4, 2}});
}
