// The cross-machine section of bench/accuracy (issue 21): a model fitted on
// machine A's whole series, moved to machine B with B's smallest process count
// (transfer/machine_transfer.h), scored at B's other process counts against
// the naive transfer (A's log-log curve through its measured points, times
// B(p0) / A(p0)). Every ordered pair (A, B) of series of the same code and
// input on different machines (or networks) of the development groups:
//   gromacs-1400k, gromacs-3000k   ARCHER2 (8 / 7 rank x thread splits) vs CSD3 IB and RoCE (scaling2)
//   vlasiator-light, -medium       Mahti vs LUMI-C (scaling2)
//   wavetrisk                      bbserv vs Niagara, 2560 and 640 domains (scaling)
//   npb                            NPB 3.3/3.4 and NPB-MZ on SeARCH (Myrinet-MX, GbE), ozmpc2, the RPi4
//                                  cluster and cab (tests/data/npb)
//   cloud-kripke, -lammps, -minife Kripke, LAMMPS ReaxFF, miniFE on six cloud platforms at 32-256 nodes
//                                  (cloud; converged-computing/performance-study, round 32)
// Leave one group out: the rule (processes mapped by cores or by P, node terms
// in B's nodes or not) and the interval's drift rate are chosen on the other
// groups, then applied to the left-out group.
//
// Usage: cross_machine_bench [--data DIR] [--tests DIR] [--quiet]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/accuracy/interval_score.h"
#include "pipeline/series_loading.h"
#include "transfer/machine_transfer.h"

