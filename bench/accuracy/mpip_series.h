#pragma once
// The second part of the accuracy bench: the queueing model on the mpiP
// campaigns (bench/data/mpip-scaling: NPB-MZ class C at P = 1..128, scored
// against the largest per-rank mpiP AppTime; NPB-MZ on cab, tests/data/mpip)
// and the runtime-only model on the NPB tables. The input curves' weight
// temperature is chosen for each mpiP source on the other one. Prints the
// temperature table and the totals; returns every set's series.
#include <string>
#include <vector>

#include "bench/accuracy/scoring.h"

namespace accuracy {

struct ScoredSet {
  std::string label;
  std::vector<SeriesResult> results;
};

/// `shipped`: the configuration the tool ships (with its interval rate); `uniform`: the baseline column.
std::vector<ScoredSet> RunMpipAndTables(const std::string& data, const std::string& tests,
                                        const qnm::PredictionOptions& shipped, const qnm::PredictionOptions& uniform);

}  // namespace accuracy
