#pragma once
// The fixed-point core shared by the approximate multi-class algorithms
// (Schweitzer-Bard and Linearizer). At population vector n it iterates
//   R_kc = D_kc (1 + A_kc),  X_c = n_c / (Z_c + sum_k K_k R_kc),  Q_kc = X_c R_kc
// where A_kc estimates the queue an arriving class-c customer finds at station k,
//   A_kc = sum_j (n_j - [j = c]) (Q_kj / n_j + F_kjc)          (QSP eq. 7.13 / Chandy-Neuse)
// with corrections F = 0 for Schweitzer. Multi-server stations are Seidmann's
// queue with demand D/m plus a delay D(m-1)/m; A then counts the queue part only.
#include <string>
#include <vector>

#include "mva/network.h"
#include "mva/solver.h"

namespace qnm::mva {

class ApproximateMva {
 public:
  explicit ApproximateMva(const Network& network);

  /// False + error for station types the approximation does not cover.
  bool CheckSupported(std::string* error) const;

  struct State {
    std::vector<long> population;     // n_c
    std::vector<double> queue;        // [k * C + c] queue part seen by arrivals (per replica)
    std::vector<double> residence_s;  // [k * C + c]
    std::vector<double> throughput;   // [c]
  };
  /// A state at `population` with the customers spread evenly over all stations.
  State InitialState(const std::vector<long>& population) const;

  /// Iterates to max |dQ| < tolerance (or max_iterations). `corrections` is
  /// [(k * C + j) * C + c] or empty for Schweitzer. Adds iterations to `summary`.
  void Iterate(const std::vector<double>& corrections, const Options& options, State* state,
               Summary* summary) const;

  /// Fills X, Q, Rk of `result` from a state at the network's own population.
  void WriteResult(const State& state, Result* result) const;

  size_t classes() const { return classes_; }
  size_t stations() const { return stations_; }

 private:
  enum class Role { kDelay, kQueue, kSeidmann };
  double Residence(size_t k, size_t c, double arrival_queue) const;

  const Network& network_;
  size_t classes_, stations_;
  std::vector<Role> role_;
  std::vector<double> servers_;  // m for kSeidmann
};

/// The m of a station whose rate multipliers are exactly min(j, m); 0 if none.
int ImpliedServers(const Station& station);

/// 1 - P(0) of an M/M/m queue (m = `servers`) offered `offered_load` busy
/// servers on average (Erlang's formula); 1 when offered_load >= m. The
/// approximate algorithms' Ubusy of a multi-server station.
double MultiServerBusyProbability(double offered_load, double servers);

}  // namespace qnm::mva
