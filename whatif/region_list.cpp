#include "whatif/region_list.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace qnm::trace {

std::vector<RegionListing> ListRegions(const Trace& trace) {
  const CallPaths& paths = trace.call_paths;
  const std::size_t ranks = trace.ranks.size();
  // Regions with the same name (several definitions) are one name to the user.
  std::map<std::string, std::pair<std::vector<uint64_t>, std::vector<double>>> by_name;
  std::map<std::string, bool> mpi, paused;
  std::vector<std::pair<std::vector<uint64_t>, std::vector<double>>*> of_region(paths.region_count(),
                                                                              nullptr);
  for (uint32_t r = 0; r < paths.region_count(); ++r) {
    if (!paths.HasRegion(r)) continue;
    auto& entry = by_name[paths.region(r).name];
    entry.first.assign(ranks, 0);
    entry.second.assign(ranks, 0.0);
    of_region[r] = &entry;
    mpi[paths.region(r).name] = paths.region(r).is_mpi;
    paused[paths.region(r).name] = paths.region(r).category == TimeCategory::kPaused;
  }
  for (std::size_t p = 0; p < ranks; ++p) {
    const auto& events = trace.ranks[p].events;
    std::vector<uint32_t> stack;  // region ids
    for (std::size_t i = 0; i < events.size(); ++i) {
      if (i > 0 && !stack.empty() && of_region[stack.back()])
        of_region[stack.back()]->second[p] +=
            static_cast<double>(events[i].ticks - events[i - 1].ticks);
      if (events[i].kind == EventKind::kEnter) {
        uint32_t region = paths.node(events[i].ref).region;
        stack.push_back(region);
        if (of_region[region]) ++of_region[region]->first[p];
      } else if (events[i].kind == EventKind::kLeave && !stack.empty()) {
        stack.pop_back();
      }
    }
  }
  const double resolution = static_cast<double>(trace.timer_resolution);
  std::vector<RegionListing> out;
  for (const auto& [name, data] : by_name) {
    const auto& [instances, ticks] = data;
    RegionListing row;
    row.name = name;
    row.is_mpi = mpi[name];
    row.is_paused = paused[name];
    for (std::size_t p = 0; p < ranks; ++p) {
      row.ranks_entering += instances[p] > 0;
      row.instances_total += instances[p];
      double seconds = ticks[p] / resolution;
      row.exclusive_s += seconds;
      row.rank_max_s = std::max(row.rank_max_s, seconds);
    }
    if (row.instances_total == 0) continue;
    row.instances_min = *std::min_element(instances.begin(), instances.end());
    row.instances_max = *std::max_element(instances.begin(), instances.end());
    row.rank_mean_s = ranks > 0 ? row.exclusive_s / static_cast<double>(ranks) : 0.0;
    row.imbalance = row.rank_mean_s > 0 ? row.rank_max_s / row.rank_mean_s : 0.0;
    out.push_back(row);
  }
  std::stable_sort(out.begin(), out.end(), [](const RegionListing& a, const RegionListing& b) {
    return a.exclusive_s > b.exclusive_s;
  });
  return out;
}

std::string RegionListTable(const std::vector<RegionListing>& regions, const std::string& trace_path,
                            std::size_t rank_count) {
  std::ostringstream out;
  out << "Regions of " << trace_path << " (" << rank_count << " ranks; exclusive time; "
      << "imbalance = max/mean over ranks)\n";
  char line[512];
  std::snprintf(line, sizeof line, "  %-32s %5s %9s %9s %14s %14s %9s\n", "region", "ranks",
                "inst/min", "inst/max", "exclusive s", "max rank s", "max/mean");
  out << line;
  for (const RegionListing& r : regions) {
    std::string name = r.name.size() > 32 ? r.name.substr(0, 29) + "..." : r.name;
    std::snprintf(line, sizeof line, "  %-32s %5u %9llu %9llu %14.6f %14.6f %9.3f\n", name.c_str(),
                  r.ranks_entering, static_cast<unsigned long long>(r.instances_min),
                  static_cast<unsigned long long>(r.instances_max), r.exclusive_s, r.rank_max_s,
                  r.imbalance);
    out << line;
  }
  return out.str();
}

std::string RegionListJson(const std::vector<RegionListing>& regions, const std::string& trace_path,
                           std::size_t rank_count) {
  nlohmann::json j;
  j["trace"] = trace_path;
  j["ranks"] = rank_count;
  nlohmann::json rows = nlohmann::json::array();
  for (const RegionListing& r : regions)
    rows.push_back({{"region", r.name},
                    {"mpi", r.is_mpi},
                    {"ranks_entering", r.ranks_entering},
                    {"instances_total", r.instances_total},
                    {"instances_per_rank_min", r.instances_min},
                    {"instances_per_rank_max", r.instances_max},
                    {"exclusive_s", r.exclusive_s},
                    {"rank_max_s", r.rank_max_s},
                    {"rank_mean_s", r.rank_mean_s},
                    {"imbalance_max_over_mean", r.imbalance}});
  j["regions"] = rows;
  return j.dump(2) + "\n";
}

}  // namespace qnm::trace
