// The interval of one predicted point (models/prediction_interval.h): its distance from the
// training range, the uneven split of its log width, the plausible envelope and the flag of an
// interval too wide to inform, with its cause.
#include "models/prediction_interval.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>

namespace {

/// A predicted total of `value_s` with the interval `lower_s` .. `upper_s` at `procs`.
qnm::ProcsPrediction Point(int procs, double value_s, double lower_s, double upper_s, double extrapolation) {
  qnm::ProcsPrediction p;
  p.procs = procs;
  p.total.value_s = value_s;
  p.total.lower_s = lower_s;
  p.total.upper_s = upper_s;
  p.extrapolation = extrapolation;
  return p;
}

}  // namespace

TEST_CASE("a predicted point's distance from the training range and its interval's split", "[models][interval]") {
  CHECK(qnm::ExtrapolationDistance(64, 2, 16) == Approx(2));
  CHECK(qnm::ExtrapolationDistance(1, 2, 16) == Approx(1));
  CHECK(qnm::ExtrapolationDistance(8, 2, 16) == 0);
  const qnm::LogHalfWidths half = qnm::SplitLogWidth(1.0, 0.6);  // a log width of 2, 60% above
  CHECK(half.above == Approx(1.2));
  CHECK(half.below == Approx(0.8));
  qnm::Interval interval;
  interval.value_s = 10;
  qnm::SetInterval(&interval, half);
  CHECK(interval.upper_s == Approx(10 * std::exp(1.2)));
  CHECK(interval.lower_s == Approx(10 * std::exp(-0.8)));
  qnm::Interval huge;  // e^-900 .. e^900 around 1 s: held inside double's range, not 0 and inf
  huge.value_s = 1;
  qnm::SetInterval(&huge, qnm::SplitLogWidth(900, 0.5));
  CHECK(huge.lower_s > 0);
  CHECK(std::isfinite(huge.upper_s));
  CHECK(huge.upper_s > 1e300);
  CHECK(qnm::ScaledEnd(2, std::log(3.0)) == Approx(6));
  CHECK(qnm::ScaledEnd(1e10, 900) == std::numeric_limits<double>::max());  // the envelope's widening too
  CHECK(qnm::ScaledEnd(1e-10, -900) == std::numeric_limits<double>::min());
  qnm::Interval unknown;  // no value: no interval either
  qnm::SetInterval(&unknown, half);
  CHECK_FALSE(qnm::Known(unknown.lower_s));
}

TEST_CASE("an interval too wide to inform is flagged with the larger of its two causes", "[models][interval]") {
  qnm::ExtrapolationError growth;  // training runs close together: 2 per octave, little noise
  growth.base_log_sd = 0.05;
  growth.per_octave_log_sd = 2.0;
  qnm::ExtrapolationError noise;  // runs that follow no one curve: noise 2, 0.25 per octave
  noise.base_log_sd = 2.0;
  noise.per_octave_log_sd = 0.25;
  for (const qnm::ExtrapolationError& error : {growth, noise}) {
    qnm::ProcsPrediction wide = Point(64, 10, 1, 1000, 2.0);  // 3 decades, 2 octaves beyond P = 16
    qnm::FlagUninformativeInterval(4, 16, error, &wide);
    REQUIRE(wide.flags.size() == 1);
    const std::string& flag = wide.flags[0];
    CHECK(flag.find("the interval spans 3 decades (upper / lower), too wide to inform") == 0);
    const bool noise_larger = error.base_log_sd >= error.per_octave_log_sd * 2.0;
    CHECK((flag.find("scatter around the model by a log sd of 2 ") != std::string::npos) == noise_larger);
    CHECK((flag.find("runs at larger P would narrow it") != std::string::npos) == !noise_larger);
    CHECK(flag.find("P=4..16 (2 octaves)") != std::string::npos);
    qnm::ProcsPrediction narrow = Point(64, 10, 1, 99, 2.0);  // under two decades
    qnm::FlagUninformativeInterval(4, 16, error, &narrow);
    CHECK(narrow.flags.empty());
    qnm::ProcsPrediction inside = Point(16, 10, 1, 1000, 0.0);  // a training P: the interval is the noise's
    qnm::FlagUninformativeInterval(4, 16, error, &inside);
    CHECK(inside.flags.empty());
  }
  // Below the training range too, and then runs at smaller P would narrow it.
  qnm::ProcsPrediction below = Point(1, 10, 1, 1000, 2.0);
  qnm::FlagUninformativeInterval(4, 16, growth, &below);
  REQUIRE(below.flags.size() == 1);
  CHECK(below.flags[0].find("runs at smaller P would narrow it") != std::string::npos);
  // Ends beyond double's range still give a number of decades, not inf.
  qnm::ProcsPrediction huge = Point(1 << 20, 1, 1e-200, 1e200, 16.0);
  qnm::FlagUninformativeInterval(4, 16, growth, &huge);
  REQUIRE(huge.flags.size() == 1);
  CHECK(huge.flags[0].find("spans 400 decades") != std::string::npos);
}
