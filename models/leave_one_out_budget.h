#pragma once
// How many process counts leave-one-out validation holds out per series. Each
// held-out count is one refit of the series on all its other counts, so a
// table's leave-one-out costs about sum over series of points^2 refit points:
// 10,000 series x 100 P is a million refits of 99 points (~15 min of CPU).
// Up to a stated work budget every count is held out (the exact validation);
// beyond it each series holds out an evenly spread share of its counts, the
// same share for every series, and the plan says so in one line (issue 19).
#include <cstddef>
#include <string>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// The work of one refit of `points` process counts, in refit-point units: a
/// refit costs a fixed part worth ~40 points (forward-validation origins, the
/// training anchor, the turn search) plus a part linear in its points, and a
/// queueing-model refit (every count has an MPI profile) about 7 times a
/// runtime-only one (measured: bench/README.md, "Robustness round 9"). A runtime-only
/// refit of 5 or more counts that chooses among `configurations` (> 1;
/// models/runtime_configuration.h) fits each of them once more to forecast its largest
/// count: configurations + 1 fits.
double LeaveOneOutRefitUnits(std::size_t points, bool queueing, int configurations = 1);

/// The default budget: 6 million units, ~30 s of CPU for the runtime-only fits on the
/// 2-core development machine. 10,000 series x 10 P is 5.4 million without the choice of a
/// configuration per series, 27 million with its 4 configurations (bounded to about a fifth).
constexpr double kLeaveOneOutBudgetUnits = 6e6;

struct LeaveOneOutPlan {
  // Per series (in the order given): how many process counts to hold out;
  // equal to the series' measured count when not bounded, 0 for a series that
  // ValidateSeries refuses (fewer than 2 or more than kMaxLeaveOneOutProcs counts)
  // and, when bounded, for a series whose share rounded to no count.
  std::vector<std::size_t> held_out;
  bool bounded = false;
  double full_units = 0;     // the work of holding out every count, fits on all points included
  double planned_units = 0;  // the work of this plan
  double budget_units = 0;
  /// One line for the user when bounded ("leave-one-out bounded: ..."); empty otherwise.
  std::string Note() const;
};

/// Plans leave-one-out of `series` within `budget_units` (<= 0: unbounded). The fits on
/// all points come first (every series' model is reported), so a table whose fits alone
/// exceed the budget holds out nothing; a series may hold out none of its counts when the
/// share is below one count per series.
/// `configurations`: the runtime-only configurations each refit chooses among (1: none).
LeaveOneOutPlan PlanLeaveOneOut(const std::vector<Series>& series, double budget_units, int configurations = 1);

/// The process counts of a series that measured a positive time (leave-one-out's candidates).
std::vector<int> MeasuredProcs(const Series& series);

/// `count` of `procs` (sorted), evenly spread and always including the largest:
/// indices round(j * (n - 1) / (count - 1)); all of them when count >= n.
std::vector<int> EvenlySpread(const std::vector<int>& procs, std::size_t count);

}  // namespace qnm
