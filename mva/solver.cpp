// Solve(): validation, algorithm choice, derived results (U, R) and the Summary.
#include "mva/solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "mva/algorithms.h"
#include "mva/approximate_mva.h"

namespace qnm::mva {

const char* ToString(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::kAuto: return "auto";
    case Algorithm::kExact: return "exact";
    case Algorithm::kSchweitzer: return "schweitzer";
    case Algorithm::kLinearizer: return "linearizer";
  }
  return "unknown";
}

bool ParseAlgorithm(const std::string& text, Algorithm* algorithm) {
  if (text == "auto") *algorithm = Algorithm::kAuto;
  else if (text == "exact") *algorithm = Algorithm::kExact;
  else if (text == "schweitzer") *algorithm = Algorithm::kSchweitzer;
  else if (text == "linearizer") *algorithm = Algorithm::kLinearizer;
  else return false;
  return true;
}

bool Options::IsValid(std::string* error) const {
  // Queue lengths change by less than 0.1 per iteration long before they are
  // right: a tolerance of 1e6 stopped Schweitzer after one step, 5x off (issue 19).
  if (!(tolerance > 0) || !(tolerance < kMaxTolerance)) {
    if (error) *error = "tolerance must be > 0 and < 0.1 (a change in queue length per iteration)";
    return false;
  }
  if (max_iterations < 1) {
    if (error) *error = "max_iterations must be >= 1";
    return false;
  }
  if (!(max_lattice_points >= 1)) {
    if (error) *error = "max_lattice_points must be >= 1";
    return false;
  }
  if (!(max_exact_steps >= 1)) {
    if (error) *error = "max_exact_steps must be >= 1";
    return false;
  }
  return true;
}

std::string Summary::BriefReport() const {
  char text[256];
  std::snprintf(text, sizeof text, "MVA %s: %s, %d %s, %.3g s", ToString(algorithm_used),
                converged ? "converged" : "NOT converged", iterations,
                algorithm_used == Algorithm::kExact ? "population steps" : "iterations",
                solve_time_s);
  return text;
}

std::string Summary::FullReport() const {
  char text[512];
  std::snprintf(text, sizeof text,
                "Algorithm:     %s\nConverged:     %s\nIterations:    %d\nFinal |dQ|:    %.3g\n"
                "Time:          %.6f s\nMessage:       %s\n",
                ToString(algorithm_used), converged ? "yes" : "no", iterations, final_change,
                solve_time_s, message.c_str());
  return text;
}

