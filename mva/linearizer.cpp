// Linearizer (Chandy & Neuse 1982; QSP §7.4.2.3 discusses it as the refinement of
// Schweitzer's estimate). The fraction of class-j customers at station k is
// assumed to change linearly when one customer leaves:
//   Q_kj(N - 1_c) / (N_j - [j=c]) = Q_kj(N) / N_j + F_kjc
// The corrections F_kjc come from solving the fixed point at N and at every
// N - 1_c (with the same F), then F is recomputed; we repeat until Q(N) moves by
// less than the tolerance (Chandy & Neuse stopped after 3 rounds).
#include <algorithm>
#include <cmath>

#include "mva/algorithms.h"
#include "mva/approximate_mva.h"

namespace qnm::mva {

bool SolveLinearizer(const Network& network, const Options& options, Result* result,
                     std::string* error) {
  ApproximateMva core(network);
  if (!core.CheckSupported(error)) return false;
  const size_t C = core.classes(), K = core.stations();
  constexpr int kMaxRounds = 200;
  std::vector<long> population;
  for (const CustomerClass& c : network.classes) population.push_back(c.population);
  ApproximateMva::State at_n = core.InitialState(population);
  std::vector<ApproximateMva::State> minus_one(C);
  for (size_t c = 0; c < C; ++c) {
    if (population[c] == 0) continue;
    std::vector<long> fewer = population;
    --fewer[c];
    minus_one[c] = core.InitialState(fewer);
  }
  std::vector<double> corrections(K * C * C, 0.0);
  std::vector<double> previous;
  double change = 0.0;
  int round = 0;
  bool settled = false;
  while (round < kMaxRounds) {
    ++round;
    core.Iterate(corrections, options, &at_n, &result->summary);
    for (size_t c = 0; c < C; ++c)
      if (population[c] > 0) core.Iterate(corrections, options, &minus_one[c], &result->summary);
    for (size_t k = 0; k < K; ++k)
      for (size_t j = 0; j < C; ++j) {
        if (population[j] == 0) continue;
        const double fraction = at_n.queue[k * C + j] / static_cast<double>(population[j]);
        for (size_t c = 0; c < C; ++c) {
          if (population[c] == 0) continue;
          const long left = population[j] - (j == c ? 1 : 0);
          corrections[(k * C + j) * C + c] =
              left > 0 ? minus_one[c].queue[k * C + j] / static_cast<double>(left) - fraction : 0.0;
        }
      }
    if (!previous.empty()) {
      change = 0.0;
      for (size_t i = 0; i < previous.size(); ++i)
        change = std::max(change, std::fabs(previous[i] - at_n.queue[i]));
      if (change < options.tolerance) {
        settled = true;
        break;
      }
    }
    previous = at_n.queue;
  }
  // The last round used the previous corrections; solve once more with the final ones.
  core.Iterate(corrections, options, &at_n, &result->summary);
  core.WriteResult(at_n, result);
  result->summary.final_change = std::max(change, result->summary.final_change);
  if (!settled) {
    result->summary.converged = false;
    result->summary.message = "Linearizer corrections still moving after " +
                              std::to_string(round) + " rounds";
  }
  return true;
}

}  // namespace qnm::mva
