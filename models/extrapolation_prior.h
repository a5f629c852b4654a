#pragma once
// What a corpus of measured strong-scaling series knows that one series
// cannot: which curve families tend to extrapolate well. Forward validation
// on five training points often cannot tell the candidate curves of the
// runtime model apart (every one fits to a few percent), yet they diverge by
// factors beyond the training range: an overhead term c*P^2 fitted to a 10%
// efficiency loss at P = 256 predicts a run time four times too long at
// P = 3200 (vlasiator on Mahti), where the series kept following Amdahl's law.
// Across real codes some families extrapolate best far more often than
// others; that frequency is the prior of each candidate in the average
// (empirical Bayes model averaging: Hoeting et al. 1999, §2, prior model
// probabilities; here estimated from other series rather than set uniform).
//
// The prior is learned from series with held-out larger process counts: for
// every series, the candidate whose fit to the training points is closest (in
// log) at the largest held-out P is counted, with one pseudo-count per
// candidate (Laplace smoothing). Its interval rate is the per-octave log sd at
// which the prior-weighted model's out-of-sample errors over the corpus are
// covered at the interval level. bench/accuracy learns it leaving the scored
// source out and scores it beside the shipped model; it is not shipped (on the
// 164-series corpus it did not beat the uniform prior: bench/README.md).
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace qnm {

struct ExtrapolationPrior {
  bool known = false;
  // Prior probability of each candidate, keyed by its name (RuntimeCurve::name,
  // e.g. "1 + P^-1"); a candidate not listed gets `unlisted_weight`.
  std::map<std::string, double> candidate_weights;
  double unlisted_weight = 0.0;
  double per_octave_log_sd = 0.3;  // interval rate learned from the corpus errors
  int series = 0;                  // what it was learned from
  std::string learned_from;        // sources, e.g. "ahug21, amgcl, excalibur, ..."

  double WeightOf(const std::string& candidate) const;
  /// The three most probable candidates: "1 + P^-1 0.31, P^-1 0.12, ...".
  std::string Summary() const;
};

/// A series with held-out process counts beyond its training points.
struct PriorSeries {
  std::string source;  // data source (repository / campaign): the unit left out
  std::string name;
  std::vector<std::pair<int, double>> training;  // (procs, time_s), sorted
  std::vector<std::pair<int, double>> held_out;  // larger procs, sorted
};

struct ExtrapolationPriorOptions {
  double pseudo_count = 1.0;   // Laplace smoothing per candidate
  double interval_level = 0.9;
  bool IsValid(std::string* error) const;
};

struct ExtrapolationPriorSummary {
  enum class Termination { kLearned, kNoSeries } termination = Termination::kNoSeries;
  int series = 0, held_out_points = 0;
  double coverage = 0;  // fraction of held-out points inside the learned interval (in-sample)
  std::string BriefReport() const;
};

struct RuntimeModelOptions;

/// Learns the prior from `series` (the caller leaves the scored source out), using the
/// candidates and forward validation of `runtime`.
bool FitExtrapolationPrior(const std::vector<PriorSeries>& series, const RuntimeModelOptions& runtime,
                           const ExtrapolationPriorOptions& options, ExtrapolationPrior* prior,
                           ExtrapolationPriorSummary* summary);

/// JSON text of a prior (bench/accuracy --write-prior).
std::string ExtrapolationPriorToJson(const ExtrapolationPrior& prior);

}  // namespace qnm
