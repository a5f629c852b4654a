// POP's efficiency factors of measured runs (efficiency/pop_efficiency.h) and their part of the report
// (report/efficiency_section.h) and of `qnm-predict efficiency` (efficiency/pop_efficiency_table.h). Acceptance: pypop's EPOCH traces give BSC's modelfactors numbers
// (tests/data/paraver/epoch/modelfactors.csv), as a series.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "efficiency/pop_efficiency.h"
#include "efficiency/pop_efficiency_table.h"
#include "report/efficiency_section.h"
#include "tests/command_runner.h"
#include "tests/ingest_test_util.h"
#include "textio/text_lines.h"

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
  // Its hardware-counter rows (useful instructions and cycles: PAPI_TOT_INS and PAPI_TOT_CYC in
  // state Running, as pypop's useful_instructions.cfg and useful_cycles.cfg ask paramedir for them).
  const double ipc_scalability[] = {100.000000, 99.916598, 99.745711, 93.982492, 82.262861};
  const double instruction_scalability[] = {100.000000, 96.748633, 95.788940, 94.145829, 91.017467};
  const double frequency_scalability[] = {100.000000, 98.792129, 96.697961, 91.930815, 82.053509};
  const double ipc[] = {1.871993, 1.870432, 1.867233, 1.759346, 1.539955};
  const double frequency_ghz[] = {2.069905, 2.044904, 2.001556, 1.902881, 1.698430};
  const double instructions[] = {84790848422, 87640358419, 88518412143, 90063308642, 93158874793};
  const double cycles[] = {45294421893, 46855679955, 47406198069, 51191361663, 60494538119};
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
    CHECK(e.useful_instructions == instructions[k]);  // modelfactors' "#Useful instructions (total)", exactly
    CHECK(e.useful_cycles == cycles[k]);
    CHECK(std::abs(100 * e.ipc_scalability - ipc_scalability[k]) <= 5.1e-7);
    CHECK(std::abs(100 * e.instruction_scalability - instruction_scalability[k]) <= 5.1e-7);
    CHECK(std::abs(100 * e.frequency_scalability - frequency_scalability[k]) <= 5.1e-7);
    CHECK(std::abs(e.ipc - ipc[k]) <= 5.1e-7);
    CHECK(std::abs(e.frequency_ghz - frequency_ghz[k]) <= 5.1e-7);
  }
  const std::string html = qnm::report::EfficiencyPart(factors);
  CHECK(html.find("<h3>Efficiencies of the measured runs</h3>") != std::string::npos);
  CHECK(html.find("<svg") != std::string::npos);
  CHECK(html.find(">95.2</td>") != std::string::npos);  // parallel efficiency at P = 16
  CHECK(html.find(">9.36</td>") != std::string::npos);  // speedup at P = 16
  CHECK(html.find("<th>IPC scalability (%)</th>") != std::string::npos);  // EPOCH's traces have counters
  CHECK(html.find(">82.3</td>") != std::string::npos);  // IPC scalability at P = 16
  CHECK(html.find("Runtime: the trace's elapsed time.") != std::string::npos);
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

  // A Paraver record's useful computation, and the same with times no run can have (edited by hand):
  // a total below the maximum, a mean above it, computing longer than the run.
  qnm::RunStats traced;
  traced.procs = 2;
  traced.details["pop_useful_mean_s"] = "4";
  traced.details["pop_useful_max_s"] = "5";
  traced.details["pop_useful_sum_s"] = "8";
  traced.details["pop_runtime_s"] = "6";
  CHECK(qnm::PopEfficiencyOfRun(traced).load_balance == Approx(0.8));
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"pop_useful_sum_s", "0"}, {"pop_useful_mean_s", "5.5"}, {"pop_runtime_s", "4.5"}}) {
    qnm::RunStats edited = traced;
    edited.details[key] = value;
    INFO(key << " = " << value);
    CHECK(qnm::PopEfficiencyOfRun(edited).procs == 0);
  }
  CHECK(qnm::report::EfficiencyPart({}).empty());
}

TEST_CASE("POP efficiencies: the table, CSV and JSON of `qnm-predict efficiency`", "[efficiency][cli]") {
  std::vector<qnm::Series> series =
      qnm::GroupIntoSeries(qnm::testing::IngestPath(kEpoch, nullptr, /*strict=*/false));
  REQUIRE(series.size() == 1);
  const std::vector<qnm::SeriesEfficiencies> all = {{series[0].name, qnm::PopEfficienciesOfSeries(series[0])},
                                                    {"empty", {}}};
  qnm::EfficiencyFormat format;
  CHECK_FALSE(qnm::ParseEfficiencyFormat("xml", &format));

  // The table: modelfactors' rows, nested as it nests them, in percent to 2 decimals.
  REQUIRE(qnm::ParseEfficiencyFormat("table", &format));
  const std::string table = qnm::RenderPopEfficiencies(all, format);
  CHECK(table.find("series epoch: POP efficiencies (%)") == 0);
  CHECK(table.find("empty") == std::string::npos);  // a series without runs is left out
  CHECK_THAT(table, Catch::Contains("Global efficiency                 99.93      94.91      89.94      77.85      58.46"));
  CHECK_THAT(table, Catch::Contains("    Load balance                 100.00      99.76      98.69      98.28      99.25"));
  CHECK_THAT(table, Catch::Contains("Speedup                            1.00       1.90       3.60       6.23       9.36"));

  // CSV and JSON: fractions, every factor as computed (CSV to 12 digits).
  REQUIRE(qnm::ParseEfficiencyFormat("csv", &format));
  const std::string csv = qnm::RenderPopEfficiencies(all, format);
  const std::vector<std::string_view> rows = qnm::SplitLines(csv);
  REQUIRE(rows.size() >= 6);
  CHECK(rows[0].find("series,procs,global_efficiency,parallel_efficiency,load_balance") == 0);
  const std::vector<std::string_view> p16 = qnm::SplitFields(rows[5], ',');
  CHECK(p16[0] == "epoch");
  CHECK(p16[1] == "16");
  CHECK(*qnm::ParseDouble(p16[2]) == Approx(all[0].runs[4].global_efficiency).epsilon(1e-11));
  REQUIRE(qnm::ParseEfficiencyFormat("json", &format));
  const nlohmann::json json = nlohmann::json::parse(qnm::RenderPopEfficiencies(all, format));
  REQUIRE(json["series"].size() == 1);
  CHECK(json["series"][0]["compute_from"] == "useful computation (Paraver state Running)");
  CHECK(json["series"][0]["runs"][2]["procs"] == 4);
  CHECK(json["series"][0]["runs"][2]["load_balance"].get<double>() == all[0].runs[2].load_balance);

  // The command: the same text; nothing with per-rank times is one line and a non-zero exit.
  std::string out;
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " efficiency " + kEpoch + " 2>/dev/null", &out) == 0);
  CHECK(out == table);
  const std::string scaling = std::string(QNM_TEST_DATA_DIR) + "/scaling/scaling_series.csv";
  CHECK(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " efficiency " + scaling + " 2>&1", &out) != 0);
  CHECK_THAT(out, Catch::Contains("no series with per-rank times"));
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
}
