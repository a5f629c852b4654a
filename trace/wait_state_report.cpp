#include "trace/wait_state_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>

#include "imbalance/dissimilarity_report.h"
#include "util/enum_names.h"
#include "util/text_format.h"

namespace qnm::trace {
namespace {

// The time categories of Scalasca's metric tree (scout.spec.in) that we fill;
// leaves take their value from the exclusive time of the matching call paths.
struct CategoryNode {
  const char* id;
  const char* name;
  const char* parent;
};
const CategoryNode kCategories[] = {
    {"time", "Time", ""},
    {"comp", "Computation (incl. time outside any region)", "time"},
    {"measurement_off", "Measurement off", "time"},
    {"mpi", "MPI", "time"},
    {"mpi_management", "Management", "mpi"},
    {"mpi_init_exit", "Init/Finalize", "mpi_management"},
    {"mpi_mgmt_comm", "Communicator", "mpi_management"},
    {"mpi_mgmt_file", "File", "mpi_management"},
    {"mpi_mgmt_win", "Window", "mpi_management"},
    {"mpi_synchronization", "Synchronization", "mpi"},
    {"mpi_sync_collective", "Collective", "mpi_synchronization"},
    {"mpi_rma_synchronization", "One-sided", "mpi_synchronization"},
    {"mpi_rma_sync_active", "Active Target", "mpi_rma_synchronization"},
    {"mpi_rma_sync_passive", "Passive Target", "mpi_rma_synchronization"},
    {"mpi_communication", "Communication", "mpi"},
    {"mpi_point2point", "Point-to-point", "mpi_communication"},
    {"mpi_collective", "Collective", "mpi_communication"},
    {"mpi_rma_communication", "One-sided", "mpi_communication"},
    {"mpi_io", "File I/O", "mpi"},
    {"mpi_other", "Other MPI", "mpi"},
};

/// One unit for a whole column, from its largest value: a column that mixed
/// "0.713 ms" and "95.210 us" could not be compared at a glance (issue 22).
struct TimeUnit {
  double per_second = 1;
  const char* name = "s";
};

TimeUnit UnitFor(const std::vector<double>& seconds) {
  double largest = 0;
  for (double v : seconds) largest = std::max(largest, std::fabs(v));
  if (largest > 0 && largest < 1e-3) return {1e6, "us"};
  if (largest > 0 && largest < 1) return {1e3, "ms"};
  return {};
}

std::string InUnit(double seconds, const TimeUnit& unit) {
  const double value = seconds * unit.per_second;
  if (value != 0 && std::fabs(value) < 0.0005) return "<0.001";  // not 0: something was measured
  return FormatDouble("%.3f", value);
}

std::string Pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

bool IsTopPattern(Pattern pattern) {  // patterns whose parent is a time category
  const std::string parent = InfoOf(pattern).parent_id;
  for (std::size_t p = 0; p < kPatternCount; ++p)
    if (parent == InfoOf(static_cast<Pattern>(p)).id) return false;
  return true;
}

/// Waiting time (top-level patterns only, so nothing is counted twice) per call path and per rank.
void WaitingTotals(const WaitStateResult& result, std::vector<double>* by_cnode,
                   std::vector<double>* by_rank, std::vector<std::vector<double>>* pattern_by_cnode) {
  by_cnode->assign(result.cnodes, 0.0);
  by_rank->assign(result.ranks, 0.0);
  pattern_by_cnode->assign(kPatternCount, std::vector<double>(result.cnodes, 0.0));
  for (std::size_t p = 0; p < kPatternCount; ++p) {
    bool top = IsTopPattern(static_cast<Pattern>(p));
    for (const auto& [key, value] : result.severity[p]) {
      uint32_t cnode = static_cast<uint32_t>(key >> 32), rank = static_cast<uint32_t>(key & 0xFFFFFFFFu);
      (*pattern_by_cnode)[p][cnode] += value;
      if (!top) continue;
      (*by_cnode)[cnode] += value;
      (*by_rank)[rank] += value;
    }
  }
}

std::vector<uint32_t> TopIndices(const std::vector<double>& values, int top) {
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < values.size(); ++i)
    if (values[i] > 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return values[a] > values[b]; });
  if (top > 0 && order.size() > static_cast<std::size_t>(top)) order.resize(top);
  return order;
}

