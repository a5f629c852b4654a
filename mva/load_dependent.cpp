// Exact single-class MVA with load-dependent and multi-server stations that stays
// stable at large populations.
//
// Why not the textbook recursion: it gets p_k(0|n) as 1 - sum_{j>=1} p_k(j|n)
// (QSP §20.2). Once a multi-server station saturates, p_k(0|n) is far below the
// rounding error of that sum, the subtraction returns noise or a negative number
// and the recursion p_k(1|n+1) = D X(n+1) p_k(0|n) spreads it: at N ~ 1000 the
// throughput comes out negative or NaN (Octave qncsmvald, LINE pfqn_mvald).
//
// What we do instead: the marginal of station k in the network S+k, written with
// the throughputs X_S of the network S without k (product form, G = normalising
// constant, f_k(j) = prod_{i<=j} D_k/alpha_k(i)):
//   p_k(j|n) = f_k(j) G_S(n-j) / G_{S+k}(n)
//            ∝ t_j = t_{j-1} * D_k/alpha_k(j) * X_S(n-j+1),   t_0 = 1,
// because G_S(m-1)/G_S(m) = X_S(m). Every t_j is a product of positive numbers, the
// marginal is t / sum(t) and the throughput of S+k follows from the utilisation
// law X(n) = sum_{j>=1} p_k(j|n) alpha_k(j) / D_k -- no subtraction anywhere.
// Adding the load-dependent stations one after the other gives X(n) of the whole
// network; a station's own marginal needs the network without it, so each distinct
// load-dependent station is added last once. Queues then follow the usual MVA
// recursion driven by the exact X(n).
#include <algorithm>
#include <vector>

#include "mva/algorithms.h"

