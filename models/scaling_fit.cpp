#include "models/scaling_fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace qnm {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string FormatNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

/// Least squares on the first `rows` rows of the columns in `support` (bit mask); false when singular.
bool SolveSupport(const std::vector<std::vector<double>>& columns, const std::vector<double>& rhs, int rows,
                  unsigned support, std::vector<double>* coefficients, double* residual) {
  std::vector<int> used;
  for (int c = 0; c < static_cast<int>(columns.size()); ++c)
    if (support & (1u << c)) used.push_back(c);
  coefficients->assign(columns.size(), 0.0);
  Eigen::VectorXd b = Eigen::Map<const Eigen::VectorXd>(rhs.data(), rows);
  if (used.empty()) {
    *residual = b.norm();
    return true;
  }
  if (static_cast<int>(used.size()) > rows) return false;
  Eigen::MatrixXd a(rows, used.size());
  for (int k = 0; k < static_cast<int>(used.size()); ++k)
    for (int r = 0; r < rows; ++r) a(r, k) = columns[used[k]][r];
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
  if (qr.rank() < static_cast<int>(used.size())) return false;
  Eigen::VectorXd x = qr.solve(b);
  for (int k = 0; k < static_cast<int>(used.size()); ++k) {
    if (!std::isfinite(x(k))) return false;
    (*coefficients)[used[k]] = x(k);
  }
  *residual = (a * x - b).norm();
  return true;
}

struct Point {
  double procs, value, scale;
};

/// Fits `terms` to `points` (weighted by 1/scale); false when the full support is not usable
/// (singular, or positivity forces a coefficient to zero in the full fit when `require_full`).
bool FitTerms(const std::vector<ScalingTerm>& terms, const std::vector<Point>& points,
              bool nonnegative, bool require_full, std::vector<double>* coefficients) {
  std::vector<std::vector<double>> columns(terms.size(), std::vector<double>(points.size()));
  std::vector<double> rhs(points.size());
  for (std::size_t r = 0; r < points.size(); ++r) {
    rhs[r] = points[r].value / points[r].scale;
    for (std::size_t c = 0; c < terms.size(); ++c)
      columns[c][r] = terms[c].Evaluate(points[r].procs) / points[r].scale;
  }
  double residual = SmallNonnegativeLeastSquares(columns, rhs, nonnegative, coefficients);
  if (!std::isfinite(residual)) return false;
  if (require_full)
    for (double c : *coefficients)
      if (!(c > 0)) return false;
  return true;
}

double Evaluate(const std::vector<ScalingTerm>& terms, const std::vector<double>& coefficients,
                double procs) {
  double sum = 0.0;
  for (std::size_t k = 0; k < terms.size(); ++k) sum += coefficients[k] * terms[k].Evaluate(procs);
  return sum;
}

struct Candidate {
  std::vector<ScalingTerm> terms;
  std::vector<double> coefficients;
  std::vector<double> loo;
  double cv = kNaN, fit = kNaN;
  int free_terms = 0;
};

}  // namespace

double ScalingTerm::Evaluate(double procs) const {
  // In nodes: ceil(P / ranks per node), 1 for every P on one node.
  const double x = ranks_per_node > 0 ? std::ceil(procs / ranks_per_node - 1e-9) : procs;
  double value = p_exponent == 0.0 ? 1.0 : std::pow(x, p_exponent);
  if (log_exponent != 0) {
    const double log2x = log2_cap > 0 ? std::min(std::log2(x), log2_cap) : std::log2(x);
    value *= std::pow(log2x, log_exponent);
  }
  return subtracted ? -value : value;
}

std::string ScalingTerm::ToString() const {
  const std::string x = ranks_per_node > 0 ? "nodes" : "P";
  std::string out;
  if (p_exponent != 0.0) out = p_exponent == 1.0 ? x : x + "^" + FormatNumber(p_exponent);
  if (log_exponent != 0) {
    if (!out.empty()) out += "*";
    const std::string log2x =
        log2_cap > 0 ? "min(log2(" + x + "), " + FormatNumber(log2_cap) + ")" : "log2(" + x + ")";
    out += log_exponent == 1 ? log2x : log2x + "^" + std::to_string(log_exponent);
  }
  if (out.empty()) out = "1";
  return subtracted ? "-" + out : out;
}

bool ScalingTerm::operator==(const ScalingTerm& other) const {
  return p_exponent == other.p_exponent && log_exponent == other.log_exponent &&
         ranks_per_node == other.ranks_per_node && log2_cap == other.log2_cap &&
         subtracted == other.subtracted;
}

double ScalingModel::Evaluate(double procs) const {
  return ::qnm::Evaluate(terms, coefficients, procs);
}

