// Leave-one-out within a work budget (issue 19): every count up to the budget, an evenly
// spread share of each series' counts beyond it, and the validation says which.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdio>
#include <string>

#include "models/leave_one_out_budget.h"
#include "models/validation.h"
#include "tests/support/single_run_series.h"

namespace {

qnm::Series AmdahlSeries(const std::string& name, int points) {
  std::vector<int> procs;
  for (int p = 1; p <= points; ++p) procs.push_back(p);
  return qnm::testing::SingleRunSeries(name, procs, [](int p) {
    qnm::RunStats run;
    run.wall_time_s = 10.0 + 90.0 / p;
    return run;
  });
}

}  // namespace

TEST_CASE("EvenlySpread keeps the first and the largest count and spreads the rest", "[validation][budget]") {
  const std::vector<int> procs = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
  CHECK(qnm::EvenlySpread(procs, 1) == std::vector<int>{512});
  CHECK(qnm::EvenlySpread(procs, 2) == std::vector<int>{1, 512});
  CHECK(qnm::EvenlySpread(procs, 4) == std::vector<int>{1, 8, 64, 512});
  CHECK(qnm::EvenlySpread(procs, 10) == procs);
  CHECK(qnm::EvenlySpread(procs, 99) == procs);
}

TEST_CASE("a table within the budget is planned in full, one over it gets the same share per series",
          "[validation][budget]") {
  const std::vector<qnm::Series> table = {AmdahlSeries("a", 100), AmdahlSeries("b", 50), AmdahlSeries("c", 4)};
  // Every count held out: sum over series of (n + 40) + n * (n - 1 + 40).
  const double full = (140 + 100 * 139.0) + (90 + 50 * 89.0) + (44 + 4 * 43.0);
  CHECK(qnm::LeaveOneOutRefitUnits(99, false) == 139);
  CHECK(qnm::LeaveOneOutRefitUnits(99, true) == 7 * 139);

  const qnm::LeaveOneOutPlan exact = qnm::PlanLeaveOneOut(table, full);
  CHECK_FALSE(exact.bounded);
  CHECK(exact.full_units == Approx(full));
  CHECK(exact.held_out == std::vector<std::size_t>{100, 50, 4});
  CHECK(exact.Note().empty());
  CHECK_FALSE(qnm::PlanLeaveOneOut(table, 0).bounded);  // 0: no budget

  // 10.5% of the refits fit: the fits on all points (274 units) come first.
  const double budget = 274 + 0.105 * (full - 274);
  const qnm::LeaveOneOutPlan bounded = qnm::PlanLeaveOneOut(table, budget);
  REQUIRE(bounded.bounded);
  CHECK(bounded.held_out == std::vector<std::size_t>{10, 5, 1});  // 0.105 n, fractions carried: 10.5, 5.75, 1.17
  CHECK(bounded.planned_units == Approx(274 + 10 * 139.0 + 5 * 89.0 + 1 * 43.0));
  CHECK(bounded.planned_units <= budget);
  const std::string note = bounded.Note();
  CHECK(note.find("leave-one-out bounded") == 0);
  CHECK(note.find("16 refits") != std::string::npos);
  CHECK(note.find("--loo-budget 0") != std::string::npos);
  CHECK(note.find('\n') == std::string::npos);

  // Less than the fits on all points: no count held out, over the budget, and said.
  const qnm::LeaveOneOutPlan least = qnm::PlanLeaveOneOut(table, 100);
  CHECK(least.bounded);
  CHECK(least.held_out == std::vector<std::size_t>{0, 0, 0});
  CHECK(least.planned_units == Approx(274));

  // Many short series: one count in every few series, within the budget.
  std::vector<qnm::Series> short_series;
  for (int k = 0; k < 10; ++k) short_series.push_back(AmdahlSeries("s" + std::to_string(k), 10));
  const double fits = 10 * 50.0, one_refit = 49;  // a fit on 10 points; a refit on 9
  const qnm::LeaveOneOutPlan few = qnm::PlanLeaveOneOut(short_series, fits + 3.5 * one_refit);
  std::size_t held = 0;
  for (std::size_t k : few.held_out) {
    CHECK(k <= 1);
    held += k;
  }
  CHECK(held == 3);
  CHECK(few.planned_units <= few.budget_units);

  // Series that ValidateSeries refuses (one count; over kMaxLeaveOneOutProcs) cost nothing.
  const qnm::LeaveOneOutPlan refused =
      qnm::PlanLeaveOneOut({AmdahlSeries("one", 1), AmdahlSeries("long", 1001)}, 1);
  CHECK_FALSE(refused.bounded);
  CHECK(refused.full_units == 0);
  CHECK(refused.held_out == std::vector<std::size_t>{0, 0});
}

