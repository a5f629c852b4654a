// The extrapolation protocol on every series the project holds, scored source
// by source. Train on the k smallest process counts, predict every larger one,
// compare with what was measured, beside Extra-P 4.2 (its predictions on the
// same protocol, bench/data/*/extrap_baseline.csv), a plain Amdahl fit
// (a + b/P, non-negative relative least squares) and the naive "last training
// point x P_last / P" (perfect scaling from the edge).
//
// Headline: leave one source out. Each model configuration (uniform average,
// node terms, Occam's window, the corpus prior over candidate curves of
// models/extrapolation_prior.h, Amdahl alone) is scored on the other sources,
// the best is chosen there and only then applied to the scored source; the
// prior is learned without the scored source too. Beside "ours": the plain
// uniform average ("uniform"), the weighting of the previous round.
//
// Usage: accuracy_bench [--data DIR] [--tests DIR] [--quiet] [--dump FILE] [--write-prior FILE] [--force CONFIG]
//                       [--objective mean|median|wins|balanced|regret]
//   --data        bench/data (scaling/, scaling2/, mpip-scaling/)
//   --tests       the project's tests/data (NPB tables, mpiP reports of NPB-MZ on cab)
//   --quiet       only the summaries, no per-series rows
//   --dump        every held-out point of the leave-one-source-out results, signed, as CSV
//   --write-prior the corpus prior learned on every source, as JSON (not shipped: not chosen)
//   --force       every source gets configuration CONFIG (its best temperature on the other sources)
//   --objective   what the leave-one-source-out choice minimises over the other sources' series:
//                 the mean (default) or median |log error| at the largest P, or the share of
//                 series not better than Extra-P there (the tables then show that value),
//                 "balanced": the mean over the other sources of each source's mean |log error|
//                 (every source weighs one, whatever its number of series), or "regret": the
//                 worst other source's mean |log error| over the least any configuration
//                 reaches on that source (minimax regret)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <boost/math/distributions/binomial.hpp>

#include "ingest/ingest.h"
#include "models/extrapolation_prior.h"
#include "models/scaling_fit.h"
#include "models/validation.h"
#include "util/atomic_file.h"

namespace {

using qnm::Series;

// ---------------------------------------------------------------- data ---

/// One field list of a CSV line with double-quoted fields ("a, b" stays one field).
std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else if (c != '\r') out.back() += c;
  }
  return out;
}

/// Ranks per node of the first development set, from its SOURCES.md (machine
/// cores per node / OpenMP threads per rank); 0 when the series says nothing.
int RanksPerNodeOfScalingSeries(const std::string& name) {
  int cores = 0;
  if (name.find("AWSc6gn") != std::string::npos) cores = 64;
  else if (name.find("SuperMUC") != std::string::npos) cores = 28;
  else if (name.find("MareNostrum4") != std::string::npos) cores = 48;
  else if (name.find("niagara") != std::string::npos) cores = 40;
  else if (name.find("bbserv") != std::string::npos) cores = 32;
  int threads = 1;
  std::size_t omp = name.find("-omp");
  if (omp != std::string::npos) threads = std::max(1, std::atoi(name.c_str() + omp + 4));
  return cores / threads;
}

/// The source (repository or campaign) a series comes from: the unit left out.
std::string SourceOf(const std::string& series) {
  std::string prefix = series.substr(0, series.find('-'));
  if (prefix == "trilinosML") return "amgcl";  // same repository (ddemidov/amgcl benchmark data)
  return prefix;
}

/// A runtime series table: `series,procs,time_s,...[,ranks_per_node,threads,nodes,machine]`.
std::vector<Series> LoadRuntimeTable(const std::string& path, bool first_set) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header = SplitCsv(line);
  auto column = [&](const char* name) {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  int rpn = column("ranks_per_node"), nodes = column("nodes"), threads = column("threads"),
      machine = column("machine");
  std::vector<qnm::RunStats> runs;
  while (std::getline(in, line)) {
    std::vector<std::string> f = SplitCsv(line);
    if (f.size() < 3) continue;
    qnm::RunStats run;
    run.series = f[0];
    run.procs = std::stoi(f[1]);
    run.wall_time_s = std::stod(f[2]);
    if (rpn >= 0 && rpn < static_cast<int>(f.size())) run.ranks_per_node = std::stoi(f[rpn]);
    else if (first_set) run.ranks_per_node = RanksPerNodeOfScalingSeries(f[0]);
    if (nodes >= 0 && nodes < static_cast<int>(f.size())) run.nodes = std::stoi(f[nodes]);
    else if (run.ranks_per_node > 0) run.nodes = (run.procs + run.ranks_per_node - 1) / run.ranks_per_node;
    if (threads >= 0 && threads < static_cast<int>(f.size())) run.threads_per_proc = std::stoi(f[threads]);
    if (machine >= 0 && machine < static_cast<int>(f.size())) run.machine = f[machine];
    run.sources = {path};
    runs.push_back(run);
  }
  return qnm::GroupIntoSeries(std::move(runs));
}

std::vector<Series> Load(const std::vector<std::string>& paths) {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = qnm::IngestPaths(paths, qnm::IngestOptions(), &summary);
  for (qnm::RunStats& run : runs) run.Derive();
  return qnm::GroupIntoSeries(std::move(runs));
}

/// Peer predictions: series -> P -> predicted time.
std::map<std::string, std::map<int, double>> ReadPeer(const std::string& path) {
  std::map<std::string, std::map<int, double>> peer;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // series,p_train_max,p_test,measured,extrap_pred,rel_err,model
  while (std::getline(in, line)) {
    std::vector<std::string> f = SplitCsv(line);
    if (f.size() < 6) continue;
    peer[f[0]][std::stoi(f[2])] = std::stod(f[4]);
  }
  return peer;
}

