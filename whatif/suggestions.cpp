#include "whatif/suggestions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "imbalance/dissimilarity.h"
#include "trace/activity_times.h"
#include "trace/wait_states.h"
#include "whatif/region_list.h"
#include "whatif/whatif_simulation.h"

namespace qnm::trace {
namespace {

bool HasZeroByteMessage(const Trace& trace) {
  for (const LocationTrace& rank : trace.ranks)
    for (const Event& e : rank.events)
      if ((e.kind == EventKind::kSend || e.kind == EventKind::kIsend) &&
          e.ref < rank.messages.size() && rank.messages[e.ref].bytes == 0)
        return true;
  return false;
}

/// Waiting time (seconds, all ranks) in the MPI calls each region makes
/// directly: the wait states' call paths, blamed on their caller's region
/// (the computation before a wait is in it). Top-level patterns only (a Late
/// Sender's wrong-order parts are in it already); not MPI_Init's completion.
std::map<std::string, double> WaitingByCaller(const Trace& trace, const WaitStateResult& waits) {
  static const Pattern kBlamed[] = {
      Pattern::kLateSender,   Pattern::kLateReceiver,    Pattern::kBarrierWait,
      Pattern::kWaitNxN,      Pattern::kLateBroadcast,   Pattern::kEarlyReduce,
      Pattern::kEarlyScan,    Pattern::kFinalizeWait,    Pattern::kRmaWaitAtCreate,
      Pattern::kRmaWaitAtFree, Pattern::kRmaWaitAtFence, Pattern::kRmaLateComplete,
      Pattern::kRmaEarlyWait, Pattern::kRmaSyncLatePost, Pattern::kRmaCommLatePost};
  const CallPaths& paths = trace.call_paths;
  std::map<std::string, double> out;
  for (Pattern pattern : kBlamed)
    for (const auto& [key, seconds] : waits.severity[static_cast<std::size_t>(pattern)]) {
      uint32_t cnode = static_cast<uint32_t>(key >> 32);
      if (cnode >= paths.size() || paths.node(cnode).parent == CallPaths::kNoParent) continue;
      out[paths.RegionOf(paths.node(cnode).parent).name] += seconds;
    }
  return out;
}

/// Late Sender waiting (seconds, all receivers) by the region the late sender
/// was computing in: the parent of the call that completed its send.
std::map<std::string, double> LateSendersRegions(const Trace& trace, const WaitStateResult& waits) {
  const CallPaths& paths = trace.call_paths;
  std::map<std::string, double> out;
  for (const auto& [cnode, seconds] : waits.late_sender_cause_s) {
    if (cnode >= paths.size() || paths.node(cnode).parent == CallPaths::kNoParent) continue;
    out[paths.RegionOf(paths.node(cnode).parent).name] += seconds;
  }
  return out;
}

/// A region `--suggest` may balance: computation (not MPI, not measurement-off)
/// that two or more ranks enter.
bool Balanceable(const RegionListing& r) { return !r.is_mpi && !r.is_paused && r.ranks_entering >= 2; }

bool Listed(const std::vector<RegionListing>& proposed, const std::string& name) {
  return std::any_of(proposed.begin(), proposed.end(), [&](const RegionListing& r) { return r.name == name; });
}

/// Of the balanceable regions with a positive `score`, the `max_regions` with
/// the largest (ties: listing order), each appended to `proposed` unless it is there.
void ProposeMostFirst(const std::vector<RegionListing>& regions, const std::map<std::string, double>& score,
                      std::size_t max_regions, std::vector<RegionListing>* proposed) {
  std::vector<std::pair<double, const RegionListing*>> ranked;
  for (const RegionListing& r : regions) {
    auto it = score.find(r.name);
    if (Balanceable(r) && it != score.end() && it->second > 0) ranked.push_back({it->second, &r});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < ranked.size() && i < max_regions; ++i)
    if (!Listed(*proposed, ranked[i].second->name)) proposed->push_back(*ranked[i].second);
}

}  // namespace

SuggestionReport SuggestHypotheses(const Trace& trace, std::size_t max_regions) {
  std::vector<RegionListing> regions = ListRegions(trace);
  std::vector<RegionListing> imbalanced;
  for (const RegionListing& r : regions)
    if (Balanceable(r) && r.rank_max_s > r.rank_mean_s) imbalanced.push_back(r);
  std::stable_sort(imbalanced.begin(), imbalanced.end(),
                   [](const RegionListing& a, const RegionListing& b) {
                     return a.rank_max_s - a.rank_mean_s > b.rank_max_s - b.rank_mean_s;
                   });
  if (imbalanced.size() > max_regions) imbalanced.resize(max_regions);
  // Regions the wait states blame, most waiting first, if not proposed yet.
  const WaitStateResult waits = AnalyzeWaitStates(trace);
  std::map<std::string, double> waiting = WaitingByCaller(trace, waits);
  ProposeMostFirst(regions, waiting, max_regions, &imbalanced);
  // The late senders' regions: where the rank that made the others wait was computing.
  std::map<std::string, double> caused = LateSendersRegions(trace, waits);
  ProposeMostFirst(regions, caused, max_regions, &imbalanced);
  // Regions the dissimilarity ranking puts first (scaled index SID_C over all
  // activities, Calzarossa et al. 2004, eq. 6): imbalance weighted by the
  // region's share of the time, wherever it shows (computation or the MPI
  // calls it makes). The ranking's regions are call paths; the leaf names the region.
  std::map<std::string, int> dissimilarity_rank;
  {
    DissimilarityResult ranking = ComputeDissimilarity(ActivityTimesFromTrace(trace, waits), DissimilarityOptions());
    std::size_t added = 0;
    for (int index : ranking.region_ranking) {
      if (added >= max_regions) break;
      const std::string& path = ranking.regions[index].name;
      const std::string leaf = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
      if (dissimilarity_rank.count(leaf)) continue;
      dissimilarity_rank[leaf] = static_cast<int>(dissimilarity_rank.size()) + 1;
      for (const RegionListing& r : regions) {
        if (r.name != leaf || !Balanceable(r)) continue;
        if (!Listed(imbalanced, leaf)) {
          imbalanced.push_back(r);
          ++added;
        }
        break;
      }
    }
  }

  std::vector<Suggestion> candidates;
  for (const RegionListing& r : imbalanced) {
    Suggestion s;
    s.hypothesis.kind = HypothesisKind::kBalanceRegion;
    s.hypothesis.region = r.name;
    bool same_shape = r.instances_min == r.instances_max;
    s.hypothesis.balance_mode = same_shape ? BalanceMode::kGlobalInstance : BalanceMode::kScaled;
    char reason[320];
    std::snprintf(reason, sizeof reason,
                  "exclusive time max/mean %.3f over ranks (max - mean %.6g s); its MPI calls wait "
                  "%.6g s%s",
                  r.imbalance, r.rank_max_s - r.rank_mean_s, waiting[r.name],
                  same_shape ? "" : "; instance counts differ across ranks: scaled mode");
    s.reason = reason;
    if (caused[r.name] > 0) {
      std::snprintf(reason, sizeof reason, "; late senders computed here: receivers waited %.6g s", caused[r.name]);
      s.reason += reason;
    }
    if (auto it = dissimilarity_rank.find(r.name); it != dissimilarity_rank.end())
      s.reason += "; dissimilarity ranking #" + std::to_string(it->second);
    candidates.push_back(s);
  }
  if (HasZeroByteMessage(trace)) {
    Suggestion s;
    s.hypothesis.kind = HypothesisKind::kCutMessages;
    s.hypothesis.field = MessageField::kSize;
    s.hypothesis.relation = Relation::kEq;
    s.hypothesis.value = 0;
    s.reason = "zero-byte messages only synchronise";
    candidates.push_back(s);
  }

  SuggestionReport report;
  for (Suggestion& s : candidates) {
    WhatifOptions options;
    options.hypotheses = {s.hypothesis};
    options.analyze_wait_states = false;
    WhatifResult result = SimulateWhatif(trace, options);
    report.original_runtime_s = result.summary.original_runtime_s;
    s.simulated_runtime_s = result.summary.simulated_runtime_s;
    s.gain_s = result.summary.gain_s;
    s.gain_percent = result.summary.gain_percent;
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Suggestion& a, const Suggestion& b) { return a.gain_s > b.gain_s; });
  report.ranked = std::move(candidates);
  return report;
}

