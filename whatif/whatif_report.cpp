#include "whatif/whatif_report.h"

#include <cstdarg>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace qnm::trace {
namespace {

std::string Row(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string Row(const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return buffer;
}

std::string RankLabel(uint32_t rank) { return rank == kNone ? "all" : std::to_string(rank); }

}  // namespace

std::string WhatifTable(const WhatifResult& result, int top) {
  const WhatifSummary& s = result.summary;
  std::ostringstream out;
  out << "What-if simulation (SILAS-style replay)\n";
  if (result.hypotheses.empty()) out << "  hypotheses: none (identity replay)\n";
  for (const std::string& h : result.hypotheses) out << "  hypothesis: " << h << "\n";
  out << Row("  original run time   %12.6f s\n", s.original_runtime_s)
      << Row("  predicted run time  %12.6f s\n", s.simulated_runtime_s)
      << Row("  gain                %12.6f s  (%.2f %%)\n", s.gain_s, s.gain_percent)
      << Row("  dependencies %llu, messages matched %llu, cut %llu, collectives %llu",
             static_cast<unsigned long long>(s.dependencies),
             static_cast<unsigned long long>(s.messages_matched),
             static_cast<unsigned long long>(s.messages_cut),
             static_cast<unsigned long long>(s.collective_instances))
      << (s.region_instances_cut || s.collectives_cut
              ? Row(", region instances cut %llu, collectives cut %llu",
                    static_cast<unsigned long long>(s.region_instances_cut),
                    static_cast<unsigned long long>(s.collectives_cut))
              : std::string())
      << (s.deadlocks_broken ? Row(", cycles broken %llu",
                                   static_cast<unsigned long long>(s.deadlocks_broken))
                             : std::string())
      << "\n\nPer rank end time (s)\n" << Row("  %6s %14s %14s %12s\n", "rank", "original",
                                               "predicted", "change");
  for (std::size_t p = 0; p < result.original_end_s.size(); ++p)
    out << Row("  %6zu %14.6f %14.6f %+12.6f\n", p, result.original_end_s[p],
               result.simulated_end_s[p], result.simulated_end_s[p] - result.original_end_s[p]);
  out << "\nRegions, exclusive time over all ranks (s), biggest changes\n"
      << Row("  %-32s %14s %14s %12s\n", "region", "original", "predicted", "change");
  int shown = 0;
  for (const RegionTimeChange& r : result.regions) {
    if (shown++ >= top) break;
    out << Row("  %-32s %14.6f %14.6f %+12.6f\n", r.region.c_str(), r.original_s, r.simulated_s,
               r.simulated_s - r.original_s);
  }
  if (!result.pattern_totals.empty()) {
    out << "\nWait states (s)\n"
        << Row("  %-34s %14s %14s %12s\n", "pattern", "original", "predicted", "change");
    for (const WaitChange& w : result.pattern_totals)
      out << Row("  %-34s %14.6f %14.6f %+12.6f\n", InfoOf(w.pattern).display_name, w.original_s,
                 w.simulated_s, w.simulated_s - w.original_s);
  }
  if (!result.wait_changes.empty()) {
    out << "\nBiggest changes in waiting time (s)\n"
        << Row("  %-22s %-30s %5s %12s %12s\n", "pattern", "call path", "rank", "original",
               "predicted");
    shown = 0;
    for (const WaitChange& w : result.wait_changes) {
      if (shown++ >= top) break;
      out << Row("  %-22s %-30s %5s %12.6f %12.6f\n", InfoOf(w.pattern).display_name,
                 w.call_path.c_str(), RankLabel(w.rank).c_str(), w.original_s, w.simulated_s);
    }
  }
  out << "\n" << s.message << "\n";
  return out.str();
}

std::string WhatifJson(const WhatifResult& result, int top) {
  const WhatifSummary& s = result.summary;
  nlohmann::json j;
  j["hypotheses"] = result.hypotheses;
  j["original_runtime_s"] = s.original_runtime_s;
  j["predicted_runtime_s"] = s.simulated_runtime_s;
  j["gain_s"] = s.gain_s;
  j["gain_percent"] = s.gain_percent;
  j["dependencies"] = s.dependencies;
  j["messages_matched"] = s.messages_matched;
  j["messages_cut"] = s.messages_cut;
  j["collective_instances"] = s.collective_instances;
  j["collectives_incomplete"] = s.collectives_incomplete;
  j["collectives_cut"] = s.collectives_cut;
  j["region_instances_cut"] = s.region_instances_cut;
  j["cycles_broken"] = s.deadlocks_broken;
  j["message"] = s.message;
  nlohmann::json ranks = nlohmann::json::array();
  for (std::size_t p = 0; p < result.original_end_s.size(); ++p)
    ranks.push_back({{"rank", p},
                     {"original_end_s", result.original_end_s[p]},
                     {"predicted_end_s", result.simulated_end_s[p]}});
  j["ranks"] = ranks;
  nlohmann::json regions = nlohmann::json::array();
  for (const RegionTimeChange& r : result.regions)
    regions.push_back({{"region", r.region},
                       {"original_s", r.original_s},
                       {"predicted_s", r.simulated_s}});
  j["regions"] = regions;
  nlohmann::json patterns = nlohmann::json::object();
  for (const WaitChange& w : result.pattern_totals)
    patterns[InfoOf(w.pattern).id] = {{"original_s", w.original_s}, {"predicted_s", w.simulated_s}};
  j["wait_states"] = patterns;
  nlohmann::json changes = nlohmann::json::array();
  int shown = 0;
  for (const WaitChange& w : result.wait_changes) {
    if (shown++ >= top) break;
    changes.push_back({{"pattern", InfoOf(w.pattern).id},
                       {"call_path", w.call_path},
                       {"rank", w.rank},
                       {"original_s", w.original_s},
                       {"predicted_s", w.simulated_s}});
  }
  j["wait_changes"] = changes;
  return j.dump(1) + "\n";
}

}  // namespace qnm::trace
