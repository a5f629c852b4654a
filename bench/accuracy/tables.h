#pragma once
// What accuracy_bench prints: the totals of a set of series (ours against
// Extra-P, Amdahl and the naive prediction, interval coverage), the rows of
// every way of predicting at the largest P, the per-series tables, and the
// CSV of every held-out point.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench/accuracy/scoring.h"

namespace accuracy {

/// "12.3%"; "–" when not finite.
std::string Pct(double fraction);
/// Median of the finite values; NaN when there are none.
double Median(std::vector<double> values);
/// Largest finite value; NaN when there is none.
double Max(const std::vector<double>& values);

/// The totals of a set of series.
struct Totals {
  std::vector<double> last_ours, last_uniform, last_amdahl, last_naive, last_peer;
  std::vector<double> every_ours, every_amdahl;  // every predicted point, not only the largest P
  int points = 0, inside = 0, uniform_inside = 0, flagged = 0, series = 0, failed = 0;
  int wins_peer = 0, uniform_wins_peer = 0, peer_series = 0, wins_amdahl = 0, wins_naive = 0;
  void Add(const SeriesResult& s);
};

void PrintTotalsHeader();
void PrintTotals(const std::string& title, const Totals& t);
/// How much the count of series better than Extra-P says: its binomial sd, the 70%
/// in sd, and a sign test against a coin toss.
void PrintWinCount(const Totals& t);
/// How honest the 90% intervals are, per source and overall, at every held-out point: inside, above
/// the upper bound (slower than predicted), below the lower; the median width; and the interval
/// score in log space (Gneiting & Raftery 2007, §6.2: width + 2/alpha x the distance outside, a
/// proper scoring rule: lower is better).
void PrintIntervalQuality(const std::map<std::string, std::vector<SeriesResult>>& by_source);
/// One table row per series: the error at each predicted P and the peers' at the largest.
void PrintSeries(const std::string& title, const std::vector<SeriesResult>& results);
/// One row per way of predicting (a configuration fixed for every source, the average of all of
/// them, the choice per source): at the largest P, the median |error|, the mean |log error| and the
/// series better than Extra-P, overall and per source.
void PrintFixed(const std::vector<std::string>& labels, const std::vector<std::vector<LastPoint>>& rows,
                const std::set<std::string>& sources);
/// Every held-out point of the leave-one-source-out results, signed: one CSV row per point, the
/// training points in one field ("P:time;..."), for analyses outside the bench.
std::string DumpCsv(const std::map<std::string, std::vector<SeriesResult>>& by_source);

}  // namespace accuracy
