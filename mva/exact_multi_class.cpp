// Exact multi-class MVA over the population lattice (QSP §7.3, Algorithm 7.1):
//   R_kc(n) = D_kc (1 + Q_k(n - 1_c))            load-independent queue
//   R_kc(n) = D_kc                               delay
//   R_kc(n) = D_kc sum_{j=1}^{|n|} j/alpha_k(j) p_k(j-1 | n - 1_c)   load-dependent
//   X_c(n)  = n_c / (Z_c + sum_k K_k R_kc(n)),   Q_kc(n) = X_c(n) R_kc(n)
//   p_k(j|n) = 1/alpha_k(j) sum_c D_kc X_c(n) p_k(j-1 | n - 1_c),  j >= 1
// (Reiser & Lavenberg 1980; Bolch et al. 1998 §8.2.4). Points are visited in
// mixed-radix order (first class fastest) so n - 1_c is always done; only two
// layers of the last class are kept, in contiguous arrays.
//
// p_k(0|n): the textbook 1 - sum_{j>=1} p_k(j|n) loses all precision once station k
// saturates (see load_dependent.cpp). We use instead the exact product-form identity
//   p_k(0|n) = G_-k(n)/G(n) = p_k(0|n - 1_c) X_c(n) / X^(-k)_c(n)
// where X^(-k) is the throughput of the network without (one replica of) k. Those
// subnetworks are solved in lockstep over the same lattice ("variants": every
// combination of fewer load-dependent replicas), smallest first, so each point
// finds its complements' throughputs ready. Only positive products: stable.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "mva/algorithms.h"

