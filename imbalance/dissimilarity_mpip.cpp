#include "imbalance/dissimilarity_mpip.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

#include "util/enum_names.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr const char* kComputation = "computation";

/// A call site's source location split as the mpiP reader writes it:
/// "file:line function", "0xADDRESS function", or only a function.
struct Location {
  std::string where;     // "file:line" or "0x..." or empty
  std::string function;  // may be empty, may contain spaces (C++)
  bool unresolved = false;
};

Location Split(const std::string& source_location) {
  Location location;
  std::size_t space = source_location.find(' ');
  std::string first = source_location.substr(0, space);
  bool is_address = first.rfind("0x", 0) == 0;
  std::size_t colon = first.rfind(':');
  bool is_file_line = colon != std::string::npos && colon + 1 < first.size() &&
                      std::all_of(first.begin() + static_cast<long>(colon) + 1, first.end(),
                                  [](unsigned char c) { return std::isdigit(c); });
  if (is_address || is_file_line) {
    location.where = first;
    location.unresolved = is_address;
    if (space != std::string::npos) location.function = source_location.substr(space + 1);
  } else {
    location.function = source_location;
    location.unresolved = true;
  }
  return location;
}

std::string RegionOf(const CallSiteStats& site, const MpipDissimilarityOptions& options) {
  Location location = Split(site.source_location);
  const std::string function = location.function.empty() ? "[unknown]" : location.function;
  switch (options.grouping) {
    case MpipRegionGrouping::kMpiFunction: return site.mpi_function;
    case MpipRegionGrouping::kFunction: return function;
    case MpipRegionGrouping::kCallSite: break;
  }
  if (location.unresolved && !options.unresolved_by_address) return site.mpi_function + " @ " + function;
  if (location.where.empty()) return site.mpi_function + " @ " + function;
  return site.mpi_function + " @ " + location.where + (location.function.empty() ? "" : " " + location.function);
}

/// Ranks on which `site` has time or calls.
std::vector<int> RanksOf(const CallSiteStats& site) {
  std::vector<int> ranks;
  for (std::size_t p = 0; p < site.time_s_per_rank.size(); ++p)
    if (site.time_s_per_rank[p] > 0 || (p < site.calls_per_rank.size() && site.calls_per_rank[p] > 0))
      ranks.push_back(static_cast<int>(p));
  return ranks;
}

/// The signature of per-rank call-site ids (ASLR, failed lookups; mpiP issue
/// #45, docs/formats/mpip-format.md §5): more than half of the sites are used by one
/// rank only, and some MPI function has such sites on two or more ranks.
/// Returns the number of single-rank sites, 0 when the signature is absent.
int PerRankSites(const RunStats& run, int ranks) {
  if (ranks < 2) return 0;
  int used = 0, single = 0;
  std::map<std::string, std::vector<int>> single_ranks_of;  // MPI function -> ranks of its single-rank sites
  for (const CallSiteStats& site : run.call_sites) {
    std::vector<int> on = RanksOf(site);
    if (on.empty()) continue;
    ++used;
    if (on.size() == 1) {
      ++single;
      single_ranks_of[site.mpi_function].push_back(on.front());
    }
  }
  if (2 * single <= used) return 0;
  for (auto& [function, on] : single_ranks_of) {
    std::sort(on.begin(), on.end());
    if (std::unique(on.begin(), on.end()) - on.begin() >= 2) return single;
  }
  return 0;
}

std::string SourceOf(const RunStats& run) {
  return run.sources.empty() ? (run.app.empty() ? std::string("run") : run.app.str()) : run.sources.front();
}

std::string Seconds(double value) { return FormatDouble("%.3g s", value); }

}  // namespace

constexpr EnumName<MpipRegionGrouping> kGroupingNames[] = {
    {MpipRegionGrouping::kCallSite, "callsite"},
    {MpipRegionGrouping::kFunction, "function"},
    {MpipRegionGrouping::kMpiFunction, "mpi"}};

const char* ToString(MpipRegionGrouping grouping) { return NameOf(kGroupingNames, grouping, "callsite"); }

bool ParseMpipRegionGrouping(const std::string& text, MpipRegionGrouping* grouping) {
  return ValueOf(kGroupingNames, text, grouping);
}

std::vector<std::string> MpipActivityOrder() {
  std::vector<std::string> order = {kComputation};
  for (MpiActivity activity : {MpiActivity::kPointToPoint, MpiActivity::kCollective,
                               MpiActivity::kSynchronization, MpiActivity::kRma, MpiActivity::kIo,
                               MpiActivity::kOther})
    order.push_back(ToString(activity));
  return order;
}

