#include "models/runtime_model.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "record/run_stats.h"
#include "util/text_format.h"

namespace qnm {
namespace {

bool IsAmdahl(const std::vector<ScalingTerm>& terms) {
  return terms.size() == 2 && terms[0] == ScalingTerm{0, 0} && terms[1] == ScalingTerm{-1, 0};
}

double InSampleLogRms(const ScalingModel& model, const std::vector<double>& procs,
                      const std::vector<double>& values) {
  double sum = 0;
  for (std::size_t k = 0; k < procs.size(); ++k) {
    double v = model.Evaluate(procs[k]);
    double e = v > 0 ? std::log(v / values[k]) : kFailedLogError;
    sum += e * e;
  }
  return procs.empty() ? kUnknown : std::sqrt(sum / static_cast<double>(procs.size()));
}

}  // namespace

std::string CandidateName(const std::vector<ScalingTerm>& terms) {
  std::string out;
  for (const ScalingTerm& t : terms) {
    std::string term = t.ToString();
    if (out.empty()) out = term;
    else if (t.subtracted) out += " - " + term.substr(1);  // "P^-1 - P^-2", not "P^-1 + -P^-2"
    else out += " + " + term;
  }
  return out;
}

std::vector<std::vector<ScalingTerm>> DefaultRuntimeCandidates() {
  const ScalingTerm one{0, 0}, inverse{-1, 0}, log2p{0, 1};
  std::vector<std::vector<ScalingTerm>> c = {
      {one, inverse},                       // Amdahl
      {ScalingTerm{-0.5, 0}}, {ScalingTerm{-0.75, 0}}, {inverse},  // pure power laws
      {one, ScalingTerm{-0.5, 0}}, {one, ScalingTerm{-1.5, 0}},    // serial + power
      {one, inverse, log2p},                // Amdahl + overheads that grow
      {one, inverse, ScalingTerm{0.5, 0}},
      {one, inverse, ScalingTerm{1, 0}},
      {one, inverse, ScalingTerm{2, 0}},
      {inverse, log2p}, {inverse, ScalingTerm{0.5, 0}}, {inverse, ScalingTerm{1, 0}},
      {ScalingTerm{-0.5, 0}, log2p},
      {one, ScalingTerm{-0.5, 0}, log2p},
  };
  return c;
}

bool RuntimeModelOptions::IsValid(std::string* error) const {
  if (!(weight_temperature > 0)) {
    *error = "runtime model weight_temperature must be > 0";
    return false;
  }
  if (!(more_terms_gain > 0 && more_terms_gain <= 1)) {
    *error = "runtime model more_terms_gain must be in (0, 1]";
    return false;
  }
  if (std::isnan(saturating_cost_max_edge_slope)) {
    *error = "runtime model saturating_cost_max_edge_slope must be a number (infinity: always)";
    return false;
  }
  if (!(cost_law_share >= 0 && cost_law_share <= 1)) {
    *error = "runtime model cost_law_share must be in [0, 1]";
    return false;
  }
  if (min_forward_errors < 1) {
    *error = "runtime model min_forward_errors must be >= 1";
    return false;
  }
  return forward.IsValid(error) && this->error.IsValid(error);
}

double RuntimeModel::Evaluate(double procs) const {
  double log_sum = 0, weight = 0;
  for (const RuntimeCurve& m : members) {
    double v = m.model.Evaluate(procs);
    if (!(v > 0) || !std::isfinite(v)) continue;
    log_sum += m.weight * std::log(v);
    weight += m.weight;
  }
  return weight > 0 ? std::exp(log_sum / weight) : kUnknown;
}

std::string RuntimeModel::Formula() const {
  if (members.empty()) return "none";
  // The best member without its zero terms; the others are named by count only.
  std::string out = members.front().model.Formula(true);
  // The curve drawn and evaluated is the weighted average, not the best member.
  if (members.size() > 1)
    out = "average of " + std::to_string(members.size()) + " curves; best " + out + " (weight " +
          FormatDouble("%.2f", members.front().weight) + ")";
  return out;
}

namespace {

/// A candidate scored by forward validation.
struct Scored {
  RuntimeCurve curve;
  std::vector<ForwardError> errors;
  bool errors_dropped = false;  // beyond kKeptForwardErrors: computed again when weighed
  bool amdahl = false;
};

// The candidates' forward errors are kept for weighing up to this many (64 MB): a series of a
// million process counts has ~2 million per candidate, and keeping them all took ~0.5 GB
// (issue 19). Beyond, a candidate's errors are computed again when it is weighed (the same
// fits, so the same numbers).
constexpr std::size_t kKeptForwardErrors = std::size_t{1} << 22;

/// A candidate's terms at every point, and divided by the measured values (the columns of the
/// relative least squares), computed once and shared by its fit on all points, every forward
/// origin's fit on a prefix and that fit's predictions: the values ScalingModel::Evaluate
/// computes per point, so the same numbers, without a pow per term, point and fit (issue 19:
/// most of the fits' time at 100,000 points). FitTermsRelative fits from them too.
struct CandidateColumns {
  std::vector<std::vector<double>> terms_at;  // terms[c].Evaluate(procs[r])
  std::vector<std::vector<double>> relative;  // terms_at[c][r] / values[r]
  std::vector<double> ones;                   // the right-hand side
};

CandidateColumns ColumnsOf(const std::vector<ScalingTerm>& terms, const std::vector<double>& procs,
                           const std::vector<double>& values) {
  const std::size_t n = procs.size();
  CandidateColumns c;
  c.terms_at.assign(terms.size(), std::vector<double>(n));
  c.relative.assign(terms.size(), std::vector<double>(n));
  c.ones.assign(n, 1.0);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t t = 0; t < terms.size(); ++t) {
      c.terms_at[t][r] = terms[t].Evaluate(procs[r]);
      c.relative[t][r] = c.terms_at[t][r] / values[r];
    }
  return c;
}

/// Relative NNLS of the terms on the first `count` points, from the candidate's columns.
bool FitColumns(const std::vector<ScalingTerm>& terms, const CandidateColumns& columns, int count,
                ScalingModel* model) {
  std::vector<double> coefficients;
  double residual = SmallNonnegativeLeastSquares(columns.relative, columns.ones, count, true, &coefficients);
  if (!std::isfinite(residual)) return false;
  model->terms = terms;
  model->coefficients = coefficients;
  return true;
}

/// ScalingModel::Evaluate at the point of index `k` (the same sum in the same order).
double EvaluateAt(const std::vector<double>& coefficients, const CandidateColumns& columns, int k) {
  double sum = 0.0;
  for (std::size_t t = 0; t < coefficients.size(); ++t) sum += coefficients[t] * columns.terms_at[t][k];
  return sum;
}

std::vector<ForwardError> ForwardErrorsOf(const std::vector<ScalingTerm>& terms, const CandidateColumns& columns,
                                          const std::vector<double>& procs, const std::vector<double>& values,
                                          const RuntimeModelOptions& options) {
  ForwardValidationOptions forward = options.forward;
  forward.first_origin = std::max(forward.first_origin, static_cast<int>(terms.size()));
  std::size_t expected = 0;
  for (int count : ForwardOrigins(procs, forward)) expected += procs.size() - count;
  return RollingOriginErrorsAt(
      procs, values, forward,
      [&](int count) -> IndexPredictor {
        ScalingModel prefix;
        if (!FitColumns(terms, columns, count, &prefix)) return {};
        return [coefficients = std::move(prefix.coefficients), &columns](int k) {
          return EvaluateAt(coefficients, columns, k);
        };
      },
      expected);
}

/// One family of candidates fitted and weighted (weights summing to 1); `evidence` tells whether
/// forward validation weighted them (false: too few forward errors, Amdahl alone if it fitted).
/// `kept_errors` counts the forward errors kept so far (kKeptForwardErrors).
std::vector<Scored> ScoreFamily(const std::vector<std::vector<ScalingTerm>>& candidates,
                                const std::vector<double>& procs, const std::vector<double>& values,
                                const RuntimeModelOptions& options, std::size_t* kept_errors, bool* evidence) {
  const int n = static_cast<int>(procs.size());
  std::vector<Scored> scored;
  for (const std::vector<ScalingTerm>& terms : candidates) {
    int parameters = static_cast<int>(terms.size());
    if (parameters > n && !(n == 1 && terms.size() == 1)) continue;
    Scored s;
    s.amdahl = IsAmdahl(terms);
    s.curve.name = CandidateName(terms);
    const CandidateColumns columns = ColumnsOf(terms, procs, values);
    if (!FitColumns(terms, columns, n, &s.curve.model)) continue;
    s.errors = ForwardErrorsOf(terms, columns, procs, values, options);
    s.curve.forward_errors = static_cast<int>(s.errors.size());
    s.curve.forward_log_rms = RmsLogError(s.errors);
    if (s.curve.forward_errors < options.min_forward_errors && !s.amdahl) continue;
    *kept_errors += s.errors.size();
    if (*kept_errors > kKeptForwardErrors) {
      *kept_errors -= s.errors.size();
      std::vector<ForwardError>().swap(s.errors);  // `= {}` would keep the capacity (~32 MB at a million P)
      s.errors_dropped = true;
    }
    scored.push_back(std::move(s));
  }
  // Thin evidence: Amdahl alone (or the only candidate that could be fitted).
  *evidence = std::any_of(scored.begin(), scored.end(), [&](const Scored& s) {
    return s.curve.forward_errors >= options.min_forward_errors;
  });
  if (!*evidence) {
    auto amdahl = std::find_if(scored.begin(), scored.end(), [](const Scored& s) { return s.amdahl; });
    std::vector<Scored> only;
    if (amdahl != scored.end()) only.push_back(std::move(*amdahl));
    scored = std::move(only);
  } else {
    scored.erase(std::remove_if(scored.begin(), scored.end(),
                                [&](const Scored& s) {
                                  return s.curve.forward_errors < options.min_forward_errors;
                                }),
                 scored.end());
  }
  if (scored.empty()) return scored;
  if (*evidence && options.more_terms_gain < 1) {
    // Occam's window: drop a candidate not clearly better than one whose terms it extends.
    auto extends = [](const std::vector<ScalingTerm>& big, const std::vector<ScalingTerm>& small) {
      if (small.size() >= big.size()) return false;
      for (const ScalingTerm& t : small)
        if (std::find(big.begin(), big.end(), t) == big.end()) return false;
      return true;
    };
    std::vector<bool> keep(scored.size(), true);
    for (std::size_t a = 0; a < scored.size(); ++a)
      for (std::size_t b = 0; b < scored.size(); ++b)
        if (a != b && extends(scored[a].curve.model.terms, scored[b].curve.model.terms) &&
            !(scored[a].curve.forward_log_rms < options.more_terms_gain * scored[b].curve.forward_log_rms))
          keep[a] = false;
    std::vector<Scored> kept;
    for (std::size_t a = 0; a < scored.size(); ++a)
      if (keep[a]) kept.push_back(std::move(scored[a]));
    scored = std::move(kept);
  }
  std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    return a.curve.forward_log_rms < b.curve.forward_log_rms;
  });
  double best = scored.front().curve.forward_log_rms;
  double scale = std::max(best, 0.01) * options.weight_temperature;
  // With a corpus prior, a candidate's weight is prior x forward likelihood (Hoeting et al.
  // 1999, eq. 1); a candidate the prior gives no weight drops out.
  const bool use_prior = options.prior.known && *evidence;
  double total = 0;
  for (Scored& s : scored) {
    s.curve.weight = *evidence ? std::exp(-(s.curve.forward_log_rms - best) / scale) : 1.0;
    if (use_prior) s.curve.weight *= options.prior.WeightOf(s.curve.name);
    total += s.curve.weight;
  }
  if (!(total > 0)) {  // the prior excludes every candidate that could be scored: uniform
    total = 0;
    for (Scored& s : scored) total += (s.curve.weight = std::exp(-(s.curve.forward_log_rms - best) / scale));
  }
  for (Scored& s : scored) s.curve.weight /= total;
  return scored;
}

}  // namespace

