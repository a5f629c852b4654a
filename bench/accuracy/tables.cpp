#include "bench/accuracy/tables.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <boost/math/distributions/binomial.hpp>

#include "bench/accuracy/interval_score.h"
#include "models/forward_validation.h"

namespace accuracy {

std::string Pct(double fraction) {
  if (!std::isfinite(fraction)) return "–";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100 * fraction);
  return buffer;
}

double Median(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
               values.end());
  if (values.empty()) return NAN;
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double Max(const std::vector<double>& values) {
  double m = NAN;
  for (double v : values)
    if (std::isfinite(v) && !(v <= m)) m = v;
  return m;
}

void Totals::Add(const SeriesResult& s) {
  if (!s.failure.empty()) {
    ++failed;
    return;
  }
  ++series;
  for (const PointResult& p : s.points) {
    ++points;
    every_ours.push_back(p.ours);
    every_amdahl.push_back(p.amdahl);
    inside += p.inside;
    uniform_inside += p.uniform_inside;
    flagged += p.flagged;
  }
  const PointResult& last = s.points.back();
  last_ours.push_back(last.ours);
  last_uniform.push_back(last.uniform);
  last_amdahl.push_back(last.amdahl);
  last_naive.push_back(last.naive);
  last_peer.push_back(last.peer);
  if (std::isfinite(last.peer)) {
    ++peer_series;
    wins_peer += last.ours < last.peer;
    uniform_wins_peer += last.uniform < last.peer;
  }
  wins_amdahl += last.ours < last.amdahl;
  wins_naive += last.ours < last.naive;
}

void PrintIntervalQuality(const std::map<std::string, std::vector<SeriesResult>>& by_source) {
  constexpr double kAlpha = 0.1;  // a 90% interval
  std::printf("\nThe 90%% intervals at every held-out point: inside, above the upper bound (slower than "
              "predicted), below the lower; the median width (upper / lower); the mean interval score in log "
              "space (width + 20 x the log distance outside; lower is better):\n\n"
              "| data | points | inside | above | below | median width | interval score |\n"
              "|---|---:|---:|---:|---:|---:|---:|\n");
  auto row = [&](const std::string& label, const std::vector<const SeriesResult*>& results) {
    int points = 0, inside = 0, above = 0, below = 0;
    double score = 0;
    std::vector<double> widths;
    for (const SeriesResult* s : results)
      for (const PointResult& p : s->points) {
        if (!(p.lower_s > 0) || !(p.upper_s > 0) || !(p.measured_s > 0)) continue;
        ++points;
        const double y = std::log(p.measured_s), lo = std::log(p.lower_s), hi = std::log(p.upper_s);
        inside += lo <= y && y <= hi;
        above += y > hi;
        below += y < lo;
        widths.push_back(p.upper_s / p.lower_s);
        score += qnm::bench::LogIntervalScore(lo, hi, y, kAlpha);
      }
    if (points == 0) return;
    std::printf("| %s | %d | %s | %s | %s | %.2fx | %.3f |\n", label.c_str(), points, Pct(double(inside) / points).c_str(),
                Pct(double(above) / points).c_str(), Pct(double(below) / points).c_str(), Median(widths),
                score / points);
  };
  std::vector<const SeriesResult*> all;
  for (const auto& [source, results] : by_source) {
    std::vector<const SeriesResult*> these;
    for (const SeriesResult& s : results) these.push_back(&s);
    all.insert(all.end(), these.begin(), these.end());
    row(source, these);
  }
  row("**all**", all);
}

void PrintTotalsHeader() {
  std::printf("| data | series | points | ours at largest P: median / max | uniform average | Extra-P: median / max | "
              "Amdahl: median / max | "
              "naive | ours better than Extra-P | than Amdahl | than naive | inside 90%% interval (uniform) | "
              "flagged | every predicted P: ours median / max (Amdahl) |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
}

void PrintTotals(const std::string& title, const Totals& t) {
  std::string peer = t.peer_series ? std::to_string(t.wins_peer) + "/" + std::to_string(t.peer_series) + " (" +
                                         Pct(double(t.wins_peer) / t.peer_series) + "; uniform " +
                                         std::to_string(t.uniform_wins_peer) + ")"
                                   : "–";
  std::printf("| %s | %d%s | %d | %s / %s | %s | %s / %s | %s / %s | %s | %s | %d/%d | %d/%d | %s (%s) | %d | "
              "%s / %s (%s / %s) |\n",
              title.c_str(), t.series, t.failed ? (" (+" + std::to_string(t.failed) + " failed)").c_str() : "",
              t.points, Pct(Median(t.last_ours)).c_str(), Pct(Max(t.last_ours)).c_str(),
              Pct(Median(t.last_uniform)).c_str(), Pct(Median(t.last_peer)).c_str(), Pct(Max(t.last_peer)).c_str(),
              Pct(Median(t.last_amdahl)).c_str(), Pct(Max(t.last_amdahl)).c_str(), Pct(Median(t.last_naive)).c_str(), peer.c_str(), t.wins_amdahl,
              t.series, t.wins_naive, t.series, Pct(t.points ? double(t.inside) / t.points : NAN).c_str(),
              Pct(t.points ? double(t.uniform_inside) / t.points : NAN).c_str(), t.flagged,
              Pct(Median(t.every_ours)).c_str(), Pct(Max(t.every_ours)).c_str(), Pct(Median(t.every_amdahl)).c_str(),
              Pct(Max(t.every_amdahl)).c_str());
}

void PrintSeries(const std::string& title, const std::vector<SeriesResult>& results) {
  std::printf("\n#### %s\n\n", title.c_str());
  std::printf("| series | train P | ours at each predicted P (! flagged) | largest P: ours | uniform | Extra-P | "
              "Amdahl | naive | inside 90%% |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n");
  for (const SeriesResult& s : results) {
    if (!s.failure.empty()) {
      std::printf("| %s | %s | not predicted: %s | | | | | | |\n", s.name.c_str(), s.train.c_str(),
                  s.failure.c_str());
      continue;
    }
    std::string each;
    int inside = 0;
    for (const PointResult& p : s.points) {
      each += (each.empty() ? "" : " ") + std::to_string(p.procs) + ":" + Pct(p.ours) + (p.flagged ? "!" : "");
      inside += p.inside;
    }
    const PointResult& l = s.points.back();
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %d/%zu |\n", s.name.c_str(), s.train.c_str(),
                each.c_str(), Pct(l.ours).c_str(), Pct(l.uniform).c_str(), Pct(l.peer).c_str(),
                Pct(l.amdahl).c_str(), Pct(l.naive).c_str(), inside, s.points.size());
    if (!s.note.empty()) std::printf("| | | %s | | | | | | |\n", s.note.c_str());
  }
}

