// `qnm-predict whatif` end to end through the built binary.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>

#include "tests/command_runner.h"

#include "util/atomic_file.h"

namespace fs = std::filesystem;

namespace {

std::string Synthetic() { return std::string(QNM_TEST_DATA_DIR) + "/otf2/synthetic-patterns-4rank"; }

int RunWhatif(const std::string& args, std::string* out) {
  std::string command = std::string(QNM_CLI_PATH) + " whatif " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::array<char, 4096> buffer;
  out->clear();
  std::size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out->append(buffer.data(), n);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("whatif cli: json report for a config file and options", "[whatif]") {
  std::string config = (fs::temp_directory_path() / "qnm_whatif_cli.cfg").string();
  qnm::WriteFileAtomically(config, "MODEL \"Reenact\"\nCUT MESSAGE TAG == 11  # the 0->1 message\n");
  std::string out;
  REQUIRE(RunWhatif(Synthetic() + " --config " + config + " --scale main=1 --format json", &out) == 0);
  nlohmann::json j = nlohmann::json::parse(out);
  CHECK(j["hypotheses"].size() == 2);
  CHECK(j["hypotheses"][0] == "cut message tag == 11");
  CHECK(j["messages_cut"] == 1);
  CHECK(j["ranks"].size() == 4);
  CHECK(j["wait_states"]["mpi_latesender"]["original_s"].get<double>() == Approx(320e-6));
  CHECK(j["wait_states"]["mpi_latesender"]["predicted_s"].get<double>() < 320e-6);
  CHECK(j["original_runtime_s"].get<double>() == Approx(3.1e-3).epsilon(1e-9));
}

TEST_CASE("whatif cli: table to a file, identity gains nothing", "[whatif]") {
  std::string path = (fs::temp_directory_path() / "qnm_whatif_cli_table.txt").string();
  fs::remove(path);
  std::string out;
  REQUIRE(RunWhatif(Synthetic() + " -o " + path, &out) == 0);
  CHECK(out.empty());
  std::string table = qnm::ReadFile(path);
  CHECK(table.find("hypotheses: none (identity replay)") != std::string::npos);
  CHECK(table.find("gain                    0.000000 s  (0.00 %)") != std::string::npos);
  CHECK(table.find("Late Sender") != std::string::npos);
}

TEST_CASE("whatif cli: bad input is a one-line error", "[whatif]") {
  std::string config = (fs::temp_directory_path() / "qnm_whatif_cli_bad.cfg").string();
  qnm::WriteFileAtomically(config, "# comment\nSCALE REGION \"main\" -2\n");
  std::string out;
  CHECK(RunWhatif(Synthetic() + " --config " + config, &out) == 1);
  CHECK(out == "qnm-predict: " + config + ":2: scale factor must be a number >= 0, not '-2'\n");
  CHECK(RunWhatif(Synthetic() + " --balance no_such_region", &out) == 1);
  CHECK(out.find("no region named \"no_such_region\"") != std::string::npos);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  CHECK(RunWhatif(Synthetic() + " --cut-messages 'size~3'", &out) == 1);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  CHECK(RunWhatif(Synthetic() + " --format xml", &out) == 1);
  CHECK(RunWhatif("/nonexistent/trace", &out) == 1);
  CHECK(out.find("/nonexistent/trace") != std::string::npos);
}

TEST_CASE("whatif cli: --write-trace writes an archive that trace analyze and whatif accept", "[whatif]") {
  fs::path base = fs::temp_directory_path() / ("qnm_whatif_cli_write_" + std::to_string(::getpid()));
  fs::remove_all(base);
  fs::create_directories(base);
  std::string dir = (base / "simulated").string();
  std::string out;
  REQUIRE(RunWhatif(Synthetic() + " --write-trace " + dir + " --format json", &out) == 0);
  REQUIRE(fs::exists(dir + "/traces.otf2"));
  // Its wait states equal the original's (identity replay).
  std::string cli = std::string(QNM_CLI_PATH);
  std::string original, written;
  REQUIRE(qnm::testing::RunCommand(cli + " trace analyze " + Synthetic() + " --format json 2>&1", &original) == 0);
  REQUIRE(qnm::testing::RunCommand(cli + " trace analyze " + dir + " --format json 2>&1", &written) == 0);
  nlohmann::json a = nlohmann::json::parse(original), b = nlohmann::json::parse(written);
  CHECK(a["metrics"] == b["metrics"]);
  // whatif reads it back; a cut writes over our own archive.
  REQUIRE(RunWhatif(dir + " --cut-messages 'tag==11' --write-trace " + dir + " --format json", &out) == 0);
  CHECK(nlohmann::json::parse(out)["messages_cut"] == 1);
  REQUIRE(RunWhatif(dir + " --format json", &out) == 0);
  CHECK(nlohmann::json::parse(out)["messages_cut"] == 0);

  // A damaged trace: one-line error, no folder written, nothing left beside it.
  fs::path damaged = base / "damaged";
  fs::copy(Synthetic(), damaged, fs::copy_options::recursive);
  for (auto& entry : fs::recursive_directory_iterator(damaged))
    fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add);
  { std::ofstream(damaged / "traces" / "1.evt", std::ios::binary | std::ios::trunc) << "\x05\x01garbage"; }
  std::string target = (base / "from-damaged").string();
  CHECK(RunWhatif(damaged.string() + " --write-trace " + target, &out) == 1);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  CHECK(out.find("1.evt") != std::string::npos);
  CHECK(!fs::exists(target));
  // A folder that is not ours is refused with one line and kept.
  CHECK(RunWhatif(Synthetic() + " --write-trace " + damaged.string(), &out) == 1);
  CHECK(out.find("refusing to overwrite") != std::string::npos);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  CHECK(std::distance(fs::directory_iterator(base), fs::directory_iterator{}) == 2);  // simulated, damaged
  fs::remove_all(base);
}

TEST_CASE("whatif cli: --list-regions names, instances, exclusive time, imbalance", "[whatif]") {
  std::string out;
  REQUIRE(RunWhatif(Synthetic() + " --list-regions --format json", &out) == 0);
  nlohmann::json j = nlohmann::json::parse(out);
  CHECK(j["ranks"] == 4);
  REQUIRE(j["regions"].size() > 0);
  bool found = false;
  for (const auto& r : j["regions"])
    if (r["region"] == "MPI_Init") {
      found = true;
      CHECK(r["ranks_entering"] == 4);
      CHECK(r["instances_per_rank_min"] == 1);
      CHECK(r["instances_per_rank_max"] == 1);
      CHECK(r["imbalance_max_over_mean"].get<double>() >= 1.0);
    }
  CHECK(found);
  // Largest exclusive time first.
  for (std::size_t i = 1; i < j["regions"].size(); ++i)
    CHECK(j["regions"][i - 1]["exclusive_s"].get<double>() >= j["regions"][i]["exclusive_s"].get<double>());
  REQUIRE(RunWhatif(Synthetic() + " --list-regions", &out) == 0);
  CHECK(out.find("max/mean") != std::string::npos);
}

TEST_CASE("whatif cli: an unknown region is one line with the closest names", "[whatif]") {
  std::string out;
  CHECK(RunWhatif(Synthetic() + " --balance MPI_Recb:scaled", &out) != 0);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  CHECK(out.find("no region named \"MPI_Recb\"") != std::string::npos);
  CHECK(out.find("closest: \"MPI_Recv\"") != std::string::npos);
  CHECK(RunWhatif(Synthetic() + " --cut-region nosuch", &out) != 0);
  CHECK(out.find("cut region \"nosuch\": no region named") != std::string::npos);
}

TEST_CASE("whatif cli: --suggest ranks simulated hypotheses", "[whatif]") {
  std::string out;
  REQUIRE(RunWhatif(Synthetic() + " --suggest --format json", &out) == 0);
  nlohmann::json j = nlohmann::json::parse(out);
  REQUIRE(j["suggestions"].size() >= 1);
  CHECK(j["suggestions"][0]["hypothesis"] == "balance region \"main\"");
  CHECK(j["suggestions"][0]["gain_s"].get<double>() > 0);
  // The top suggestion's gain is what the simulation of that hypothesis says.
  std::string plain;
  REQUIRE(RunWhatif(Synthetic() + " --balance main --format json --no-wait-states", &plain) == 0);
  CHECK(nlohmann::json::parse(plain)["gain_s"].get<double>() == j["suggestions"][0]["gain_s"].get<double>());
}