std::vector<std::pair<int, double>> Times(const Series& series) {
  std::vector<std::pair<int, double>> out;
  for (const qnm::RunGroup& group : series.groups)
    if (qnm::Known(group.median_time_s) && group.median_time_s > 0)
      out.emplace_back(group.procs, group.median_time_s);
  return out;
}

/// The k smallest process counts (the peer's protocol); empty when fewer than k + 1.
std::vector<int> Smallest(const Series& series, int k) {
  std::vector<int> procs;
  for (const auto& [p, t] : Times(series)) procs.push_back(p);
  if (static_cast<int>(procs.size()) <= k) return {};
  procs.resize(k);
  return procs;
}

// -------------------------------------------------------------- scoring ---

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

struct PointResult {
  int procs = 0;
  double measured_s = 0;
  double ours = NAN, uniform = NAN, amdahl = NAN, naive = NAN, peer = NAN;  // |relative error|
  double ours_s = NAN, lower_s = NAN, upper_s = NAN, amdahl_s = NAN, naive_s = NAN, peer_s = NAN;  // predicted
  bool inside = false, uniform_inside = false, flagged = false;
};

/// A prediction at the series' largest predicted P, what was measured there and Extra-P's.
struct LastPoint {
  std::string source;
  bool validated = false;  // the validation ran (false: it refused the series)
  int procs = 0;           // the largest predicted P; 0 when nothing was predicted
  double predicted = NAN, measured = NAN, peer = NAN;
};

struct SeriesResult {
  std::string source, name, train;
  std::vector<PointResult> points;  // predicted points, ascending P
  std::string failure;              // why nothing was predicted
  std::string note;                 // e.g. the largest rise of the prediction
  std::vector<std::pair<int, double>> training;  // the training points' measured times
  LastPoint last;                                 // "ours" at the largest predicted P
};

/// One series of the corpus and how it is scored.
struct Entry {
  std::string source;
  const Series* series = nullptr;
  std::vector<int> train;
  const std::map<int, double>* peer = nullptr;
  double (*truth)(const qnm::RunGroup&) = nullptr;  // measured value of a group (default: median time)
};

double RelativeError(double predicted, double measured) {
  return predicted > 0 && std::isfinite(predicted) ? std::fabs(predicted / measured - 1) : NAN;
}

bool Validate(const Entry& e, const qnm::PredictionOptions& prediction, qnm::ValidationResult* result,
              std::string* error) {
  qnm::ValidationOptions options;
  options.train_procs = e.train;
  options.prediction = prediction;
  return qnm::ValidateSeries(*e.series, options, result, error);
}

/// The row of the series' largest predicted (not training) P; null when there is none.
const qnm::ValidationRow* LastPredictedRow(const qnm::ValidationResult& result) {
  for (auto row = result.rows.rbegin(); row != result.rows.rend(); ++row)
    if (!row->training) return &*row;
  return nullptr;
}

/// The LastPoint of a validation of the series (`result` null: the validation refused it).
LastPoint LastPointOf(const Entry& e, const qnm::ValidationResult* result) {
  LastPoint out{e.source};
  if (!result) return out;
  out.validated = true;
  const qnm::ValidationRow* row = LastPredictedRow(*result);
  if (!row) return out;
  out.procs = row->procs;
  out.predicted = row->predicted.total.value_s;
  out.measured = row->measured_s;
  if (e.peer) {
    auto it = e.peer->find(row->procs);
    if (it != e.peer->end()) out.peer = it->second;
  }
  return out;
}

/// Scores a configuration ("ours") and, beside it, the plain uniform average.
SeriesResult Score(const Entry& e, const qnm::PredictionOptions& shipped,
                   const qnm::PredictionOptions& uniform) {
  SeriesResult out;
  out.source = e.source;
  out.name = e.series->name;
  for (int p : e.train) out.train += (out.train.empty() ? "" : ",") + std::to_string(p);
  qnm::ValidationResult ours, plain;
  std::string error;
  const bool validated = Validate(e, shipped, &ours, &error);
  out.last = LastPointOf(e, validated ? &ours : nullptr);
  if (!validated || !Validate(e, uniform, &plain, &error)) {
    out.failure = error;
    return out;
  }
  std::map<int, double> truth;
  for (const qnm::RunGroup& g : e.series->groups) truth[g.procs] = e.truth ? e.truth(g) : g.median_time_s;
  std::vector<std::pair<int, double>> train_times;
  for (int p : e.train) train_times.emplace_back(p, truth[p]);
  const auto [p_last, t_last] = train_times.back();
  out.training = train_times;
  for (std::size_t k = 0; k < ours.rows.size(); ++k) {
    const qnm::ValidationRow& row = ours.rows[k];
    if (row.training) continue;
    PointResult point;
    point.procs = row.procs;
    point.measured_s = truth[row.procs];
    point.ours = RelativeError(row.predicted.total.value_s, point.measured_s);
    point.ours_s = row.predicted.total.value_s;
    point.lower_s = row.predicted.total.lower_s;
    point.upper_s = row.predicted.total.upper_s;
    point.amdahl_s = AmdahlPrediction(train_times, row.procs);
    point.naive_s = t_last * p_last / row.procs;
    point.inside = row.predicted.total.lower_s <= point.measured_s && point.measured_s <= row.predicted.total.upper_s;
    point.flagged = !row.predicted.flags.empty();
    const qnm::ValidationRow& a = plain.rows[k];
    point.uniform = RelativeError(a.predicted.total.value_s, point.measured_s);
    point.uniform_inside = a.predicted.total.lower_s <= point.measured_s && point.measured_s <= a.predicted.total.upper_s;
    point.amdahl = RelativeError(AmdahlPrediction(train_times, row.procs), point.measured_s);
    point.naive = RelativeError(t_last * p_last / row.procs, point.measured_s);
    if (e.peer) {
      auto it = e.peer->find(row.procs);
      if (it != e.peer->end()) {
        point.peer = RelativeError(it->second, point.measured_s);
        point.peer_s = it->second;
      }
    }
    out.points.push_back(point);
  }
  if (out.points.empty()) out.failure = "no process count beyond the training set";
  return out;
}