double InclusiveRankTime(const WaitStateResult& result, uint32_t rank) {
  double total = rank < result.outside_time_s.size() ? result.outside_time_s[rank] : 0.0;
  for (uint32_t c = 0; c < result.cnodes; ++c) total += result.ExclusiveTime(c, rank);
  return total;
}

}  // namespace

bool ParseReportFormat(const std::string& text, ReportFormat* format) {
  static constexpr EnumName<ReportFormat> kNames[] = {
      {ReportFormat::kTable, "table"}, {ReportFormat::kJson, "json"}, {ReportFormat::kCsv, "csv"}};
  return ValueOf(kNames, text, format);
}

std::vector<MetricNode> MetricTree(const Trace& trace, const WaitStateResult& result) {
  std::map<std::string, double> category_value;
  for (uint32_t c = 0; c < result.cnodes; ++c) {
    const char* id = MetricIdOf(trace.call_paths.RegionOf(c).category);
    for (uint32_t r = 0; r < result.ranks; ++r) category_value[id] += result.ExclusiveTime(c, r);
  }
  for (double outside : result.outside_time_s) category_value["comp"] += outside;
  // Children of each node: categories first, then patterns, in table order.
  std::map<std::string, std::vector<MetricNode>> children;
  for (const CategoryNode& node : kCategories)
    children[node.parent].push_back(MetricNode{node.id, node.name, node.parent, 0, 0.0, false});
  for (std::size_t p = 0; p < kPatternCount; ++p) {
    const PatternInfo& info = InfoOf(static_cast<Pattern>(p));
    children[info.parent_id].push_back(
        MetricNode{info.id, info.display_name, info.parent_id, 0, result.Total(info.pattern), true});
  }
  // Category values: own exclusive time plus the categories below (patterns are subsets).
  std::vector<MetricNode> tree;
  std::function<double(MetricNode, int)> visit = [&](MetricNode node, int depth) {
    node.depth = depth;
    std::size_t slot = tree.size();
    tree.push_back(node);
    double sum = node.is_pattern ? node.value_s : category_value[node.id];
    for (const MetricNode& child : children[node.id]) {
      double child_value = visit(child, depth + 1);
      if (!node.is_pattern && !child.is_pattern) sum += child_value;
    }
    tree[slot].value_s = sum;
    return sum;
  };
  visit(children[""].front(), 0);
  return tree;
}

nlohmann::json TraceReportJson(const TraceReportInput& input) {
  const Trace& trace = *input.trace;
  const WaitStateResult& result = *input.result;
  nlohmann::json out;
  out["trace"] = trace.path;
  out["creator"] = trace.creator;
  out["ranks"] = trace.ranks.size();
  out["records"] = trace.RawEventCount();
  out["timer_resolution"] = trace.timer_resolution;
  out["units"] = "seconds";
  std::vector<MetricNode> tree = MetricTree(trace, result);
  double time_s = tree.front().value_s;
  nlohmann::json metrics = nlohmann::json::object();
  for (const MetricNode& node : tree)
    metrics[node.id] = {{"name", node.name}, {"parent", node.parent_id}, {"value", node.value_s},
                        {"percent_of_time", time_s > 0 ? 100.0 * node.value_s / time_s : 0.0},
                        {"pattern", node.is_pattern}};
  out["metrics"] = metrics;
  // Same shape as expected_patterns.json: per pattern, total and instances.
  nlohmann::json patterns = nlohmann::json::object();
  for (std::size_t p = 0; p < kPatternCount; ++p) {
    std::vector<std::pair<uint64_t, double>> entries(result.severity[p].begin(), result.severity[p].end());
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      return (a.first & 0xFFFFFFFFu) != (b.first & 0xFFFFFFFFu) ? (a.first & 0xFFFFFFFFu) < (b.first & 0xFFFFFFFFu)
                                                                 : a.first < b.first;
    });
    nlohmann::json instances = nlohmann::json::array();
    double total = 0;
    for (const auto& [key, value] : entries) {
      instances.push_back({{"rank", key & 0xFFFFFFFFu},
                           {"callpath", trace.call_paths.PathString(static_cast<uint32_t>(key >> 32))},
                           {"value", value}});
      total += value;
    }
    patterns[InfoOf(static_cast<Pattern>(p)).id] = {{"total", total}, {"instances", instances}};
  }
  out["patterns"] = patterns;
  std::vector<double> by_cnode, by_rank;
  std::vector<std::vector<double>> pattern_by_cnode;
  WaitingTotals(result, &by_cnode, &by_rank, &pattern_by_cnode);
  nlohmann::json worst_paths = nlohmann::json::array();
  for (uint32_t c : TopIndices(by_cnode, input.top)) {
    double time = 0;
    for (uint32_t r = 0; r < result.ranks; ++r) time += result.ExclusiveTime(c, r);
    worst_paths.push_back({{"callpath", trace.call_paths.PathString(c)}, {"waiting", by_cnode[c]},
                           {"time", time}});
  }
  out["worst_callpaths"] = worst_paths;
  nlohmann::json worst_ranks = nlohmann::json::array();
  for (uint32_t r : TopIndices(by_rank, input.top))
    worst_ranks.push_back({{"rank", r}, {"waiting", by_rank[r]}, {"time", InclusiveRankTime(result, r)}});
  out["worst_ranks"] = worst_ranks;
  out["matching"] = {{"messages_matched", result.messages_matched},
                     {"unmatched_sends", result.unmatched_sends},
                     {"unmatched_receives", result.unmatched_receives},
                     {"collective_instances", result.collective_instances},
                     {"collectives_skipped", result.collectives_skipped},
                     {"rma_epochs_matched", result.rma_epochs_matched}};
  std::vector<std::string> warnings = trace.warnings;
  warnings.insert(warnings.end(), result.warnings.begin(), result.warnings.end());
  out["warnings"] = warnings;
  if (input.dissimilarity) out["dissimilarity"] = DissimilarityToJson(*input.dissimilarity);
  return out;
}

