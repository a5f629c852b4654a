// `predict --whatif`, `report --whatif` and `whatif --suggest --procs` end to
// end through the built binary.
#include <catch2/catch.hpp>

#include <filesystem>
#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/command_runner.h"
#include "tests/temp_dir.h"

namespace fs = std::filesystem;
using qnm::testing::RunCommand;

namespace {

std::string Cli() { return QNM_CLI_PATH; }
std::string Data(const std::string& path) { return std::string(QNM_TEST_DATA_DIR) + "/" + path; }

}  // namespace

TEST_CASE("predict --whatif: both curves and the gain, table and json", "[whatif_scaling]") {
  std::string out;
  REQUIRE(RunCommand(Cli() + " predict --procs 1..1024:x4 --whatif 'BALANCE REGION \"computation\"' 2>&1", &out) == 0);
  CHECK(out.find("what-if balance region \"computation\"") != std::string::npos);
  CHECK(out.find("unchanged s [90%]") != std::string::npos);
  CHECK(out.find("with what-if s [90%]") != std::string::npos);
  CHECK(out.find("gain s [90%]") != std::string::npos);
  CHECK(out.find("(profile, ") != std::string::npos);
  CHECK(out.find("nan") == std::string::npos);

  REQUIRE(RunCommand(Cli() + " predict --procs 16,64 --format json --whatif 'SCALE COMPUTATION 0.5'", &out) == 0);
  const nlohmann::json j = nlohmann::json::parse(out);
  REQUIRE(j["series"].size() == 1);
  const nlohmann::json& s = j["series"][0];
  CHECK(s["hypotheses"][0] == "scale computation 0.5");
  CHECK(s["runs"].size() == 5);
  bool has16 = false;
  for (const auto& row : s["predictions"]) {
    if (row["procs"] != 16) continue;
    has16 = true;
    // P = 16 is measured: the model goes through it, and half the compute is gone.
    const double unchanged = row["unchanged"]["value_s"], whatif = row["whatif"]["value_s"];
    CHECK(whatif < unchanged);
    CHECK(row["gain"]["value_s"].get<double>() == Approx(unchanged - whatif));
    CHECK(row["gain_percent"].get<double>() == Approx(100 * (unchanged - whatif) / unchanged));
  }
  CHECK(has16);
}

TEST_CASE("predict --whatif on traces: the simulation at the traced P, --plot draws the what-if chart",
          "[whatif_scaling]") {
  qnm::testing::TempDir dir("whatif-scaling", "cli");
  const std::string charts = (dir.path / "charts").string();
  std::string out;
  REQUIRE(RunCommand(Cli() + " predict " + Data("otf2/tracer-stencil4d-32") + " " + Data("otf2/tracer-stencil4d-64") +
                         " --procs 32 --format json --whatif 'SCALE COMPUTATION 0.5' --plot " + charts + " 2>/dev/null",
                     &out) == 0);
  const nlohmann::json j = nlohmann::json::parse(out);
  REQUIRE(j["series"][0]["runs"][0]["method"] == "trace simulation");
  std::string sim;
  REQUIRE(RunCommand(Cli() + " whatif " + Data("otf2/tracer-stencil4d-32") +
                         " --scale-computation 0.5 --no-wait-states --format json", &sim) == 0);
  const nlohmann::json s = nlohmann::json::parse(sim);
  CHECK(j["series"][0]["predictions"][0]["whatif"]["value_s"].get<double>() ==
        Approx(s["predicted_runtime_s"].get<double>()).epsilon(1e-9));
  bool whatif_chart = false;
  for (const auto& entry : fs::directory_iterator(charts))
    whatif_chart = whatif_chart || entry.path().filename().string().find("_whatif.svg") != std::string::npos;
  CHECK(whatif_chart);
}

TEST_CASE("predict --whatif: bad hypotheses are one-line errors", "[whatif_scaling]") {
  std::string out;
  CHECK(RunCommand(Cli() + " predict --whatif 'FROB REGION x' 2>&1", &out) != 0);
  CHECK(out.find("--whatif") != std::string::npos);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  CHECK(RunCommand(Cli() + " predict --whatif 'CUT MESSAGE SIZE >= 1024' 2>&1", &out) != 0);
  CHECK(out.find("needs a trace") != std::string::npos);
  CHECK(out.find("default-series/tpatki-npbmz__bt-mz.C.") != std::string::npos);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  CHECK(RunCommand(Cli() + " predict --whatif 'SCALE REGION \"solve\" 0.5' 2>&1", &out) != 0);
  CHECK(out.find("no MPI call site") != std::string::npos);
}

TEST_CASE("report --whatif: a what-if part per series", "[whatif_scaling]") {
  qnm::testing::TempDir dir("whatif-scaling", "report");
  const std::string html_path = (dir.path / "study.html").string();
  std::string out;
  REQUIRE(RunCommand(Cli() + " report --procs 1..256:x4 --whatif 'BALANCE REGION \"computation\"' -o " + html_path +
                         " 2>&1", &out) == 0);
  std::ifstream in(html_path);
  std::stringstream html;
  html << in.rdbuf();
  CHECK(html.str().find("What-if: balance region &quot;computation&quot;") != std::string::npos);
  CHECK(html.str().find("class=\"sortable whatif\"") != std::string::npos);
  CHECK(html.str().find("run time vs P: unchanged and with the what-if") != std::string::npos);
}

TEST_CASE("report --whatif on a trace series: simulated runs, every P to 1024", "[whatif_scaling]") {
  // The two TraceR traces form one series; its inputs (19 messages per process
  // at both P, equal up to rounding) once made the SVG tics loop without end.
  qnm::testing::TempDir dir("whatif-scaling", "trace-report");
  const std::string html_path = (dir.path / "study.html").string();
  std::string out;
  REQUIRE(RunCommand("timeout 120 " + Cli() + " report " + Data("otf2/tracer-stencil4d-32") + " " +
                         Data("otf2/tracer-stencil4d-64") + " --whatif 'CUT MESSAGE SIZE == 0' -o " + html_path +
                         " 2>&1", &out) == 0);
  std::ifstream in(html_path);
  std::stringstream html;
  html << in.rdbuf();
  CHECK(html.str().find("<td>trace simulation</td>") != std::string::npos);
  CHECK(html.str().find("What-if: cut message size == 0") != std::string::npos);
  CHECK(html.str().find("<td class=\"num\">1024</td>") != std::string::npos);
}

TEST_CASE("whatif --suggest --procs: ranked by the gain at P", "[whatif_scaling]") {
  std::string out;
  REQUIRE(RunCommand(Cli() + " whatif --suggest " + Data("otf2/synthetic-patterns-4rank") + " --procs 4 2>&1", &out) ==
          0);
  CHECK(out.find("by predicted gain at P = 4") != std::string::npos);
  const std::size_t first = out.find("\n     1 ");
  REQUIRE(first != std::string::npos);
  CHECK(out.substr(first, out.find('\n', first + 1) - first).find("balance region \"main\"") != std::string::npos);
  CHECK(RunCommand(Cli() + " whatif --suggest " + Data("otf2/synthetic-patterns-4rank") + " --procs 64 2>&1", &out) != 0);
  CHECK(out.find("--scaling-trace") != std::string::npos);
  CHECK(RunCommand(Cli() + " whatif " + Data("otf2/synthetic-patterns-4rank") + " --procs 64 2>&1", &out) != 0);
  CHECK(out.find("go with --suggest") != std::string::npos);
}