std::string ScalingModel::Formula(bool nonzero_only) const {
  std::string out;
  for (std::size_t k = 0; k < terms.size(); ++k) {
    if (nonzero_only && !(coefficients[k] > 0)) continue;
    const bool minus = terms[k].subtracted;
    out += out.empty() ? (minus ? "-" : "") : (minus ? " - " : " + ");
    std::string term = terms[k].ToString().substr(minus ? 1 : 0);
    out += FormatNumber(coefficients[k]);
    if (term != "1") out += "*" + term;
  }
  return out.empty() ? "0" : out;
}

bool ScalingFitOptions::IsValid(std::string* error) const {
  if (p_exponents.empty() || log_exponents.empty()) {
    *error = "no candidate terms";
    return false;
  }
  if (max_terms < 0 || max_terms + static_cast<int>(required_terms.size()) > 6) {
    *error = "max_terms must be in 0..6 (including required terms)";
    return false;
  }
  if (max_terms == 0 && required_terms.empty()) {
    *error = "a model needs at least one term";
    return false;
  }
  for (int j : log_exponents)
    if (j < 0) {
      *error = "log exponents must be >= 0";
      return false;
    }
  if (!(zero_floor_fraction > 0 && zero_floor_fraction <= 1)) {
    *error = "zero_floor_fraction must be in (0, 1]";
    return false;
  }
  if (!(more_terms_gain > 0 && more_terms_gain <= 1)) {
    *error = "more_terms_gain must be in (0, 1]";
    return false;
  }
  return true;
}

std::string ScalingFitSummary::BriefReport() const {
  return selection + "; " + std::to_string(points) + " points, " + std::to_string(candidates) +
         " candidates, leave-one-out RMS relative error " + FormatNumber(cv_rms_relative);
}

double SmallNonnegativeLeastSquares(const std::vector<std::vector<double>>& columns,
                                    const std::vector<double>& rhs, bool nonnegative,
                                    std::vector<double>* coefficients) {
  return SmallNonnegativeLeastSquares(columns, rhs, static_cast<int>(rhs.size()), nonnegative, coefficients);
}

double SmallNonnegativeLeastSquares(const std::vector<std::vector<double>>& columns,
                                    const std::vector<double>& rhs, int rows, bool nonnegative,
                                    std::vector<double>* coefficients) {
  unsigned n = static_cast<unsigned>(columns.size());
  unsigned full = (1u << n) - 1;
  double best = std::numeric_limits<double>::infinity();
  std::vector<double> trial;
  if (!nonnegative) {
    double residual = kNaN;
    if (SolveSupport(columns, rhs, rows, full, coefficients, &residual)) return residual;
    return kNaN;
  }
  // The NNLS optimum is the unconstrained optimum on some support where every
  // coefficient is >= 0; with <= 6 columns all supports can be tried.
  for (unsigned support = 0; support <= full; ++support) {
    double residual = kNaN;
    if (!SolveSupport(columns, rhs, rows, support, &trial, &residual)) continue;
    bool feasible = std::all_of(trial.begin(), trial.end(), [](double c) { return c >= 0; });
    // A support must reduce the residual clearly to replace the one found first.
    if (feasible && (!std::isfinite(best) || residual < best - 1e-12 * std::max(1.0, best))) {
      best = residual;
      *coefficients = trial;
    }
  }
  return std::isfinite(best) ? best : kNaN;
}