std::vector<std::string> UserRegionNames(const Trace& trace) {
  std::vector<std::string> names;
  for (std::size_t id = 0; id < trace.call_paths.region_count(); ++id)
    if (trace.call_paths.HasRegion(uint32_t(id)) && !trace.call_paths.region(uint32_t(id)).is_mpi)
      names.push_back(trace.call_paths.region(uint32_t(id)).name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::string TraceReportTable(const TraceReportInput& input) {
  const Trace& trace = *input.trace;
  const WaitStateResult& result = *input.result;
  std::ostringstream out;
  std::vector<MetricNode> tree = MetricTree(trace, result);
  double time_s = tree.front().value_s;
  auto percent = [&](double value) { return time_s > 0 ? FormatDouble("%5.1f%%", 100.0 * value / time_s) : std::string("  -  "); };
  out << "Trace " << trace.path << "\n  " << trace.ranks.size() << " ranks, " << trace.RawEventCount()
      << " records" << (trace.creator.empty() ? "" : ", written by " + trace.creator) << "\n";
  out << "  matched " << result.messages_matched << " messages, " << result.collective_instances
      << " collective instances, " << result.rma_epochs_matched << " RMA access epochs\n\n";

  std::vector<double> tree_values;
  for (const MetricNode& node : tree) tree_values.push_back(node.value_s);
  const TimeUnit tree_unit = UnitFor(tree_values);
  out << "Metric tree (sum over ranks, " << tree_unit.name
      << "; % of Time; a pattern is part of its parent)\n";
  for (const MetricNode& node : tree) {
    if (node.value_s == 0 && node.id != "time" && node.id != "comp" && node.id != "mpi") continue;
    std::string label = std::string(2 * node.depth, ' ') + node.name;
    if (node.is_pattern) label += " [" + node.id + "]";
    out << "  " << Pad(label, 62) << Pad(InUnit(node.value_s, tree_unit), 14) << percent(node.value_s) << "\n";
  }

  std::vector<double> by_cnode, by_rank;
  std::vector<std::vector<double>> pattern_by_cnode;
  WaitingTotals(result, &by_cnode, &by_rank, &pattern_by_cnode);
  std::vector<uint32_t> worst = TopIndices(by_cnode, input.top);
  std::vector<double> worst_values;
  for (uint32_t c : worst) worst_values.push_back(by_cnode[c]);
  const TimeUnit path_unit = UnitFor(worst_values);
  out << "\nWorst call paths (waiting time in wait states, " << path_unit.name << ", sum over ranks)\n";
  if (worst.empty()) out << "  no wait states found\n";
  std::size_t path_width = 50;  // the longest path sets the column: a longer one shifted the rest
  for (uint32_t c : worst) path_width = std::max(path_width, trace.call_paths.PathString(c).size() + 2);
  for (uint32_t c : worst) {
    std::size_t main_pattern = 0;
    for (std::size_t p = 0; p < kPatternCount; ++p)
      if (IsTopPattern(static_cast<Pattern>(p)) && pattern_by_cnode[p][c] > pattern_by_cnode[main_pattern][c])
        main_pattern = p;
    out << "  " << Pad(trace.call_paths.PathString(c), path_width) << Pad(InUnit(by_cnode[c], path_unit), 14)
        << percent(by_cnode[c]) << "  mostly " << InfoOf(static_cast<Pattern>(main_pattern)).display_name << "\n";
  }
  std::vector<uint32_t> worst_ranks = TopIndices(by_rank, input.top);
  std::vector<double> rank_values;
  for (uint32_t r : worst_ranks) rank_values.push_back(by_rank[r]);
  const TimeUnit rank_unit = UnitFor(rank_values);
  out << "\nWorst ranks (waiting time, " << rank_unit.name << "; share of the rank's own time)\n";
  if (worst_ranks.empty()) out << "  no wait states found\n";
  for (uint32_t r : worst_ranks) {
    double own = InclusiveRankTime(result, r);
    out << "  rank " << Pad(std::to_string(r), 8) << Pad(InUnit(by_rank[r], rank_unit), 14)
        << (own > 0 ? FormatDouble("%5.1f%%", 100.0 * by_rank[r] / own) : std::string("  -")) << "\n";
  }
  if (input.dissimilarity) {
    out << "\nDissimilarity (Calzarossa et al. 2004: load imbalance of activities and code regions)\n";
    out << DissimilarityTable(*input.dissimilarity, input.top);
  }
  // A what-if names regions; until issue 22 nothing listed them.
  out << "\nRegions (names for whatif --balance R and --scale R=F)\n";
  const std::vector<std::string> regions = UserRegionNames(trace);
  if (regions.empty()) out << "  none\n";
  for (const std::string& name : regions) out << "  " << name << "\n";
  std::vector<std::string> warnings = trace.warnings;
  warnings.insert(warnings.end(), result.warnings.begin(), result.warnings.end());
  if (!warnings.empty()) {
    out << "\nWarnings (" << warnings.size() << ")\n";
    for (const std::string& warning : warnings) out << "  " << warning << "\n";
  }
  return out.str();
}

std::string TraceReportCsv(const TraceReportInput& input) {
  const Trace& trace = *input.trace;
  const WaitStateResult& result = *input.result;
  std::ostringstream out;
  out << "metric,callpath,rank,value_s\n";
  auto quoted = [](const std::string& text) {
    std::string q = "\"";
    for (char ch : text) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  char number[40];
  for (uint32_t c = 0; c < result.cnodes; ++c)
    for (uint32_t r = 0; r < result.ranks; ++r) {
      double value = result.ExclusiveTime(c, r);
      if (value == 0) continue;
      std::snprintf(number, sizeof number, "%.12g", value);
      out << "time," << quoted(trace.call_paths.PathString(c)) << "," << r << "," << number << "\n";
    }
  for (std::size_t p = 0; p < kPatternCount; ++p) {
    std::vector<std::pair<uint64_t, double>> entries(result.severity[p].begin(), result.severity[p].end());
    std::sort(entries.begin(), entries.end());
    for (const auto& [key, value] : entries) {
      std::snprintf(number, sizeof number, "%.12g", value);
      out << InfoOf(static_cast<Pattern>(p)).id << ","
          << quoted(trace.call_paths.PathString(static_cast<uint32_t>(key >> 32))) << ","
          << (key & 0xFFFFFFFFu) << "," << number << "\n";
    }
  }
  return out.str();
}

std::string RenderTraceReport(const TraceReportInput& input, ReportFormat format) {
  switch (format) {
    case ReportFormat::kJson: return TraceReportJson(input).dump(1) + "\n";
    case ReportFormat::kCsv: return TraceReportCsv(input);
    case ReportFormat::kTable: break;
  }
  return TraceReportTable(input);
}

}  // namespace qnm::trace
