#include <catch2/catch.hpp>
#include <cmath>

#include "models/scaling_fit.h"

using qnm::FitScaling;
using qnm::ScalingFit;
using qnm::ScalingFitOptions;

TEST_CASE("scaling fit recovers exact two-term laws", "[model][fit]") {
  std::vector<double> procs = {1, 2, 4, 8, 16, 32, 64};
  std::vector<double> values;
  // 800/P + 3*log2(P): divided work plus a reduction tree.
  for (double p : procs) values.push_back(800.0 / p + 3.0 * std::log2(p));
  ScalingFit fit;
  std::string error;
  REQUIRE(FitScaling(procs, values, ScalingFitOptions(), &fit, &error));
  INFO(fit.model.Formula());
  REQUIRE(fit.model.terms.size() == 2);
  CHECK(fit.model.Evaluate(1024) == Approx(800.0 / 1024 + 30.0).epsilon(1e-6));
  CHECK(fit.summary.cv_rms_relative < 1e-6);

  // Buckwalter 2005: message size falling as 1/P^2.
  values.clear();
  for (double p : procs) values.push_back(5e6 / (p * p));
  REQUIRE(FitScaling(procs, values, ScalingFitOptions(), &fit, &error));
  CHECK(fit.model.terms.size() == 1);
  CHECK(fit.model.terms[0].p_exponent == -2);
  CHECK(fit.model.Evaluate(128) == Approx(5e6 / (128.0 * 128.0)));
}

TEST_CASE("scaling fit keeps coefficients non-negative", "[model][fit]") {
  // Real NPB MG class C times on the Raspberry Pi 4 cluster, 4..64 ranks
  // (../shared/data/npb/npb_series_median.csv).
  std::vector<double> procs = {4, 8, 16, 32, 64};
  std::vector<double> times = {169.57, 91.1, 50.57, 29.04, 15.05};
  ScalingFit fit;
  std::string error;
  REQUIRE(FitScaling(procs, times, ScalingFitOptions(), &fit, &error));
  INFO(fit.model.Formula());
  for (double c : fit.model.coefficients) CHECK(c >= 0);
  for (int p = 1; p <= 4096; p *= 2) CHECK(fit.model.Evaluate(p) >= 0);
  CHECK(fit.summary.cv_rms_relative < 0.15);
  CHECK(fit.loo_relative_errors.size() == 5);
}

TEST_CASE("scaling fit handles zeros, single points and bad input", "[model][fit]") {
  ScalingFit fit;
  std::string error;
  REQUIRE(FitScaling({1, 2, 4}, {0, 0, 0}, ScalingFitOptions(), &fit, &error));
  CHECK(fit.model.Evaluate(100) == 0);
  REQUIRE(FitScaling({8}, {3.5}, ScalingFitOptions(), &fit, &error));
  CHECK(fit.model.Evaluate(64) == Approx(3.5));
  CHECK_FALSE(FitScaling({}, {}, ScalingFitOptions(), &fit, &error));
  CHECK_FALSE(FitScaling({1, 2}, {NAN, NAN}, ScalingFitOptions(), &fit, &error));
  ScalingFitOptions bad;
  bad.zero_floor_fraction = 0;
  CHECK_FALSE(FitScaling({1, 2}, {1, 2}, bad, &fit, &error));
  CHECK_FALSE(error.empty());
  // Messages: none at P = 1, growing as P*log2(P) after.
  std::vector<double> procs = {1, 2, 4, 8, 16};
  std::vector<double> messages;
  for (double p : procs) messages.push_back(40 * p * std::log2(p));
  REQUIRE(FitScaling(procs, messages, ScalingFitOptions(), &fit, &error));
  CHECK(fit.model.Evaluate(32) == Approx(40 * 32 * 5).epsilon(1e-6));
}
