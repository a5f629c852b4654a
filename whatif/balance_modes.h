#pragma once
// The four BALANCE REGION modes of SILAS (Hermanns 2008, §3.4.2, Figure 3.3
// (b)-(e); Table 4.1's OPTION "mode"), on the exclusive time of each instance
// of one region on each rank.
#include <vector>

#include "whatif/whatif_hypothesis.h"

namespace qnm::trace {

/// `ticks_per_rank[p][k]` = exclusive ticks of the k-th instance on rank p
/// (ranks may hold different numbers of instances, or none). Returns the new
/// ticks in the same shape:
///  - global instance (b): x'[p][k] = mean over ranks q having a k-th instance of x[q][k];
///  - process-local (c):   x'[p][k] = mean over k of x[p][k];
///  - global (d):          x'[p][k] = mean of all x[q][j] on all ranks;
///  - scaled (e):          x'[p][k] = x[p][k] * A / A_p, A_p = sum_k x[p][k] and A the
///                         mean of A_q over the ranks that have instances ("the absolute
///                         increase or decrease in time on the process is distributed
///                         with respect to the percentage an instance added to the
///                         aggregated time"); if A_p = 0, every instance gets A / n_p.
/// Each mode keeps the total over all ranks and instances, except process-local,
/// which keeps each rank's total.
std::vector<std::vector<double>> BalanceInstances(
    const std::vector<std::vector<double>>& ticks_per_rank, BalanceMode mode);

}  // namespace qnm::trace