namespace {

/// Sizes and clears `result`, reusing its memory (a repeated solve allocates nothing).
void SizeResult(const Network& network, Result* result) {
  const size_t C = network.classes.size(), K = network.stations.size();
  result->X.assign(C, 0.0);
  result->R.assign(C, 0.0);
  for (auto* matrix : {&result->Q, &result->Rk, &result->U}) {
    matrix->resize(K);
    for (std::vector<double>& row : *matrix) row.assign(C, 0.0);
  }
  result->Ubusy.assign(K, std::numeric_limits<double>::quiet_NaN());
  Summary& summary = result->summary;
  summary.algorithm_used = Algorithm::kExact;
  summary.iterations = 0;
  summary.converged = true;
  summary.final_change = 0.0;
  summary.solve_time_s = 0.0;
  summary.message.clear();
}

/// Elementary steps exact MVA would take (see Options::max_exact_steps).
double ExactSteps(const Network& network) {
  const double lattice = LatticePoints(network);
  const double population = static_cast<double>(network.TotalPopulation());
  double classes = 0.0, steps = 0.0, replicas = 0.0, ld_stations = 0.0, variants = 1.0;
  for (const CustomerClass& c : network.classes) classes += c.population > 0 ? 1.0 : 0.0;
  for (const Station& s : network.stations)
    if (HasLoadDependence(s)) {
      ld_stations += 1.0;
      replicas += static_cast<double>(s.count);
      variants *= static_cast<double>(s.count) + 1.0;
    }
  steps = lattice * std::max(1.0, classes) * static_cast<double>(network.stations.size());
  if (network.classes.size() == 1) return steps + ld_stations * replicas * population * population / 2;
  return steps * std::min(variants, 64.0) + lattice * population * ld_stations * 2 * classes * std::min(variants, 64.0);
}

Algorithm Choose(const Network& network, const Options& options) {
  if (options.algorithm != Algorithm::kAuto) return options.algorithm;
  const bool lattice_ok = network.classes.size() == 1 || LatticePoints(network) <= options.max_lattice_points;
  if (lattice_ok && ExactSteps(network) <= options.max_exact_steps) return Algorithm::kExact;
  return Algorithm::kSchweitzer;
}

bool RunAlgorithm(const Network& network, const Options& options, Algorithm algorithm,
                  Workspace* workspace, Result* result, std::string* error) {
  switch (algorithm) {
    case Algorithm::kSchweitzer: return SolveSchweitzer(network, options, result, error);
    case Algorithm::kLinearizer: return SolveLinearizer(network, options, result, error);
    case Algorithm::kAuto:
    case Algorithm::kExact: break;
  }
  const double steps = ExactSteps(network);
  if (steps > options.max_exact_steps &&
      (network.classes.size() == 1 || LatticePoints(network) <= options.max_lattice_points)) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "exact MVA would take about %.3g steps, above max_exact_steps = %.3g; use "
                  "mva::Options::algorithm = schweitzer (approximate)",
                  steps, options.max_exact_steps);
    *error = text;
    return false;
  }
  if (network.classes.size() > 1) return SolveExactMultiClass(network, options, workspace, result, error);
  bool load_dependent = false;
  for (const Station& s : network.stations) load_dependent |= HasLoadDependence(s);
  if (load_dependent) SolveExactSingleClassLoadDependent(network, result);
  else SolveExactSingleClass(network, workspace, result);
  return true;
}

}  // namespace

bool Solve(const Network& network, const Options& options, Result* result, std::string* error,
           Workspace* workspace) {
  std::string why;
  if (!options.IsValid(&why)) {
    *error = "invalid MVA options: " + why;
    return false;
  }
  if (!network.IsValid(&why)) {
    *error = "invalid network: " + why;
    return false;
  }
  const auto start = std::chrono::steady_clock::now();
  Workspace local;
  if (workspace == nullptr) workspace = &local;
  SizeResult(network, result);
  const Algorithm algorithm = Choose(network, options);
  result->summary.algorithm_used = algorithm;
  if (!RunAlgorithm(network, options, algorithm, workspace, result, error)) return false;

  for (size_t k = 0; k < network.stations.size(); ++k) {
    const Station& s = network.stations[k];
    for (size_t c = 0; c < network.classes.size(); ++c) {
      result->U[k][c] = result->X[c] * s.demand_s[c];
      result->R[c] += static_cast<double>(s.count) * result->Rk[k][c];
    }
    if (s.IsLoadDependent() && std::isnan(result->Ubusy[k]) && !HasLoadDependence(s))
      result->Ubusy[k] = 0.0;
  }
  Summary& summary = result->summary;
  if (summary.message.empty()) {
    if (algorithm == Algorithm::kExact)
      summary.message = network.classes.size() == 1
                            ? "exact single-class MVA over the population 0..N"
                            : "exact multi-class MVA over the population lattice";
    else
      summary.message = "converged: max |dQ| below the tolerance";
  }
  if (algorithm != Algorithm::kExact)
    for (const Station& s : network.stations)
      if (ImpliedServers(s) > 1) {
        summary.message += "; Ubusy of multi-server stations is estimated (M/M/m, Erlang's P(0) at the "
                           "load sum X_c D_kc), not computed";
        break;
      }
  if (options.algorithm == Algorithm::kAuto && algorithm != Algorithm::kExact)
    summary.message = "auto chose Schweitzer (exact MVA would exceed max_lattice_points or "
                      "max_exact_steps); " + summary.message;
  summary.solve_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return true;
}

}  // namespace qnm::mva
