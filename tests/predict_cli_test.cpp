#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "util/atomic_file.h"

namespace {

/// Runs the CLI with `args`; returns the exit code and fills `output` (stdout + stderr).
int Run(const std::string& args, std::string* output) {
  std::string command = std::string(QNM_CLI_PATH) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  output->clear();
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) output->append(buffer, n);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("predict on the bundled series writes JSON with five components per P",
          "[predict][cli]") {
  std::string out = (std::filesystem::temp_directory_path() / "qnm_predict_cli_test.json").string();
  std::filesystem::remove(out);
  std::string text;
  REQUIRE(Run("--procs 1..1024 --format json -o " + out, &text) == 0);
  nlohmann::json json = nlohmann::json::parse(qnm::ReadFile(out));
  REQUIRE(json["series"].size() == 1);
  const nlohmann::json& series = json["series"][0];
  CHECK(series["model"]["kind"] == "queueing");
  CHECK(series["model"]["machine"]["name"] == "llnl-cab");
  REQUIRE(series["predictions"].size() == 1024);
  int impossible = 0;
  for (const nlohmann::json& p : series["predictions"]) {
    if (p["procs"].get<int>() > 256) {  // BT-MZ class C has 16 x 16 zones: nothing to do beyond
      CHECK(p["total"]["value_s"].is_null());
      CHECK(p["message"].get<std::string>().find("256 units of work") != std::string::npos);
      ++impossible;
      continue;
    }
    double total = p["total"]["value_s"].get<double>();
    double sum = 0;
    for (const char* part : {"compute", "imbalance", "switch_delay", "mpi_active", "contention"}) {
      double value = p[part]["value_s"].get<double>();
      CHECK(value >= 0);
      CHECK(p[part]["lower_s"].get<double>() <= value);
      sum += value;
    }
    CHECK(sum == Approx(total).epsilon(1e-9));
    CHECK(p["total"]["lower_s"].get<double>() <= total);
    CHECK(p["total"]["upper_s"].get<double>() >= total);
  }
  CHECK(impossible == 1024 - 256);
  // P = 16 is measured (2.85 s): the fitted model is within 5% of it.
  CHECK(series["predictions"][15]["total"]["value_s"].get<double>() == Approx(2.85).epsilon(0.05));
  std::filesystem::remove(out);
}

TEST_CASE("validate and bad input on the command line", "[predict][cli]") {
  std::string text;
  REQUIRE(Run("validate --train 1,2,4,8 --format csv", &text) == 0);
  CHECK(text.find("series,procs,training,measured_s,predicted_s") == 0);
  CHECK(text.find(",16,0,2.85,") != std::string::npos);

  CHECK(Run("predict --procs 8..2", &text) == 1);
  CHECK(text.find("--procs") != std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
  CHECK(Run("predict --machine no-such-machine", &text) == 1);
  CHECK(text.find("no-such-machine") != std::string::npos);
  CHECK(Run("validate --train 1..1024", &text) == 1);
  CHECK(text.find("nothing to predict") != std::string::npos);
  CHECK(Run("predict /nonexistent/path", &text) == 1);
  CHECK(Run("predict --series nomatch", &text) == 1);
  CHECK(text.find("no series matches") != std::string::npos);
}

TEST_CASE("a single OTF2 trace feeds the predictor and its own P is reproduced", "[predict][cli]") {
  // tracer-stencil4d-32: S = messages x latency takes all the MPI time (the
  // latency is estimated from this one run), so no MPI service time is left
  // per message; the switch delay must still be predicted from the messages.
  std::string text;
  REQUIRE(Run(std::string("predict ") + QNM_TEST_DATA_DIR +
                  "/otf2/tracer-stencil4d-32 --procs 32 --format json",
              &text) == 0);
  nlohmann::json json = nlohmann::json::parse(text.substr(text.find('{')));
  const nlohmann::json& p = json["series"][0]["predictions"][0];
  CHECK(p["procs"] == 32);
  CHECK(p["messages_per_rank"].get<double>() == Approx(19.0));
  CHECK(p["switch_delay"]["value_s"].get<double>() > 1.0);
  // Measured: max app time per rank 1.553 s (trace stats); the model explains it.
  CHECK(p["total"]["value_s"].get<double>() == Approx(1.5534).epsilon(0.01));
}

TEST_CASE("notes on series that cannot be extrapolated come in series order, whatever thread fitted them",
          "[predict][cli]") {
  // tests/data/npb: hundreds of NPB series, many with one process count, fitted on every core.
  const std::string predict = std::string(QNM_CLI_PATH) + " predict " + QNM_TEST_DATA_DIR + "/npb --procs 64";
  auto capture = [](const std::string& command) {  // one of the two streams
    std::string text;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe);
    char buffer[4096];
    while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) text.append(buffer, n);
    REQUIRE(pclose(pipe) == 0);
    return text;
  };
  const std::string stdout_text = capture(predict + " 2>/dev/null");
  const std::string stderr_text = capture(predict + " 2>&1 >/dev/null");
  // Each note's series, in the order of the series' own sections on stdout.
  const std::string prefix = "note: series ", suffix = " has runs at one process count only";
  std::size_t notes = 0, last_section = 0;
  for (std::size_t at = stderr_text.find(prefix); at != std::string::npos; at = stderr_text.find(prefix, at + 1)) {
    const std::size_t name_end = stderr_text.find(suffix, at);
    REQUIRE(name_end != std::string::npos);
    const std::string name = stderr_text.substr(at + prefix.size(), name_end - at - prefix.size());
    const std::size_t section = stdout_text.find("\nseries " + name + ":");
    REQUIRE(section != std::string::npos);
    CHECK(section > last_section);
    last_section = section;
    ++notes;
  }
  CHECK(notes > 20);
}