// ----------------------------------------------------- the corpus prior ---

/// The series as the prior learns from it: training points and the larger, held-out ones.
qnm::PriorSeries AsPriorSeries(const Entry& e) {
  qnm::PriorSeries s;
  s.source = e.source;
  s.name = e.series->name;
  for (const auto& [p, t] : Times(*e.series)) {
    if (std::find(e.train.begin(), e.train.end(), p) != e.train.end()) s.training.emplace_back(p, t);
    else if (!e.train.empty() && p > e.train.back()) s.held_out.emplace_back(p, t);
  }
  return s;
}

qnm::ExtrapolationPrior LearnPrior(const std::vector<qnm::PriorSeries>& corpus, const std::set<std::string>& leave_out,
                                   const qnm::RuntimeModelOptions& runtime) {
  std::vector<qnm::PriorSeries> kept;
  for (const qnm::PriorSeries& s : corpus)
    if (!leave_out.count(s.source)) kept.push_back(s);
  qnm::ExtrapolationPrior prior;
  qnm::ExtrapolationPriorSummary summary;
  qnm::FitExtrapolationPrior(kept, runtime, qnm::ExtrapolationPriorOptions(), &prior, &summary);
  return prior;
}

/// The model configurations the leave-one-source-out protocol chooses among.
struct Config {
  const char* name;
  bool occam;  // Occam's window over the candidate curves (RuntimeModelOptions::more_terms_gain)
  bool prior;  // the corpus prior over candidates (learned without the left-out sources)
  bool nodes;  // candidates with overhead terms in nodes (RuntimeModelOptions::node_terms)
  bool amdahl_only = false;  // Amdahl's law as the only candidate (the two-parameter baseline as a modeler)
  bool split = false;  // fit the multi-node runs alone when the time rises across the node boundary
  double cost = 0;     // share of Extra-P's cost laws in the average (RuntimeModelOptions::cost_law_share)
  bool adaptive = false;  // that share as a prior, the families weighed by forward errors (cost_law_adaptive)
};
constexpr Config kConfigs[] = {{"uniform", false, false, false},
                               {"nodes", false, false, true},
                               {"Occam", true, false, false},
                               {"Occam + nodes", true, false, true},
                               {"prior", false, true, false},
                               {"prior + nodes", false, true, true},
                               {"prior + Occam", true, true, false},
                               {"prior + Occam + nodes", true, true, true},
                               {"Amdahl alone", false, false, false, true},
                               {"nodes + split", false, false, true, false, true},
                               {"Occam + nodes + split", true, false, true, false, true},
                               {"nodes + split + cost 0.25", false, false, true, false, true, 0.25},
                               {"nodes + split + cost 0.5", false, false, true, false, true, 0.5},
                               {"nodes + split + cost 0.75", false, false, true, false, true, 0.75},
                               {"nodes + split + adaptive cost", false, false, true, false, true, 0.5, true}};

/// Prediction options of a configuration, its prior learned without `leave_out` (cached).
qnm::PredictionOptions ConfigOptions(const Config& c, double temperature, const std::set<std::string>& leave_out,
                                     const std::vector<qnm::PriorSeries>& corpus,
                                     std::map<std::string, qnm::ExtrapolationPrior>* cache) {
  qnm::PredictionOptions options;
  options.runtime.weight_temperature = temperature;
  options.runtime.more_terms_gain = c.occam ? 0.8 : 1.0;
  options.runtime.node_terms = c.nodes;
  options.split_at_node_boundary = c.split;
  options.runtime.cost_law_share = c.cost;
  options.runtime.cost_law_adaptive = c.adaptive;
  if (c.amdahl_only) options.runtime.candidates = {{qnm::ScalingTerm{0, 0}, qnm::ScalingTerm{-1, 0}}};
  if (c.prior) {
    std::string key = std::string(c.name) + "|" + std::to_string(temperature);
    for (const std::string& s : leave_out) key += "|" + s;
    auto it = cache->find(key);
    if (it == cache->end()) it = cache->emplace(key, LearnPrior(corpus, leave_out, options.runtime)).first;
    options.runtime.prior = it->second;
  }
  return options;
}

/// The configuration's LastPoint of the series (NaN values when nothing was predicted).
LastPoint LastPrediction(const Entry& e, const qnm::PredictionOptions& options) {
  qnm::ValidationResult result;
  std::string error;
  return LastPointOf(e, Validate(e, options, &result, &error) ? &result : nullptr);
}

/// |log(predicted / measured)| at the series' largest predicted P (kFailedLogError without a prediction).
double LastLogError(const LastPoint& last) {
  const double v = last.predicted;
  return last.procs > 0 && v > 0 && std::isfinite(v) ? std::fabs(std::log(v / last.measured))
                                                     : qnm::kFailedLogError;
}

/// 1 when the configuration is not better than Extra-P at the series' largest predicted P, 0 when
/// it is; NaN without a peer prediction there.
double LossAgainstPeer(const Entry& e, const LastPoint& last) {
  if (!e.peer) return NAN;
  if (!last.validated) return 1;
  if (last.procs == 0 || std::isnan(last.peer)) return NAN;
  double ours = RelativeError(last.predicted, last.measured);
  double peer = RelativeError(last.peer, last.measured);
  return std::isfinite(ours) && !(ours >= peer) ? 0 : 1;
}