TEST_CASE("a bounded leave-one-out predicts the held-out counts exactly as the full one does",
          "[validation][budget]") {
  const qnm::Series series = AmdahlSeries("s", 12);
  qnm::ValidationOptions all;
  qnm::ValidationResult full, bounded;
  std::string error;
  REQUIRE(qnm::ValidateSeries(series, all, &full, &error));
  CHECK(full.summary.mode == "leave-one-out");
  CHECK(full.rows.size() == 12);

  qnm::ValidationOptions some;
  some.held_out_limit = 4;
  REQUIRE(qnm::ValidateSeries(series, some, &bounded, &error));
  CHECK(bounded.summary.mode == "leave-one-out (bounded: 4 of 12 process counts held out, evenly spread)");
  REQUIRE(bounded.rows.size() == 4);
  const std::vector<int> expected = {1, 5, 8, 12};  // EvenlySpread of 1..12
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(bounded.rows[k].procs == expected[k]);
    const qnm::ValidationRow& same = full.rows[expected[k] - 1];
    CHECK(bounded.rows[k].predicted.total.value_s == same.predicted.total.value_s);  // bit for bit
    CHECK(bounded.rows[k].relative_error == same.relative_error);
  }
  CHECK(bounded.summary.predicted_points == 4);

  some.held_out_limit = 0;  // none: the model on all points, nothing predicted, and said
  REQUIRE(qnm::ValidateSeries(series, some, &bounded, &error));
  CHECK(bounded.summary.mode == "leave-one-out (bounded: 0 of 12 process counts held out, evenly spread)");
  CHECK(bounded.rows.empty());
  CHECK(bounded.summary.BriefReport().find("nothing predicted") != std::string::npos);
  CHECK(bounded.model.summary.training_points == 12);

  some.held_out_limit = 12;  // as many as there are: the full validation
  REQUIRE(qnm::ValidateSeries(series, some, &bounded, &error));
  CHECK(bounded.summary.mode == "leave-one-out");
  CHECK(bounded.rows.size() == 12);
}

TEST_CASE("validate over its leave-one-out budget says so in one line and in the mode", "[validation][budget][cli]") {
  auto run = [](const std::string& args, std::string* out) {
    const std::string command = std::string(QNM_CLI_PATH) + " validate " + args + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe);
    out->clear();
    char buffer[4096];
    while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) out->append(buffer, n);
    return pclose(pipe);
  };
  std::string all, bounded, table;
  // The bundled series (5 process counts, queueing model): 1,855 units to hold out every count;
  // 700 leaves (700 - 315) / 1,540 of its refits: 1.25 counts, one held out.
  REQUIRE(run("--format csv", &all) == 0);
  REQUIRE(run("--format csv --loo-budget 0", &bounded) == 0);
  CHECK(bounded == all);  // 0: no budget
  CHECK(all.find("note:") == std::string::npos);
  CHECK(std::count(all.begin(), all.end(), '\n') == 6);  // header and 5 rows

  REQUIRE(run("--format csv --loo-budget 700", &bounded) == 0);
  const std::size_t note = bounded.find("qnm-predict: note: leave-one-out bounded:");
  REQUIRE(note != std::string::npos);
  CHECK(bounded.find("1 refits in all") != std::string::npos);
  CHECK(std::count(bounded.begin(), bounded.end(), '\n') == 3);  // the note, the header, one row
  const std::string last_row = all.substr(all.rfind('\n', all.size() - 2) + 1);
  CHECK(bounded.find(last_row) != std::string::npos);  // the largest P, predicted as in the full validation

  REQUIRE(run("--loo-budget 700", &table) == 0);
  CHECK(table.find("validation leave-one-out (bounded: 1 of 5 process counts held out, evenly spread): 1 predicted") !=
        std::string::npos);
  CHECK(run("--loo-budget -1", &table) != 0);
}