bool FitTermsRelative(const std::vector<ScalingTerm>& terms, const std::vector<double>& procs,
                      const std::vector<double>& values, int count, ScalingModel* model) {
  return FitColumns(terms, ColumnsOf(terms, procs, values), count, model);
}

std::vector<std::vector<ScalingTerm>> CostLawCandidates() {
  // Extra-P's single-parameter hypotheses c0 + c1 * p^i * log2(p)^j (Calotoiu et al. 2013, §3;
  // the performance model normal form) fitted to the cost T * P, as Extra-P advises for strong
  // scaling; in time: c0 / P + c1 * P^(i-1) * log2(P)^j.
  const double exponents[] = {0, 0.25, 1.0 / 3, 0.5, 2.0 / 3, 0.75, 1, 1.25, 4.0 / 3, 1.5};
  std::vector<std::vector<ScalingTerm>> c;
  const ScalingTerm inverse{-1, 0};
  for (double i : exponents)
    for (int j = 0; j <= 2; ++j) {
      if (i == 0 && j == 0) continue;  // c0 / P alone: perfect scaling, the inverse term below
      c.push_back({inverse, ScalingTerm{i - 1, j}});
    }
  c.push_back({inverse});
  return c;
}

std::vector<std::vector<ScalingTerm>> SaturatingCostCandidates() {
  // The cost T * P = W + H (1 - 1/P): a code over-decomposed into many domains that are spread
  // over P ranks exchanges data between two neighbouring domains only when they live on
  // different ranks, which happens with probability 1 - 1/P. The overhead per rank then grows
  // with P up to a ceiling instead of without one; in time, W'/P - H/P^2 with both >= 0.
  ScalingTerm remote_share{-2, 0};
  remote_share.subtracted = true;
  return {{ScalingTerm{-1, 0}, remote_share}};
}