namespace {

using qnm::Series;

struct Member {
  std::string group;    // the unit left out
  std::string input;    // same code and input within a group ("2560dom", "ep.C")
  std::string machine;  // "ARCHER2", "CSD3-ib", ...
  const Series* series = nullptr;
};

/// The machine label of a series of a development group, or "" when it is not one.
std::string MachineOf(const std::string& text) {
  auto has = [&](const char* part) { return text.find(part) != std::string::npos; };
  if (has("ARCHER2")) return "ARCHER2";
  if (has("CSD3cclake-ib")) return "CSD3-ib";
  if (has("CSD3cclake-roce")) return "CSD3-roce";
  if (has("Mahti")) return "Mahti";
  if (has("LUMI-C")) return "LUMI-C";
  if (has("bbserv")) return "bbserv";
  if (has("niagara")) return "Niagara";
  if (has("SeARCH") && (has("gcc-O3") || has("SP-MZ")) && has("Myrinet-MX")) return "SeARCH-MX";
  if (has("SeARCH") && (has("gcc-O3") || has("SP-MZ")) && has("GbE-TCP")) return "SeARCH-GbE";
  if (has("ozmpc2")) return "ozmpc2";
  if (has("RPi4") && has("4 ranks/node")) return "RPi4";
  if (has("LLNL cab")) return "cab";
  return "";
}

std::vector<Member> Members(const std::vector<Series>& scaling2, const std::vector<Series>& wavetrisk,
                            const std::vector<Series>& npb, const std::vector<Series>& cloud) {
  std::vector<Member> out;
  // The cloud study (bench/data/cloud): one group per application, the platform its machine; a
  // configuration is one thread count per process (miniFE ran 1, 2 and 24 threads on different platforms).
  for (const Series& s : cloud) {
    const std::string app = s.name.substr(0, s.name.find('-', 6));  // "cloud-kripke", "cloud-lammps", ...
    if (s.groups.empty() || s.groups.front().runs.empty()) continue;
    const qnm::RunStats& run = s.groups.front().runs.front();
    out.push_back(Member{app, app + " omp" + std::to_string(run.threads_per_proc), run.machine, &s});
  }
  for (const Series& s : scaling2) {
    Member m{"", "", MachineOf(s.name), &s};
    if (s.name.find("GROMACS") != std::string::npos && s.name.find("1400k") != std::string::npos) m.group = "gromacs-1400k";
    if (s.name.find("GROMACS") != std::string::npos && s.name.find("3000k") != std::string::npos) m.group = "gromacs-3000k";
    if (s.name.find("vlasiator-IPshock-light") == 0) m.group = "vlasiator-light";
    if (s.name.find("vlasiator-IPshock-medium") == 0) m.group = "vlasiator-medium";
    if (m.group.empty() || m.machine.empty()) continue;
    m.input = m.group;
    out.push_back(m);
  }
  for (const Series& s : wavetrisk) {
    if (s.name.find("wavetrisk-HeldSuarez-J8-nz32-") != 0) continue;
    Member m{"wavetrisk", s.name.find("2560dom") != std::string::npos ? "2560dom" : "640dom", MachineOf(s.name), &s};
    if (!m.machine.empty()) out.push_back(m);
  }
  for (const Series& s : npb) {
    std::string text = s.name + " " + s.key.machine;
    for (const qnm::RunGroup& g : s.groups)
      for (const qnm::RunStats& r : g.runs) text += " " + r.machine;
    Member m{"npb", s.key.app + "." + s.key.problem_class, MachineOf(text), &s};
    if (!m.machine.empty() && s.groups.size() >= 2) out.push_back(m);
  }
  return out;
}

// ------------------------------------------------------------- scoring ---

struct PointScore {
  int procs = 0;
  double log_error = 0;              // log(predicted / measured)
  double upper_half = 0, lower_half = 0;  // A's own interval half-widths (log)
  double octaves = 0;                // from B's calibrating run
};

struct PairScore {
  std::string group, a, b;
  std::vector<PointScore> points;    // B's other process counts, ascending
  double naive_log_error = 0;        // at B's largest P
  double speed_log_ratio = 0;        // log(B(p0) / A's model at the mapped p0)
  double noise_log_sd = 0;           // A's run-to-run noise (TransferredModel::source_noise_log_sd)
};

/// A's log-log curve through its measured points, straight beyond its ends.
double LogLog(const Series& a, double procs) {
  std::vector<std::pair<double, double>> pts;
  for (const qnm::RunGroup& g : a.groups)
    if (g.median_time_s > 0) pts.emplace_back(std::log(g.procs), std::log(g.median_time_s));
  if (pts.size() == 1) return std::exp(pts[0].second);
  double x = std::log(procs);
  std::size_t k = 1;
  while (k + 1 < pts.size() && x > pts[k].first) ++k;
  const auto& [x0, y0] = pts[k - 1];
  const auto& [x1, y1] = pts[k];
  return std::exp(y0 + (y1 - y0) * (x - x0) / (x1 - x0));
}

struct Config {
  const char* name;
  bool by_cores, node_terms, by_nodes;
  bool overheads_follow_speed = true;
  bool candidate = true;  // chosen from leaving one group out; false: shown beside them only (tried)
};
constexpr Config kConfigs[] = {{"by cores, node terms in B's nodes", true, true, false},
                               {"by cores", true, false, false},
                               {"P to P, node terms in B's nodes", false, true, false},
                               {"P to P", false, false, false},
                               {"by nodes (else by cores)", true, true, true},
                               // Tried: chosen on 5 of 6 groups by mean |log error| (0.523 vs 0.525), worse on
                               // the count better than naive (71 vs 72) and GROMACS 1400k (bench/README.md).
                               {"by nodes, ratio on computation only", true, true, true, false, false}};

PairScore ScorePair(const Member& a, const Member& b, const qnm::SeriesModel& model, const Config& config,
                    std::size_t calibrating_runs = 1, bool follow_each_run = true) {
  PairScore s{a.group, a.series->name, b.series->name, {}, 0, 0, 0};
  Series first = *b.series;
  first.groups.resize(calibrating_runs);
  qnm::TransferOptions options;
  options.drift_log_sd_per_octave = 0;  // the intervals' drift and run noise are applied by the scorer
  options.run_noise_terms = 0;
  options.map_by_cores = config.by_cores;
  options.node_terms_in_target_nodes = config.node_terms;
  options.map_by_nodes = config.by_nodes;
  options.follow_each_run = follow_each_run;
  options.overheads_follow_speed = config.overheads_follow_speed;
  qnm::TransferredModel moved;
  std::string error;
  if (!qnm::TransferSeriesModel(model, *a.series, &first, nullptr, options, &moved, &error))
    throw std::runtime_error(a.series->name + ": " + error);
  const int p0 = first.groups[0].procs;
  s.speed_log_ratio = std::log(moved.summary.speed_ratio);
  s.noise_log_sd = moved.source_noise_log_sd;
  const int p_last = first.groups.back().procs;
  for (std::size_t k = calibrating_runs; k < b.series->groups.size(); ++k) {
    const qnm::RunGroup& g = b.series->groups[k];
    qnm::ProcsPrediction p = moved.Predict(g.procs);
    PointScore point;
    point.procs = g.procs;
    point.octaves = std::log2(static_cast<double>(g.procs) / p_last);
    if (p.Ok() && p.total.value_s > 0) {
      point.log_error = std::log(p.total.value_s / g.median_time_s);
      point.upper_half = std::log(p.total.upper_s / p.total.value_s);
      point.lower_half = std::log(p.total.value_s / p.total.lower_s);
    } else {
      point.log_error = std::log(10.0);  // no prediction: scored as 10x off
    }
    s.points.push_back(point);
  }
  const qnm::RunGroup& last = b.series->groups.back();
  double naive = LogLog(*a.series, last.procs) * first.groups[0].median_time_s / LogLog(*a.series, p0);
  s.naive_log_error = std::log(naive / last.median_time_s);
  return s;
}

/// The interval at a point as log half-widths below and above the prediction: A's own, widened by
/// the drift and run noise the transfer adds (in quadrature).
struct LogHalfWidths {
  double lower, upper;
};
LogHalfWidths Interval(const PointScore& p, double drift, double noise_sd, double z) {
  const double added = z * std::hypot(drift * p.octaves, noise_sd);
  return {std::hypot(p.lower_half, added), std::hypot(p.upper_half, added)};
}

bool Inside(const PointScore& p, double drift, double noise_sd, double z) {
  const LogHalfWidths half = Interval(p, drift, noise_sd, z);
  return p.log_error <= half.lower && -p.log_error <= half.upper;
}

/// The point's interval score (bench/accuracy/interval_score.h), relative to the prediction: the
/// measured time lies at -log_error.
double IntervalScore(const PointScore& p, double drift, double noise_sd, double z) {
  const LogHalfWidths half = Interval(p, drift, noise_sd, z);
  return qnm::bench::LogIntervalScore(-half.lower, half.upper, -p.log_error);
}

/// What the interval adds to A's own: a drift per octave from B's run, and the noise of
/// `noise_terms` single runs as noisy as A's (TransferOptions::run_noise_terms).
struct Drift {
  double base = 0, noise_terms = 0;
  double Rate(const PairScore&) const { return base; }
  double Noise(const PairScore& s) const { return std::sqrt(noise_terms) * s.noise_log_sd; }
};

double Coverage(const std::vector<const PairScore*>& pairs, const Drift& drift, double z) {
  int inside = 0, n = 0;
  for (const PairScore* s : pairs)
    for (const PointScore& p : s->points) {
      inside += Inside(p, drift.Rate(*s), drift.Noise(*s), z);
      ++n;
    }
  return n ? static_cast<double>(inside) / n : 0.0;
}

/// Mean added log sd over the pairs' points (what the drift costs in width).
double AddedWidth(const std::vector<const PairScore*>& pairs, const Drift& drift) {
  double sum = 0;
  int n = 0;
  for (const PairScore* s : pairs)
    for (const PointScore& p : s->points) {
      sum += std::hypot(drift.Rate(*s) * p.octaves, drift.Noise(*s));
      ++n;
    }
  return n ? sum / n : 0.0;
}

double Median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double AbsRelative(double log_error) { return std::fabs(std::expm1(log_error)); }

}  // namespace

