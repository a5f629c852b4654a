// Exact single-class MVA for load-independent queues and delays (QSP §6.3, Table 6.1):
//   R_k(n) = D_k (1 + Q_k(n-1)),  X(n) = n / (Z + sum_k K_k R_k(n)),  Q_k(n) = X(n) R_k(n).
// Delays only add their demand; replicated queues (count K_k) are symmetric, so one
// replica's recursion stands for all K_k of them.
//
// The cycle time is rearranged so that the division of step n does not wait for
// the queue lengths of step n - 1: with A = Z + delays + sum_k K_k D_k,
//   Z + sum_k K_k R_k(n+1) = A + sum_k K_k D_k Q_k(n) = A + X(n) W(n),
//   W(n) = sum_k K_k D_k^2 (1 + Q_k(n-1)),
// and W(n) needs only Q(n-1). The critical path of one step is then a multiply,
// an add and the division; the vector work over the stations runs beside it.
// Workspace memory only: nothing is allocated once the workspace has grown.
#include <algorithm>

#include "mva/algorithms.h"
#include "mva/vector_kernels.h"

namespace qnm::mva {
namespace {

using kernels::Load;
using kernels::Store;
using kernels::Vec;

/// Runs n = 1..population over `length` (a multiple of 4) padded stations and
/// leaves Q(N-1) in `q`; returns X(N). d, kdd: D_k and K_k D_k^2 (0 in padding).
QNM_MVA_CLONES double RunPopulation(long population, double constant_s, const double* d, const double* kdd,
                                    size_t length, double* q) {
  double throughput = 0.0, w_previous = 0.0;  // X(n-1), W(n-1)
  const Vec one = kernels::Broadcast(1.0);
  for (long n = 1; n <= population; ++n) {
    const double x = static_cast<double>(n) / (constant_s + throughput * w_previous);
    Vec w0 = Vec{}, w1 = Vec{};  // two partial sums: shorter chains of dependent adds
    const Vec xv = kernels::Broadcast(x);
    const bool last = n == population;
    size_t i = 0;
    for (; i + 8 <= length; i += 8) {
      const Vec p0 = one + Load(q + i), p1 = one + Load(q + i + 4);
      w0 += Load(kdd + i) * p0;
      w1 += Load(kdd + i + 4) * p1;
      if (!last) {
        Store(q + i, xv * Load(d + i) * p0);
        Store(q + i + 4, xv * Load(d + i + 4) * p1);
      }
    }
    for (; i < length; i += 4) {
      const Vec p0 = one + Load(q + i);
      w0 += Load(kdd + i) * p0;
      if (!last) Store(q + i, xv * Load(d + i) * p0);
    }
    throughput = x;
    w_previous = kernels::Sum(w0 + w1);
  }
  return throughput;
}

}  // namespace

void SolveExactSingleClass(const Network& network, Workspace* workspace, Result* result) {
  const long population = network.classes[0].population;
  size_t queues = 0;
  for (const Station& s : network.stations) queues += s.type != StationType::kDelay && s.demand_s[0] > 0;
  const size_t length = kernels::PaddedLength(queues);
  double* d = workspace->Doubles(3 * length);
  double* kdd = d + length;
  double* q = kdd + length;
  std::fill(d, d + 3 * length, 0.0);
  double constant_s = network.classes[0].think_time_s;  // A = Z + delays + sum_k K_k D_k
  size_t i = 0;
  for (const Station& s : network.stations) {
    const double count = static_cast<double>(s.count);
    constant_s += count * s.demand_s[0];
    if (s.type == StationType::kDelay || !(s.demand_s[0] > 0)) continue;
    d[i] = s.demand_s[0];
    kdd[i] = count * s.demand_s[0] * s.demand_s[0];
    ++i;
  }
  const double throughput = population > 0 ? RunPopulation(population, constant_s, d, kdd, length, q) : 0.0;

  // q holds Q(N-1), so R_k(N) = D_k (1 + Q_k(N-1)) can be reported.
  result->X[0] = throughput;
  i = 0;
  for (size_t k = 0; k < network.stations.size(); ++k) {
    const Station& s = network.stations[k];
    result->Rk[k][0] = s.demand_s[0];  // delays, zero-demand queues
    if (s.type != StationType::kDelay && s.demand_s[0] > 0) {
      result->Rk[k][0] = d[i] * (1.0 + q[i]);
      ++i;
    }
    result->Q[k][0] = throughput * result->Rk[k][0];
  }
  result->summary.iterations = static_cast<int>(std::min<long>(population, 2147483647L));
}

}  // namespace qnm::mva
