// The extrapolation protocol on every series the project holds: train on the
// k smallest process counts, predict every larger one, and compare with what
// was measured, beside a plain Amdahl fit (a + b/P, non-negative least
// squares) and, for the scaling development set, the peer's (Extra-P)
// predictions. Prints Markdown (per series, then per data set and overall).
// Usage: accuracy_bench [--tests DIR] [--scaling DIR] [--quiet]
//   --tests   the project's tests/data (NPB tables, mpiP reports)
//   --scaling the scaling development set (scaling_series.csv, extrap_baseline.csv)
//   --quiet   only the summaries, no per-series rows
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "models/scaling_fit.h"
#include "models/validation.h"

namespace {

struct PointResult {
  int procs = 0;
  double measured_s = 0, ours = NAN, amdahl = NAN, peer = NAN;  // |relative error|
  bool inside = false, flagged = false, has_interval = false;
};

struct SeriesResult {
  std::string name;
  std::string train;
  std::vector<PointResult> points;  // predicted points, ascending P
  std::string failure;              // why nothing was predicted
};

struct DataSet {
  std::string label;  // short name for the summary
  std::string title;
  std::vector<SeriesResult> series;
  bool has_peer = false;
};

std::vector<qnm::Series> Load(const std::vector<std::string>& paths) {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = qnm::IngestPaths(paths, qnm::IngestOptions(), &summary);
  for (qnm::RunStats& run : runs) run.Derive();
  return qnm::GroupIntoSeries(std::move(runs));
}

/// Amdahl's law fitted to the training totals: T = a + b/P, a, b >= 0, relative least squares.
double AmdahlPrediction(const std::vector<std::pair<int, double>>& train, int procs) {
  std::vector<std::vector<double>> columns(2);
  std::vector<double> rhs;
  for (const auto& [p, t] : train) {
    columns[0].push_back(1.0 / t);
    columns[1].push_back(1.0 / (p * t));
    rhs.push_back(1.0);
  }
  std::vector<double> c;
  double residual = qnm::SmallNonnegativeLeastSquares(columns, rhs, true, &c);
  if (!std::isfinite(residual)) return NAN;
  return c[0] + c[1] / procs;
}

/// The scaling development set, `series,procs,time_s,metric,source` (the table
/// reader does not take its metric/source columns): one run per row.
std::vector<qnm::Series> LoadScaling(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::string line;
  std::getline(in, line);
  std::vector<qnm::RunStats> runs;
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string series, procs, time;
    if (!std::getline(fields, series, ',') || !std::getline(fields, procs, ',') ||
        !std::getline(fields, time, ','))
      continue;
    qnm::RunStats run;
    run.series = series;
    run.procs = std::stoi(procs);
    run.wall_time_s = std::stod(time);
    run.sources = {path};
    runs.push_back(run);
  }
  return qnm::GroupIntoSeries(std::move(runs));
}

/// Peer predictions: series -> P -> |relative error|.
std::map<std::string, std::map<int, double>> ReadPeer(const std::string& path) {
  std::map<std::string, std::map<int, double>> peer;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header: series,p_train_max,p_test,measured,extrap_pred,rel_err,model
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string series, train_max, test, measured, predicted, rel;
    if (!std::getline(fields, series, ',') || !std::getline(fields, train_max, ',') ||
        !std::getline(fields, test, ',') || !std::getline(fields, measured, ',') ||
        !std::getline(fields, predicted, ',') || !std::getline(fields, rel, ','))
      continue;
    peer[series][std::stoi(test)] = std::fabs(std::stod(rel));
  }
  return peer;
}

SeriesResult Run(const qnm::Series& series, const std::vector<int>& train,
                 const std::map<int, double>* peer) {
  SeriesResult out;
  out.name = series.name;
  for (int p : train) out.train += (out.train.empty() ? "" : ",") + std::to_string(p);
  qnm::ValidationOptions options;
  options.train_procs = train;
  qnm::ValidationResult result;
  std::string error;
  if (!qnm::ValidateSeries(series, options, &result, &error)) {
    out.failure = error;
    return out;
  }
  std::vector<std::pair<int, double>> train_times;
  for (const qnm::ValidationRow& row : result.rows)
    if (row.training) train_times.emplace_back(row.procs, row.measured_s);
  for (const qnm::ValidationRow& row : result.rows) {
    if (row.training) continue;
    PointResult point;
    point.procs = row.procs;
    point.measured_s = row.measured_s;
    point.ours = std::fabs(row.relative_error);
    if (!qnm::Known(row.relative_error)) point.ours = NAN;
    point.amdahl = std::fabs(AmdahlPrediction(train_times, row.procs) / row.measured_s - 1);
    point.inside = row.inside_interval;
    point.has_interval = qnm::Known(row.predicted.total.lower_s);
    point.flagged = !row.predicted.flags.empty();
    if (peer) {
      auto it = peer->find(row.procs);
      if (it != peer->end()) point.peer = it->second;
    }
    out.points.push_back(point);
  }
  return out;
}