bool FitScaling(const std::vector<double>& procs, const std::vector<double>& values,
                const ScalingFitOptions& options, ScalingFit* fit, std::string* error) {
  if (!options.IsValid(error)) return false;
  if (procs.size() != values.size()) {
    *error = "procs and values differ in length";
    return false;
  }
  std::vector<Point> points;
  double max_abs = 0.0;
  for (std::size_t k = 0; k < procs.size(); ++k) {
    if (!std::isfinite(values[k]) || !(procs[k] >= 1)) continue;
    points.push_back({procs[k], values[k], 0.0});
    max_abs = std::max(max_abs, std::fabs(values[k]));
  }
  if (points.empty()) {
    *error = "no usable points";
    return false;
  }
  *fit = ScalingFit();
  fit->summary.points = static_cast<int>(points.size());
  if (max_abs == 0.0) {  // identically zero: the zero model, exactly
    fit->model.terms = {ScalingTerm{0.0, 0}};
    fit->model.coefficients = {0.0};
    fit->loo_relative_errors.assign(points.size(), 0.0);
    fit->summary.selection = "all values are zero";
    return true;
  }
  for (Point& point : points)
    point.scale = std::max(std::fabs(point.value), options.zero_floor_fraction * max_abs);

  // Candidate models: required terms plus 0..max_terms free terms.
  std::vector<ScalingTerm> pool;
  for (double i : options.p_exponents)
    for (int j : options.log_exponents) {
      ScalingTerm term{i, j};
      if (std::find(options.required_terms.begin(), options.required_terms.end(), term) ==
          options.required_terms.end())
        pool.push_back(term);
    }
  std::vector<std::vector<ScalingTerm>> term_sets;
  int n_points = static_cast<int>(points.size());
  auto add_set = [&](std::vector<ScalingTerm> free) {
    std::vector<ScalingTerm> terms = options.required_terms;
    terms.insert(terms.end(), free.begin(), free.end());
    // With one point fewer (leave-one-out) the fit must still be determined,
    // and a single point only supports a constant.
    int needed = static_cast<int>(terms.size()) + (n_points > 1 ? 1 : 0);
    if (!terms.empty() && needed <= std::max(1, n_points)) term_sets.push_back(terms);
  };
  if (!options.required_terms.empty()) add_set({});
  if (n_points == 1 && options.required_terms.empty()) add_set({ScalingTerm{0.0, 0}});
  for (std::size_t a = 0; a < pool.size() && n_points > 1; ++a) {
    if (options.max_terms >= 1) add_set({pool[a]});
    for (std::size_t b = a + 1; b < pool.size() && options.max_terms >= 2; ++b) {
      add_set({pool[a], pool[b]});
      for (std::size_t c = b + 1; c < pool.size() && options.max_terms >= 3; ++c)
        add_set({pool[a], pool[b], pool[c]});
    }
  }
  if (term_sets.empty()) {  // e.g. required terms need more points than we have
    term_sets.push_back(options.required_terms.empty() ? std::vector<ScalingTerm>{ScalingTerm{0, 0}}
                                                       : options.required_terms);
  }

  std::vector<Candidate> candidates;
  for (const std::vector<ScalingTerm>& terms : term_sets) {
    Candidate candidate;
    candidate.terms = terms;
    candidate.free_terms = static_cast<int>(terms.size() - options.required_terms.size());
    bool require_full = candidate.free_terms > 0 || term_sets.size() > 1;
    if (!FitTerms(terms, points, options.nonnegative, require_full, &candidate.coefficients))
      continue;
    double fit_sum = 0.0, cv_sum = 0.0;
    int cv_count = 0;
    candidate.loo.assign(points.size(), kNaN);
    for (std::size_t k = 0; k < points.size(); ++k) {
      double residual = (Evaluate(terms, candidate.coefficients, points[k].procs) - points[k].value) /
                        points[k].scale;
      fit_sum += residual * residual;
      if (points.size() < 2) continue;
      std::vector<Point> rest = points;
      rest.erase(rest.begin() + static_cast<long>(k));
      std::vector<double> coefficients;
      if (!FitTerms(terms, rest, options.nonnegative, false, &coefficients)) continue;
      double loo = (Evaluate(terms, coefficients, points[k].procs) - points[k].value) /
                   points[k].scale;
      candidate.loo[k] = loo;
      cv_sum += loo * loo;
      ++cv_count;
    }
    candidate.fit = std::sqrt(fit_sum / static_cast<double>(points.size()));
    candidate.cv = cv_count > 0 && cv_count == static_cast<int>(points.size())
                       ? std::sqrt(cv_sum / cv_count)
                       : (points.size() < 2 ? candidate.fit : kNaN);
    if (std::isfinite(candidate.cv)) candidates.push_back(std::move(candidate));
  }
  fit->summary.candidates = static_cast<int>(term_sets.size());
  if (candidates.empty()) {
    *error = "no candidate model could be fitted to " + std::to_string(points.size()) + " points";
    return false;
  }

  // Best model per number of free terms, then parsimony: more terms only for a clear gain.
  std::vector<const Candidate*> best_by_size(8, nullptr);
  for (const Candidate& candidate : candidates) {
    const Candidate*& best = best_by_size[candidate.free_terms];
    if (!best || candidate.cv < best->cv - 1e-12 ||
        (std::fabs(candidate.cv - best->cv) <= 1e-12 && candidate.fit < best->fit))
      best = &candidate;
  }
  const Candidate* chosen = nullptr;
  for (const Candidate* best : best_by_size) {
    if (!best) continue;
    if (!chosen || best->cv < options.more_terms_gain * chosen->cv) chosen = best;
  }
  fit->model.terms = chosen->terms;
  fit->model.coefficients = chosen->coefficients;
  fit->loo_relative_errors = chosen->loo;
  fit->summary.cv_rms_relative = chosen->cv;
  fit->summary.fit_rms_relative = chosen->fit;
  fit->summary.selection = "chose " + fit->model.Formula() + " by leave-one-out cross-validation";
  return true;
}

}  // namespace qnm
