// Schweitzer-Bard approximate MVA (QSP §7.4.2.2; Schweitzer 1979, Bard 1979).
// The queue an arriving class-c customer sees at N - 1_c is estimated from N:
//   Q_k(N - 1_c) ~ Q_k(N) - Q_kc(N)/N_c
// iterated from Q_kc = N_c / (number of stations) until max |dQ| < tolerance: the
// fixed point Octave qncmmvabs, LINE pfqn_bs, JMT and PDQ APPROX compute.
#include "mva/algorithms.h"
#include "mva/approximate_mva.h"

namespace qnm::mva {

bool SolveSchweitzer(const Network& network, const Options& options, Result* result,
                     std::string* error) {
  ApproximateMva core(network);
  if (!core.CheckSupported(error)) return false;
  std::vector<long> population;
  for (const CustomerClass& c : network.classes) population.push_back(c.population);
  ApproximateMva::State state = core.InitialState(population);
  core.Iterate({}, options, &state, &result->summary);
  core.WriteResult(state, result);
  return true;
}

}  // namespace qnm::mva