double EdgeSlope(const std::vector<double>& procs, const std::vector<double>& values) {
  const std::size_t n = procs.size();
  if (n < 2 || values.size() != n || !(procs[n - 1] > procs[n - 2])) return std::nan("");
  return std::log(values[n - 1] / values[n - 2]) / std::log(procs[n - 1] / procs[n - 2]);
}

bool FitRuntimeModel(const std::vector<std::pair<int, double>>& points,
                     const RuntimeModelOptions& options, RuntimeModel* model, std::string* error) {
  if (!options.IsValid(error)) return false;
  std::vector<double> procs, values;
  for (const auto& [p, t] : points)
    if (p >= 1 && t > 0 && std::isfinite(t)) {
      procs.push_back(p);
      values.push_back(t);
    }
  if (procs.empty()) {
    *error = "no process count with a positive measured time";
    return false;
  }
  int n = static_cast<int>(procs.size());
  std::vector<std::vector<ScalingTerm>> candidates =
      options.candidates.empty() ? DefaultRuntimeCandidates() : options.candidates;
  if (options.node_terms && options.ranks_per_node > 0 && options.candidates.empty()) {
    const int rpn = options.ranks_per_node;
    const ScalingTerm one{0, 0}, inverse{-1, 0}, log2_nodes{0, 1, rpn}, sqrt_nodes{0.5, 0, rpn};
    // Only where the training points see more than one node count: else the term is constant.
    std::set<double> node_counts;
    for (double p : procs) node_counts.insert(std::ceil(p / rpn - 1e-9));
    if (node_counts.size() >= 3) {
      candidates.push_back({one, inverse, log2_nodes});
      candidates.push_back({inverse, log2_nodes});
      candidates.push_back({one, inverse, sqrt_nodes});
    }
  }

  if (options.saturating_cost && options.candidates.empty() &&
      (std::isinf(options.saturating_cost_max_edge_slope) ||
       EdgeSlope(procs, values) <= options.saturating_cost_max_edge_slope))
    for (const std::vector<ScalingTerm>& terms : SaturatingCostCandidates()) candidates.push_back(terms);

  bool evidence = false;
  std::size_t kept_errors = 0;
  std::vector<Scored> scored = ScoreFamily(candidates, procs, values, options, &kept_errors, &evidence);
  if (scored.empty()) {  // one point, or nothing fits: a constant through the points
    RuntimeCurve constant;
    constant.name = "1";
    FitTermsRelative({ScalingTerm{0, 0}}, procs, values, n, &constant.model);
    constant.weight = 1.0;
    *model = RuntimeModel();
    model->members.push_back(constant);
    model->error = CalibrateExtrapolationError({}, {}, 0, InSampleLogRms(constant.model, procs, values),
                                               options.error);
    return true;
  }
  if (evidence && options.cost_law_share > 0 && options.candidates.empty()) {
    // A second family averaged beside the first with a fixed share (a combination of two
    // modelers: Clemen 1989), each weighted within itself by its forward errors.
    RuntimeModelOptions cost = options;
    cost.prior = ExtrapolationPrior();
    bool cost_evidence = false;
    std::vector<Scored> laws = ScoreFamily(CostLawCandidates(), procs, values, cost, &kept_errors, &cost_evidence);
    if (cost_evidence && !laws.empty()) {
      double share = options.cost_law_share;
      if (options.cost_law_adaptive) {
        // The two families weighed like candidates, one level up: each by the weighted RMS of its
        // members' forward errors.
        auto family_rms = [](const std::vector<Scored>& family) {
          double sum = 0;
          for (const Scored& s : family) sum += s.curve.weight * s.curve.forward_log_rms * s.curve.forward_log_rms;
          return std::sqrt(sum);
        };
        const double ours = family_rms(scored), laws_rms = family_rms(laws);
        const double best = std::min(ours, laws_rms);
        const double scale = std::max(best, 0.01) * options.weight_temperature;
        const double w_ours = (1 - share) * std::exp(-(ours - best) / scale);
        const double w_laws = share * std::exp(-(laws_rms - best) / scale);
        share = w_laws / (w_ours + w_laws);
      }
      for (Scored& s : scored) s.curve.weight *= 1 - share;
      for (Scored& s : laws) {
        s.curve.weight *= share;
        s.curve.name = "cost law: " + s.curve.name;
        scored.push_back(std::move(s));
      }
      std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
        return a.curve.forward_log_rms < b.curve.forward_log_rms;
      });
    }
  }
  const bool use_prior = options.prior.known && evidence;
  RuntimeModel out;
  ForwardErrorSums errors;  // every member's errors weighted by its weight, member by member
  int independent = 0;
  for (Scored& s : scored) {
    if (s.curve.weight < 1e-6) continue;
    if (s.errors_dropped)
      s.errors = ForwardErrorsOf(s.curve.model.terms, ColumnsOf(s.curve.model.terms, procs, values), procs, values,
                                 options);
    for (const ForwardError& e : s.errors) errors.Add(e, s.curve.weight);
    if (s.errors_dropped) std::vector<ForwardError>().swap(s.errors);
    independent = std::max(independent, s.curve.forward_errors);
    out.members.push_back(s.curve);
  }
  double in_sample = 0;
  {
    double sum = 0;
    for (int k = 0; k < n; ++k) {
      double v = out.Evaluate(procs[k]);
      double e = v > 0 ? std::log(v / values[k]) : kFailedLogError;
      sum += e * e;
    }
    in_sample = std::sqrt(sum / n);
  }
  ExtrapolationErrorOptions error_options = options.error;
  if (use_prior) error_options.prior_log_sd_per_octave = options.prior.per_octave_log_sd;
  out.corpus_prior = use_prior;
  out.error = CalibrateExtrapolationError(errors, independent, in_sample, error_options);
  *model = std::move(out);
  return true;
}

}  // namespace qnm
