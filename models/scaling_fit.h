#pragma once
// How one model input (messages per rank, bytes per message, compute time,
// ...) scales with the process count P: a sum of 1-2 terms c * P^i * log2(P)^j
// (the Extra-P performance-model normal form), chosen among candidates by
// leave-one-out cross-validation of the relative error, coefficients kept
// non-negative so the fitted curve stays non-negative for every P >= 1.
#include <string>
#include <vector>

namespace qnm {

/// One term P^p_exponent * log2(P)^log_exponent (log2(1) = 0, so log terms vanish at P = 1),
/// or the same in nodes = ceil(P / ranks_per_node) when ranks_per_node > 0: a term that is
/// constant on one node and grows once runs leave it (a regime change at the node boundary).
struct ScalingTerm {
  double p_exponent = 0.0;
  int log_exponent = 0;
  int ranks_per_node = 0;  // > 0: the term is in nodes, not in P
  // > 0: log2 is capped, min(log2(P), log2_cap): a neighbour count that grows
  // by one per doubling of P until a d-dimensional decomposition has 2d
  // neighbours (recursive bisection of a periodic grid), then stays.
  double log2_cap = 0.0;
  // true: the term is subtracted (its coefficient stays >= 0 in the fit, its value is negated),
  // so that a cost T*P can rise towards a ceiling: P^-1 - c*P^-2 (SaturatingCostCandidates).
  bool subtracted = false;
  double Evaluate(double procs) const;
  std::string ToString() const;  // "P^-1", "log2(P)", "P^0.5*log2(P)^2", "1"
  bool operator==(const ScalingTerm& other) const;
};

struct ScalingModel {
  std::vector<ScalingTerm> terms;
  std::vector<double> coefficients;  // same length as terms, all >= 0 when fitted with positivity
  double Evaluate(double procs) const;
  // "3.1e+02*P^-1 + 0.52*log2(P)"; `nonzero_only`: the terms the fit left at 0 are not written.
  std::string Formula(bool nonzero_only = false) const;
  bool Empty() const { return terms.empty(); }
};

struct ScalingFitOptions {
  // Candidate terms are every P^i*log2(P)^j with i, j from these lists.
  std::vector<double> p_exponents = {-2, -1, -0.5, 0, 0.5, 1, 2};
  std::vector<int> log_exponents = {0, 1, 2};
  // Most terms in a model (in addition to `required_terms`).
  int max_terms = 2;
  // Terms every candidate contains (e.g. P^-1 for total run time under strong scaling).
  std::vector<ScalingTerm> required_terms;
  // Coefficients >= 0 (non-negative least squares over the candidate's terms).
  bool nonnegative = true;
  // Relative errors divide by max(|y|, zero_floor_fraction * max|y|) so zero values are usable.
  double zero_floor_fraction = 0.05;
  // A model with more terms is chosen only when its cross-validation error is
  // below this fraction of the best model with fewer terms (parsimony).
  double more_terms_gain = 0.8;

  bool IsValid(std::string* error) const;
};

struct ScalingFitSummary {
  int points = 0;
  int candidates = 0;             // candidate models evaluated
  double cv_rms_relative = 0.0;   // leave-one-out RMS relative error of the chosen model
  double fit_rms_relative = 0.0;  // in-sample RMS relative error
  std::string selection;          // how the model was chosen
  std::string BriefReport() const;
};

struct ScalingFit {
  ScalingModel model;
  // Leave-one-out relative errors (predicted - measured) / scale, one per point (NaN when not computable).
  std::vector<double> loo_relative_errors;
  ScalingFitSummary summary;
};

/// Fits values(procs). Points with NaN values are ignored. Returns false with
/// `error` when no point is usable or the options are invalid.
bool FitScaling(const std::vector<double>& procs, const std::vector<double>& values,
                const ScalingFitOptions& options, ScalingFit* fit, std::string* error);

/// Non-negative weighted least squares for a handful of columns (exact, by
/// enumerating supports). Rows are already weighted. Returns the residual norm.
double SmallNonnegativeLeastSquares(const std::vector<std::vector<double>>& columns,
                                    const std::vector<double>& rhs, bool nonnegative,
                                    std::vector<double>* coefficients);
/// The same on the first `rows` rows of the columns and of `rhs` (a prefix of the points:
/// forward validation fits every origin on one set of columns).
double SmallNonnegativeLeastSquares(const std::vector<std::vector<double>>& columns,
                                    const std::vector<double>& rhs, int rows, bool nonnegative,
                                    std::vector<double>* coefficients);

}  // namespace qnm
