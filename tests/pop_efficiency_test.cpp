// POP's efficiency factors of measured runs (efficiency/pop_efficiency.h) and their part of the report
// (report/efficiency_section.h). Acceptance: pypop's EPOCH traces give BSC's modelfactors numbers
// (tests/data/paraver/epoch/modelfactors.csv), as a series.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "efficiency/pop_efficiency.h"
#include "report/efficiency_section.h"
#include "tests/ingest_test_util.h"

namespace {

const std::string kEpoch = std::string(QNM_TEST_DATA_DIR) + "/paraver/epoch";

// A run of `app` and `mpi` seconds per rank.
qnm::RunStats Run(std::vector<double> app, std::vector<double> mpi) {
  qnm::RunStats run;
  run.app = "toy";
  run.procs = static_cast<int>(app.size());
  run.app_time_s_per_rank = std::move(app);
  run.mpi_time_s_per_rank = std::move(mpi);
  run.Derive();
  return run;
}

}  // namespace

TEST_CASE("POP efficiencies: EPOCH's series as modelfactors prints it", "[efficiency][acceptance]") {
  std::vector<qnm::Series> series =
      qnm::GroupIntoSeries(qnm::testing::IngestPath(kEpoch, nullptr, /*strict=*/false));
  REQUIRE(series.size() == 1);
  const std::vector<qnm::PopEfficiency> factors = qnm::PopEfficienciesOfSeries(series[0]);
  REQUIRE(factors.size() == 5);
  // modelfactors.csv, percent to 6 decimals, at P = 1, 2, 4, 8, 16.
  const double parallel[] = {99.925583, 99.378252, 97.349953, 95.707736, 95.151184};
  const double balance[] = {100.000000, 99.760930, 98.687584, 98.280683, 99.248259};
  const double communication[] = {99.925583, 99.616405, 98.644580, 97.382042, 95.871892};
  const double scalability[] = {100.000000, 95.500319, 92.390414, 81.340933, 61.436394};
  const double global[] = {99.925583, 94.906548, 89.942024, 77.849566, 58.457456};
  const double speedup[] = {1.000000, 1.899545, 3.600360, 6.232603, 9.360158};
  for (std::size_t k = 0; k < factors.size(); ++k) {
    const qnm::PopEfficiency& e = factors[k];
    INFO("P = " << e.procs);
    CHECK(e.procs == (1 << k));
    CHECK(e.compute_from == "useful computation (Paraver state Running)");
    CHECK(std::abs(100 * e.parallel_efficiency - parallel[k]) <= 5.1e-7);
    CHECK(std::abs(100 * e.load_balance - balance[k]) <= 5.1e-7);
    CHECK(std::abs(100 * e.communication_efficiency - communication[k]) <= 5.1e-7);
    CHECK(std::abs(100 * e.computation_scalability - scalability[k]) <= 5.1e-7);
    CHECK(std::abs(100 * e.global_efficiency - global[k]) <= 5.1e-7);
    CHECK(std::abs(e.speedup - speedup[k]) <= 5.1e-7);
  }
  const std::string html = qnm::report::EfficiencyPart(factors);
  CHECK(html.find("<h3>Efficiencies of the measured runs</h3>") != std::string::npos);
  CHECK(html.find("<svg") != std::string::npos);
  CHECK(html.find(">95.2</td>") != std::string::npos);  // parallel efficiency at P = 16
  CHECK(html.find(">9.36</td>") != std::string::npos);  // speedup at P = 16
}

TEST_CASE("POP efficiencies from per-rank application and MPI times", "[efficiency]") {
  // Compute per rank 8, 6, 4, 6 s of 10 s: mean 6, max 8.
  const qnm::PopEfficiency e = qnm::PopEfficiencyOfRun(Run({10, 10, 10, 9}, {2, 4, 6, 3}));
  CHECK(e.procs == 4);
  CHECK(e.compute_from == "application - MPI time per rank");
  CHECK(e.runtime_s == 10);
  CHECK(e.load_balance == Approx(0.75));
  CHECK(e.communication_efficiency == Approx(0.8));
  CHECK(e.parallel_efficiency == Approx(0.6));
  CHECK(std::isnan(e.computation_scalability));  // a run alone has no reference

  // A series: P = 2 computes 16 s in all where P = 1 computed 12: scalability 0.75.
  qnm::RunStats one = Run({12}, {0});
  qnm::RunStats two = Run({10, 10}, {2, 2});
  std::vector<qnm::Series> series = qnm::GroupIntoSeries({one, two});
  REQUIRE(series.size() == 1);
  const std::vector<qnm::PopEfficiency> factors = qnm::PopEfficienciesOfSeries(series[0]);
  REQUIRE(factors.size() == 2);
  CHECK(factors[1].computation_scalability == Approx(0.75));
  CHECK(factors[1].global_efficiency == Approx(0.8 * 0.75));
  CHECK(factors[1].speedup == Approx(1.2));

  // A record without per-rank times (a table's row, a spot profile) has none.
  qnm::RunStats summary;
  summary.procs = 4;
  summary.wall_time_s = 10;
  summary.app_time_mean_s = 10;
  summary.mpi_time_mean_s = 2;
  CHECK(qnm::PopEfficiencyOfRun(summary).procs == 0);
  CHECK(qnm::PopEfficiencyOfRun(Run({10, 10}, {10, 10})).procs == 0);  // no computation at all
  CHECK(qnm::report::EfficiencyPart({}).empty());
}