/// |log(predicted / measured)| at the series' last training P, predicted from the training points
/// before it (NaN when that cannot be predicted): how well a configuration forecasts the series' own
/// last step, known without any held-out point.
double BackcastLogError(const Entry& e, const qnm::PredictionOptions& options) {
  if (e.train.size() < 3) return NAN;
  Entry shorter = e;
  shorter.train.pop_back();
  const int target = e.train.back();
  qnm::ValidationResult result;
  std::string error;
  if (!Validate(shorter, options, &result, &error)) return NAN;
  for (const qnm::ValidationRow& row : result.rows) {
    if (row.training || row.procs != target) continue;
    const double v = row.predicted.total.value_s;
    return v > 0 && std::isfinite(v) && row.measured_s > 0 ? std::fabs(std::log(v / row.measured_s)) : NAN;
  }
  return NAN;
}

// ------------------------------------------- the interval's pooled rate ---

/// The pooled per-octave rate the forward errors are shrunk towards
/// (ExtrapolationErrorOptions::prior_log_sd_per_octave) is chosen like the
/// configuration: the one whose 90% intervals hold closest to 90% of the other
/// sources' held-out points.
constexpr double kPooledRates[] = {0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5};
/// The candidates' weight temperature (RuntimeModelOptions::weight_temperature), chosen
/// jointly with the configuration.
constexpr double kTemperatures[] = {0.5, 1.0, 2.0};

/// The index in [from, to) of the smallest value of `v`, the earlier of two within 1e-12, NaN
/// skipped; `to` when there is none.
std::size_t ArgMin(const std::vector<double>& v, std::size_t from = 0, std::size_t to = SIZE_MAX) {
  to = std::min(to, v.size());
  std::size_t best = to;
  for (std::size_t k = from; k < to; ++k)
    if (!std::isnan(v[k]) && (best == to || v[k] < v[best] - 1e-12)) best = k;
  return best;
}

/// Adds the series' held-out points inside their interval to `inside` and all of them to `points`.
void CountInside(const Entry& e, const qnm::PredictionOptions& options, int* inside, int* points) {
  qnm::ValidationResult result;
  std::string error;
  if (!Validate(e, options, &result, &error)) return;
  for (const qnm::ValidationRow& row : result.rows) {
    if (row.training) continue;
    ++*points;
    *inside += row.predicted.total.lower_s <= row.measured_s && row.measured_s <= row.predicted.total.upper_s;
  }
}

/// The rate of kPooledRates whose coverage on the series of `corpus` not from `left_out` is closest to
/// the level (ties: the narrower); `coverage` gets each rate's share.
double ChooseRate(const std::vector<Entry>& corpus, const std::string& left_out, const Config& config,
                  double temperature, const std::vector<qnm::PriorSeries>& samples,
                  std::map<std::string, qnm::ExtrapolationPrior>* cache, std::vector<double>* coverage) {
  coverage->clear();
  std::vector<double> gaps;
  for (double rate : kPooledRates) {
    int inside = 0, points = 0;
    for (const Entry& e : corpus) {
      if (e.source == left_out) continue;
      qnm::PredictionOptions options = ConfigOptions(config, temperature, {left_out, e.source}, samples, cache);
      options.runtime.error.prior_log_sd_per_octave = rate;
      CountInside(e, options, &inside, &points);
    }
    const double share = points ? double(inside) / points : NAN;
    coverage->push_back(share);
    gaps.push_back(std::fabs(share - qnm::PredictionOptions().interval_level));
  }
  const std::size_t best = ArgMin(gaps);
  return best < gaps.size() ? kPooledRates[best] : 0.3;
}

// ------------------------------------------------------------ printing ---

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

struct Totals {
  std::vector<double> last_ours, last_uniform, last_amdahl, last_naive, last_peer;
  std::vector<double> every_ours, every_amdahl;  // every predicted point, not only the largest P
  int points = 0, inside = 0, uniform_inside = 0, flagged = 0, series = 0, failed = 0;
  int wins_peer = 0, uniform_wins_peer = 0, peer_series = 0, wins_amdahl = 0, wins_naive = 0;
  void Add(const SeriesResult& s) {
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
};

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

/// One row per way of predicting (a configuration fixed for every source, the average of all of
/// them, the choice per source): at the largest P, the median |error|, the mean |log error| and the
/// series better than Extra-P, overall and per source.
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

/// The largest predicted time at P <= 1024 relative to the prediction at the last training P, and where.
std::string RiseNote(const Entry& e, const qnm::PredictionOptions& options) {
  qnm::SeriesModel model;
  std::string error;
  if (!qnm::FitSeriesModel(*e.series, e.train, options, &model, &error)) return "";
  double base = model.Predict(model.max_train_procs).total.value_s;
  double worst = 0;
  int at = 0;
  std::string flags;
  for (int p = model.max_train_procs; p <= 1024; ++p) {
    qnm::ProcsPrediction q = model.Predict(p);
    if (!q.Ok()) {
      if (flags.empty()) flags = "P=" + std::to_string(p) + ": " + q.message;
      continue;
    }
    if (q.total.value_s / base > worst) {
      worst = q.total.value_s / base;
      at = p;
    }
  }
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, "largest predicted T(P<=1024) / T(P=%d): %.2f at P=%d",
                model.max_train_procs, worst, at);
  return buffer + (flags.empty() ? "" : "; first refused " + flags);
}

/// Every held-out point of the leave-one-source-out results, signed: one CSV row per point, the
/// training points in one field ("P:time;..."), for analyses outside the bench.
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

double AppTimeMax(const qnm::RunGroup& group) {
  std::vector<double> values;
  for (const qnm::RunStats& run : group.runs)
    if (qnm::Known(run.app_time_max_s)) values.push_back(run.app_time_max_s);
  return values.empty() ? group.median_time_s : Median(values);
}

}  // namespace

