#pragma once
// `whatif --list-regions`: the regions a hypothesis can name, with how often
// each rank enters them, their exclusive time and its imbalance over ranks.
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace_events.h"

namespace qnm::trace {

struct RegionListing {
  std::string name;
  bool is_mpi = false;
  bool is_paused = false;       // the reader's "MEASUREMENT OFF" region
  uint32_t ranks_entering = 0;  // ranks with at least one instance
  uint64_t instances_total = 0;
  uint64_t instances_min = 0, instances_max = 0;  // per rank, over all ranks (0 if a rank never enters)
  double exclusive_s = 0;       // summed over ranks
  double rank_max_s = 0;        // largest per-rank exclusive time
  double rank_mean_s = 0;       // mean per-rank exclusive time over all ranks
  double imbalance = 0;         // rank_max_s / rank_mean_s (1 = balanced; 0 if no time)
};

/// Every region with at least one instance, largest exclusive time first
/// (ties by name). Exclusive time = time with the region innermost on the
/// stack, as in the what-if report.
std::vector<RegionListing> ListRegions(const Trace& trace);

std::string RegionListTable(const std::vector<RegionListing>& regions, const std::string& trace_path,
                            std::size_t rank_count);
std::string RegionListJson(const std::vector<RegionListing>& regions, const std::string& trace_path,
                           std::size_t rank_count);

}  // namespace qnm::trace
