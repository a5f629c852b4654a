// Issue 19: the approximate algorithms report a multi-server station's Ubusy
// (1 - P(n = 0)) as an M/M/m estimate, never NaN.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "mva/approximate_mva.h"
#include "mva/jmva_solutions.h"
#include "mva/jmva_xml.h"
#include "mva/network_json.h"
#include "mva/result_report.h"
#include "mva/solver.h"
#include "util/atomic_file.h"

using namespace qnm;

TEST_CASE("Erlang's busy probability of an M/M/m queue", "[mva][robustness]") {
  CHECK(mva::MultiServerBusyProbability(0.5, 1) == Approx(0.5));  // M/M/1: 1 - P(0) = rho
  // M/M/2 at a = 1: P(0) = 1 / (1 + 1 + 1/2 * 1/(1 - 1/2)) = 1/3.
  CHECK(mva::MultiServerBusyProbability(1.0, 2) == Approx(2.0 / 3.0));
  CHECK(mva::MultiServerBusyProbability(10.0, 64) == Approx(1 - std::exp(-10.0)).epsilon(1e-6));
  CHECK(mva::MultiServerBusyProbability(64.0, 64) == 1.0);
  CHECK(mva::MultiServerBusyProbability(0.0, 8) == 0.0);
  const double large = mva::MultiServerBusyProbability(9.0e5, 1e6);  // summed in logs: no overflow
  CHECK(std::isfinite(large));
  CHECK(large == Approx(1.0));
}

TEST_CASE("Schweitzer on a multi-server station prints a number, not NaN", "[mva][robustness]") {
  const std::string dir = std::string(QNM_TEST_DATA_DIR) + "/robustness/";
  mva::Network net = mva::ReadNetworkFile(dir + "mva-multiserver-N300000-schweitzer-nan.json");
  mva::Result result;
  std::string error;
  REQUIRE(mva::Solve(net, mva::Options(), &result, &error));
  CHECK(result.summary.algorithm_used == mva::Algorithm::kSchweitzer);
  CHECK(result.Ubusy[0] == Approx(1 - std::exp(-10.0)).epsilon(1e-4));  // 10 of 64 servers busy on average
  CHECK_THAT(result.summary.message, Catch::Contains("estimated"));
  CHECK(mva::ResultTable(net, result).find("nan") == std::string::npos);

  const std::string jmva_path = dir + "jmva-multiserver-N100000-nan.jmva";
  const std::string xml = ReadFile(jmva_path);
  mva::Network jmva = mva::NetworkFromJmvaXml(xml, jmva_path);
  REQUIRE(mva::Solve(jmva, mva::Options(), &result, &error));
  for (double busy : result.Ubusy)
    if (!std::isnan(busy)) CHECK((busy >= 0 && busy <= 1));
  CHECK(mva::JmvaWithSolutions(xml, jmva_path, jmva, result).find("NaN") == std::string::npos);
}

TEST_CASE("tolerances that stop before convergence are refused", "[mva][robustness]") {
  mva::Options options;
  std::string why;
  options.tolerance = 1e6;
  CHECK_FALSE(options.IsValid(&why));
  CHECK_THAT(why, Catch::Contains("< 0.1"));
  options.tolerance = 0.05;
  CHECK(options.IsValid(&why));
}