namespace qnm::mva {
namespace {

// Above this many subnetworks the textbook p(0) = 1 - sum is used (and reported).
constexpr size_t kMaxVariants = 64;

/// One subnetwork: the load-independent stations plus ld_count[l] replicas of
/// each load-dependent station l. The last variant is the whole network.
struct Variant {
  std::vector<long> ld_count;
  std::vector<long> complement;        // variant with one replica of l fewer, or -1
  std::vector<double> queue_total;     // [slot * queues + i]   Q_i(n), per replica
  std::vector<double> marginal;        // [(slot * lds + l) * width + j]   p_l(j|n)
  std::vector<double> queue_residence; // [a * queues + i] at the current point
  std::vector<double> ld_residence;    // [a * lds + l]
  std::vector<double> throughput;      // [a]
  std::vector<double> cycle_s;         // [a] Z_c + sum_k K_k R_kc = n_c / X_c (0: no demand)
};

/// r_i = D_i (1 + Q_i(n - 1_c)) for one class; returns sum_i K_i r_i (two partial
/// sums: a shorter chain of dependent adds).
inline double QueueResidences(const double* demand, const double* q_before, const double* count,
                              size_t queues, double* r) {
  for (size_t i = 0; i < queues; ++i) r[i] = demand[i] * (1.0 + q_before[i]);
  double even = 0.0, odd = 0.0;
  size_t i = 0;
  for (; i + 2 <= queues; i += 2) {
    even += count[i] * r[i];
    odd += count[i + 1] * r[i + 1];
  }
  if (i < queues) even += count[i] * r[i];
  return even + odd;
}

/// The lattice walk for networks of queues and delays only (the common case).
/// Rows are lines along the first class; two neighbouring rows (n_1, n_1 + 1)
/// are interleaved with a lag of one point -- row B at n_0 - 1 needs row A at
/// n_0 - 1, solved a step earlier, not A at n_0 -- so two dependency chains
/// overlap in the CPU (1.3x faster than one point after the other). The last
/// point solved is N; returns its slab slot, `var` holds its values.
size_t WalkQueueLattice(const std::vector<size_t>& limit, const std::vector<size_t>& stride,
                        size_t layer, size_t points, const std::vector<double>& queue_demand,
                        const std::vector<double>& queue_count, const std::vector<double>& constant_s,
                        Variant* var) {
  const size_t dims = limit.size(), queues = queue_count.size();
  double* q = var->queue_total.data();
  const double* count = queue_count.data();
  std::vector<double> residence_b(var->queue_residence.size()), throughput_b(dims);
  auto solve_point = [&](const size_t* digit, size_t index, double* residence, double* throughput) {
    const size_t last_digit = digit[dims - 1];
    const size_t offset = index - last_digit * layer;
    const size_t slot = (last_digit & 1) * layer + offset;
    double* q_now = q + slot * queues;
    for (size_t a = 0; a < dims; ++a) {
      throughput[a] = 0.0;
      if (digit[a] == 0) continue;
      const size_t before = (a == dims - 1) ? ((last_digit - 1) & 1) * layer + offset : slot - stride[a];
      const double total_s = constant_s[a] + QueueResidences(queue_demand.data() + (a * queues), q + before * queues,
                                                             count, queues, residence + a * queues);
      throughput[a] = static_cast<double>(digit[a]) / total_s;
    }
    for (size_t i = 0; i < queues; ++i) {
      double sum = 0.0;
      for (size_t a = 0; a < dims; ++a) sum += throughput[a] * residence[a * queues + i];
      q_now[i] = sum;
    }
    return slot;
  };
  const size_t row_length = limit[0] + 1, rows = points / row_length;
  std::vector<size_t> digit_a(dims, 0), digit_b(dims, 0);
  auto row_digits = [&](size_t row, std::vector<size_t>* digit) {
    for (size_t a = 1; a < dims; ++a) {
      (*digit)[a] = row % (limit[a] + 1);
      row /= limit[a] + 1;
    }
  };
  size_t slot = 0;
  bool last_was_b = false;
  for (size_t row = 0; row < rows;) {
    row_digits(row, &digit_a);
    const bool pair = dims > 1 && digit_a[1] < limit[1];
    if (pair) row_digits(row + 1, &digit_b);
    for (size_t t = 0; t <= row_length; ++t) {
      if (t < row_length && (row > 0 || t > 0)) {  // (0, ..., 0) is the initial state
        digit_a[0] = t;
        slot = solve_point(digit_a.data(), row * row_length + t, var->queue_residence.data(),
                           var->throughput.data());
        last_was_b = false;
      }
      if (pair && t >= 1) {
        digit_b[0] = t - 1;
        slot = solve_point(digit_b.data(), (row + 1) * row_length + t - 1, residence_b.data(),
                           throughput_b.data());
        last_was_b = true;
      }
    }
    row += pair ? 2 : 1;
  }
  if (last_was_b) {
    var->queue_residence = residence_b;
    var->throughput = throughput_b;
  }
  return slot;
}

}  // namespace

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
                  "limit max_lattice_points = %.4g; use mva::Options::algorithm = schweitzer (approximate)",
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

  // Stations by role; per-class arrays are indexed [a * stations_of_role + i].
  std::vector<size_t> queue_index, ld_index;
  std::vector<double> queue_demand, queue_count, ld_demand, inv_alpha;
  std::vector<double> constant_s(dims, 0.0);  // Z_c + delay demands
  for (size_t a = 0; a < dims; ++a) constant_s[a] = network.classes[active[a]].think_time_s;
  for (size_t k = 0; k < network.stations.size(); ++k) {
    const Station& s = network.stations[k];
    if (s.type == StationType::kDelay) {
      for (size_t a = 0; a < dims; ++a) constant_s[a] += static_cast<double>(s.count) * s.demand_s[active[a]];
    } else if (HasLoadDependence(s)) {
      ld_index.push_back(k);
      for (size_t j = 0; j <= width; ++j)  // 1/alpha(j), j = 0..N+1
        inv_alpha.push_back(j == 0 ? 0.0 : 1.0 / s.RateMultiplier(static_cast<long>(j)));
    } else if (s.type == StationType::kQueue) {
      queue_index.push_back(k);
      queue_count.push_back(static_cast<double>(s.count));
    }
  }
  const size_t queues = queue_index.size(), lds = ld_index.size();
  for (size_t a = 0; a < dims; ++a) {
    for (size_t k : queue_index) queue_demand.push_back(network.stations[k].demand_s[active[a]]);
    for (size_t k : ld_index) ld_demand.push_back(network.stations[k].demand_s[active[a]]);
  }

