#pragma once
// Region names a hypothesis can refer to, and the closest ones for an error
// message when it names none of them.
#include <string>
#include <vector>

#include "trace/trace_events.h"
#include "whatif/whatif_hypothesis.h"

namespace qnm::trace {

/// Levenshtein distance (insert, delete, substitute: 1 each), case-insensitive.
std::size_t EditDistance(const std::string& a, const std::string& b);

/// Up to `count` of `names` closest to `wanted` by EditDistance (ties: by name).
std::vector<std::string> ClosestNames(const std::vector<std::string>& names,
                                      const std::string& wanted, std::size_t count = 3);

/// Every defined region name of the trace, sorted, without duplicates.
std::vector<std::string> RegionNames(const Trace& trace);

/// Throws InputError(h.source, h.line, ...) if `h` names a region the trace
/// does not define: one line with the closest names. No-op for hypotheses
/// without a region.
void RequireRegionNamed(const Trace& trace, const Hypothesis& h);

}  // namespace qnm::trace