std::vector<int> Procs(const qnm::Series& series) {
  std::vector<int> procs;
  for (const qnm::RunGroup& group : series.groups)
    if (qnm::Known(group.median_time_s) && group.median_time_s > 0) procs.push_back(group.procs);
  return procs;
}

/// The k smallest process counts (the peer's protocol); empty when fewer than k + 1.
std::vector<int> Smallest(const qnm::Series& series, int k) {
  std::vector<int> procs = Procs(series);
  if (static_cast<int>(procs.size()) <= k) return {};
  procs.resize(k);
  return procs;
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

std::string Pct(double fraction) {
  if (!std::isfinite(fraction)) return "–";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100 * fraction);
  return buffer;
}

void PrintSeries(const DataSet& set) {
  std::printf("\n### %s\n\n", set.title.c_str());
  std::printf("| series | train P | abs. error ours at each predicted P | at largest P: ours | Amdahl |%s "
              "inside 90%% |\n",
              set.has_peer ? " peer |" : "");
  std::printf("|---|---|---|---:|---:|%s---:|\n", set.has_peer ? "---:|" : "");
  for (const SeriesResult& s : set.series) {
    if (!s.failure.empty()) {
      std::printf("| %s | %s | not predicted: %s | | |%s |\n", s.name.c_str(), s.train.c_str(),
                  s.failure.c_str(), set.has_peer ? " |" : "");
      continue;
    }
    std::string each;
    int inside = 0;
    for (const PointResult& p : s.points) {
      each += (each.empty() ? "" : " ") + std::to_string(p.procs) + ":" + Pct(p.ours) +
              (p.flagged ? "!" : "");
      inside += p.inside;
    }
    const PointResult& last = s.points.back();
    std::printf("| %s | %s | %s | %s | %s |%s %d/%zu |\n", s.name.c_str(), s.train.c_str(),
                each.c_str(), Pct(last.ours).c_str(), Pct(last.amdahl).c_str(),
                set.has_peer ? (" " + Pct(last.peer) + " |").c_str() : "", inside, s.points.size());
  }
}

struct Totals {
  std::vector<double> ours, amdahl, peer, last_ours, last_amdahl, last_peer;
  int inside = 0, with_interval = 0, flagged = 0, series = 0, failed = 0;
  int wins_peer = 0, peer_series = 0, wins_amdahl = 0;
  void Add(const SeriesResult& s) {
    if (!s.failure.empty()) {
      ++failed;
      return;
    }
    ++series;
    for (const PointResult& p : s.points) {
      ours.push_back(p.ours);
      amdahl.push_back(p.amdahl);
      peer.push_back(p.peer);
      inside += p.inside;
      with_interval += p.has_interval;
      flagged += p.flagged;
    }
    const PointResult& last = s.points.back();
    last_ours.push_back(last.ours);
    last_amdahl.push_back(last.amdahl);
    last_peer.push_back(last.peer);
    if (std::isfinite(last.peer)) {
      ++peer_series;
      wins_peer += last.ours < last.peer;
    }
    wins_amdahl += last.ours < last.amdahl;
  }
};

void PrintTotals(const std::string& title, const Totals& t) {
  std::printf("| %s | %d%s | %zu | %s / %s | %s / %s%s | %s / %s%s | %d/%zu (%s) | %d | %d/%d | %s |\n",
              title.c_str(), t.series, t.failed ? (" (+" + std::to_string(t.failed) + " failed)").c_str() : "",
              t.ours.size(), Pct(Median(t.ours)).c_str(), Pct(Max(t.ours)).c_str(),
              Pct(Median(t.last_ours)).c_str(), Pct(Max(t.last_ours)).c_str(), "",
              Pct(Median(t.last_amdahl)).c_str(), Pct(Max(t.last_amdahl)).c_str(), "", t.inside,
              t.ours.size(), Pct(t.ours.empty() ? NAN : double(t.inside) / t.ours.size()).c_str(),
              t.flagged, t.wins_amdahl, t.series,
              t.peer_series ? (std::to_string(t.wins_peer) + "/" + std::to_string(t.peer_series) +
                               " (peer median at largest P " + Pct(Median(t.last_peer)) + ")")
                                  .c_str()
                            : "–");
}

}  // namespace

