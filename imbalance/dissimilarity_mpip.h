#pragma once
// Builds the Calzarossa et al. 2004 input t_ijp (activities x code regions x ranks) from a
// run-statistics record with per-rank call-site data (an mpiP report): the
// MPI activities come from the call sites' MPI functions (ClassifyMpiCall),
// computation per rank is AppTime - MPITime in one whole-program region.
#include <string>
#include <vector>

#include "imbalance/dissimilarity.h"
#include "record/run_stats.h"

namespace qnm {

/// What a code region is. mpiP ids are only meaningful inside one report and
/// may even differ per rank (ASLR), so regions are keyed by source location.
enum class MpipRegionGrouping {
  kCallSite,     // MPI call at a source location: "Allreduce @ cg.f:1242 conj_grad_" (default)
  kFunction,     // the function that makes the MPI calls: "conj_grad_" (routines, as Calzarossa et al. 2004, §4.2)
  kMpiFunction,  // the MPI function: "Allreduce" (MPI statements, as Calzarossa et al. 2004, §4.1)
};
const char* ToString(MpipRegionGrouping grouping);
/// Parses "callsite", "function", "mpi"; false if unknown.
bool ParseMpipRegionGrouping(const std::string& text, MpipRegionGrouping* grouping);

struct MpipDissimilarityOptions {
  MpipRegionGrouping grouping = MpipRegionGrouping::kCallSite;
  /// Add activity "computation" = AppTime - MPITime per rank (Calzarossa et al. 2004, §4.3
  /// treats computation as an activity) in region `computation_region`.
  bool include_computation = true;
  std::string computation_region = "application";
  /// Keep unresolved call sites apart by address. Off by default: with ASLR
  /// each rank has its own addresses, which would make every such site look
  /// maximally imbalanced; off merges them by (MPI call, function).
  bool unresolved_by_address = false;
  /// When mpiP gave every rank its own call sites (mpiP issue #45: most sites
  /// have time on one rank only, and one MPI function has such sites on
  /// several ranks), key regions by MPI function: a statement split per rank
  /// would otherwise look maximally imbalanced.
  bool merge_per_rank_sites = true;
};

struct MpipActivityRegionTimes {
  ActivityRegionTimes times;
  std::vector<std::string> notes;  // what was merged, clamped or left out, and why
};

/// Activity names in the fixed order they appear in a result.
std::vector<std::string> MpipActivityOrder();

/// Builds t_ijp from `run` (seconds). Throws InputError naming the run's
/// first source file when it has no ranks or no per-rank call-site times.
MpipActivityRegionTimes ActivityRegionTimesFromMpip(const RunStats& run,
                                                    const MpipDissimilarityOptions& options);

}  // namespace qnm