TEST_CASE("the configuration of a runtime-only series: the default, chosen per series and said in JSON, or given", "[predict][cli]") {
  // LU class B on g5k (6 process counts, runtime only): Amdahl's law alone forecasts its P = 128 best.
  const std::string table = std::string(QNM_TEST_DATA_DIR) + "/tables/lu_b_g5k_median.csv";
  std::string text;
  REQUIRE(Run("predict --format json --procs 256 " + table, &text) == 0);
  nlohmann::json json = nlohmann::json::parse(text.substr(text.find('{')));
  const nlohmann::json& shipped = json["series"][0]["model"]["configuration"];
  CHECK(shipped["name"] == "nodes + split + cost 0.5");
  CHECK(shipped["default"] == true);
  CHECK(shipped["chosen_per_series"] == false);
  CHECK(shipped["backcast_log_error"].empty());
  REQUIRE(Run("predict --format json --procs 256 --configuration per-series " + table, &text) == 0);
  json = nlohmann::json::parse(text.substr(text.find('{')));
  const nlohmann::json& chosen = json["series"][0]["model"]["configuration"];
  CHECK(chosen["default"] == false);
  CHECK(chosen["chosen_per_series"] == true);
  CHECK(chosen["forecast_procs"] == 128);
  CHECK(chosen["name"] == "Amdahl alone");
  REQUIRE(chosen["backcast_log_error"].size() == 4);
  double least = 1e9;
  for (const auto& [name, error] : chosen["backcast_log_error"].items()) least = std::min(least, error.get<double>());
  CHECK(chosen["backcast_log_error"]["Amdahl alone"].get<double>() == least);
  // Given by name: fitted as it is, nothing chosen, and the text says so.
  REQUIRE(Run("predict --procs 256 --configuration 'nodes + split' " + table, &text) == 0);
  CHECK(text.find("configuration nodes + split (given, not chosen)") != std::string::npos);
  REQUIRE(Run("validate --format json --configuration 'Occam + nodes + split' " + table, &text) == 0);
  json = nlohmann::json::parse(text.substr(text.find('{')));
  CHECK(json["series"][0]["model"]["configuration"]["name"] == "Occam + nodes + split");
  CHECK(json["series"][0]["model"]["configuration"]["chosen_per_series"] == false);
  // A name that is none: one line naming the option, a non-zero exit.
  CHECK(Run("predict --configuration 'Occam+nodes' " + table, &text) != 0);
  CHECK(text.find("--configuration") != std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
}

TEST_CASE("option interval-upper-share moves an interval's log width above the prediction, keeping the width",
          "[predict][cli]") {
  const std::string table = std::string(QNM_TEST_DATA_DIR) + "/tables/lu_b_g5k_median.csv";
  auto totals = [&](const std::string& extra) {
    std::string text;
    REQUIRE(Run("predict --format json --procs 256,512 " + extra + table, &text) == 0);
    const nlohmann::json json = nlohmann::json::parse(text.substr(text.find('{')));
    return json["series"][0]["predictions"];
  };
  const nlohmann::json even = totals("--interval-upper-share 0.5 "), high = totals("--interval-upper-share 0.75 ");
  const nlohmann::json shipped = totals(""), given = totals("--interval-upper-share 0.6 ");
  REQUIRE(shipped.size() == even.size());
  for (std::size_t k = 0; k < shipped.size(); ++k) {  // the default is 0.6 (bench/README.md, round 26)
    CHECK(shipped[k]["total"]["upper_s"].get<double>() == given[k]["total"]["upper_s"].get<double>());
    const double v = shipped[k]["total"]["value_s"], lo = shipped[k]["total"]["lower_s"], hi = shipped[k]["total"]["upper_s"];
    CHECK(std::log(hi / v) / std::log(hi / lo) == Approx(0.6).epsilon(1e-9));
  }
  REQUIRE(even.size() == high.size());
  int extrapolated = 0;
  for (std::size_t k = 0; k < even.size(); ++k) {
    INFO("P = " << even[k]["procs"]);
    extrapolated += even[k]["extrapolation_log2"].get<double>() > 0;
    REQUIRE(even[k]["flags"].empty());  // no envelope or hold moves an end: the split alone is seen
    const double v = even[k]["total"]["value_s"], lo = even[k]["total"]["lower_s"], hi = even[k]["total"]["upper_s"];
    const double v2 = high[k]["total"]["value_s"], lo2 = high[k]["total"]["lower_s"], hi2 = high[k]["total"]["upper_s"];
    CHECK(v2 == Approx(v).epsilon(1e-12));                                // the prediction is unchanged
    CHECK(std::log(hi / v) == Approx(std::log(v / lo)).epsilon(1e-9));    // 0.5: the geometric middle
    CHECK(std::log(hi2 / lo2) == Approx(std::log(hi / lo)).epsilon(1e-9));  // the same width
    CHECK(std::log(hi2 / v2) / std::log(hi2 / lo2) == Approx(0.75).epsilon(1e-9));
  }
  CHECK(extrapolated == 2);  // P = 256 and 512, beyond the training runs (the others are measured P)
  std::string text;
  CHECK(Run("predict --interval-upper-share 0.95 " + table, &text) != 0);
  CHECK(text.find("--interval-upper-share") != std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
}

TEST_CASE("option interval-noise reaches the interval and the JSON: fitted by default, none explodes", "[predict][cli]") {
  // Gray-Scott's five smallest rank counts of an autotuner's samples (bench/README.md, rounds 38-39):
  // 37..44 ranks, 30% scatter; the run at P = 869 took 12.8 s.
  const std::string table = (std::filesystem::temp_directory_path() / "qnm_interval_noise_gray_scott.csv").string();
  qnm::WriteFileAtomically(table, "procs,time_s\n37,135.21\n39,130.37\n41,137.94\n43,134.34\n44,95.98\n");
  auto model_and_point = [&](const std::string& extra) {
    std::string text;
    REQUIRE(Run("predict --format json --procs 869 " + extra + table, &text) == 0);
    const nlohmann::json json = nlohmann::json::parse(text.substr(text.find('{')));
    return std::make_pair(json["series"][0]["model"], json["series"][0]["predictions"].back()["total"]);
  };
  const auto [fitted_model, fitted] = model_and_point("");
  const auto [given_model, given] = model_and_point("--interval-noise fitted ");
  const auto [none_model, none] = model_and_point("--interval-noise none ");
  CHECK(fitted == given);
  CHECK(fitted_model["noise_log_sd"].get<double>() >= 0.1);  // the scatter is noise, not growth
  CHECK(fitted_model["per_octave_log_sd"].get<double>() < 0.5);
  CHECK(fitted["lower_s"].get<double>() < 12.8);
  CHECK(fitted["upper_s"].get<double>() > 12.8);
  CHECK(std::log10(fitted["upper_s"].get<double>() / fitted["lower_s"].get<double>()) < 2);
  CHECK(none_model["per_octave_log_sd"].get<double>() > 2);  // every error read as growth
  CHECK(std::log10(none["upper_s"].get<double>() / none["lower_s"].get<double>()) > 20);
  CHECK(none["value_s"].get<double>() == Approx(fitted["value_s"].get<double>()).epsilon(1e-12));  // intervals only
  std::string text;
  CHECK(Run("predict --interval-noise sometimes " + table, &text) != 0);
  CHECK(text.find("--interval-noise") != std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
  std::filesystem::remove(table);
}
