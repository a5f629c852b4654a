// CASTEP outputs read into the run record (tests/data/castep: the UK HPC benchmark
// suite's Al3x3, TiN and DNA runs with CASTEP 18.1, 19.11 and 20.11, SOURCES.md
// there). The values below are copied from the files by hand.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "command_runner.h"
#include "app_outputs/castep_output.h"
#include "ingest/ingest.h"
#include "reader/series_identity.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::WriteCase;

const std::string kCastep = std::string(QNM_TEST_DATA_DIR) + "/castep";
const std::string kPlain = kCastep + "/al3x3_2nodes_256ranks_1threads_202104171322_aocl.castep";
const std::string kAl3x3 =
    "castep.'3x3 sapphire surface benchmark (v1.1)' single point energy 270 ions 2 k-points cut-off 400 eV Perdew Wang "
    "(1991) SCF max 40";

std::vector<RunStats> Read(const std::string& name, IngestSummary* summary = nullptr) {
  return testing::IngestPath(kCastep + "/" + name, summary, /*strict=*/false);
}

}  // namespace

TEST_CASE("CASTEP output: processes, Total time, the parameters and the run's name", "[ingest][castep]") {
  // "Calculation parallelised over 256 processes."; "Total time = 237.23 s"; CASTEP 20.11.
  std::vector<RunStats> runs = Read("al3x3_2nodes_256ranks_1threads_202104171322_aocl.castep");
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.app == "castep");
  CHECK(run.tool_version == "CASTEP 20.11");
  CHECK(run.procs == 256);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.nodes == 2);  // CASTEP does not say; the run's name does
  CHECK(run.ranks_per_node == 128);
  CHECK(run.wall_time_s == 237.23);
  CHECK(testing::DetailNumber(run, "castep_initialisation_time_s") == 3.79);
  CHECK(testing::DetailNumber(run, "castep_calculation_time_s") == 226.18);
  CHECK(testing::DetailNumber(run, "castep_finalisation_time_s") == 7.26);
  CHECK(testing::DetailNumber(run, "castep_peak_memory_kb") == 5889744);
  CHECK(run.details.at("castep_distribution") == "G-vector(128-way) and k-point(2-way)");
  CHECK("castep." + std::string(run.problem_class) == kAl3x3);
  CHECK(run.variant == "castep20.11");
}

TEST_CASE("CASTEP output: threads per process, a run without a title", "[ingest][castep]") {
  // Cirrus, CASTEP 18.1: "Calculation parallelised over 16 processes.", "Each process may use up to 2 threads."
  std::vector<RunStats> runs = Read("TiN-mp_1nodes_16ranks_2threads_202007061822.castep.gz");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 16);
  CHECK(runs[0].threads_per_proc == 2);
  CHECK(runs[0].wall_time_s == 396.75);
  CHECK(runs[0].problem_class == "single point energy 33 ions 8 k-points cut-off 380 eV Perdew Wang (1991) SCF max 40");
}

TEST_CASE("CASTEP output: runs appended to one file, an unfinished one said and not read", "[ingest][castep]") {
  // 128 processes from line 65 without 'Total time', then 512 processes: "Total time = 283.66 s".
  IngestSummary summary;
  std::vector<RunStats> runs = Read("al3x3_4nodes_512ranks_1threads_202011041726.castep.gz", &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 512);
  CHECK(runs[0].wall_time_s == 283.66);
  CHECK(runs[0].tool_version == "CASTEP 19.11");
  CHECK(runs[0].details.at("castep_run_line") == "616");
  bool said = false;
  for (const std::string& note : summary.notes) said |= note.find("1 of its 2 runs did not finish") != std::string::npos &&
                                                        note.find("line 65") != std::string::npos;
  CHECK(said);
  // A file whose only run did not finish: one line naming the file and the run's line.
  const std::string error = testing::IngestErrorOf(kCastep + "/polyA20-no-wat_64nodes_6threads_201805181413.castep.gz");
  CHECK(error.find("polyA20-no-wat_64nodes_6threads_201805181413.castep.gz:60") != std::string::npos);
  CHECK(error.find("did not finish") != std::string::npos);
}

TEST_CASE("CASTEP output: two finished runs in one file are two records; the name's nodes are neither's",
          "[ingest][castep]") {
  // CSD3 Skylake, CASTEP 17.21: 64 processes ("Total time = 383.61 s"), then 32 (725.94 s) appended to
  // al3x3_2nodes.castep: the 2 nodes of the name cannot be both runs'.
  std::vector<RunStats> runs = Read("al3x3_2nodes.castep.gz");
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].procs == 64);
  CHECK(runs[0].wall_time_s == 383.61);
  CHECK(runs[1].procs == 32);
  CHECK(runs[1].wall_time_s == 725.94);
  for (const RunStats& run : runs) {
    CHECK(run.nodes == 0);
    CHECK(run.ranks_per_node == 0);
    CHECK(run.tool_version == "CASTEP 17.21");
  }
}

TEST_CASE("CASTEP output: a damaged time names its file and line", "[ingest][castep]") {
  std::string text = ReadText(kPlain);
  const std::size_t at = text.find("Total time          =    237.23 s");
  REQUIRE(at != std::string::npos);
  text.replace(at + 25, 6, "2x7.23");
  testing::TempDir dir("qnm-castep", "damaged");
  const std::string path = (dir.path / "damaged.castep").string();
  std::ofstream(path, std::ios::binary) << text;
  const std::string error = testing::IngestErrorOf(path);
  CHECK(error.find("damaged.castep:861") != std::string::npos);
  CHECK(error.find("'Total time'") != std::string::npos);
  CHECK(LooksLikeCastepOutput(ReadText(kPlain)));
  CHECK_FALSE(LooksLikeCastepOutput(text.substr(text.find("Run started"))));
}

TEST_CASE("a folder of CASTEP outputs is a series by input and version; predict fits it", "[ingest][castep][cli]") {
  std::vector<Series> series = GroupIntoSeries(testing::IngestPath(kCastep, nullptr, false), GroupBy::kContent);
  std::map<std::string, std::vector<int>> procs;
  for (const Series& s : series)
    for (const RunGroup& g : s.groups) procs[s.name].push_back(g.procs);
  CHECK(procs.at(kAl3x3 + " (castep20.11)") == std::vector<int>{128, 256, 512, 1024, 2048});
  CHECK(procs.at(kAl3x3 + " (castep19.11)") == std::vector<int>{512});
  CHECK(procs.at(kAl3x3 + " (castep17.21)") == std::vector<int>{32, 64});
  std::string out;
  REQUIRE(testing::RunCli("predict " + kCastep + " --procs 4096", &out) == 0);
  CHECK(out.find("series " + kAl3x3 + " (castep20.11): runtime-only model on 5 process counts") != std::string::npos);
  CHECK(out.find("4096   -") != std::string::npos);
}
