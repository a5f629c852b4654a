#pragma once
// Shared by the what-if tests: one pattern's total waiting time before or after.
#include "whatif/whatif_simulation.h"

namespace qnm::trace::testutil {

/// Total of `pattern` over all call paths and ranks, original or simulated; 0 if absent.
inline double PatternTotal(const WhatifResult& result, Pattern pattern, bool simulated) {
  for (const WaitChange& w : result.pattern_totals)
    if (w.pattern == pattern) return simulated ? w.simulated_s : w.original_s;
  return 0;
}

}  // namespace qnm::trace::testutil