int main(int argc, char** argv) {
  std::string data = "bench/data", tests = "tests/data", write_prior, dump;
  bool quiet = false;
  std::string force;
  std::string objective_kind = "mean";
  for (int k = 1; k < argc; ++k) {
    std::string arg = argv[k];
    if (arg == "--data" && k + 1 < argc) data = argv[++k];
    else if (arg == "--tests" && k + 1 < argc) tests = argv[++k];
    else if (arg == "--write-prior" && k + 1 < argc) write_prior = argv[++k];
    else if (arg == "--quiet") quiet = true;
    else if (arg == "--dump" && k + 1 < argc) dump = argv[++k];
    else if (arg == "--force" && k + 1 < argc) force = argv[++k];
    else if (arg == "--objective" && k + 1 < argc) objective_kind = argv[++k];
    else {
      std::fprintf(stderr, "accuracy_bench: unknown argument '%s'\n", arg.c_str());
      return 2;
    }
  }
  // --force NAME: every source gets configuration NAME (at its best temperature on the other
  // sources) instead of the leave-one-source-out choice; for the "what it did everywhere" rows.
  std::size_t forced = std::size(kConfigs);
  for (std::size_t k = 0; k < std::size(kConfigs); ++k)
    if (force == kConfigs[k].name) forced = k;
  if (objective_kind != "mean" && objective_kind != "median" && objective_kind != "wins" &&
      objective_kind != "balanced" && objective_kind != "regret") {
    std::fprintf(stderr, "accuracy_bench: --objective is mean, median, wins, balanced or regret\n");
    return 2;
  }
  if (!force.empty() && forced == std::size(kConfigs)) {
    std::fprintf(stderr, "accuracy_bench: no configuration named '%s'\n", force.c_str());
    return 2;
  }
  auto choose = [&](const std::vector<double>& objective) {
    if (forced == std::size(kConfigs)) return ArgMin(objective);
    return ArgMin(objective, forced * std::size(kTemperatures), (forced + 1) * std::size(kTemperatures));
  };
  try {
    // ---- the 164 runtime series of six sources, Extra-P's protocol (5 smallest P) ----
    std::vector<Series> dev = LoadRuntimeTable(data + "/scaling/scaling_series.csv", true);
    std::vector<Series> dev2 = LoadRuntimeTable(data + "/scaling2/series.csv", false);
    auto peer = ReadPeer(data + "/scaling/extrap_baseline.csv");
    auto peer2 = ReadPeer(data + "/scaling2/extrap_baseline.csv");
    peer.insert(peer2.begin(), peer2.end());
    std::vector<Entry> corpus;
    for (const std::vector<Series>* set : {&dev, &dev2})
      for (const Series& s : *set) {
        Entry e;
        e.source = SourceOf(s.name);
        e.series = &s;
        e.train = Smallest(s, 5);
        if (e.train.empty()) continue;
        auto it = peer.find(s.name);
        e.peer = it == peer.end() ? nullptr : &it->second;
        corpus.push_back(e);
      }

    // Beside "ours": the candidate average with uniform weights and no Occam's window.
    qnm::PredictionOptions uniform;
    uniform.runtime.more_terms_gain = 1.0;
    uniform.runtime.node_terms = false;
    uniform.runtime.weight_temperature = 1.0;  // round 3's weighting and interval rate, the baseline column
    uniform.runtime.error.prior_log_sd_per_octave = 0.3;
    std::vector<qnm::PriorSeries> samples;
    for (const Entry& e : corpus) samples.push_back(AsPriorSeries(e));
    std::set<std::string> sources;
    for (const Entry& e : corpus) sources.insert(e.source);

    std::printf("## Leave one source out: %zu runtime series of %zu sources\n\n", corpus.size(), sources.size());
    // For each source: every configuration is scored on the other sources (its prior learned
    // without the scored source and without the source of the series it predicts: nested), the
    // best (mean |log error| at the largest P) is chosen, and only then applied to the source.
    std::map<std::string, qnm::ExtrapolationPrior> cache;
    std::printf("Configuration and candidate weight temperature (`RuntimeModelOptions::weight_temperature`, "
                "0.5, 1 or 2) chosen for each source on the other sources (mean |log error| at the largest P "
                "of the other sources' series; per configuration at its best temperature):\n\n| left out |");
    for (const Config& c : kConfigs) std::printf(" %s |", c.name);
    std::printf(" chosen |\n|---|");
    for (std::size_t k = 0; k < std::size(kConfigs); ++k) std::printf("---:|");
    std::printf("---|\n");
    std::map<std::string, std::vector<SeriesResult>> by_source;
    std::string rate_table;  // printed after the configuration table
    auto rate_row = [&](const std::string& label, const std::vector<double>& coverage, double rate) {
      rate_table += "| " + label + " |";
      for (double c : coverage) rate_table += " " + Pct(c) + " |";
      char chosen[32];
      std::snprintf(chosen, sizeof chosen, " %.2f |\n", rate);
      rate_table += chosen;
    };
    // Every (configuration, temperature) pair is scored; a configuration's cell shows its best
    // temperature's objective.
    const std::size_t pairs = std::size(kConfigs) * std::size(kTemperatures);
    auto pair_config = [&](std::size_t k) -> const Config& { return kConfigs[k / std::size(kTemperatures)]; };
    auto pair_temperature = [&](std::size_t k) { return kTemperatures[k % std::size(kTemperatures)]; };
    auto print_row = [&](const std::string& label, const std::vector<double>& objective, std::size_t chosen) {
      std::printf("| %s |", label.c_str());
      for (std::size_t c = 0; c < std::size(kConfigs); ++c) {
        const std::size_t first = c * std::size(kTemperatures);
        const std::size_t best = ArgMin(objective, first, first + std::size(kTemperatures));
        std::printf(" %.4f (%.1f) |", objective[best], pair_temperature(best));
      }
      std::printf(" %s, temperature %.1f |\n", pair_config(chosen).name, pair_temperature(chosen));
    };
    // The objective: the mean (default) or the median of the series' |log error| at the largest P,
    // or ("wins") the share of series not better than Extra-P.
    auto summarise = [&](const std::vector<double>& errors) {
      if (errors.empty()) return 0.0;
      if (objective_kind == "median") return Median(errors);
      double sum = 0;
      int n = 0;
      for (double e : errors)
        if (!std::isnan(e)) sum += e, ++n;
      return n ? sum / n : 0.0;
    };
    // A series' value under the objective: its loss against Extra-P, or its |log error|.
    auto value_of = [&](const Entry& e, const LastPoint& last) {
      return objective_kind == "wins" ? LossAgainstPeer(e, last) : LastLogError(last);
    };
    auto series_value = [&](const Entry& e, const qnm::PredictionOptions& o) {
      return value_of(e, LastPrediction(e, o));
    };
    std::vector<std::vector<double>> all_errors(pairs);
    // Each configuration fixed for every source, the average of them all, the choice per source,
    // the choice per series (of all configurations; of those without the cost laws).
    std::vector<std::vector<LastPoint>> fixed(std::size(kConfigs) + 6);
    for (const std::string& source : sources) {
      std::vector<double> objective(pairs, 0.0);
      // "regret": each other source's mean |log error| divided by the least any pair reaches on
      // that source; a pair's objective is its worst source (minimax regret, every source alike).
      std::map<std::string, std::vector<double>> source_means;
      for (std::size_t k = 0; k < pairs; ++k) {
        std::vector<double> errors;
        std::map<std::string, std::vector<double>> per_source;
        for (const Entry& e : corpus) {
          if (e.source == source) continue;
          errors.push_back(
              series_value(e, ConfigOptions(pair_config(k), pair_temperature(k), {source, e.source}, samples, &cache)));
          per_source[e.source].push_back(errors.back());
        }
        objective[k] = summarise(errors);
        for (const auto& [other, values] : per_source) source_means[other].push_back(summarise(values));
      }
      if (objective_kind == "balanced")  // every other source's mean weighs one, whatever its series
        for (std::size_t k = 0; k < pairs; ++k) {
          double sum = 0;
          for (const auto& [other, means] : source_means) sum += means[k];
          objective[k] = source_means.empty() ? 0.0 : sum / source_means.size();
        }
      if (objective_kind == "regret")
        for (std::size_t k = 0; k < pairs; ++k) {
          double worst = 0;
          for (const auto& [other, means] : source_means) {
            const double least = *std::min_element(means.begin(), means.end());
            if (least > 0) worst = std::max(worst, means[k] / least);
          }
          objective[k] = worst;
        }
      const std::size_t chosen = choose(objective);
      print_row(source, objective, chosen);
      qnm::PredictionOptions options =
          ConfigOptions(pair_config(chosen), pair_temperature(chosen), {source}, samples, &cache);
      std::vector<double> coverage;
      options.runtime.error.prior_log_sd_per_octave =
          ChooseRate(corpus, source, pair_config(chosen), pair_temperature(chosen), samples, &cache, &coverage);
      rate_row(source, coverage, options.runtime.error.prior_log_sd_per_octave);
      for (const Entry& e : corpus)
        if (e.source == source) {
          // Every configuration at its own temperature chosen on the other sources, alone and
          // averaged (geometric mean of the configurations' predictions: no choice at all).
          std::vector<LastPoint> at_pair;  // every (configuration, temperature) pair on the series
          for (std::size_t k = 0; k < pairs; ++k)
            at_pair.push_back(
                LastPrediction(e, ConfigOptions(pair_config(k), pair_temperature(k), {source}, samples, &cache)));
          double log_sum = 0;
          int averaged = 0;
          std::vector<double> backcast, backcast_no_cost;  // per configuration at its temperature
          for (std::size_t c = 0; c < std::size(kConfigs); ++c) {
            const std::size_t k = ArgMin(objective, c * std::size(kTemperatures), (c + 1) * std::size(kTemperatures));
            const LastPoint& point = at_pair[k];
            if (point.predicted > 0 && std::isfinite(point.predicted)) {
              log_sum += std::log(point.predicted);
              ++averaged;
            }
            fixed[c].push_back(point);
            backcast.push_back(
                BackcastLogError(e, ConfigOptions(pair_config(k), pair_temperature(k), {source}, samples, &cache)));
            backcast_no_cost.push_back(pair_config(k).cost > 0 ? NAN : backcast.back());
          }
          // The configuration that forecast the series' own last training point best from the
          // points before it (no choice across sources; where none could be tried, or all
          // forecast it alike, the choice per source).
          auto choice = [](const std::vector<double>& errors) {
            const std::size_t best = ArgMin(errors);
            for (double error : errors)  // every configuration forecast it alike: nothing to choose by
              if (best < errors.size() && !std::isnan(error) && error > errors[best] + 1e-12) return best;
            return errors.size();
          };
          const std::size_t own = choice(backcast);
          by_source[source].push_back(Score(e, options, uniform));
          const LastPoint& chosen_point = by_source[source].back().last;
          LastPoint average = chosen_point;
          average.predicted = averaged == static_cast<int>(std::size(kConfigs)) ? std::exp(log_sum / averaged) : NAN;
          fixed[std::size(kConfigs)].push_back(average);
          fixed[std::size(kConfigs) + 1].push_back(chosen_point);
          fixed[std::size(kConfigs) + 2].push_back(own < backcast.size() ? fixed[own].back() : chosen_point);
          const std::size_t own_no_cost = choice(backcast_no_cost);
          fixed[std::size(kConfigs) + 3].push_back(own_no_cost < backcast.size() ? fixed[own_no_cost].back()
                                                                                 : chosen_point);
          // The configurations weighted per series by how likely their backcast error is under the
          // interval's own spread at that distance (a normal likelihood of log sd rate x octaves;
          // the rate is the one chosen above on the other sources): Bayesian averaging over the
          // configurations instead of a hard choice.
          {
            const double octaves = e.train.size() >= 2 ? std::log2(static_cast<double>(e.train.back()) /
                                                                   e.train[e.train.size() - 2])
                                                       : NAN;
            const double sd = options.runtime.error.prior_log_sd_per_octave * octaves;
            double weight_sum = 0, weighted_log = 0;
            for (std::size_t c = 0; c < backcast.size(); ++c) {
              const double v = fixed[c].back().predicted;
              if (std::isnan(backcast[c]) || !(v > 0) || !std::isfinite(v) || !(sd > 0)) continue;
              const double w = std::exp(-0.5 * backcast[c] * backcast[c] / (sd * sd));
              weight_sum += w;
              weighted_log += w * std::log(v);
            }
            LastPoint soft = chosen_point;
            if (weight_sum > 0) soft.predicted = std::exp(weighted_log / weight_sum);
            fixed[std::size(kConfigs) + 4].push_back(soft);
            // The choice per source, unless it fails its own check: its forecast of the last
            // training point falls outside its own 90% interval for that step (log sd rate x
            // octaves); then the configuration that forecast that point best.
            const double own_error = BackcastLogError(e, options);
            const bool failed_check = sd > 0 && std::isfinite(own_error) && own_error > 1.6448536 * sd;
            fixed[std::size(kConfigs) + 5].push_back(failed_check && own < backcast.size() ? fixed[own].back()
                                                                                         : chosen_point);
          }
          for (std::size_t k = 0; k < pairs; ++k) all_errors[k].push_back(value_of(e, at_pair[k]));
        }
    }
    std::vector<double> all_objective(pairs);
    for (std::size_t k = 0; k < pairs; ++k) all_objective[k] = summarise(all_errors[k]);
    const std::size_t shipped_pair = choose(all_objective);
    print_row("(none: what the tool ships)", all_objective, shipped_pair);
    const Config& shipped = pair_config(shipped_pair);
    const double shipped_temperature = pair_temperature(shipped_pair);
    std::vector<double> shipped_coverage;
    const double shipped_rate = ChooseRate(corpus, "", shipped, shipped_temperature, samples, &cache, &shipped_coverage);
    rate_row("(none: what the tool ships)", shipped_coverage, shipped_rate);
    std::printf("\nThen, for the chosen configuration and temperature and on the same other sources, the "
                "interval's pooled per-octave rate (the log sd the forward errors are shrunk towards, "
                "`ExtrapolationErrorOptions::prior_log_sd_per_octave`): share of the other sources' held-out "
                "points inside their 90%% interval, per rate; the one closest to 90%% is chosen (configurations "
                "with the corpus prior use the prior's own rate):\n\n| left out |");
    for (double rate : kPooledRates) std::printf(" %.2f |", rate);
    std::printf(" chosen |\n|---|");
    for (std::size_t k = 0; k <= std::size(kPooledRates); ++k) std::printf("---:|");
    std::printf("\n%s\n", rate_table.c_str());
    qnm::ExtrapolationPrior full =
        LearnPrior(samples, {}, ConfigOptions(shipped, shipped_temperature, {}, samples, &cache).runtime);
    std::printf("Corpus prior learned on every source: %s; interval log sd %.3f per octave.\n\n",
                full.Summary().c_str(), full.per_octave_log_sd);
    if (!write_prior.empty()) qnm::WriteFileAtomically(write_prior, qnm::ExtrapolationPriorToJson(full));

    if (!dump.empty()) qnm::WriteFileAtomically(dump, DumpCsv(by_source));
    PrintTotalsHeader();
    Totals all;
    for (const auto& [source, results] : by_source) {
      Totals t;
      for (const SeriesResult& s : results) {
        t.Add(s);
        all.Add(s);
      }
      PrintTotals(source, t);
    }
    PrintTotals("**all (leave one source out)**", all);
    {
      // How much the count of series better than Extra-P says (a series as a coin, the
      // binomial at the observed share): its standard deviation, the wins the 70% needs,
      // and a sign test against a coin toss (one-sided, no better than Extra-P as the null).
      const int n = all.peer_series, wins = all.wins_peer;
      const double share = n ? static_cast<double>(wins) / n : NAN;
      const int needed = static_cast<int>(std::ceil(0.7 * n - 1e-9));
      const double p_value =
          n && wins > 0 ? boost::math::cdf(boost::math::complement(boost::math::binomial(n, 0.5), wins - 1)) : NAN;
      std::printf("\nBetter than Extra-P on %d of %d series (%.1f%%): binomial sd %.1f series; the 70%% target is %d "
                  "(%+.1f sd); sign test against a coin toss: p = %.2g.\n",
                  wins, n, 100 * share, std::sqrt(n * share * (1 - share)), needed,
                  (needed - wins) / std::sqrt(n * share * (1 - share)), p_value);
    }

    std::printf("\nChoosing a configuration or not: each configuration fixed for every source (at its temperature "
                "chosen on the other sources), the average of all of them (geometric mean of their predictions: no "
                "choice at all), the choice per source above, and a choice per series: the configuration (at its "
                "temperature chosen on the other sources) whose forecast of the series' last training point from "
                "the points before it erred least; at the largest P:\n\n");
    std::vector<std::string> labels;
    for (const Config& c : kConfigs) labels.push_back(std::string("fixed: ") + c.name);
    labels.push_back("**average of every configuration**");
    labels.push_back("**chosen per source** (the headline)");
    labels.push_back("chosen per series: the configuration that forecast its last training point best");
    labels.push_back("chosen per series: last training point, configurations without the cost laws");
    labels.push_back("weighted per series: every configuration, by the likelihood of its last-point forecast");
    labels.push_back("chosen per source, switched per series when its last-point forecast leaves its own 90% interval");
    PrintFixed(labels, fixed, sources);

    // ---- mpiP-driven series (the queueing model) and NPB tables ----
    qnm::PredictionOptions shipped_options = ConfigOptions(shipped, shipped_temperature, {}, samples, &cache);
    shipped_options.runtime.error.prior_log_sd_per_octave = shipped_rate;
    std::vector<Series> mpip_scaling = Load({data + "/mpip-scaling"});
    std::vector<Series> cab = Load({tests + "/mpip"});
    std::vector<Series> npb = Load({tests + "/npb/npb_series_median.csv"});
    struct Extra {
      std::string label;
      std::vector<SeriesResult> results;
    };
    std::vector<Extra> extras;
    // The queueing model's input curves weigh their candidates with the same temperature
    // (RuntimeModelOptions::weight_temperature); for each mpiP source it is chosen on the other
    // one: mpip-scaling (train 1..16) and cab's NPB-MZ (train 1..8), mean |log error| at the largest P.
    std::vector<Entry> mpip_entries, cab_entries;
    for (const Series& s : mpip_scaling) mpip_entries.push_back(Entry{"mpip-scaling", &s, {1, 2, 4, 8, 16}, nullptr, &AppTimeMax});
    for (const Series& s : cab)
      if (s.name.find("-mz.C") != std::string::npos) cab_entries.push_back(Entry{"cab", &s, {1, 2, 4, 8}, nullptr, nullptr});
    auto input_temperature = [&](const std::vector<Entry>& others, std::string* row) {
      std::vector<double> objectives;
      for (double t : kTemperatures) {
        qnm::PredictionOptions o = shipped_options;
        o.runtime.weight_temperature = t;
        double sum = 0;
        for (const Entry& e : others) sum += LastLogError(LastPrediction(e, o));
        const double objective = sum / std::max<std::size_t>(1, others.size());
        char cell[32];
        std::snprintf(cell, sizeof cell, " %.4f |", objective);
        *row += cell;
        objectives.push_back(objective);
      }
      const double best = kTemperatures[ArgMin(objectives)];
      char chosen[32];
      std::snprintf(chosen, sizeof chosen, " %.1f |\n", best);
      *row += chosen;
      return best;
    };
    std::string mpip_row = "| mpip-scaling (chosen on cab) |", cab_row = "| cab (chosen on mpip-scaling) |";
    qnm::PredictionOptions mpip_options = shipped_options, cab_options = shipped_options;
    mpip_options.runtime.weight_temperature = input_temperature(cab_entries, &mpip_row);
    cab_options.runtime.weight_temperature = input_temperature(mpip_entries, &cab_row);
    std::vector<Entry> both = cab_entries;
    both.insert(both.end(), mpip_entries.begin(), mpip_entries.end());
    std::string both_row = "| (none: what the tool ships; both) |";
    input_temperature(both, &both_row);
    std::printf("\n## mpiP-driven series and NPB tables\n\nThe queueing model's input curves' weight "
                "temperature for each mpiP source, chosen on the other (mean |log error| at the largest P):"
                "\n\n| left out |");
    for (double t : kTemperatures) std::printf(" temperature %.1f |", t);
    std::printf(" chosen |\n|---|");
    for (std::size_t k = 0; k <= std::size(kTemperatures); ++k) std::printf("---:|");
    std::printf("\n%s%s%s\n", mpip_row.c_str(), cab_row.c_str(), both_row.c_str());
    Extra th8_16{"mpip-scaling: NPB-MZ C th=8, train 1..16 -> 32,64,128 (vs mpiP AppTime max)", {}};
    Extra th8_8{"mpip-scaling: NPB-MZ C th=8, train 1..8 -> 16..128 (vs mpiP AppTime max)", {}};
    for (const Series& s : mpip_scaling) {
      for (auto [train, set] : {std::pair{std::vector<int>{1, 2, 4, 8, 16}, &th8_16},
                                std::pair{std::vector<int>{1, 2, 4, 8}, &th8_8}}) {
        Entry e{"mpip-scaling", &s, train, nullptr, &AppTimeMax};
        SeriesResult r = Score(e, mpip_options, uniform);
        r.note = RiseNote(e, mpip_options);
        set->results.push_back(r);
      }
    }
    extras.push_back(th8_16);
    extras.push_back(th8_8);
    Extra mz8{"NPB-MZ C on cab (mpiP), train 1,2,4,8 -> 16", {}};
    Extra mz4{"NPB-MZ C on cab (mpiP), train 1,2,4 -> 8,16", {}};
    for (const Entry& e8 : cab_entries) {  // trained on 1, 2, 4, 8
      SeriesResult r = Score(e8, cab_options, uniform);
      r.note = RiseNote(e8, cab_options);
      mz8.results.push_back(r);
      mz4.results.push_back(Score(Entry{"cab", e8.series, {1, 2, 4}, nullptr, nullptr}, cab_options, uniform));
    }
    extras.push_back(mz8);
    extras.push_back(mz4);
    Extra tables{"NPB tables (runtime only; train min(5, n-1) smallest P)", {}};
    for (const Series& s : npb) {
      int n = static_cast<int>(Times(s).size());
      if (n < 4) continue;
      tables.results.push_back(Score(Entry{"npb", &s, Smallest(s, std::min(5, n - 1)), nullptr, nullptr},
                                     shipped_options, uniform));
    }
    extras.push_back(tables);

    PrintTotalsHeader();
    for (const Extra& x : extras) {
      Totals t;
      for (const SeriesResult& s : x.results) t.Add(s);
      PrintTotals(x.label, t);
    }

    if (!quiet) {
      std::printf("\n<details><summary>Per series (|error| at each predicted P)</summary>\n");
      for (const auto& [source, results] : by_source) PrintSeries(source + " (left out of the prior)", results);
      for (const Extra& x : extras) PrintSeries(x.label, x.results);
      std::printf("\n</details>\n");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "accuracy_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
