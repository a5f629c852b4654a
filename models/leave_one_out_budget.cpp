#include "models/leave_one_out_budget.h"

#include <algorithm>
#include <cmath>

#include "models/prediction.h"
#include "models/validation.h"
#include "util/text_format.h"

namespace qnm {
namespace {

std::string Millions(double units) {
  return units >= 1e5 ? FormatDouble("%.1f", units / 1e6) + " million" : FormatDouble("%.0f", units);
}

}  // namespace

double LeaveOneOutRefitUnits(std::size_t points, bool queueing, int configurations) {
  const double fits = queueing ? 7.0 : configurations > 1 && points >= 5 ? configurations + 1.0 : 1.0;
  return fits * (static_cast<double>(points) + 40.0);
}

std::vector<int> MeasuredProcs(const Series& series) {
  std::vector<int> out;
  for (const RunGroup& group : series.groups)
    if (Known(group.median_time_s) && group.median_time_s > 0) out.push_back(group.procs);
  return out;
}

std::vector<int> EvenlySpread(const std::vector<int>& procs, std::size_t count) {
  const std::size_t n = procs.size();
  if (count >= n) return procs;
  if (count == 0) return {};
  if (count == 1) return {procs.back()};
  std::vector<int> out;
  for (std::size_t j = 0; j < count; ++j) out.push_back(procs[(j * (n - 1) + (count - 1) / 2) / (count - 1)]);
  return out;
}

LeaveOneOutPlan PlanLeaveOneOut(const std::vector<Series>& series, double budget_units, int configurations) {
  LeaveOneOutPlan plan;
  plan.budget_units = budget_units;
  std::vector<std::size_t> points(series.size());
  std::vector<bool> queueing(series.size());
  double fits_on_all = 0, refits = 0;  // the fits on every point; every count held out once
  for (std::size_t i = 0; i < series.size(); ++i) {
    points[i] = MeasuredProcs(series[i]).size();
    if (points[i] < 2 || points[i] > kMaxLeaveOneOutProcs) points[i] = 0;  // refused by ValidateSeries, no work
    queueing[i] = !series[i].groups.empty() && UsesQueueingModel(series[i]);
    if (points[i] > 0) fits_on_all += LeaveOneOutRefitUnits(points[i], queueing[i], configurations);
    if (points[i] > 0) refits += points[i] * LeaveOneOutRefitUnits(points[i] - 1, queueing[i], configurations);
  }
  plan.full_units = fits_on_all + refits;
  plan.held_out = points;
  plan.planned_units = plan.full_units;
  if (budget_units <= 0 || plan.full_units <= budget_units) return plan;
  // The same share of every series' counts, as much as the budget leaves after the fits on all points.
  const double share = std::max(0.0, budget_units - fits_on_all) / refits;
  plan.bounded = true;
  plan.planned_units = fits_on_all;
  // share x n rounded down, the fraction carried on to the next series: a table of many
  // short series holds out one count in every few series, not one in each (which alone
  // could take twice the budget: 105,000 series x 10 P).
  double carried = 0;
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (points[i] == 0) continue;
    carried += share * static_cast<double>(points[i]);
    plan.held_out[i] = std::min(points[i], static_cast<std::size_t>(std::floor(carried + 1e-9)));
    carried = std::max(0.0, carried - static_cast<double>(plan.held_out[i]));
    plan.planned_units += plan.held_out[i] * LeaveOneOutRefitUnits(points[i] - 1, queueing[i], configurations);
  }
  return plan;
}

std::string LeaveOneOutPlan::Note() const {
  if (!bounded) return "";
  std::size_t held = 0, none = 0;
  for (std::size_t k : held_out) {
    held += k;
    none += k == 0;
  }
  return "leave-one-out bounded: holding out every process count of the " + std::to_string(held_out.size()) +
         " series would take " + Millions(full_units) + " refit-point units, over the budget of " +
         Millions(budget_units) + "; each series holds out an evenly spread share of its process counts (" +
         std::to_string(held) + " refits in all" +
         (none > 0 ? ", " + std::to_string(none) + " series none, their models on all points only" : std::string()) +
         ", " + Millions(planned_units) +
         " units; each series' validation mode says how many): validate a split with --train, or set "
         "--loo-budget 0 for every count";
}

}  // namespace qnm