namespace qnm::mva {
namespace {

constexpr double kRescaleAbove = 1e200;  // t_j is rescaled before it can overflow

/// Throughputs x[n], n = 0..N, of the load-independent part (queues, delays, think
/// time). False when that part has no demand at all (then it is "empty").
bool LoadIndependentThroughputs(const Network& network, long population, std::vector<double>* x) {
  double constant_s = network.classes[0].think_time_s;
  std::vector<double> demand_s, count, queue_length;
  for (const Station& s : network.stations) {
    if (s.IsLoadDependent()) continue;
    if (s.type == StationType::kDelay) {
      constant_s += static_cast<double>(s.count) * s.demand_s[0];
    } else if (s.demand_s[0] > 0) {
      demand_s.push_back(s.demand_s[0]);
      count.push_back(static_cast<double>(s.count));
    }
  }
  x->assign(static_cast<size_t>(population) + 1, 0.0);
  if (constant_s <= 0 && demand_s.empty()) return false;
  queue_length.assign(demand_s.size(), 0.0);
  for (long n = 1; n <= population; ++n) {
    double total_s = constant_s;
    for (size_t i = 0; i < demand_s.size(); ++i)
      total_s += count[i] * demand_s[i] * (1.0 + queue_length[i]);
    const double throughput = static_cast<double>(n) / total_s;
    for (size_t i = 0; i < demand_s.size(); ++i)
      queue_length[i] = throughput * demand_s[i] * (1.0 + queue_length[i]);
    (*x)[static_cast<size_t>(n)] = throughput;
  }
  return true;
}

/// Adds load-dependent `station` to a subnetwork with throughputs `x_sub` (or an
/// empty one) and writes the throughputs of the union to `x_out`. When `marginal`
/// is given it receives p(j|N), j = 0..N, of the added station.
void AddStation(const std::vector<double>& x_sub, bool sub_empty, const Station& station,
                long population, std::vector<double>* x_out, std::vector<double>* marginal) {
  const size_t n_max = static_cast<size_t>(population);
  const double demand_s = station.demand_s[0];
  std::vector<double> step(n_max + 1, 0.0);  // D/alpha(j)
  for (size_t j = 1; j <= n_max; ++j) step[j] = demand_s / station.RateMultiplier(static_cast<long>(j));
  x_out->assign(n_max + 1, 0.0);
  if (marginal) marginal->assign(n_max + 1, 0.0);
  if (sub_empty) {  // the station is alone: all n jobs are there
    for (size_t n = 1; n <= n_max; ++n) (*x_out)[n] = 1.0 / step[n];
    if (marginal) (*marginal)[n_max] = 1.0;
    if (marginal && n_max == 0) (*marginal)[0] = 1.0;
    return;
  }
  const double* xs = x_sub.data();
  for (size_t n = 1; n <= n_max; ++n) {
    const bool keep = marginal && n == n_max;
    double t = 1.0, sum = 1.0, busy_rate = 0.0;  // busy_rate = sum_{j>=1} t_j alpha(j)/D
    if (keep) (*marginal)[0] = 1.0;
    for (size_t j = 1; j <= n; ++j) {
      t *= step[j] * xs[n - j + 1];
      sum += t;
      busy_rate += t / step[j];
      if (keep) (*marginal)[j] = t;
      if (t > kRescaleAbove) {
        const double scale = 1.0 / kRescaleAbove;
        t *= scale;
        sum *= scale;
        busy_rate *= scale;
        if (keep)
          for (size_t i = 0; i <= j; ++i) (*marginal)[i] *= scale;
      }
    }
    (*x_out)[n] = busy_rate / sum;
    if (keep)
      for (double& p : *marginal) p /= sum;
  }
  if (marginal && n_max == 0) (*marginal)[0] = 1.0;
}

}  // namespace

void SolveExactSingleClassLoadDependent(const Network& network, Result* result) {
  const long population = network.classes[0].population;
  const size_t n_max = static_cast<size_t>(population);
  std::vector<double> x_base;
  const bool base_empty = !LoadIndependentThroughputs(network, population, &x_base);

  std::vector<size_t> load_dependent, instances;  // instances: one entry per replica
  for (size_t k = 0; k < network.stations.size(); ++k) {
    if (!HasLoadDependence(network.stations[k])) continue;
    load_dependent.push_back(k);
    // With no customers every replica is empty: one instance stands for all.
    const long replicas = population > 0 ? network.stations[k].count : 1;
    for (long r = 0; r < replicas; ++r) instances.push_back(k);
  }

  std::vector<double> x_full = x_base, x_sub, x_next, marginal;
  for (size_t k : load_dependent) {
    // The network without one replica of k, then k itself last.
    x_sub = x_base;
    bool sub_empty = base_empty;
    bool skipped = false;
    for (size_t other : instances) {
      if (other == k && !skipped) {
        skipped = true;
        continue;
      }
      AddStation(x_sub, sub_empty, network.stations[other], population, &x_next, nullptr);
      x_sub.swap(x_next);
      sub_empty = false;
    }
    AddStation(x_sub, sub_empty, network.stations[k], population, &x_full, &marginal);
    double queue_length = 0.0, busy = 0.0;
    for (size_t j = 1; j <= n_max; ++j) {
      queue_length += static_cast<double>(j) * marginal[j];
      busy += marginal[j];
    }
    result->Q[k][0] = queue_length;
    result->Ubusy[k] = busy;
    result->Rk[k][0] = population > 0 ? queue_length / x_full[n_max]
                                      : network.stations[k].demand_s[0] / network.stations[k].RateMultiplier(1);
  }

  const double throughput = x_full[n_max];
  result->X[0] = throughput;
  for (size_t k = 0; k < network.stations.size(); ++k) {
    const Station& s = network.stations[k];
    if (HasLoadDependence(s)) continue;
    const double demand_s = s.demand_s[0];
    if (s.IsLoadDependent()) {  // zero demand: never visited
      result->Rk[k][0] = 0.0;
      result->Q[k][0] = 0.0;
      result->Ubusy[k] = 0.0;
      continue;
    }
    double queue_length = 0.0, residence_s = demand_s;
    if (s.type == StationType::kQueue)
      for (size_t n = 1; n <= n_max; ++n) {  // R_k(n) = D_k (1 + Q_k(n-1)) with the exact X(n)
        residence_s = demand_s * (1.0 + queue_length);
        queue_length = x_full[n] * residence_s;
      }
    result->Rk[k][0] = residence_s;
    result->Q[k][0] = throughput * residence_s;
  }
  result->summary.iterations = static_cast<int>(std::min<long>(population, 2147483647L));
}

}  // namespace qnm::mva