void PrintFixed(const std::vector<std::string>& labels, const std::vector<std::vector<LastPoint>>& rows,
                const std::set<std::string>& sources) {
  std::printf("| predicted by | median | mean \\|log error\\| | the same, each source weighing one | better than "
              "Extra-P |");
  for (const std::string& source : sources) std::printf(" %s: median, wins |", source.c_str());
  std::printf("\n|---|---:|---:|---:|---:|");
  for (std::size_t k = 0; k < sources.size(); ++k) std::printf("---:|");
  std::printf("\n");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    auto summary = [&](const std::string& only, std::vector<double>* errors, double* log_sum, int* wins, int* n) {
      for (const LastPoint& p : rows[r]) {
        if (!only.empty() && p.source != only) continue;
        const double error = RelativeError(p.predicted, p.measured);
        errors->push_back(error);
        *log_sum += std::isfinite(error) ? std::fabs(std::log(p.predicted / p.measured)) : qnm::kFailedLogError;
        ++*n;
        const double peer = RelativeError(p.peer, p.measured);
        *wins += std::isfinite(peer) && std::isfinite(error) && error < peer;
      }
    };
    std::vector<double> errors;
    double log_sum = 0;
    int wins = 0, n = 0;
    summary("", &errors, &log_sum, &wins, &n);
    // What a new source would see: every source's mean |log error| weighs one, whatever its series.
    std::string cells;
    double balanced = 0;
    int counted = 0;
    for (const std::string& source : sources) {
      std::vector<double> e;
      double l = 0;
      int w = 0, m = 0;
      summary(source, &e, &l, &w, &m);
      if (m > 0) balanced += l / m, ++counted;
      char cell[64];
      std::snprintf(cell, sizeof cell, " %s, %d/%d |", Pct(Median(e)).c_str(), w, m);
      cells += cell;
    }
    std::printf("| %s | %s | %.3f | %.3f | %d/%d |%s\n", labels[r].c_str(), Pct(Median(errors)).c_str(),
                n ? log_sum / n : NAN, counted ? balanced / counted : NAN, wins, n, cells.c_str());
  }
}

void PrintWinCount(const Totals& t) {
  // How much the count of series better than Extra-P says (a series as a coin, the
  // binomial at the observed share): its standard deviation, the wins the 70% needs,
  // and a sign test against a coin toss (one-sided, no better than Extra-P as the null).
  const int n = t.peer_series, wins = t.wins_peer;
  const double share = n ? static_cast<double>(wins) / n : NAN;
  const int needed = static_cast<int>(std::ceil(0.7 * n - 1e-9));
  const double p_value =
      n && wins > 0 ? boost::math::cdf(boost::math::complement(boost::math::binomial(n, 0.5), wins - 1)) : NAN;
  std::printf("\nBetter than Extra-P on %d of %d series (%.1f%%): binomial sd %.1f series; the 70%% target is %d "
              "(%+.1f sd); sign test against a coin toss: p = %.2g.\n",
              wins, n, 100 * share, std::sqrt(n * share * (1 - share)), needed,
              (needed - wins) / std::sqrt(n * share * (1 - share)), p_value);
}

std::string DumpCsv(const std::map<std::string, std::vector<SeriesResult>>& by_source) {
  std::string out = "source,series,training,procs,measured_s,ours_s,lower_s,upper_s,amdahl_s,naive_s,extrap_s,flagged\n";
  char buffer[512];
  for (const auto& [source, results] : by_source)
    for (const SeriesResult& s : results) {
      if (!s.failure.empty()) continue;
      std::string training;
      for (const auto& [p, t] : s.training)
        training += (training.empty() ? "" : ";") + std::to_string(p) + ":" + std::to_string(t);
      for (const PointResult& p : s.points) {
        std::snprintf(buffer, sizeof buffer, "%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d\n", p.procs, p.measured_s,
                      p.ours_s, p.lower_s, p.upper_s, p.amdahl_s, p.naive_s, p.peer_s, p.flagged ? 1 : 0);
        out += source + "," + s.name + "," + training + "," + buffer;
      }
    }
  return out;
}

}  // namespace accuracy
