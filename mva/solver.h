#pragma once
// Mean Value Analysis of closed queueing networks (Options / Result-with-Summary).
#include <string>
#include <vector>

#include "mva/network.h"
#include "mva/workspace.h"

namespace qnm::mva {

/// Approximate algorithms' tolerances are refused from here on (Options::IsValid).
inline constexpr double kMaxTolerance = 0.1;

enum class Algorithm {
  kAuto,        // exact when the population lattice is small enough, else Schweitzer
  kExact,       // exact MVA (single class; multi-class over the population lattice)
  kSchweitzer,  // Schweitzer-Bard approximate MVA (QSP 7.4.2.2)
  kLinearizer,  // Chandy-Neuse Linearizer (approximate, more accurate than Schweitzer)
};
const char* ToString(Algorithm algorithm);
/// Parses "auto" | "exact" | "schweitzer" | "linearizer"; false if unknown.
bool ParseAlgorithm(const std::string& text, Algorithm* algorithm);

struct Options {
  // kAuto: exact unless a bound below is exceeded, then Schweitzer.
  Algorithm algorithm = Algorithm::kAuto;
  // Approximate algorithms stop when max |Q(i) - Q(i-1)| < tolerance.
  double tolerance = 1e-10;  // valid: 0 < tolerance < kMaxTolerance
  // Approximate algorithms give up (converged = false) after this many iterations.
  int max_iterations = 100000;
  // Exact multi-class MVA refuses networks whose population lattice prod(N_c+1)
  // exceeds this many points (time ~ lattice x classes x stations; memory only
  // two layers of the lattice, so time is the limit).
  double max_lattice_points = 2e7;
  // Exact MVA refuses networks needing more elementary steps than this (about
  // N x stations single-class, + N^2 per load-dependent station; lattice x classes
  // x stations multi-class): 2e10 is roughly half a minute. Guards against hangs.
  double max_exact_steps = 2e10;

  bool IsValid(std::string* error) const;
};

struct Summary {
  Algorithm algorithm_used = Algorithm::kExact;
  int iterations = 0;          // fixed-point iterations (approximate) or population steps (exact)
  bool converged = true;
  double final_change = 0.0;   // last max |dQ| (approximate algorithms)
  double solve_time_s = 0.0;
  std::string message;         // why it stopped, or why it failed

  std::string BriefReport() const;
  std::string FullReport() const;
};

/// Indices: [station][class] for per-station values, [class] for per-class values.
/// Replicated stations (count K) report the values of ONE replica. Classes with
/// zero population have X = Q = U = 0 and the residence times one arriving
/// customer of that class would see (arrival theorem).
struct Result {
  std::vector<double> X;                 // system throughput per class
  std::vector<double> R;                 // response time per class, excluding think time
  std::vector<std::vector<double>> Q;    // mean queue length
  std::vector<std::vector<double>> Rk;   // residence time per interaction
  std::vector<std::vector<double>> U;    // X_c * D_kc (busy servers at base rate)
  std::vector<double> Ubusy;             // 1 - P(n_k = 0) for load-dependent/multi-server, else NaN
                                         // (also NaN from the approximate algorithms)
  Summary summary;
};

/// Solves `network`. Returns false and fills `error` when the network or the
/// options are invalid or the algorithm refuses (e.g. lattice too large).
/// `workspace` (optional) is scratch memory kept between calls: repeated exact
/// solves with the same workspace and result allocate nothing.
bool Solve(const Network& network, const Options& options, Result* result, std::string* error,
           Workspace* workspace = nullptr);

}  // namespace qnm::mva
