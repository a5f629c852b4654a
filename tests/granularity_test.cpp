// Granularity of a problem split into units of work (issue 17): the busiest rank holds
// ceil(U/P) units, so a P that does not divide them is no faster than U / ceil(U/P).
#include <catch2/catch.hpp>
#include <string>

#include "ingest/ingest.h"
#include "models/granularity.h"
#include "models/prediction.h"
#include "tests/support/single_run_series.h"

namespace {

/// The runs of one NPB-MZ series of tests/data/mpip (NPB output + mpiP report per run).
qnm::Series CabSeries(const std::string& name) {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs =
      qnm::IngestPaths({std::string(QNM_TEST_DATA_DIR) + "/mpip"}, qnm::IngestOptions(), &summary);
  for (qnm::RunStats& run : runs) run.Derive();
  for (qnm::Series& s : qnm::GroupIntoSeries(std::move(runs)))
    if (s.name == name) return s;
  FAIL("no series " << name);
  return {};
}

}  // namespace

TEST_CASE("the busiest of P ranks holds ceil(U/P) units", "[model][granularity]") {
  const qnm::Granularity zones{256};
  CHECK(zones.BusiestUnits(128) == 2);
  CHECK(zones.BusiestUnits(100) == 3);
  CHECK(zones.BusiestUnits(86) == 3);
  CHECK(zones.BusiestUnits(85) == 4);
  CHECK(zones.BusiestOverMean(128) == 1.0);
  CHECK(zones.BusiestOverMean(100) == Approx(300.0 / 256));
  CHECK(zones.EffectiveProcs(100) == Approx(256.0 / 3));
  CHECK(zones.EffectiveProcs(64) == 64);
  // Unknown units, or more ranks than units (impossible, refused elsewhere): no bound.
  CHECK(qnm::Granularity{}.EffectiveProcs(100) == 100);
  CHECK(qnm::Granularity{}.BusiestOverMean(100) == 1.0);
  CHECK(zones.BusiestOverMean(300) == 1.0);
}

TEST_CASE("SP-MZ's equal zones make P = 86..127 no faster than P = 256/3", "[model][granularity]") {
  qnm::Series series = CabSeries("sp-mz.C th=8 @cab");
  qnm::SeriesModel model;
  std::string error;
  REQUIRE(qnm::FitSeriesModel(series, {}, qnm::PredictionOptions(), &model, &error));
  REQUIRE(model.kind == qnm::ModelKind::kQueueing);
  CHECK(model.work_units == 256);
  CHECK(model.work_units_equal);
  const qnm::ProcsPrediction at86 = model.Predict(86), at100 = model.Predict(100), at127 = model.Predict(127),
                             at128 = model.Predict(128);
  REQUIRE((at86.Ok() && at100.Ok() && at127.Ok() && at128.Ok()));
  // The busiest rank computes the same 3 zones at 100 and 127 as at 86 (W + I, the mean
  // compute plus the imbalance), within what the MPI curves add between them.
  const double busiest86 = at86.compute.value_s + at86.imbalance.value_s;
  CHECK(at100.compute.value_s + at100.imbalance.value_s == Approx(busiest86).epsilon(0.02));
  CHECK(at127.compute.value_s + at127.imbalance.value_s == Approx(busiest86).epsilon(0.02));
  CHECK(at100.imbalance.value_s > 2 * at86.imbalance.value_s);  // the granularity is imbalance
  CHECK(at100.total.value_s == Approx(at86.total.value_s).epsilon(0.02));
  // Two zones per rank at 128: a step down.
  CHECK(at128.total.value_s < 0.8 * at127.total.value_s);
  bool noted = false;
  for (const std::string& note : model.summary.notes) noted |= note.find("granularity") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("BT-MZ's unequal zones bound P, not the time between", "[model][granularity]") {
  qnm::Series series = CabSeries("bt-mz.C th=8 @cab");
  qnm::SeriesModel model;
  std::string error;
  REQUIRE(qnm::FitSeriesModel(series, {}, qnm::PredictionOptions(), &model, &error));
  CHECK(model.work_units == 256);
  CHECK_FALSE(model.work_units_equal);
  CHECK(model.Predict(100).total.value_s < 0.97 * model.Predict(86).total.value_s);
  CHECK(model.Predict(257).termination == qnm::PredictionTermination::kBeyondWorkUnits);
}

TEST_CASE("a runtime-only series with --work-units is no faster than its effective P", "[model][granularity]") {
  const qnm::Series series = qnm::testing::SingleRunSeries("table", {1, 2, 4, 8, 16}, [](int p) {
    qnm::RunStats run;
    run.wall_time_s = 1.0 + 320.0 / p;
    run.work_units = 64;
    run.work_units_equal = true;
    return run;
  });
  qnm::SeriesModel model;
  std::string error;
  REQUIRE(qnm::FitSeriesModel(series, {}, qnm::PredictionOptions(), &model, &error));
  REQUIRE(model.kind == qnm::ModelKind::kRuntimeOnly);
  // ceil(64/40) = 2 units, as at P = 32.
  CHECK(model.Predict(40).total.value_s == Approx(model.Predict(32).total.value_s));
  CHECK(model.Predict(63).total.value_s == Approx(model.Predict(32).total.value_s));
  CHECK(model.Predict(64).total.value_s < model.Predict(63).total.value_s);
}