int main(int argc, char** argv) {
  std::string tests = "tests/data", scaling = "bench/data/scaling";
  bool quiet = false;
  for (int k = 1; k < argc; ++k) {
    std::string arg = argv[k];
    if (arg == "--tests" && k + 1 < argc) tests = argv[++k];
    else if (arg == "--scaling" && k + 1 < argc) scaling = argv[++k];
    else if (arg == "--quiet") quiet = true;
    else {
      std::fprintf(stderr, "accuracy_bench: unknown argument '%s'\n", arg.c_str());
      return 2;
    }
  }
  std::vector<DataSet> sets;
  try {
    // 1. The scaling development set: the peer's protocol, 5 smallest P.
    DataSet dev{"scaling (42)", "scaling development set (train the 5 smallest P, predict the rest)", {}, true};
    auto peer = ReadPeer(scaling + "/extrap_baseline.csv");
    for (const qnm::Series& s : LoadScaling(scaling + "/scaling_series.csv")) {
      std::vector<int> train = Smallest(s, 5);
      if (train.empty()) continue;
      auto it = peer.find(s.name);
      dev.series.push_back(Run(s, train, it == peer.end() ? nullptr : &it->second));
    }
    sets.push_back(dev);

    // 2. NPB tables (runtime only): train on all but the largest, at most 5, at least 3.
    DataSet npb{"NPB tables", "NPB series (tables; train the min(5, n-1) smallest P, at least 3)", {}, false};
    for (const qnm::Series& s : Load({tests + "/npb/npb_series_median.csv"})) {
      int n = static_cast<int>(Procs(s).size());
      if (n < 4) continue;
      npb.series.push_back(Run(s, Smallest(s, std::min(5, n - 1)), nullptr));
    }
    sets.push_back(npb);

    // 3. NPB-MZ on LLNL cab from mpiP reports (queueing model), both protocols;
    // 4. the other mpiP series with at least four process counts.
    std::vector<qnm::Series> mpip = Load({tests + "/mpip"});
    DataSet mz8{"NPB-MZ 1,2,4,8 -> 16", "NPB-MZ class C on cab, mpiP-driven: train 1,2,4,8 -> predict 16", {}, false};
    DataSet mz4{"NPB-MZ 1,2,4 -> 8,16", "NPB-MZ class C on cab, mpiP-driven: train 1,2,4 -> predict 8,16", {}, false};
    DataSet other{"other mpiP", "other mpiP series (train the n-1 smallest P)", {}, false};
    for (const qnm::Series& s : mpip) {
      if (s.name.find("-mz.C") != std::string::npos) {
        mz8.series.push_back(Run(s, {1, 2, 4, 8}, nullptr));
        mz4.series.push_back(Run(s, {1, 2, 4}, nullptr));
      } else if (Procs(s).size() >= 4) {
        other.series.push_back(Run(s, Smallest(s, static_cast<int>(Procs(s).size()) - 1), nullptr));
      }
    }
    sets.push_back(mz8);
    sets.push_back(mz4);
    if (!other.series.empty()) sets.push_back(other);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "accuracy_bench: %s\n", e.what());
    return 1;
  }

  if (!quiet)
    for (const DataSet& set : sets) PrintSeries(set);
  std::printf("\n### Summary\n\n");
  std::printf("| data set | series | predicted points | abs. error median / max (all points) | at largest P: "
              "ours median / max | Amdahl median / max | inside 90%% interval | flagged | better than "
              "Amdahl at largest P | better than peer at largest P |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
  Totals all;
  for (const DataSet& set : sets) {
    Totals t;
    for (const SeriesResult& s : set.series) {
      t.Add(s);
      all.Add(s);
    }
    PrintTotals(set.label, t);
  }
  PrintTotals("all", all);
  return 0;
}
