// Invalid networks and options are refused with messages that name the culprit;
// the JSON reader understands every form of the mva-vector model schema.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "mva/network_json.h"
#include "mva/solver.h"
#include "util/input_error.h"

namespace {

namespace mva = qnm::mva;

mva::Network SmallNetwork() {
  mva::Network net;
  net.classes = {{"batch", 4, 1.0}};
  net.stations = {{"cpu", mva::StationType::kQueue, {0.5}, 1, {}, 1},
                  {"disk", mva::StationType::kQueue, {0.3}, 1, {}, 1}};
  return net;
}

std::string SolveError(const mva::Network& net, const mva::Options& options = mva::Options()) {
  mva::Result result;
  std::string error;
  if (mva::Solve(net, options, &result, &error)) return "";
  return error;
}

}  // namespace

TEST_CASE("Invalid networks are rejected with a clear message", "[mva][input]") {
  CHECK(SolveError(SmallNetwork()).empty());
  mva::Network net = SmallNetwork();
  net.stations.clear();
  CHECK_THAT(SolveError(net), Catch::Contains("no stations"));

  net = SmallNetwork();
  net.classes.clear();
  CHECK_THAT(SolveError(net), Catch::Contains("no customer classes"));

  net = SmallNetwork();
  net.stations[1].demand_s[0] = -0.1;
  CHECK_THAT(SolveError(net), Catch::Contains("station 1 ('disk')") && Catch::Contains("demand"));

  net = SmallNetwork();
  net.stations[0].demand_s[0] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THAT(SolveError(net), Catch::Contains("station 0 ('cpu')"));

  net = SmallNetwork();
  net.classes[0].population = -1;
  CHECK_THAT(SolveError(net), Catch::Contains("class 0 ('batch')") && Catch::Contains("negative"));

  net = SmallNetwork();
  net.classes[0].think_time_s = -2;
  CHECK_THAT(SolveError(net), Catch::Contains("think time"));

  net = SmallNetwork();
  net.stations[0].type = mva::StationType::kLoadDependent;
  CHECK_THAT(SolveError(net), Catch::Contains("no rate multipliers"));
  net.stations[0].rate_multipliers = {1.0, 0.0};
  CHECK_THAT(SolveError(net), Catch::Contains("alpha(2)"));
  net.stations[0].rate_multipliers = {1.0, 2.0};
  CHECK(SolveError(net).empty());

  net = SmallNetwork();
  net.stations[0].type = mva::StationType::kMultiServer;
  net.stations[0].servers = 0;
  CHECK_THAT(SolveError(net), Catch::Contains("servers"));

  net = SmallNetwork();
  net.stations[0].count = 0;
  CHECK_THAT(SolveError(net), Catch::Contains("count"));

  net = SmallNetwork();
  net.stations[0].demand_s = {0.5, 0.1};
  CHECK_THAT(SolveError(net), Catch::Contains("2 demands for 1 classes"));

  net = SmallNetwork();
  net.classes[0].think_time_s = 0;
  for (mva::Station& s : net.stations) s.demand_s[0] = 0;
  CHECK_THAT(SolveError(net), Catch::Contains("unbounded throughput"));
}

TEST_CASE("Invalid options and oversized lattices are refused", "[mva][input]") {
  mva::Options options;
  options.tolerance = 0;
  CHECK_THAT(SolveError(SmallNetwork(), options), Catch::Contains("tolerance"));
  options = mva::Options();
  options.max_iterations = 0;
  CHECK_THAT(SolveError(SmallNetwork(), options), Catch::Contains("max_iterations"));

  mva::Network net = SmallNetwork();
  net.classes = {{"a", 300, 0}, {"b", 300, 0}, {"c", 300, 0}};
  for (mva::Station& s : net.stations) s.demand_s = {0.5, 0.2, 0.1};
  options = mva::Options();
  options.algorithm = mva::Algorithm::kExact;
  const std::string error = SolveError(net, options);
  CHECK_THAT(error, Catch::Contains("2.727e+07 points") && Catch::Contains("schweitzer"));
  // auto falls back to Schweitzer, and says so.
  mva::Result result;
  std::string why;
  REQUIRE(mva::Solve(net, mva::Options(), &result, &why));
  CHECK(result.summary.algorithm_used == mva::Algorithm::kSchweitzer);
  CHECK_THAT(result.summary.message, Catch::StartsWith("auto chose Schweitzer"));
  CHECK(result.summary.converged);
  CHECK(result.U[0][0] + result.U[0][1] + result.U[0][2] <= 1.0 + 1e-9);
  CHECK(result.U[0][0] + result.U[0][1] + result.U[0][2] > 0.99);  // saturated
}

TEST_CASE("Approximate algorithms refuse general load-dependent stations", "[mva][input]") {
  mva::Network net = SmallNetwork();
  net.stations[0].type = mva::StationType::kLoadDependent;
  net.stations[0].rate_multipliers = {1.0, 1.5};
  mva::Options options;
  options.algorithm = mva::Algorithm::kSchweitzer;
  CHECK_THAT(SolveError(net, options), Catch::Contains("station 0 ('cpu')") &&
                                           Catch::Contains("exact algorithm"));
  // multipliers min(j, 2): a 2-server station, which Schweitzer handles (Seidmann).
  net.stations[0].rate_multipliers = {1.0, 2.0};
  CHECK(SolveError(net, options).empty());
}