  std::vector<size_t> stride(dims, 1), digit(dims, 0);
  for (size_t a = 1; a < dims; ++a)
    stride[a] = stride[a - 1] * static_cast<size_t>(network.classes[active[a - 1]].population + 1);
  const size_t layer = dims ? stride[dims - 1] : 1;
  const size_t points = static_cast<size_t>(lattice);  // empty classes contribute factor 1

  // Variants: all ld_count vectors 0..count_l in mixed radix (complements come first).
  double variant_count = 1.0;
  for (size_t k : ld_index) variant_count *= static_cast<double>(network.stations[k].count) + 1.0;
  const bool stable = lds == 0 || variant_count <= static_cast<double>(kMaxVariants);
  std::vector<Variant> variants(stable ? static_cast<size_t>(variant_count) : 1);
  for (size_t v = 0; v < variants.size(); ++v) {
    Variant& var = variants[v];
    size_t rest = v, place = 1;
    for (size_t l = 0; l < lds; ++l) {
      const long radix = network.stations[ld_index[l]].count + 1;
      var.ld_count.push_back(stable ? static_cast<long>(rest % radix) : radix - 1);
      var.complement.push_back(stable && var.ld_count[l] > 0 ? static_cast<long>(v - place) : -1);
      rest /= radix;
      place *= radix;
    }
    var.queue_total.assign(2 * layer * queues, 0.0);
    var.marginal.assign(2 * layer * lds * width, 0.0);
    for (size_t l = 0; l < lds; ++l) var.marginal[l * width] = 1.0;  // p(0 | 0) = 1
    var.queue_residence.assign(queues * dims, 0.0);
    var.ld_residence.assign(lds * dims, 0.0);
    var.throughput.assign(dims, 0.0);
    var.cycle_s.assign(dims, 0.0);
  }
  std::vector<size_t> before(dims, 0);  // slab slot of n - 1_c

