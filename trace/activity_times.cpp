#include "trace/activity_times.h"

#include <map>

namespace qnm::trace {
namespace {

enum Activity : std::size_t { kComputation, kP2p, kCollective, kSynchronization, kRma, kOther, kActivities };
const char* const kActivityNames[kActivities] = {"computation", "p2p", "collective",
                                                 "synchronization", "rma", "other"};

Activity ActivityOf(const Region& region) {
  if (!region.is_mpi) return kComputation;
  // ClassifyMpiCall is the project-wide split that mpiP ingest uses too.
  switch (ClassifyMpiCall(region.name)) {
    case MpiActivity::kPointToPoint: return kP2p;
    case MpiActivity::kCollective: return kCollective;
    case MpiActivity::kSynchronization: return kSynchronization;
    case MpiActivity::kRma: return kRma;
    default: return kOther;
  }
}

}  // namespace

ActivityRegionTimes ActivityTimesFromTrace(const Trace& trace, const WaitStateResult& profile) {
  const CallPaths& paths = trace.call_paths;
  const uint32_t ranks = profile.ranks;
  // Code region of each call path; the top level (MPI outside any user region) is its own.
  std::map<uint32_t, std::size_t> region_index;
  std::vector<std::string> region_names;
  std::vector<std::size_t> region_of(paths.size(), 0);
  std::vector<Activity> activity_of(paths.size(), kComputation);
  std::vector<bool> skip(paths.size(), false);
  for (uint32_t c = 0; c < paths.size(); ++c) {
    const Region& region = paths.RegionOf(c);
    if (region.call_class == CallClass::kPausing) {
      skip[c] = true;
      continue;
    }
    uint32_t code = paths.CodeRegionOf(c);
    auto [it, added] = region_index.emplace(code, region_names.size());
    if (added) region_names.push_back(code == CallPaths::kNoParent ? "(top level)" : paths.PathString(code));
    region_of[c] = it->second;
    activity_of[c] = ActivityOf(region);
  }
  bool any_outside = false;
  for (double outside : profile.outside_time_s) any_outside = any_outside || outside > 0;
  std::size_t outside_region = 0;
  if (any_outside) {  // time outside every region is computation at the top level
    auto [it, added] = region_index.emplace(CallPaths::kNoParent, region_names.size());
    if (added) region_names.push_back("(top level)");
    outside_region = it->second;
  }
  bool any_other = false;
  for (uint32_t c = 0; c < paths.size(); ++c)
    for (uint32_t r = 0; r < ranks && !skip[c]; ++r)
      if (activity_of[c] == kOther && profile.ExclusiveTime(c, r) > 0) any_other = true;

  ActivityRegionTimes times;
  std::size_t activities = any_other ? kActivities : kOther;
  times.activities.assign(kActivityNames, kActivityNames + activities);
  times.regions = region_names;
  times.Resize(activities, region_names.size(), static_cast<int>(ranks));
  for (uint32_t c = 0; c < paths.size(); ++c) {
    if (skip[c] || activity_of[c] >= activities) continue;
    for (uint32_t r = 0; r < ranks; ++r)
      times.At(activity_of[c], region_of[c], static_cast<int>(r)) += profile.ExclusiveTime(c, r);
  }
  if (any_outside)
    for (uint32_t r = 0; r < ranks; ++r)
      times.At(kComputation, outside_region, static_cast<int>(r)) += profile.outside_time_s[r];
  return times;
}

}  // namespace qnm::trace
