// The built `qnm-predict mva` on a reference vector and on broken files.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "util/atomic_file.h"

namespace {

struct Run {
  int status = -1;
  std::string output;  // stdout and stderr together
};

Run RunCli(const std::string& arguments) {
  Run run;
  const std::string command = std::string(QNM_CLI_PATH) + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  size_t got;
  while ((got = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, got);
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::string TempFile(const std::string& name, const std::string& contents) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  qnm::WriteFileAtomically(path, contents);
  return path;
}

// A 2-server station and a queue visited 0.2 times per cycle, N = 3.
const char* kTwoStationJmva =
    "<?xml version=\"1.0\"?>\n<model><parameters>\n"
    "<classes number=\"1\"><closedclass name=\"c\" population=\"3\"/></classes>\n"
    "<stations number=\"2\">\n"
    "<listation name=\"S1\" servers=\"2\"><servicetimes><servicetime customerclass=\"c\">1.25"
    "</servicetime></servicetimes><visits><visit customerclass=\"c\">1</visit></visits></listation>\n"
    "<listation name=\"S3\" servers=\"1\"><servicetimes><servicetime customerclass=\"c\">2.5"
    "</servicetime></servicetimes><visits><visit customerclass=\"c\">0.2</visit></visits></listation>\n"
    "</stations></parameters></model>\n";

}  // namespace

TEST_CASE("qnm-predict mva solves a vector file and prints the expected keys", "[mva][cli]") {
  const std::string vector = QNM_TEST_DATA_DIR "/mva-vectors/bolch_ex8_1_multiserver_exact_N3.json";
  const Run run = RunCli("mva " + vector + " --format json");
  REQUIRE(run.status == 0);
  const nlohmann::json out = nlohmann::json::parse(run.output);
  const nlohmann::json expected = nlohmann::json::parse(qnm::ReadFile(vector))["expected"];
  CHECK(out["X"][0].get<double>() == Approx(expected["X"][0].get<double>()).epsilon(1e-12));
  CHECK(out["Q"][2][0].get<double>() == Approx(expected["Q"][2][0].get<double>()).epsilon(1e-12));
  CHECK(out["Ubusy"]["1"].get<double>() == Approx(expected["Ubusy"]["1"].get<double>()).epsilon(1e-12));
  for (const char* key : {"R", "Rk", "U"}) CHECK(out.contains(key));
  CHECK(out["summary"]["algorithm"] == "exact");

  const Run table = RunCli("mva " + vector + " --format table --algorithm exact");
  REQUIRE(table.status == 0);
  CHECK_THAT(table.output, Catch::Contains("0.944419") && Catch::Contains("MVA exact"));
}

TEST_CASE("qnm-predict mva writes --output atomically and honours --algorithm", "[mva][cli]") {
  const std::string vector = QNM_TEST_DATA_DIR "/mva-vectors/qsp7_two_class_schweitzer.json";
  const std::string out_path = (std::filesystem::temp_directory_path() / "qnm_mva_cli_out.json").string();
  const Run run = RunCli("mva " + vector + " --algorithm schweitzer --tolerance 1e-13 -o " + out_path);
  REQUIRE(run.status == 0);
  CHECK(run.output.empty());
  const nlohmann::json out = nlohmann::json::parse(qnm::ReadFile(out_path));
  const nlohmann::json expected = nlohmann::json::parse(qnm::ReadFile(vector))["expected"];
  CHECK(out["summary"]["algorithm"] == "schweitzer");
  CHECK(out["X"][1].get<double>() == Approx(expected["X"][1].get<double>()).epsilon(1e-9));
  std::filesystem::remove(out_path);
}

TEST_CASE("qnm-predict mva reports a malformed file in one line with its line number", "[mva][cli]") {
  const std::string broken = TempFile("qnm_mva_broken.json",
                                      "{\n  \"classes\": [{\"population\": 2}],\n  \"stations\": [\n"
                                      "    {\"demands\": [1.0]\n  ]\n}\n");
  Run run = RunCli("mva " + broken);
  CHECK(run.status == 1);
  CHECK_THAT(run.output, Catch::StartsWith("qnm-predict: " + broken + ":5: invalid JSON"));
  CHECK(run.output.find('\n') == run.output.size() - 1);  // exactly one line

  const std::string invalid = TempFile("qnm_mva_invalid.json",
                                       R"({"classes": [{"population": 2}], "stations": [{"demands": [-1]}]})");
  run = RunCli("mva " + invalid);
  CHECK(run.status == 1);
  CHECK_THAT(run.output, Catch::Contains(invalid) && Catch::Contains("station 0"));

  run = RunCli("mva /nonexistent/network.json");
  CHECK(run.status == 1);
  CHECK_THAT(run.output, Catch::Contains("/nonexistent/network.json"));
  std::filesystem::remove(broken);
  std::filesystem::remove(invalid);
}

TEST_CASE("qnm-predict mva reads JMT JMVA XML models", "[mva][cli]") {
  const std::string model = TempFile(
      "qnm_mva_model.jmva",
      kTwoStationJmva);
  const Run run = RunCli("mva " + model);
  REQUIRE(run.status == 0);
  const nlohmann::json out = nlohmann::json::parse(run.output);
  // 2-server (D = 1.25) + queue (D = 0.5), N = 3, by hand (product form):
  // G = 1 + 1.75 + (1.25^2/2 + 1.25*0.5 + 0.25) + (1.25^3/4 + 1.25^2/2*0.5 + 1.25*0.25 + 0.125)
  const double g2 = 1.25 * 1.25 / 2 + 1.25 * 0.5 + 0.25;
  const double g3 = 1.25 * 1.25 * 1.25 / 4 + 1.25 * 1.25 / 2 * 0.5 + 1.25 * 0.25 + 0.125;
  CHECK(out["X"][0].get<double>() == Approx(g2 / g3).epsilon(1e-12));
  CHECK(out["Ubusy"].contains("0"));
  std::filesystem::remove(model);

  const std::string broken = TempFile("qnm_mva_broken.jmva", "<model>\n<parameters>\n</model>");
  const Run bad = RunCli("mva " + broken);
  CHECK(bad.status == 1);
  CHECK_THAT(bad.output, Catch::StartsWith("qnm-predict: " + broken + ":3: invalid XML"));
  std::filesystem::remove(broken);
}

TEST_CASE("qnm-predict mva --repeat reports warm solve times beside the same results", "[mva][cli]") {
  const std::string vector = QNM_TEST_DATA_DIR "/mva-vectors/three_class_6st_N20_15_10_exact.json";
  const Run once = RunCli("mva " + vector);
  const Run repeated = RunCli("mva " + vector + " --repeat 5");
  REQUIRE(once.status == 0);
  REQUIRE(repeated.status == 0);
  const nlohmann::json a = nlohmann::json::parse(once.output), b = nlohmann::json::parse(repeated.output);
  CHECK(a["X"] == b["X"]);
  CHECK(a["Q"] == b["Q"]);
  CHECK_FALSE(a["summary"].contains("repeat"));
  const nlohmann::json& repeat = b["summary"]["repeat"];
  CHECK(repeat["solves"] == 5);
  CHECK(repeat["min_s"].get<double>() > 0.0);
  CHECK(repeat["min_s"].get<double>() <= repeat["median_s"].get<double>());
  CHECK(b["summary"]["solve_time_s"].get<double>() > 0.0);
  CHECK(RunCli("mva " + vector + " --repeat 0").status != 0);
}

TEST_CASE("qnm-predict mva -o FILE.jmva writes the model with JMT's solutions", "[mva][cli][jmva]") {
  const std::string model = TempFile(
      "qnm_mva_solved_in.jmva",
      kTwoStationJmva);
  const std::string solved = (std::filesystem::temp_directory_path() / "qnm_mva_solved_out.jmva").string();
  std::filesystem::remove(solved);
  REQUIRE(RunCli("mva " + model + " -o " + solved).status == 0);
  const std::string xml = qnm::ReadFile(solved);
  CHECK(xml.find("<solutions ok=\"true\" solutionMethod=\"analytical\">") != std::string::npos);
  CHECK(xml.find("measureType=\"Utilization\"") != std::string::npos);
  CHECK(xml.find("Ubusy") != std::string::npos);  // the label on JMT's utilization
  // The written model solves to the same numbers as the input.
  const Run in = RunCli("mva " + model), out = RunCli("mva " + solved);
  REQUIRE(in.status == 0);
  REQUIRE(out.status == 0);
  CHECK(nlohmann::json::parse(in.output)["X"] == nlohmann::json::parse(out.output)["X"]);
  // JSON input cannot be written back as JMVA.
  const std::string vector = QNM_TEST_DATA_DIR "/mva-vectors/edge_N1_exact.json";
  const Run refused = RunCli("mva " + vector + " --format jmva");
  CHECK(refused.status == 1);
  CHECK(refused.output.find("--format jmva needs a JMVA XML model") != std::string::npos);
  std::filesystem::remove(model);
  std::filesystem::remove(solved);
}