MpipActivityRegionTimes ActivityRegionTimesFromMpip(const RunStats& run,
                                                    const MpipDissimilarityOptions& options) {
  const std::string source = SourceOf(run);
  int ranks = run.procs;
  for (const CallSiteStats& site : run.call_sites)
    ranks = std::max(ranks, static_cast<int>(site.time_s_per_rank.size()));
  if (ranks < 1) throw InputError(source, 0, "no MPI ranks: cannot compute dissimilarity indices");
  MpipActivityRegionTimes out;
  MpipDissimilarityOptions effective = options;
  if (options.merge_per_rank_sites && options.grouping != MpipRegionGrouping::kMpiFunction) {
    if (int single = PerRankSites(run, ranks)) {
      effective.grouping = MpipRegionGrouping::kMpiFunction;
      out.notes.push_back("mpiP gave ranks their own call sites (" + std::to_string(single) +
                          " sites used by one rank only): regions are MPI functions");
    }
  }

  // Which (activity, region) pairs exist, in the fixed activity order and in
  // order of first appearance of regions.
  std::vector<std::string> order = MpipActivityOrder();
  std::vector<bool> activity_used(order.size(), false);
  std::vector<std::string> regions;
  std::map<std::string, std::size_t> region_index;
  auto region_of = [&](const std::string& name) {
    auto [it, inserted] = region_index.emplace(name, regions.size());
    if (inserted) regions.push_back(name);
    return it->second;
  };
  struct Contribution {
    std::size_t activity, region;
    const std::vector<double>* time_s_per_rank;
  };
  std::vector<Contribution> contributions;
  int sites_with_times = 0, incomplete_sites = 0;
  for (const CallSiteStats& site : run.call_sites) {
    if (site.time_s_per_rank.empty()) continue;
    if (static_cast<int>(site.time_s_per_rank.size()) > ranks)
      throw InputError(source, 0, "call site " + std::to_string(site.id) + " has times for " +
                                      std::to_string(site.time_s_per_rank.size()) + " ranks, run has " +
                                      std::to_string(ranks));
    ++sites_with_times;
    const std::string activity_name = ToString(ClassifyMpiCall(site.mpi_function));
    std::size_t activity =
        static_cast<std::size_t>(std::find(order.begin(), order.end(), activity_name) - order.begin());
    activity_used[activity] = true;
    contributions.push_back({activity, region_of(RegionOf(site, effective)), &site.time_s_per_rank});
    // The '*' row is the sum over ranks; per-rank rows hidden by mpiP -t make
    // the per-rank sum fall short (times have 3 significant digits: allow 1 %).
    double sum = std::accumulate(site.time_s_per_rank.begin(), site.time_s_per_rank.end(), 0.0);
    if (!site.ranks_complete || (Known(site.total_time_s) && sum < 0.99 * site.total_time_s - 1e-9))
      ++incomplete_sites;
  }
  if (sites_with_times == 0)
    throw InputError(source, 0, "no per-rank call-site times (mpiP call-site statistics): "
                                "cannot compute dissimilarity indices");
  if (incomplete_sites > 0)
    out.notes.push_back(std::to_string(incomplete_sites) +
                        " call site(s) lack rank rows (mpiP -t threshold?): those ranks count as 0");
  if (static_cast<int>(regions.size()) < sites_with_times)
    out.notes.push_back(std::to_string(sites_with_times) + " call sites merged into " +
                        std::to_string(regions.size()) + " regions by " + ToString(effective.grouping));

  // Computation per rank = AppTime - MPITime (non-overlapped), one region.
  std::vector<double> computation_s;
  if (options.include_computation) {
    if (run.app_time_s_per_rank.size() == static_cast<std::size_t>(ranks) &&
        run.mpi_time_s_per_rank.size() == static_cast<std::size_t>(ranks)) {
      int clamped = 0;
      for (int p = 0; p < ranks; ++p) {
        double app = run.app_time_s_per_rank[static_cast<std::size_t>(p)];
        double mpi = run.mpi_time_s_per_rank[static_cast<std::size_t>(p)];
        if (!Known(app) || !Known(mpi)) {
          computation_s.clear();
          out.notes.push_back("AppTime or MPITime unknown on rank " + std::to_string(p) +
                              ": computation left out");
          break;
        }
        if (app < mpi) ++clamped;
        computation_s.push_back(std::max(0.0, app - mpi));
      }
      if (clamped > 0 && !computation_s.empty())
        out.notes.push_back("MPITime > AppTime on " + std::to_string(clamped) +
                            " rank(s) (rounding): computation set to 0 there");
    } else {
      out.notes.push_back("no per-rank AppTime/MPITime: computation left out");
    }
  }
  const bool with_computation = !computation_s.empty();
  std::size_t computation_region = 0;
  if (with_computation) {
    activity_used[0] = true;
    computation_region = region_of(options.computation_region);
  }

  // Keep the used activities only, in the fixed order.
  std::vector<std::size_t> new_index(order.size(), 0);
  ActivityRegionTimes& times = out.times;
  for (std::size_t k = 0; k < order.size(); ++k)
    if (activity_used[k]) {
      new_index[k] = times.activities.size();
      times.activities.push_back(order[k]);
    }
  times.regions = regions;
  times.Resize(times.activities.size(), regions.size(), ranks);
  for (const Contribution& c : contributions)
    for (std::size_t p = 0; p < c.time_s_per_rank->size(); ++p)
      times.At(new_index[c.activity], c.region, static_cast<int>(p)) += std::max(0.0, (*c.time_s_per_rank)[p]);
  if (with_computation)
    for (int p = 0; p < ranks; ++p)
      times.At(new_index[0], computation_region, p) = computation_s[static_cast<std::size_t>(p)];
  if (with_computation) {
    double mean = std::accumulate(computation_s.begin(), computation_s.end(), 0.0) / ranks;
    out.notes.push_back("computation = AppTime - MPITime per rank (mean " + Seconds(mean) +
                        ") in region '" + options.computation_region + "'");
  }
  return out;
}

}  // namespace qnm
