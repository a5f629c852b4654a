#pragma once
// Load-imbalance dissimilarity indices of Calzarossa, Massari and Tessera
// (seed 003) over activities x code regions x ranks.
#include <string>
#include <vector>

#include "ingest/run_stats.h"

namespace qnm {

/// t_ijp: time of activity i in code region j on rank p (seed 003 notation).
struct ActivityRegionTimes {
  std::vector<std::string> activities;  // "computation", "p2p", "collective", "synchronization", "rma", ...
  std::vector<std::string> regions;     // code regions / call paths / call sites
  int ranks = 0;
  std::vector<double> time_s;           // size activities x regions x ranks, index At()

  void Resize(std::size_t n_activities, std::size_t n_regions, int n_ranks) {
    ranks = n_ranks;
    time_s.assign(n_activities * n_regions * static_cast<std::size_t>(n_ranks), 0.0);
  }
  std::size_t Index(std::size_t activity, std::size_t region, int rank) const {
    return (activity * regions.size() + region) * static_cast<std::size_t>(ranks) +
           static_cast<std::size_t>(rank);
  }
  double& At(std::size_t activity, std::size_t region, int rank) { return time_s[Index(activity, region, rank)]; }
  double At(std::size_t activity, std::size_t region, int rank) const { return time_s[Index(activity, region, rank)]; }
};

}  // namespace qnm
