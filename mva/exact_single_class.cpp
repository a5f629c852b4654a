// Exact single-class MVA for load-independent queues and delays (QSP §6.3, Table 6.1):
//   R_k(n) = D_k (1 + Q_k(n-1)),  X(n) = n / (Z + sum_k K_k R_k(n)),  Q_k(n) = X(n) R_k(n).
// Delays only add their demand; replicated queues (count K_k) are symmetric, so one
// replica's recursion stands for all K_k of them. No allocation inside the n-loop.
#include <algorithm>
#include <vector>

#include "mva/algorithms.h"

namespace qnm::mva {

void SolveExactSingleClass(const Network& network, Result* result) {
  const long population = network.classes[0].population;
  double constant_residence_s = network.classes[0].think_time_s;  // Z + delay demands
  std::vector<double> demand_s, count, queue_length;
  std::vector<size_t> queue_station;
  for (size_t k = 0; k < network.stations.size(); ++k) {
    const Station& s = network.stations[k];
    if (s.type == StationType::kDelay) {
      constant_residence_s += static_cast<double>(s.count) * s.demand_s[0];
    } else if (s.demand_s[0] > 0) {
      demand_s.push_back(s.demand_s[0]);
      count.push_back(static_cast<double>(s.count));
      queue_station.push_back(k);
    }
  }
  const size_t queues = demand_s.size();
  std::vector<double> count_demand_s(queues);
  for (size_t i = 0; i < queues; ++i) count_demand_s[i] = count[i] * demand_s[i];
  queue_length.assign(queues, 0.0);
  double throughput = 0.0;
  const double* d = demand_s.data();
  const double* kd = count_demand_s.data();
  double* q = queue_length.data();
  for (long n = 1; n <= population; ++n) {
    // sum_k K_k D_k (1 + Q_k(n-1)) with four partial sums (independent adds pipeline).
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t i = 0;
    for (; i + 4 <= queues; i += 4) {
      s0 += kd[i] * (1.0 + q[i]);
      s1 += kd[i + 1] * (1.0 + q[i + 1]);
      s2 += kd[i + 2] * (1.0 + q[i + 2]);
      s3 += kd[i + 3] * (1.0 + q[i + 3]);
    }
    for (; i < queues; ++i) s0 += kd[i] * (1.0 + q[i]);
    throughput = static_cast<double>(n) / (constant_residence_s + ((s0 + s1) + (s2 + s3)));
    if (n < population)
      for (size_t j = 0; j < queues; ++j) q[j] = throughput * d[j] * (1.0 + q[j]);
  }
  // The loop stops at Q(N-1), so R_k(N) = D_k (1 + Q_k(N-1)) can be reported.
  std::vector<double> residence_s(queues);
  for (size_t i = 0; i < queues; ++i) residence_s[i] = d[i] * (1.0 + q[i]);
  for (size_t i = 0; i < queues; ++i) q[i] = throughput * residence_s[i];
  double* r = residence_s.data();

  result->X[0] = throughput;
  for (size_t k = 0; k < network.stations.size(); ++k) {
    result->Rk[k][0] = network.stations[k].demand_s[0];  // delays, zero-demand queues
    result->Q[k][0] = throughput * result->Rk[k][0];
  }
  for (size_t i = 0; i < queues; ++i) {
    result->Rk[queue_station[i]][0] = r[i];
    result->Q[queue_station[i]][0] = q[i];
  }
  result->summary.iterations = static_cast<int>(std::min<long>(population, 2147483647L));
}

}  // namespace qnm::mva