  size_t slot = 0, population = 0;  // slab slot of n, |n|
  if (lds == 0 && dims > 0) {
    std::vector<size_t> limit;
    for (size_t c : active) limit.push_back(static_cast<size_t>(network.classes[c].population));
    slot = WalkQueueLattice(limit, stride, layer, points, queue_demand, queue_count, constant_s,
                            &variants.back());
  }
  for (size_t index = 1; index < points && lds > 0; ++index) {
    for (size_t a = 0; a < dims; ++a) {  // next lattice point, first class fastest
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
    slot = (last_digit & 1) * layer + offset;
    size_t first_class = dims;  // some class with n_c > 0
    for (size_t a = 0; a < dims; ++a) {
      if (digit[a] == 0) continue;
      if (first_class == dims) first_class = a;
      before[a] = (a == dims - 1) ? ((last_digit - 1) & 1) * layer + offset : slot - stride[a];
    }

    for (Variant& var : variants) {
      double* q_now = var.queue_total.data() + (slot * queues);
      for (size_t i = 0; i < queues; ++i) q_now[i] = 0.0;
      for (size_t a = 0; a < dims; ++a) {
        if (digit[a] == 0) {
          var.throughput[a] = 0.0;
          continue;
        }
        double* r = var.queue_residence.data() + (a * queues);
        double total_s = constant_s[a] + QueueResidences(queue_demand.data() + (a * queues),
                                                         var.queue_total.data() + (before[a] * queues),
                                                         queue_count.data(), queues, r);
        for (size_t l = 0; l < lds; ++l) {
          if (var.ld_count[l] == 0) continue;
          const double* p_before = var.marginal.data() + ((before[a] * lds + l) * width);
          const double* inv = inv_alpha.data() + (l * (width + 1));
          double sum = 0.0;
          for (size_t j = 1; j <= population; ++j) sum += static_cast<double>(j) * inv[j] * p_before[j - 1];
          var.ld_residence[a * lds + l] = ld_demand[a * lds + l] * sum;
          total_s += static_cast<double>(var.ld_count[l]) * var.ld_residence[a * lds + l];
        }
        var.cycle_s[a] = total_s;
        // A subnetwork where class a has no demand at all: nothing to add to queues.
        const double x = total_s > 0 ? static_cast<double>(digit[a]) / total_s : 0.0;
        var.throughput[a] = x;
        for (size_t i = 0; i < queues; ++i) q_now[i] += x * r[i];
      }
      for (size_t l = 0; l < lds; ++l) {
        if (var.ld_count[l] == 0) continue;
        double* p_now = var.marginal.data() + ((slot * lds + l) * width);
        const double* inv = inv_alpha.data() + (l * (width + 1));
        double busy = 0.0;
        for (size_t j = 1; j <= population; ++j) {
          double flow = 0.0;
          for (size_t a = 0; a < dims; ++a)
            if (digit[a])
              flow += ld_demand[a * lds + l] * var.throughput[a] *
                      var.marginal[(before[a] * lds + l) * width + j - 1];
          p_now[j] = inv[j] * flow;
          busy += p_now[j];
        }
        if (var.complement[l] >= 0) {  // p(0|n) = p(0|n-1_c) X_c(n) / X^(-k)_c(n)
          const size_t a = first_class;
          const Variant& without = variants[static_cast<size_t>(var.complement[l])];
          p_now[0] = var.marginal[(before[a] * lds + l) * width] * var.throughput[a] *
                     without.cycle_s[a] / static_cast<double>(digit[a]);
        } else {
          p_now[0] = std::max(0.0, 1.0 - busy);
        }
      }
    }
  }

  // Results at N; classes without customers see the arrival-theorem residence.
  const Variant& whole = variants.back();
  const double* q_final = whole.queue_total.data() + (slot * queues);
  for (size_t a = 0; a < dims; ++a) result->X[active[a]] = whole.throughput[a];
  for (size_t k = 0; k < network.stations.size(); ++k)
    for (size_t c = 0; c < classes; ++c) {
      result->Rk[k][c] = network.stations[k].demand_s[c];  // delays, unvisited stations
      result->Q[k][c] = result->X[c] * result->Rk[k][c];
    }
  for (size_t i = 0; i < queues; ++i) {
    const size_t k = queue_index[i];
    for (size_t c = 0; c < classes; ++c)
      result->Rk[k][c] = network.stations[k].demand_s[c] * (1.0 + q_final[i]);
    for (size_t a = 0; a < dims; ++a) result->Rk[k][active[a]] = whole.queue_residence[a * queues + i];
    for (size_t c = 0; c < classes; ++c) result->Q[k][c] = result->X[c] * result->Rk[k][c];
  }
  for (size_t l = 0; l < lds; ++l) {
    const size_t k = ld_index[l];
    const double* p_final = whole.marginal.data() + ((slot * lds + l) * width);
    const double* inv = inv_alpha.data() + (l * (width + 1));
    double arrival_sum = 0.0, busy = 0.0;  // what an extra arrival would see
    for (size_t j = 1; j <= width; ++j) arrival_sum += static_cast<double>(j) * inv[j] * p_final[j - 1];
    for (size_t j = 1; j < width; ++j) busy += p_final[j];
    for (size_t c = 0; c < classes; ++c) result->Rk[k][c] = network.stations[k].demand_s[c] * arrival_sum;
    for (size_t a = 0; a < dims; ++a) result->Rk[k][active[a]] = whole.ld_residence[a * lds + l];
    for (size_t c = 0; c < classes; ++c) result->Q[k][c] = result->X[c] * result->Rk[k][c];
    result->Ubusy[k] = busy;
  }
  result->summary.iterations = static_cast<int>(std::min<size_t>(points, 2147483647));
  if (!stable)
    result->summary.message =
        "exact multi-class MVA; more than 64 load-dependent subnetworks, so p(0) = 1 - sum "
        "p(j) (textbook recursion, may lose precision at large populations)";
  return true;
}

}  // namespace qnm::mva
