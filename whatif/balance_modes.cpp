#include "whatif/balance_modes.h"

#include <algorithm>
#include <numeric>

namespace qnm::trace {

std::vector<std::vector<double>> BalanceInstances(
    const std::vector<std::vector<double>>& x, BalanceMode mode) {
  std::vector<std::vector<double>> out = x;
  auto sum = [](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); };
  switch (mode) {
    case BalanceMode::kGlobalInstance: {  // Figure 3.3 (b); §4.4.2: Allreduce SUM / processes
      std::vector<double> total;
      std::vector<double> count;
      for (const auto& rank : x) {
        if (rank.size() > total.size()) total.resize(rank.size()), count.resize(rank.size());
        for (std::size_t k = 0; k < rank.size(); ++k) total[k] += rank[k], count[k] += 1;
      }
      for (auto& rank : out)
        for (std::size_t k = 0; k < rank.size(); ++k) rank[k] = total[k] / count[k];
      break;
    }
    case BalanceMode::kProcessLocal:  // Figure 3.3 (c)
      for (auto& rank : out)
        if (!rank.empty()) std::fill(rank.begin(), rank.end(), sum(rank) / rank.size());
      break;
    case BalanceMode::kGlobal: {  // Figure 3.3 (d)
      double total = 0, count = 0;
      for (const auto& rank : x) total += sum(rank), count += rank.size();
      for (auto& rank : out) std::fill(rank.begin(), rank.end(), count > 0 ? total / count : 0.0);
      break;
    }
    case BalanceMode::kScaled: {  // Figure 3.3 (e)
      double total = 0, ranks = 0;
      for (const auto& rank : x)
        if (!rank.empty()) total += sum(rank), ranks += 1;
      double mean = ranks > 0 ? total / ranks : 0.0;
      for (auto& rank : out) {
        double own = sum(rank);
        for (double& v : rank) v = own > 0 ? v * mean / own : mean / rank.size();
      }
      break;
    }
  }
  return out;
}

}  // namespace qnm::trace
