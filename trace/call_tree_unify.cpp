#include "trace/call_tree_unify.h"

namespace qnm::trace {

std::vector<CallPathDef> CallPathDefs(const CallPaths& paths) {
  std::vector<CallPathDef> defs(paths.size());
  for (uint32_t c = 0; c < paths.size(); ++c) defs[c] = CallPathDef{paths.node(c).parent, paths.node(c).region};
  return defs;
}

CallPaths UnifyCallPaths(const CallPaths& regions, const std::vector<std::vector<CallPathDef>>& lists,
                         std::vector<std::vector<uint32_t>>* maps) {
  CallPaths global;
  for (uint32_t id = 0; id < regions.region_count(); ++id)
    if (regions.HasRegion(id)) global.SetRegion(id, regions.region(id));
  maps->assign(lists.size(), {});
  for (std::size_t i = 0; i < lists.size(); ++i) {
    std::vector<uint32_t>& map = (*maps)[i];
    map.reserve(lists[i].size());
    for (const CallPathDef& def : lists[i]) {
      // Parents precede children; a bad parent index means a corrupt list.
      uint32_t parent = def.parent < map.size() ? map[def.parent] : CallPaths::kNoParent;
      map.push_back(global.Child(parent, def.region));
    }
  }
  return global;
}

void RenumberCallPaths(const std::vector<uint32_t>& map, LocationTrace* rank) {
  for (Event& event : rank->events)
    if ((event.kind == EventKind::kEnter || event.kind == EventKind::kLeave) && event.ref < map.size())
      event.ref = map[event.ref];
}

}  // namespace qnm::trace
