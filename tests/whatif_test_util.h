#pragma once
// Shared by the what-if tests: traces built in memory, and one pattern's total
// waiting time before or after.
#include <otf2/otf2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "whatif/whatif_simulation.h"

namespace qnm::trace::testutil {

/// A trace built in memory for `ranks` ranks in MPI_COMM_WORLD, ticks in ns,
/// region k named `regions[k]`: MPI_Barrier with the barrier role, any other
/// "MPI_" name point-to-point, the rest user regions. The test adds call paths
/// (trace.call_paths.Child) and each rank's events.
inline Trace InMemoryTrace(std::uint32_t ranks, const std::vector<std::string>& regions) {
  Trace trace;
  trace.path = "in-memory";
  trace.timer_resolution = 1000000000;
  for (std::uint32_t k = 0; k < regions.size(); ++k) {
    const std::string& name = regions[k];
    const bool mpi = name.rfind("MPI_", 0) == 0;
    const std::uint8_t role = name == "MPI_Barrier" ? OTF2_REGION_ROLE_BARRIER
                              : mpi                 ? OTF2_REGION_ROLE_POINT2POINT
                                                    : OTF2_REGION_ROLE_UNKNOWN;
    trace.call_paths.SetRegion(k, DescribeRegion(name, role, mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_UNKNOWN));
  }
  std::vector<std::uint32_t> world;
  for (std::uint32_t p = 0; p < ranks; ++p) world.push_back(p);
  trace.comms = {Communicator{"MPI_COMM_WORLD", world, false}};
  trace.ranks.resize(ranks);
  return trace;
}

/// Total of `pattern` over all call paths and ranks, original or simulated; 0 if absent.
inline double PatternTotal(const WhatifResult& result, Pattern pattern, bool simulated) {
  for (const WaitChange& w : result.pattern_totals)
    if (w.pattern == pattern) return simulated ? w.simulated_s : w.original_s;
  return 0;
}

}  // namespace qnm::trace::testutil
