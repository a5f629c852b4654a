#pragma once
// The measured runs' POP efficiencies in a series' section of the report (efficiency/pop_efficiency.h):
// where the time of the runs already went, beside what the model predicts.
#include <string>
#include <vector>

#include "efficiency/pop_efficiency.h"

namespace qnm::report {

/// `<h3>Efficiencies of the measured runs</h3>`: a table per process count (runtime, load balance,
/// communication, parallel, computation scalability, global efficiency, speedup) and a chart of the
/// factors over P; empty when `efficiencies` is.
std::string EfficiencyPart(const std::vector<PopEfficiency>& efficiencies);

}  // namespace qnm::report