int main(int argc, char** argv) {
  std::string data = "bench/data", tests = "tests/data";
  bool quiet = false;
  for (int k = 1; k < argc; ++k) {
    std::string arg = argv[k];
    if (arg == "--data" && k + 1 < argc) data = argv[++k];
    else if (arg == "--tests" && k + 1 < argc) tests = argv[++k];
    else if (arg == "--quiet") quiet = true;
    else {
      std::fprintf(stderr, "cross_machine_bench: unknown argument '%s'\n", arg.c_str());
      return 2;
    }
  }
  try {
    std::vector<Series> scaling2 = qnm::LoadSeries({data + "/scaling2/series.csv"}, "", nullptr);
    std::vector<Series> scaling = qnm::LoadSeries({data + "/scaling/scaling_series.csv"}, "", nullptr);
    // The first set's table has no layout columns: wavetrisk's nodes (bbserv 32 cores, Niagara 40; SOURCES.md).
    for (Series& s : scaling)
      for (qnm::RunGroup& g : s.groups)
        for (qnm::RunStats& r : g.runs) {
          r.ranks_per_node = s.name.find("bbserv") != std::string::npos ? 32
                             : s.name.find("niagara") != std::string::npos ? 40 : 0;
          r.machine = s.name.find("bbserv") != std::string::npos ? "bbserv" : "niagara";
        }
    std::vector<Series> npb = qnm::LoadSeries({tests + "/npb/npb_series_median.csv"}, "", nullptr);
    std::vector<Series> cloud = qnm::LoadSeries({data + "/cloud/series.csv"}, "", nullptr);
    std::vector<Member> members = Members(scaling2, scaling, npb, cloud);

    std::map<const Series*, qnm::SeriesModel> models;
    qnm::PredictionOptions source_options;  // as `--target` fits A: the default configuration (transfer_runner.cpp)
    source_options.choose_configuration = false;
    for (const Member& m : members) {
      qnm::SeriesModel model;
      std::string error;
      if (m.series->groups.size() >= 2 && qnm::FitSeriesModel(*m.series, {}, source_options, &model, &error))
        models[m.series] = std::move(model);
    }
    // Every ordered pair: same group and input, different machine; A fitted, B with >= 2 process counts.
    std::vector<std::pair<const Member*, const Member*>> pairs;
    for (const Member& a : members)
      for (const Member& b : members)
        if (a.group == b.group && a.input == b.input && a.machine != b.machine && models.count(a.series) &&
            b.series->groups.size() >= 2)
          pairs.emplace_back(&a, &b);
    std::set<std::string> groups;
    for (const auto& [a, b] : pairs) groups.insert(a->group);

    // Scores of every pair under every configuration.
    std::vector<std::vector<PairScore>> scores(std::size(kConfigs));
    for (std::size_t c = 0; c < std::size(kConfigs); ++c)
      for (const auto& [a, b] : pairs) scores[c].push_back(ScorePair(*a, *b, models.at(a->series), kConfigs[c]));

    const double z = 1.6448536269514722;
    const std::vector<double> drifts = {0.0, 0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5};
    // A rate growing with |log(B/A)| (machines far apart drift more) was tried: {0, 0.05, ..., 0.4}
    // narrowed the intervals (86% held) and left NPB's 49% where it was (bench/README.md); not kept.
    // The noise of single runs, in units of A's own (0 = none; 4 = B and A at p0 and at P).
    // The noise of single runs: 4 (B and A at p0 and at P; TransferOptions::run_noise_terms), derived,
    // not chosen. Chosen from {0, 1, 2, 4} leaving one group out it is 0 where NPB is left out (the other
    // groups hold 90% without it) and NPB's intervals stay at 39% (bench/README.md, "What we tried").
    const std::vector<double> noise_terms = {4.0};
    std::printf("## Cross-machine: %zu ordered pairs of %zu groups (A's whole series + B's smallest P)\n\n",
                pairs.size(), groups.size());
    std::printf("Rule and interval drift chosen for each group on the other groups (mean |log error| at B's largest P per rule; interval = A's own + drift per octave from B's run + the noise of k single runs as noisy as A's: the narrowest (drift, k) whose 90%% intervals hold >= 90%% there, averaged over the other groups):\n\n"
                "| left out |");
    for (const Config& c : kConfigs) std::printf(" %s |", c.name);
    std::printf(" chosen | drift /octave, k runs' noise |\n|---|");
    for (std::size_t c = 0; c < std::size(kConfigs); ++c) std::printf("---:|");
    std::printf("---|---:|\n");

    struct Row {
      std::vector<double> ours, naive;
      int better = 0, tied = 0, pairs = 0, inside = 0, points = 0;
      double score = 0;  // summed interval score of the points
      std::vector<double> speed;
    };
    std::map<std::string, Row> rows;
    Row all;
    Drift shipped_drift;
    std::size_t shipped = 0;
    std::vector<std::string> detail;
    // The rule (lowest mean |log error| at B's largest P) and drift chosen without `left_out` ("" = on all).
    auto choose = [&](const std::string& left_out, std::vector<double>* objective, std::size_t* chosen,
                      Drift* drift) {
      objective->assign(std::size(kConfigs), 0.0);
      for (std::size_t c = 0; c < std::size(kConfigs); ++c) {
        // Mean |log error| at B's largest P (as bench/accuracy chooses): a rule that is off by 10x on
        // a few pairs is not saved by its median.
        double sum = 0;
        int n = 0;
        for (std::size_t i = 0; i < pairs.size(); ++i)
          if (pairs[i].first->group != left_out) {
            sum += std::fabs(scores[c][i].points.back().log_error);
            ++n;
          }
        (*objective)[c] = sum / std::max(1, n);
      }
      *chosen = 0;
      for (std::size_t c = 0; c < std::size(kConfigs); ++c)
        if (kConfigs[c].candidate && (*objective)[c] < (*objective)[*chosen]) *chosen = c;
      // Each other group counts once (GROMACS' 64 pairs would otherwise set the rate alone).
      std::map<std::string, std::vector<const PairScore*>> others;
      for (std::size_t i = 0; i < pairs.size(); ++i)
        if (pairs[i].first->group != left_out) others[pairs[i].first->group].push_back(&scores[*chosen][i]);
      *drift = Drift{drifts.back(), 0};
      double best_width = HUGE_VAL;
      for (double base : drifts)
        for (double k : noise_terms) {
          Drift d{base, k};
          double coverage = 0, width = 0;
          for (const auto& [name, list] : others) {
            coverage += Coverage(list, d, z) / others.size();
            width += AddedWidth(list, d) / others.size();
          }
          if (coverage >= 0.90 && width < best_width) {
            best_width = width;
            *drift = d;
          }
        }
    };
    for (const std::string& group : groups) {
      std::vector<double> objective;
      std::size_t chosen = 0;
      Drift drift;
      choose(group, &objective, &chosen, &drift);
      std::printf("| %s |", group.c_str());
      for (double o : objective) std::printf(" %.3f |", o);
      std::printf(" %s | %.2f, %g |\n", kConfigs[chosen].name, drift.base, drift.noise_terms);
      Row& row = rows[group];
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (pairs[i].first->group != group) continue;
        const PairScore& s = scores[chosen][i];
        double ours = AbsRelative(s.points.back().log_error), naive = AbsRelative(s.naive_log_error);
        for (Row* r : {&row, &all}) {
          r->ours.push_back(ours);
          r->naive.push_back(naive);
          // Within 0.5% of each other the two are the same curve (B's points inside A's range, same layout).
          const bool tie = std::fabs(std::log((1 + ours) / (1 + naive))) < 0.005 || std::fabs(ours - naive) < 0.005;
          r->tied += tie;
          r->better += !tie && ours < naive;
          ++r->pairs;
          r->speed.push_back(s.speed_log_ratio);
          for (const PointScore& p : s.points) {
            r->inside += Inside(p, drift.Rate(s), drift.Noise(s), z);
            r->score += IntervalScore(p, drift.Rate(s), drift.Noise(s), z);
            ++r->points;
          }
        }
        char line[512];
        std::snprintf(line, sizeof line, "| %s | %s | %s | %d | %.1f%% | %.1f%% | %.3g |", group.c_str(),
                      pairs[i].first->machine.c_str(), s.b.c_str(), s.points.back().procs, 100 * ours, 100 * naive,
                      std::exp(s.speed_log_ratio));
        detail.push_back(line);
      }
    }
    {
      std::vector<double> objective;
      std::size_t chosen = 0;
      choose("", &objective, &chosen, &shipped_drift);
      shipped = chosen;
      std::printf("| (none: what the tool ships) |");
      for (double o : objective) std::printf(" %.3f |", o);
      std::printf(" %s | %.2f, %g |\n", kConfigs[chosen].name, shipped_drift.base, shipped_drift.noise_terms);
    }
    std::printf("\n| group | pairs | ours: median \\|err\\| at B's largest P | naive | ours / naive | better than "
                "naive | tied | 90%% interval holds | interval score |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    auto print = [](const std::string& name, const Row& r) {
      double ours = Median(r.ours), naive = Median(r.naive);
      std::printf("| %s | %d | %.1f%% | %.1f%% | %.2f | %d/%d (%.0f%%) | %d | %.0f%% (%d points) | %.3f |\n",
                  name.c_str(), r.pairs, 100 * ours, 100 * naive, ours / naive, r.better, r.pairs,
                  100.0 * r.better / r.pairs, r.tied, 100.0 * r.inside / std::max(1, r.points), r.points,
                  r.score / std::max(1, r.points));
    };
    for (const auto& [group, row] : rows) print(group, row);
    print("**all (leave one group out)**", all);
    // What each rule does in every group (in-group medians: the log of what was tried, not a choice).
    std::printf("\nEvery rule on every group (median |err| at B's largest P; naive beside):\n\n| group |");
    for (const Config& c : kConfigs) std::printf(" %s |", c.name);
    std::printf(" naive |\n|---|");
    for (std::size_t c = 0; c <= std::size(kConfigs); ++c) std::printf("---:|");
    std::printf("\n");
    for (const std::string& group : groups) {
      std::printf("| %s |", group.c_str());
      std::vector<double> naive;
      for (std::size_t c = 0; c < std::size(kConfigs); ++c) {
        std::vector<double> errors;
        for (std::size_t i = 0; i < pairs.size(); ++i)
          if (pairs[i].first->group == group) {
            errors.push_back(AbsRelative(scores[c][i].points.back().log_error));
            if (c == 0) naive.push_back(AbsRelative(scores[c][i].naive_log_error));
          }
        std::printf(" %.1f%% |", 100 * Median(errors));
      }
      std::printf(" %.1f%% |\n", 100 * Median(naive));
    }
    // Several B runs: the two smallest P calibrate (B series of >= 3 process counts), shipped rule and
    // drift; the ratio followed run by run, or their mean, per group (mean |log error| at B's largest P).
    {
      struct Several {
        std::vector<double> one, follow, mean;
        double follow_log = 0, mean_log = 0;
        int inside_follow = 0, inside_mean = 0, points = 0;
      };
      std::map<std::string, Several> by_group;
      Several total;
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        const auto& [a, b] = pairs[i];
        if (b->series->groups.size() < 3) continue;
        PairScore f = ScorePair(*a, *b, models.at(a->series), kConfigs[shipped], 2, true);
        PairScore m = ScorePair(*a, *b, models.at(a->series), kConfigs[shipped], 2, false);
        for (Several* g : {&by_group[a->group], &total}) {
          g->one.push_back(AbsRelative(scores[shipped][i].points.back().log_error));
          g->follow.push_back(AbsRelative(f.points.back().log_error));
          g->mean.push_back(AbsRelative(m.points.back().log_error));
          g->follow_log += std::fabs(f.points.back().log_error);
          g->mean_log += std::fabs(m.points.back().log_error);
          for (std::size_t k = 0; k < f.points.size(); ++k) {
            g->inside_follow += Inside(f.points[k], shipped_drift.Rate(f), shipped_drift.Noise(f), z);
            g->inside_mean += Inside(m.points[k], shipped_drift.Rate(m), shipped_drift.Noise(m), z);
            ++g->points;
          }
        }
      }
      std::printf("\nSeveral B runs (B's two smallest P calibrate; pairs whose B has >= 3 process counts; median "
                  "|err| at B's largest P, mean |log err| in brackets; 90%% interval coverage):\n\n"
                  "| group | pairs | one run | two runs, ratio followed run by run | two runs, their mean ratio |\n"
                  "|---|---:|---:|---:|---:|\n");
      auto row = [](const std::string& name, const Several& g) {
        std::printf("| %s | %zu | %.1f%% | %.1f%% (%.3f), %.0f%% | %.1f%% (%.3f), %.0f%% |\n", name.c_str(),
                    g.one.size(), 100 * Median(g.one), 100 * Median(g.follow), g.follow_log / g.one.size(),
                    100.0 * g.inside_follow / std::max(1, g.points), 100 * Median(g.mean), g.mean_log / g.one.size(),
                    100.0 * g.inside_mean / std::max(1, g.points));
      };
      for (const auto& [name, g] : by_group) row(name, g);
      row("**all**", total);
    }
    // Profile only (no B run): the level is A's, the interval carries the spread of speed ratios
    // learned on the other groups.
    {
      std::vector<double> errors;
      int inside = 0, points = 0;
      for (const std::string& group : groups) {
        std::vector<double> logs;
        for (std::size_t i = 0; i < pairs.size(); ++i)
          if (pairs[i].first->group != group) logs.push_back(scores[shipped][i].speed_log_ratio);
        double mean = 0, sq = 0;
        for (double v : logs) mean += v / logs.size();
        for (double v : logs) sq += (v - mean) * (v - mean);
        const double sd = std::sqrt(sq / std::max<std::size_t>(1, logs.size() - 1));
        for (std::size_t i = 0; i < pairs.size(); ++i) {
          if (pairs[i].first->group != group) continue;
          const PairScore& s = scores[shipped][i];
          errors.push_back(AbsRelative(s.points.back().log_error - s.speed_log_ratio));
          for (PointScore p : s.points) {
            p.log_error -= s.speed_log_ratio;
            p.octaves = 1;  // the unknown speed's sd applies at every P
            inside += Inside(p, sd, 0, z);
            ++points;
          }
        }
      }
      std::printf("\nProfile only (no run on B; level = A's, interval widened by the log sd of speed ratios on the "
                  "other groups): median |err| at B's largest P %.1f%%, 90%% interval holds %.0f%% (%d points).\n",
                  100 * Median(errors), 100.0 * inside / std::max(1, points), points);
    }
    // The spread of speed ratios between machines: what a profile-only transfer cannot know.
    double mean = 0, sq = 0;
    for (double v : all.speed) mean += v / all.speed.size();
    for (double v : all.speed) sq += (v - mean) * (v - mean);
    std::printf("\nSpeed ratio B/A at B's smallest P over the pairs: log sd %.2f (the profile-only interval's "
                "unknown-speed sd).\n",
                std::sqrt(sq / std::max<std::size_t>(1, all.speed.size() - 1)));
    if (!quiet) {
      std::printf("\n<details><summary>Per pair</summary>\n\n| group | A's machine | B | B's largest P | ours "
                  "\\|err\\| | naive \\|err\\| | B/A ratio at p0 |\n|---|---|---|---:|---:|---:|---:|\n");
      for (const std::string& line : detail) std::printf("%s\n", line.c_str());
      std::printf("\n</details>\n");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cross_machine_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
