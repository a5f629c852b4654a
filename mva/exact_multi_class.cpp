// Exact multi-class MVA over the population lattice (QSP §7.3, Algorithm 7.1):
//   R_kc(n) = D_kc (1 + Q_k(n - 1_c))            load-independent queue
//   R_kc(n) = D_kc                               delay
//   R_kc(n) = D_kc sum_{j=1}^{|n|} j/alpha_k(j) p_k(j-1 | n - 1_c)   load-dependent
//   X_c(n)  = n_c / (Z_c + sum_k K_k R_kc(n)),   Q_kc(n) = X_c(n) R_kc(n)
//   p_k(j|n) = 1/alpha_k(j) sum_c D_kc X_c(n) p_k(j-1 | n - 1_c),  p_k(0|n) = 1 - sum_j>=1
// (Reiser & Lavenberg 1980; Bolch et al. 1998 §8.2.4). Points are visited in
// mixed-radix order (first class fastest) so n - 1_c is always done; only two
// layers of the last class are kept, in contiguous arrays.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "mva/algorithms.h"

namespace qnm::mva {

double LatticePoints(const Network& network) {
  double points = 1.0;
  for (const CustomerClass& c : network.classes) points *= static_cast<double>(c.population) + 1.0;
  return points;
}

bool HasLoadDependence(const Station& station) {
  if (!station.IsLoadDependent()) return false;
  for (double d : station.demand_s)
    if (d > 0) return true;
  return false;
}

bool SolveExactMultiClass(const Network& network, const Options& options, Result* result,
                          std::string* error) {
  const double lattice = LatticePoints(network);
  if (lattice > options.max_lattice_points) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "exact multi-class MVA needs a population lattice of %.4g points, above the "
                  "limit max_lattice_points = %.4g; use --algorithm schweitzer (approximate)",
                  lattice, options.max_lattice_points);
    *error = text;
    return false;
  }
  const size_t classes = network.classes.size();
  std::vector<size_t> active;  // classes with customers: the lattice dimensions
  for (size_t c = 0; c < classes; ++c)
    if (network.classes[c].population > 0) active.push_back(c);
  const size_t dims = active.size();
  const long total_population = network.TotalPopulation();
  const size_t width = static_cast<size_t>(total_population) + 1;  // p(0..N) per point

  // Stations by role; per-class arrays are indexed [station * dims + a].
  std::vector<size_t> queue_index, ld_index;
  std::vector<double> queue_demand, queue_count, ld_demand, ld_count, inv_alpha;
  std::vector<double> constant_s(dims, 0.0);  // Z_c + delay demands
  for (size_t a = 0; a < dims; ++a) constant_s[a] = network.classes[active[a]].think_time_s;
  for (size_t k = 0; k < network.stations.size(); ++k) {
    const Station& s = network.stations[k];
    const double count = static_cast<double>(s.count);
    if (s.type == StationType::kDelay) {
      for (size_t a = 0; a < dims; ++a) constant_s[a] += count * s.demand_s[active[a]];
    } else if (HasLoadDependence(s)) {
      ld_index.push_back(k);
      ld_count.push_back(count);
      for (size_t a = 0; a < dims; ++a) ld_demand.push_back(s.demand_s[active[a]]);
      for (size_t j = 0; j <= width; ++j)
        inv_alpha.push_back(j == 0 ? 0.0 : 1.0 / s.RateMultiplier(static_cast<long>(j)));
    } else if (s.type == StationType::kQueue) {
      queue_index.push_back(k);
      queue_count.push_back(count);
      for (size_t a = 0; a < dims; ++a) queue_demand.push_back(s.demand_s[active[a]]);
    }
  }
  const size_t queues = queue_index.size(), lds = ld_index.size();

  std::vector<size_t> stride(dims, 1), digit(dims, 0);
  for (size_t a = 1; a < dims; ++a)
    stride[a] = stride[a - 1] * static_cast<size_t>(network.classes[active[a - 1]].population + 1);
  const size_t layer = dims ? stride[dims - 1] : 1;
  const size_t points = static_cast<size_t>(lattice);  // empty classes contribute factor 1
  std::vector<double> queue_total(2 * layer * queues, 0.0);  // Q_k(n), per replica
  std::vector<double> marginal(2 * layer * lds * width, 0.0);
  std::vector<double> residence(std::max<size_t>(1, (queues + lds) * dims), 0.0);
  std::vector<double> throughput(dims, 0.0);
  std::vector<size_t> before(dims, 0);  // slab position of n - 1_c
  for (size_t l = 0; l < lds; ++l) marginal[l * width] = 1.0;  // p(0 | 0) = 1

  size_t position = 0, population = 0;  // slab position, |n|
  for (size_t index = 1; index < points; ++index) {
    // Next lattice point (first class fastest).
    for (size_t a = 0; a < dims; ++a) {
      if (digit[a] < static_cast<size_t>(network.classes[active[a]].population)) {
        ++digit[a];
        ++population;
        break;
      }
      population -= digit[a];
      digit[a] = 0;
    }
    const size_t last_digit = digit[dims - 1];
    const size_t offset = index - last_digit * layer;
    position = (last_digit & 1) * layer + offset;

    for (size_t a = 0; a < dims; ++a) {
      if (digit[a] == 0) {
        throughput[a] = 0.0;
        continue;
      }
      before[a] = (a == dims - 1) ? ((last_digit - 1) & 1) * layer + offset : position - stride[a];
      double total_s = constant_s[a];
      const double* q_before = &queue_total[before[a] * queues];
      for (size_t i = 0; i < queues; ++i) {
        const double r = queue_demand[i * dims + a] * (1.0 + q_before[i]);
        residence[i * dims + a] = r;
        total_s += queue_count[i] * r;
      }
      for (size_t l = 0; l < lds; ++l) {
        const double* p_before = &marginal[(before[a] * lds + l) * width];
        const double* inv = &inv_alpha[l * (width + 1)];
        double sum = 0.0;
        for (size_t j = 1; j <= population; ++j) sum += static_cast<double>(j) * inv[j] * p_before[j - 1];
        const double r = ld_demand[l * dims + a] * sum;
        residence[(queues + l) * dims + a] = r;
        total_s += ld_count[l] * r;
      }
      throughput[a] = static_cast<double>(digit[a]) / total_s;
    }
    double* q_now = &queue_total[position * queues];
    for (size_t i = 0; i < queues; ++i) {
      double q = 0.0;
      for (size_t a = 0; a < dims; ++a)
        if (digit[a]) q += throughput[a] * residence[i * dims + a];
      q_now[i] = q;
    }
    for (size_t l = 0; l < lds; ++l) {
      double* p_now = &marginal[(position * lds + l) * width];
      const double* inv = &inv_alpha[l * (width + 1)];
      double busy = 0.0;
      for (size_t j = 1; j <= population; ++j) {
        double flow = 0.0;
        for (size_t a = 0; a < dims; ++a) {
          if (!digit[a]) continue;
          flow += ld_demand[l * dims + a] * throughput[a] * marginal[(before[a] * lds + l) * width + j - 1];
        }
        p_now[j] = inv[j] * flow;
        busy += p_now[j];
      }
      p_now[0] = std::max(0.0, 1.0 - busy);
    }
  }

  // Results at N; classes without customers see the arrival-theorem residence.
  const double* q_final = &queue_total[position * queues];
  for (size_t a = 0; a < dims; ++a) result->X[active[a]] = throughput[a];
  for (size_t k = 0; k < network.stations.size(); ++k)
    for (size_t c = 0; c < classes; ++c) {
      result->Rk[k][c] = network.stations[k].demand_s[c];  // delays, unvisited stations
      result->Q[k][c] = result->X[c] * result->Rk[k][c];
      if (network.stations[k].IsLoadDependent() && !HasLoadDependence(network.stations[k])) {
        result->Ubusy[k] = 0.0;
      }
    }
  for (size_t i = 0; i < queues; ++i) {
    const size_t k = queue_index[i];
    for (size_t c = 0; c < classes; ++c)
      result->Rk[k][c] = network.stations[k].demand_s[c] * (1.0 + q_final[i]);
    for (size_t a = 0; a < dims; ++a) result->Rk[k][active[a]] = residence[i * dims + a];
    for (size_t c = 0; c < classes; ++c) result->Q[k][c] = result->X[c] * result->Rk[k][c];
  }
  for (size_t l = 0; l < lds; ++l) {
    const size_t k = ld_index[l];
    const double* p_final = &marginal[(position * lds + l) * width];
    const double* inv = &inv_alpha[l * (width + 1)];
    double arrival_sum = 0.0, busy = 0.0;  // what an extra arrival would see
    for (size_t j = 1; j <= static_cast<size_t>(total_population) + 1; ++j)
      arrival_sum += static_cast<double>(j) * inv[j] * p_final[j - 1];
    for (size_t j = 1; j < width; ++j) busy += p_final[j];
    for (size_t c = 0; c < classes; ++c)
      result->Rk[k][c] = network.stations[k].demand_s[c] * arrival_sum;
    for (size_t a = 0; a < dims; ++a) result->Rk[k][active[a]] = residence[(queues + l) * dims + a];
    for (size_t c = 0; c < classes; ++c) result->Q[k][c] = result->X[c] * result->Rk[k][c];
    result->Ubusy[k] = busy;
  }
  result->summary.iterations = static_cast<int>(points);
  return true;
}

}  // namespace qnm::mva