std::string SuggestionTable(const SuggestionReport& report, const std::string& trace_path) {
  std::ostringstream out;
  out << "Suggested hypotheses for " << trace_path << ", by simulated gain\n";
  if (report.ranked.empty()) {
    out << "  none: no computation region is imbalanced over ranks or waits in its MPI calls, "
           "and no message is empty\n";
    return out.str();
  }
  char line[512];
  std::snprintf(line, sizeof line, "  original run time %.6f s\n", report.original_runtime_s);
  out << line;
  std::snprintf(line, sizeof line, "  %4s %12s %8s  %s\n", "rank", "gain s", "gain %", "hypothesis (reason)");
  out << line;
  for (std::size_t i = 0; i < report.ranked.size(); ++i) {
    const Suggestion& s = report.ranked[i];
    // A gain that rounds to zero prints as 0.00, not -0.00.
    const double percent = std::fabs(s.gain_percent) < 0.005 ? 0.0 : s.gain_percent;
    const double gain_s = std::fabs(s.gain_s) < 5e-7 ? 0.0 : s.gain_s;
    std::snprintf(line, sizeof line, "  %4zu %12.6f %8.2f  ", i + 1, gain_s, percent);
    out << line << s.hypothesis.Describe() << " (" << s.reason << ")\n";
  }
  return out.str();
}

std::string SuggestionJson(const SuggestionReport& report, const std::string& trace_path) {
  nlohmann::json j;
  j["trace"] = trace_path;
  j["original_runtime_s"] = report.original_runtime_s;
  nlohmann::json rows = nlohmann::json::array();
  for (const Suggestion& s : report.ranked)
    rows.push_back({{"hypothesis", s.hypothesis.Describe()},
                    {"reason", s.reason},
                    {"simulated_runtime_s", s.simulated_runtime_s},
                    {"gain_s", s.gain_s},
                    {"gain_percent", s.gain_percent}});
  j["suggestions"] = rows;
  return j.dump(2) + "\n";
}

}  // namespace qnm::trace
