// Every reference vector in tests/data/mva-vectors must be reproduced at its
// stated tolerance (|got - expected| <= rel*|expected| + abs for every number).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "mva/network_json.h"
#include "mva/solver.h"
#include "util/atomic_file.h"

namespace {

using nlohmann::json;
namespace mva = qnm::mva;

struct Comparison {
  double rel = 0, abs = 0;
  std::vector<std::string> mismatches;
  int checked = 0;

  void Check(const std::string& what, const json& expected, double got) {
    if (expected.is_null()) return;  // not checked (e.g. R of an empty class)
    ++checked;
    const double want = expected.get<double>();
    if (!(std::fabs(got - want) <= rel * std::fabs(want) + abs))
      mismatches.push_back(what + ": got " + std::to_string(got) + ", expected " + expected.dump());
  }
};

std::vector<std::string> VectorFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(QNM_TEST_DATA_DIR "/mva-vectors"))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

/// Solves one vector file with its own algorithm and compares every expected number.
Comparison RunVector(const std::string& file) {
  const json vector = mva::ParseJsonText(qnm::ReadFile(file), file);
  const mva::Network network = mva::NetworkFromJson(vector, file);
  mva::Options options;
  REQUIRE(mva::ParseAlgorithm(vector.at("algorithm").get<std::string>(), &options.algorithm));
  options.tolerance = 1e-13;
  mva::Result result;
  std::string error;
  REQUIRE(mva::Solve(network, options, &result, &error));
  REQUIRE(result.summary.converged);

  Comparison cmp;
  cmp.rel = vector.at("tolerance").at("rel").get<double>();
  cmp.abs = vector.at("tolerance").at("abs").get<double>();
  const json& expected = vector.at("expected");
  const size_t C = network.classes.size(), K = network.stations.size();
  for (size_t c = 0; c < C; ++c) {
    cmp.Check("X[" + std::to_string(c) + "]", expected.at("X")[c], result.X[c]);
    cmp.Check("R[" + std::to_string(c) + "]", expected.at("R")[c], result.R[c]);
  }
  const json& stations = vector.at("model").at("stations");
  for (size_t k = 0; k < K; ++k)
    for (size_t c = 0; c < C; ++c) {
      const std::string at = "[" + std::to_string(k) + "][" + std::to_string(c) + "]";
      cmp.Check("Q" + at, expected.at("Q")[k][c], result.Q[k][c]);
      cmp.Check("Rk" + at, expected.at("Rk")[k][c], result.Rk[k][c]);
      cmp.Check("U" + at, expected.at("U")[k][c], result.U[k][c]);
      if (expected.contains("Xk") && stations[k].contains("visits"))
        cmp.Check("Xk" + at, expected["Xk"][k][c],
                  result.X[c] * stations[k]["visits"][c].get<double>());
    }
  if (expected.contains("Ubusy"))
    for (const auto& item : expected["Ubusy"].items())
      cmp.Check("Ubusy[" + item.key() + "]", item.value(), result.Ubusy[std::stoul(item.key())]);
  return cmp;
}

}  // namespace

TEST_CASE("All 43 MVA reference vectors pass at their stated tolerance", "[mva][vectors]") {
  const std::vector<std::string> files = VectorFiles();
  REQUIRE(files.size() == 43);
  int numbers = 0;
  for (const std::string& file : files) {
    INFO(file);
    const Comparison cmp = RunVector(file);
    std::string report;
    for (const std::string& m : cmp.mismatches) report += m + "\n";
    INFO(report);
    CHECK(cmp.mismatches.empty());
    CHECK(cmp.checked > 0);
    numbers += cmp.checked;
  }
  CHECK(numbers >= 989);  // every non-null expected number was compared
}