TEST_CASE("The JSON reader accepts every form of the model schema", "[mva][input]") {
  const nlohmann::json doc = nlohmann::json::parse(R"({
    "id": "example",
    "model": {
      "classes": [{"name": "a", "population": 3, "think_time": 2.5}, {"population": 0}],
      "stations": [
        {"name": "cpu", "type": "queue", "visits": [2, 1], "service_times": [0.25, 1]},
        {"name": "pool", "type": "load_dependent", "servers": 4, "demands": [1, 1]},
        {"name": "ld", "type": "load_dependent", "rate_multipliers": [1, 1.5], "demands": [1, 2]},
        {"name": "disks", "demands": [0.1, 0.2], "count": 16},
        {"name": "net", "type": "delay", "demands": [0.3, 0]},
        {"name": "ms", "type": "multi_server", "servers": 2, "demands": [0.5, 0.5]}
      ]}})");
  const mva::Network net = mva::NetworkFromJson(doc, "x.json");
  REQUIRE(net.classes.size() == 2);
  CHECK(net.classes[0].think_time_s == 2.5);
  CHECK(net.classes[1].name == "classes[1]");
  REQUIRE(net.stations.size() == 6);
  CHECK(net.stations[0].demand_s == std::vector<double>{0.5, 1.0});
  CHECK(net.stations[1].type == mva::StationType::kMultiServer);
  CHECK(net.stations[1].servers == 4);
  CHECK(net.stations[1].RateMultiplier(9) == 4.0);
  CHECK(net.stations[2].type == mva::StationType::kLoadDependent);
  CHECK(net.stations[2].RateMultiplier(7) == 1.5);
  CHECK(net.stations[3].type == mva::StationType::kQueue);
  CHECK(net.stations[3].count == 16);
  CHECK(net.stations[4].type == mva::StationType::kDelay);
  CHECK(net.stations[5].servers == 2);
}

TEST_CASE("The JSON reader names the file and the bad element", "[mva][input]") {
  auto message = [](const std::string& text) -> std::string {
    try {
      mva::NetworkFromJson(mva::ParseJsonText(text, "bad.json"), "bad.json");
    } catch (const qnm::InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(message("{\n\"classes\": [\n{\"population\": 1,}\n]}") .rfind("bad.json:3: invalid JSON", 0) == 0);
  CHECK_THAT(message(R"({"classes": [{"population": 1}], "stations": [{"type": "queue"}]})"),
             Catch::Contains("bad.json: stations[0]: missing 'demands'"));
  CHECK_THAT(message(R"({"classes": [{"population": 1.5}], "stations": []})"),
             Catch::Contains("classes[0].population: expected a whole number"));
  CHECK_THAT(message(R"({"classes": [{"population": 1}], "stations": [{"type": "fifo", "demands": [1]}]})"),
             Catch::Contains("unknown type 'fifo'"));
  CHECK_THAT(message(R"({"classes": [{"population": 1}], "stations": [{"demands": ["1"]}]})"),
             Catch::Contains("stations[0].demands[0]: expected a number, found string"));
  CHECK_THAT(message(R"({"classes": [{"population": 1}], "stations": [{"demands": [-1]}]})"),
             Catch::Contains("bad.json: invalid network") || Catch::Contains("demand"));
  CHECK_THAT(message(R"([1, 2])"), Catch::Contains("expected an object"));
}

TEST_CASE("Exact MVA refuses populations that would take minutes; auto falls back", "[mva][input]") {
  mva::Network net = SmallNetwork();
  net.classes[0].population = 50000000000L;  // 5e10 customers: 1e11 steps
  mva::Options options;
  options.algorithm = mva::Algorithm::kExact;
  CHECK_THAT(SolveError(net, options), Catch::Contains("max_exact_steps") &&
                                           Catch::Contains("schweitzer"));
  mva::Result result;
  std::string error;
  REQUIRE(mva::Solve(net, mva::Options(), &result, &error));
  CHECK(result.summary.algorithm_used == mva::Algorithm::kSchweitzer);
  CHECK(result.X[0] == Approx(1.0 / 0.5).epsilon(1e-6));  // saturated cpu: X = 1/D_max
}

TEST_CASE("The JSON reader rejects wrongly typed names and types", "[mva][input]") {
  auto message = [](const std::string& text) -> std::string {
    try {
      mva::NetworkFromJson(nlohmann::json::parse(text), "t.json");
    } catch (const qnm::InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK_THAT(message(R"({"classes": [{"name": 5, "population": 1}], "stations": [{"demands": [1]}]})"),
             Catch::Contains("t.json: classes[0].name: expected a string"));
  CHECK_THAT(message(R"({"classes": [{"population": 1}], "stations": [{"type": 1, "demands": [1]}]})"),
             Catch::Contains("t.json: stations[0].type: expected a string"));
}

TEST_CASE("A number too large for a double is an input error, not a crash", "[mva][input]") {
  try {
    mva::ParseJsonText(R"({"classes": [{"population": 1}], "stations": [{"demands": [0.5E954446229485]}]})", "big.json");
    FAIL("no error");
  } catch (const qnm::InputError& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("big.json: invalid JSON: number overflow"));
  }
}
