#pragma once
// Runtime-only strong-scaling model: the total time T(P) of a series that has
// nothing but (process count, time) pairs. A handful of candidate curves, each
// a sum of non-negative terms c * P^a or c * log2(P) (Extra-P's performance
// model normal form, Calotoiu et al. 2013, §3), is fitted by relative
// non-negative least squares. Candidates include overhead terms that grow
// (log2 P, P^0.5, P, P^2) so that a series reaching a minimum and rising
// again can be followed. They are scored by forward validation (fit on the
// smaller process counts, predict the larger ones), and the prediction is the
// weighted geometric mean of the candidates that validate well (Bayesian model
// averaging in spirit: Hoeting et al. 1999, §1, with weights from forward error).
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "models/extrapolation_prior.h"
#include "models/forward_validation.h"
#include "models/scaling_fit.h"
#include "record/run_stats.h"

namespace qnm {

/// One candidate curve of the average.
struct RuntimeCurve {
  std::string name;     // "Amdahl a + b/P", "a + b/P + c*log2(P)", ...
  ScalingModel model;   // fitted to every training point
  double forward_log_rms = kUnknown;  // forward-validation RMS of log(predicted/measured); unknown without forward errors
  int forward_errors = 0;
  double weight = 0.0;  // share in the average (sums to 1 over members)
};

struct RuntimeModelOptions {
  // Candidate term sets; empty = DefaultRuntimeCandidates().
  std::vector<std::vector<ScalingTerm>> candidates;
  // Weight of a candidate: exp(-(rms - best) / (best * temperature)), so a
  // candidate twice as wrong as the best weighs e^-(1/temperature) of it. 2.0:
  // of 0.5, 1 and 2, chosen with the configuration leaving each source out
  // (2.0 for five of the six sources) and on all 164 runtime series, and for
  // the queueing model's input curves on the two mpiP sources together
  // (bench/accuracy; round 3 had chosen 1.0 on its 42-series development set).
  double weight_temperature = 2.0;
  // A candidate is averaged only with at least this many forward errors; with
  // fewer (series of <= 3 training points) the evidence is too thin to prefer
  // anything over Amdahl's law, which is then used alone.
  int min_forward_errors = 3;
  // Occam's window (Madigan & Raftery 1994, §2.2): a candidate that adds terms
  // to another candidate is averaged only when its forward-validation error
  // is below this fraction of that simpler candidate's. Without it, an
  // overhead term c*P^2 fitted to a few percent of efficiency loss takes an
  // equal share whenever forward validation cannot tell the curves apart, and
  // multiplies the prediction far out (0.8 would be the input-curve fits'
  // parsimony fraction, ScalingFitOptions::more_terms_gain). Off by default:
  // chosen leaving one source out, it helped 3 of 6 sources and cost amgcl
  // 29% -> 69% (bench/README.md, "what we tried"); 1 disables it.
  double more_terms_gain = 1.0;
  // MPI ranks per node of the series (RunStats::ranks_per_node); > 0 adds
  // candidates with an overhead in nodes (Amdahl + c*log2(nodes), P^-1 +
  // c*log2(nodes), Amdahl + c*nodes^0.5): zero on one node, a step when runs
  // leave it, then growing with the nodes. Fitted only where the training
  // points span more than one node count. 0 = unknown (no node terms).
  int ranks_per_node = 0;
  bool node_terms = true;  // use ranks_per_node when known
  ForwardValidationOptions forward;
  ExtrapolationErrorOptions error;
  // Prior probability of each candidate, learned from a corpus of series
  // (models/extrapolation_prior.h): a candidate's weight is its prior times
  // its forward-validation likelihood, and the prior's interval rate replaces
  // `error.prior_log_sd_per_octave`. Unknown (the default): uniform. Learned on
  // run times; the queueing model's input curves do not use it.
  ExtrapolationPrior prior;
  // Share of Extra-P's cost laws (CostLawCandidates) in the average, beside the candidates
  // above: each family is weighted within itself by forward errors, then the two are combined
  // with this share. 0 = the cost laws are not used.
  double cost_law_share = 0.0;
  // The share above as a prior only: each family is then weighed by the weighted RMS of its
  // members' forward errors, as candidates are within a family.
  bool cost_law_adaptive = false;
  // Adds SaturatingCostCandidates to the candidates: a cost T * P that rises towards a ceiling.
  bool saturating_cost = false;
  // ... only where the last step of the points fitted scales at least this well: its log-log slope
  // log(T_n / T_n-1) / log(P_n / P_n-1) at most this (infinity: always). A cost that rises to a
  // ceiling is the shape of a code whose cost has stopped rising; where the edge of the training
  // runs still loses efficiency it only adds optimism (kScalingEdgeSlope; bench/README.md, round 44).
  double saturating_cost_max_edge_slope = std::numeric_limits<double>::infinity();
  bool IsValid(std::string* error) const;
};

/// The candidate term sets: Amdahl, pure powers, serial + power, and
/// Amdahl/power with one growing overhead term.
std::vector<std::vector<ScalingTerm>> DefaultRuntimeCandidates();
/// Extra-P's single-parameter hypotheses for the cost T * P, in time: c0/P + c1*P^(i-1)*log2(P)^j.
std::vector<std::vector<ScalingTerm>> CostLawCandidates();
/// The edge slope at which a series still scales near-perfectly: time falling at least 0.9 as fast as
/// 1/P over the last training step (>= 93% parallel efficiency per doubling; round 43's near-perfect
/// bin, registered with set R: bench/README.md, round 44).
inline constexpr double kScalingEdgeSlope = -0.9;
/// The log-log slope of the last step of `procs`/`values` (sorted by procs); NaN with fewer than two
/// points or equal process counts.
double EdgeSlope(const std::vector<double>& procs, const std::vector<double>& values);
/// A cost T * P rising towards a ceiling, W/P - H/P^2 (H >= 0): the overhead of neighbouring
/// domains on different ranks when many domains are spread over P ranks.
std::vector<std::vector<ScalingTerm>> SaturatingCostCandidates();
/// A candidate's name, its terms joined: "1 + P^-1 + log2(P)".
std::string CandidateName(const std::vector<ScalingTerm>& terms);

struct RuntimeModel {
  std::vector<RuntimeCurve> members;  // weight > 0, best first
  ExtrapolationError error;           // log-space sd as a function of distance
  bool corpus_prior = false;          // weights used a learned prior (ExtrapolationPrior)
  /// Weighted geometric mean of the members at `procs` (NaN when none is positive).
  double Evaluate(double procs) const;
  /// The best member's non-zero terms and how many curves are averaged:
  /// "3.1 + 52*P^-1 (best of 4 averaged curves, weight 0.31)".
  std::string Formula() const;
};

/// Fits `points` (procs, time_s > 0, sorted by procs, distinct procs). Returns
/// false with `error` when no point is usable.
bool FitRuntimeModel(const std::vector<std::pair<int, double>>& points,
                     const RuntimeModelOptions& options, RuntimeModel* model, std::string* error);

/// Relative non-negative least squares of `terms` to the points; false when singular.
bool FitTermsRelative(const std::vector<ScalingTerm>& terms, const std::vector<double>& procs,
                      const std::vector<double>& values, int count, ScalingModel* model);

}  // namespace qnm
