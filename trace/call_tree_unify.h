#pragma once
// Call-tree unification for the parallel replay (Geimer et al. 2009, §3.1,
// "definition unification"): each analysis process discovers call paths in
// its own ranks' events and numbers them locally; the union, numbered as a
// sequential reader of ranks 0..M-1 would have numbered it, is the global tree.
#include <cstdint>
#include <vector>

#include "trace/call_paths.h"
#include "trace/trace_events.h"

namespace qnm::trace {

/// One call path: its parent's index in the same list (kNoParent for roots) and region.
struct CallPathDef {
  uint32_t parent;
  uint32_t region;
};

/// The call paths of `paths` in creation order (parents come before children).
std::vector<CallPathDef> CallPathDefs(const CallPaths& paths);

/// Builds the global call tree from per-process lists given in ascending rank
/// order; regions are copied from `regions`. `maps[i][local]` is the global id
/// of list i's call path `local`. Because each list is in first-discovery
/// order over consecutive ranks, the global ids equal a sequential read's.
CallPaths UnifyCallPaths(const CallPaths& regions, const std::vector<std::vector<CallPathDef>>& lists,
                         std::vector<std::vector<uint32_t>>* maps);

/// Rewrites the call-path ids of one rank's Enter/Leave events through `map`.
void RenumberCallPaths(const std::vector<uint32_t>& map, LocationTrace* rank);

}  // namespace qnm::trace
