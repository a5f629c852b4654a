// Section numbers (§n) refer to docs/formats/mpip-format.md.
#include "profiles/mpip_report.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#include "reader/run_stats_check.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/plausible_range.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// Per-rank values the call sites of one report may hold (time, calls and bytes
// per rank, dense): 2^24 doubles, 128 MB - e.g. 1,000 sites x 5,592 ranks or 64
// sites x 87,381 ranks. Beyond it the sites keep their totals only.
constexpr std::size_t kMaxDenseCallSiteValues = std::size_t{1} << 24;

enum class SectionKind {
  kMpiTime, kTaskTimeStatistics, kCallsites, kAggregateTime, kAggregateSent, kAggregateIo,
  kAggregateRma, kCollectiveHistogram, kP2pHistogram, kTimeStats, kSentStats, kIoStats,
  kRmaStats, kEnd, kOther
};

// Section titles of 2.x and 3.x verbose reports (§2, §13); concise call-site
// tables ("all callsites") have other columns and are kept as printed.
SectionKind KindOf(const std::string& title) {
  auto has = [&](const char* text) { return title.find(text) != std::string::npos; };
  if (StartsWith(title, "MPI Time")) return SectionKind::kMpiTime;
  if (StartsWith(title, "Task Time Statistics")) return SectionKind::kTaskTimeStatistics;
  if (title == "Callsites") return SectionKind::kCallsites;
  if (StartsWith(title, "Aggregate Time")) return SectionKind::kAggregateTime;
  if (StartsWith(title, "Aggregate Sent Message Size")) return SectionKind::kAggregateSent;
  if (StartsWith(title, "Aggregate I/O Size")) return SectionKind::kAggregateIo;
  if (StartsWith(title, "Aggregate RMA")) return SectionKind::kAggregateRma;
  if (StartsWith(title, "Aggregate Collective Time")) return SectionKind::kCollectiveHistogram;
  if (StartsWith(title, "Aggregate Point-To-Point")) return SectionKind::kP2pHistogram;
  if (StartsWith(title, "End of Report")) return SectionKind::kEnd;
  if (StartsWith(title, "Callsite") && !has("all callsites")) {
    if (has("milliseconds")) return SectionKind::kTimeStats;
    if (has("sent bytes")) return SectionKind::kSentStats;
    if (has("I/O")) return SectionKind::kIoStats;
    if (has("RMA") || has("origin bytes")) return SectionKind::kRmaStats;
  }
  return SectionKind::kOther;
}

bool IsDashLine(std::string_view line) {
  std::string_view trimmed = Trim(line);
  return !trimmed.empty() && trimmed.find_first_not_of('-') == std::string_view::npos;
}

// "@--- Callsites: 20 -----" -> "Callsites"; the count is dropped (§2).
std::string SectionTitle(std::string_view banner) {
  std::string_view title = banner.substr(5);
  while (!title.empty() && (title.back() == '-' || title.back() == ' ')) title.remove_suffix(1);
  std::size_t colon = title.rfind(": ");
  if (colon != std::string_view::npos && ParseInteger(Trim(title.substr(colon + 2))))
    title = title.substr(0, colon);
  return std::string(Trim(title));
}

// A call's duration in a time-statistics row (milliseconds): at most a run.
constexpr PlausibleRange kCallTimeMs{0, 1e10, false, " ms", "a call lasts at most 115 days"};

struct Parser {
  std::string_view text;
  const std::string& path;
  MpipReport report;
  std::vector<std::string_view> lines;

  [[noreturn]] void Fail(std::size_t index, const std::string& message) const {
    throw InputError(path, static_cast<int>(index + 1), message);
  }

  /// Every number in an mpiP report is a time, count, size or share: finite
  /// and non-negative; `range` bounds it further.
  double Number(std::string_view token, std::size_t index, const char* what,
                const PlausibleRange& range = kCount) const {
    auto value = ParseDouble(token);
    if (!value) Fail(index, std::string("expected a number for ") + what + ", got '" +
                                std::string(token.substr(0, 40)) + "'");
    if (!range.Contains(*value)) Fail(index, DescribeOutOfRange(what, *value, range));
    return *value;
  }

  long long Integer(std::string_view token, std::size_t index, const char* what) const {
    auto value = ParseInteger(token);
    if (!value) Fail(index, std::string("expected an integer for ") + what + ", got '" +
                                std::string(token.substr(0, 40)) + "'");
    return *value;
  }

  void ParseHeader(std::size_t& i) {
    for (; i < lines.size(); ++i) {
      std::string_view line = lines[i];
      if (StartsWith(line, "@---") || IsDashLine(line)) return;
      if (Trim(line).empty()) continue;
      if (!StartsWith(line, "@ ")) Fail(i, "unexpected line in the report header");
      std::size_t colon = line.find(':');
      if (colon == std::string_view::npos) continue;  // "@ mpiP"
      std::string key(Trim(line.substr(2, colon - 2)));
      std::string_view raw_value = line.substr(colon + 1);
      if (!raw_value.empty() && raw_value.front() == ' ') raw_value.remove_prefix(1);
      std::string value(key == "Command" ? raw_value : Trim(raw_value));
      if (key == "MPI Task Assignment") {
        auto tokens = SplitWhitespace(value);
        if (tokens.empty()) Fail(i, "MPI Task Assignment without a rank");
        long long rank = Integer(tokens[0], i, "the task rank");
        if (rank < 0 || rank > 1 << 20) Fail(i, "task rank out of range");
        if (report.hosts.size() <= static_cast<std::size_t>(rank)) report.hosts.resize(rank + 1);
        report.hosts[rank] = tokens.size() > 1 ? std::string(tokens[1]) : std::string();
        continue;
      }
      report.header.emplace_back(key, value);
      if (key == "Command") report.command = std::string(Trim(value));
      else if (key == "Version") report.version = value;
      else if (key == "Report generation") report.report_generation = value;
      else if (key == "MPIP env var") report.env_var = value;
      else if (key == "Start time") report.start_time = value;
      else if (key == "Stop time") report.stop_time = value;
      else if (key == "Collector PID") {
        if (auto pid = ParseInteger(value)) report.collector_pid = *pid;
      }
    }
  }

  void ParseOptions() {
    auto tokens = SplitWhitespace(report.env_var);
    for (std::size_t k = 0; k + 1 < tokens.size(); ++k) {
      if (tokens[k] == "-t")
        if (auto value = ParseDouble(tokens[k + 1])) report.threshold_percent = *value;
      if (tokens[k] == "-k")
        if (auto value = ParseInteger(tokens[k + 1])) report.stack_depth = static_cast<int>(*value);
    }
  }

  // Rows of one section: non-empty lines after the column header.
  struct Body {
    std::size_t header = 0;  // index of the column-header line, or lines.size() if none
    std::vector<std::size_t> rows;
  };

  Body SectionBody(std::size_t begin, std::size_t end) const {
    Body body;
    body.header = lines.size();
    for (std::size_t k = begin; k < end; ++k) {
      if (Trim(lines[k]).empty() || IsDashLine(lines[k])) continue;
      if (body.header == lines.size()) body.header = k;
      else body.rows.push_back(k);
    }
    return body;
  }

  void ParseMpiTime(const Body& body) {
    for (std::size_t k : body.rows) {
      auto tokens = SplitWhitespace(lines[k]);
      if (tokens.size() != 4) Fail(k, "MPI Time row needs 4 columns (Task AppTime MPITime MPI%)");
      MpipTaskTime row;
      const PlausibleRange& time = tokens[0] == "*" ? kSummedTimeS : kPartTimeS;
      row.app_time_s = Number(tokens[1], k, "AppTime", time);
      row.mpi_time_s = Number(tokens[2], k, "MPITime", time);
      row.mpi_percent = Number(tokens[3], k, "MPI%", kPercent);
      if (tokens[0] == "*") {
        report.task_total = row;
        continue;
      }
      row.rank = static_cast<int>(Integer(tokens[0], k, "the task rank"));
      if (row.rank != report.Tasks()) Fail(k, "MPI Time rows are not ranks 0, 1, 2, ... in order");
      report.task_times.push_back(row);
    }
    if (report.task_times.empty()) Fail(body.header, "MPI Time section has no task rows");
    if (!Known(report.task_total.app_time_s)) Fail(body.header, "MPI Time section has no '*' row");
  }

  void ParseCallsites(const Body& body) {
    if (body.header == lines.size()) return;
    std::string_view header = lines[body.header];
    std::size_t file_at = header.find("File/Address");
    std::size_t function_at = header.find("Parent_Funct");
    std::size_t call_at = header.find("MPI_Call");
    // 3.x aligns rows to the header; 2.x does not (§5, §13).
    bool aligned = !StartsWith(report.version, "2") && file_at != std::string_view::npos &&
                   function_at != std::string_view::npos && call_at != std::string_view::npos &&
                   file_at < function_at && function_at < call_at;
    for (std::size_t k : body.rows) {
      std::string_view row = lines[k];
      auto tokens = SplitWhitespace(row);
      if (tokens.size() < 3) Fail(k, "call-site row needs at least ID, Lev and a location");
      MpipFrame frame;
      int id = static_cast<int>(Integer(tokens[0], k, "the call-site ID"));
      frame.level = static_cast<int>(Integer(tokens[1], k, "the stack level"));
      bool cut = aligned && row.size() > function_at && row[function_at - 1] == ' ' &&
                 (row.size() <= call_at || row[call_at - 1] == ' ');
      std::string_view location;
      if (cut) {
        location = Trim(row.substr(file_at, function_at - file_at));
        frame.function = std::string(Trim(row.substr(function_at, call_at - function_at)));
        if (row.size() > call_at) frame.mpi_call = std::string(Trim(row.substr(call_at)));
        auto parts = SplitWhitespace(location);
        if (parts.size() >= 2) {
          if (auto line = ParseInteger(parts.back())) {
            frame.line = static_cast<int>(*line);
            location = Trim(location.substr(0, parts.back().data() - location.data()));
          }
        }
      } else {
        location = tokens[2];
        std::size_t next = 3;
        if (!StartsWith(location, "0x") && tokens.size() > 3) {
          if (auto line = ParseInteger(tokens[3])) {
            frame.line = static_cast<int>(*line);
            next = 4;
          }
        }
        if (tokens.size() > next) frame.function = std::string(tokens[next]);
        if (tokens.size() > next + 1) frame.mpi_call = std::string(tokens[next + 1]);
      }
      if (frame.line == 0 && StartsWith(location, "0x")) frame.address = std::string(location);
      else frame.file = std::string(location);
      if (report.call_sites.empty() || report.call_sites.back().id != id) {
        report.call_sites.push_back(MpipCallSite{id, {}});
      }
      report.call_sites.back().frames.push_back(std::move(frame));
    }
  }

  MpipTable ParseTable(const std::string& title, const Body& body, bool histogram) const {
    MpipTable table;
    table.title = title;
    if (body.header == lines.size()) return table;
    if (histogram) {
      table.columns = {"Call", "Percent", "CommSizeMin", "CommSizeMax", "DataSizeMin", "DataSizeMax"};
      if (StartsWith(Trim(lines[body.header]), "No ")) return table;  // "No collective operations to report"
    } else {
      for (auto token : SplitWhitespace(lines[body.header])) table.columns.emplace_back(token);
    }
    for (std::size_t k : body.rows) {
      std::string_view line = lines[k];
      // -m adds "Total send/collective operation calls >= n bytes : X of Y operations" (§7).
      if (StartsWith(line, "Total send") || StartsWith(Trim(line), "No ")) continue;
      auto tokens = SplitWhitespace(line);
      MpipTableRow row;
      row.line = static_cast<int>(k + 1);
      row.call = std::string(tokens[0]);
      if (histogram) {
        if (tokens.size() != 8 || tokens[3] != "-" || tokens[6] != "-")
          Fail(k, "histogram row needs 8 columns: call, percent, lo - hi, lo - hi");
        for (std::size_t t : {1, 2, 4, 5, 7}) row.values.push_back(Number(tokens[t], k, "a histogram value"));
      } else {
        if (tokens.size() != table.columns.size())
          Fail(k, "row has " + std::to_string(tokens.size()) + " columns, the header " +
                      std::to_string(table.columns.size()));
        for (std::size_t t = 1; t < tokens.size(); ++t)
          row.values.push_back(Number(tokens[t], k, table.columns[t].c_str()));
      }
      table.rows.push_back(std::move(row));
    }
    return table;
  }

  // Unknown and concise sections: kept as printed, numbers where they parse.
  MpipTable GenericTable(const std::string& title, const Body& body) const {
    MpipTable table;
    table.title = title;
    if (body.header == lines.size()) return table;
    for (auto token : SplitWhitespace(lines[body.header])) table.columns.emplace_back(token);
    for (std::size_t k : body.rows) {
      auto tokens = SplitWhitespace(lines[k]);
      MpipTableRow row;
      row.line = static_cast<int>(k + 1);
      row.call = std::string(tokens[0]);
      for (std::size_t t = 1; t < tokens.size(); ++t)
        row.values.push_back(ParseDouble(tokens[t]).value_or(kUnknown));
      table.rows.push_back(std::move(row));
    }
    return table;
  }

  std::vector<MpipSiteRow> ParseSiteRows(const Body& body, bool bytes) const {
    std::vector<MpipSiteRow> rows;
    const std::size_t columns = bytes ? 8 : 9;
    for (std::size_t k : body.rows) {
      auto tokens = SplitWhitespace(lines[k]);
      if (tokens.size() != columns)
        Fail(k, "call-site statistics row needs " + std::to_string(columns) + " columns, has " +
                    std::to_string(tokens.size()));
      MpipSiteRow row;
      row.line = static_cast<int>(k + 1);
      row.call = std::string(tokens[0]);
      row.site = static_cast<int>(Integer(tokens[1], k, "the site ID"));
      if (tokens[2] != "*") {
        long long rank = Integer(tokens[2], k, "the rank");
        if (rank < 0 || (report.Tasks() > 0 && rank >= report.Tasks()))
          Fail(k, "rank " + std::to_string(rank) + " outside 0.." + std::to_string(report.Tasks() - 1));
        row.rank = static_cast<int>(rank);
      }
      row.count = Number(tokens[3], k, "Count");
      const PlausibleRange& each = bytes ? kCount : kCallTimeMs;
      row.max = Number(tokens[4], k, "Max", each);
      row.mean = Number(tokens[5], k, "Mean", each);
      row.min = Number(tokens[6], k, "Min", each);
      if (bytes) {
        row.sum = Number(tokens[7], k, "Sum");
      } else {
        row.app_percent = Number(tokens[7], k, "App%", kPercent);
        row.mpi_percent = Number(tokens[8], k, "MPI%", kPercent);
      }
      rows.push_back(std::move(row));
    }
    return rows;
  }

  // "------- Start Communication Matrix -----" ... "------- End Communication
  // Matrix ---": per source rank a "Source Target Total Amount Total Count"
  // table (not in stock mpiP; seen in the cenat__* reports). The block's lines
  // are blanked so the enclosing section does not see them.
  void ParseCommunicationMatrix() {
    for (std::size_t k = 0; k < lines.size(); ++k) {
      if (lines[k].find("Start Communication Matrix") == std::string_view::npos) continue;
      std::size_t begin = k;
      std::size_t end = begin + 1;
      while (end < lines.size() && lines[end].find("End Communication Matrix") == std::string_view::npos &&
             !StartsWith(lines[end], "@--- "))
        ++end;
      if (end == lines.size() || StartsWith(lines[end], "@--- "))
        Fail(begin, "Communication Matrix block without its End line");
      for (std::size_t m = begin + 1; m < end; ++m) {
        std::string_view row = Trim(lines[m]);
        if (row.empty() || StartsWith(row, "Statistics of rank") || StartsWith(row, "Source")) continue;
        auto tokens = SplitWhitespace(row);
        if (tokens.size() != 4) Fail(m, "Communication Matrix row needs Source Target Amount Count");
        MpipMatrixEntry entry;
        entry.source = static_cast<int>(Integer(tokens[0], m, "the source rank"));
        entry.target = static_cast<int>(Integer(tokens[1], m, "the target rank"));
        entry.bytes = Number(tokens[2], m, "Total Amount");
        entry.messages = Number(tokens[3], m, "Total Count");
        report.communication_matrix.push_back(entry);
      }
      for (std::size_t m = begin; m <= end; ++m) lines[m] = std::string_view();
      k = end;
    }
  }

  void Parse() {
    lines = SplitLines(text);
    if (lines.empty() || Trim(lines[0]) != "@ mpiP") Fail(0, "not an mpiP report (first line is not '@ mpiP')");
    std::size_t i = 1;
    ParseHeader(i);
    ParseOptions();
    ParseCommunicationMatrix();
    // Sections: "@--- title" banners; a body runs to the next banner.
    std::vector<std::size_t> banners;
    for (std::size_t k = i; k < lines.size(); ++k)
      if (StartsWith(lines[k], "@--- ")) banners.push_back(k);
    for (std::size_t b = 0; b < banners.size(); ++b) {
      std::size_t begin = banners[b] + 1;
      std::size_t end = b + 1 < banners.size() ? banners[b + 1] : lines.size();
      std::string title = SectionTitle(lines[banners[b]]);
      Body body = SectionBody(begin, end);
      switch (KindOf(title)) {
        case SectionKind::kMpiTime: ParseMpiTime(body); break;
        case SectionKind::kTaskTimeStatistics:
          report.concise = true;
          report.other_tables.push_back(GenericTable(title, body));
          break;
        case SectionKind::kCallsites: ParseCallsites(body); break;
        case SectionKind::kAggregateTime: report.aggregate_time = ParseTable(title, body, false); break;
        case SectionKind::kAggregateSent: report.aggregate_sent = ParseTable(title, body, false); break;
        case SectionKind::kAggregateIo: report.aggregate_io = ParseTable(title, body, false); break;
        case SectionKind::kAggregateRma: report.aggregate_rma = ParseTable(title, body, false); break;
        case SectionKind::kCollectiveHistogram:
          report.collective_histogram = ParseTable(title, body, true);
          break;
        case SectionKind::kP2pHistogram: report.p2p_histogram = ParseTable(title, body, true); break;
        case SectionKind::kTimeStats: report.time_stats = ParseSiteRows(body, false); break;
        case SectionKind::kSentStats: report.sent_stats = ParseSiteRows(body, true); break;
        case SectionKind::kIoStats: report.io_stats = ParseSiteRows(body, true); break;
        case SectionKind::kRmaStats: report.rma_stats = ParseSiteRows(body, true); break;
        case SectionKind::kEnd: report.complete = true; break;
        case SectionKind::kOther: report.other_tables.push_back(GenericTable(title, body)); break;
      }
    }
    if (!report.complete)
      Fail(lines.empty() ? 0 : lines.size() - 1, "truncated mpiP report: no 'End of Report' banner");
    if (!report.concise && report.task_times.empty())
      Fail(i, "mpiP report has no 'MPI Time (seconds)' section");
    if (report.version.empty()) report.warnings.push_back("no Version line in the header");
  }
};

std::string FormatLocation(const MpipFrame& frame) {
  std::string where = frame.address.empty() ? frame.file : frame.address;
  if (frame.line > 0) where += ":" + std::to_string(frame.line);
  if (!frame.function.empty()) where += (where.empty() ? "" : " ") + frame.function;
  return where;
}

// Hosts in rank order -> "one-per-node", "block", "cyclic" or "" (mixed/unknown).
std::string AllocationOf(const std::vector<std::string>& hosts, int* nodes) {
  std::vector<std::string> order;
  for (const std::string& host : hosts)
    if (std::find(order.begin(), order.end(), host) == order.end()) order.push_back(host);
  *nodes = static_cast<int>(order.size());
  if (hosts.empty() || std::any_of(hosts.begin(), hosts.end(), [](auto& h) { return h.empty(); }))
    return "";
  if (order.size() == hosts.size()) return "one-per-node";
  if (order.size() == 1) return "block";
  bool block = true, cyclic = true;
  for (std::size_t r = 1; r < hosts.size(); ++r) {
    if (hosts[r] != hosts[r - 1] &&
        std::find(hosts.begin(), hosts.begin() + r, hosts[r]) != hosts.begin() + r)
      block = false;
    if (hosts[r] != order[r % order.size()]) cyclic = false;
  }
  return block ? "block" : cyclic ? "cyclic" : "";
}

std::string Fixed(double value) { return FormatDouble("%.6g", value); }

}  // namespace

const MpipCallSite* MpipReport::FindSite(int id) const {
  for (const MpipCallSite& site : call_sites)
    if (site.id == id) return &site;
  return nullptr;
}

bool LooksLikeMpipReport(std::string_view text) {
  std::size_t end = text.find('\n');
  return Trim(text.substr(0, end)) == "@ mpiP";
}

MpipReport ParseMpipReport(std::string_view text, const std::string& path) {
  Parser parser{text, path, {}, {}};
  parser.report.path = path;
  parser.Parse();
  return std::move(parser.report);
}

RunStats MpipToRunStats(const MpipReport& report) {
  RunStats run;
  run.sources.push_back(report.path);
  run.tool_version = "mpiP " + report.version;
  const int procs = report.Tasks();
  run.procs = procs;
  for (const MpipTaskTime& task : report.task_times) {
    run.app_time_s_per_rank.push_back(task.app_time_s);
    run.mpi_time_s_per_rank.push_back(task.mpi_time_s);
  }
  run.derivations["app_time_s_per_rank"] =
      "mpiP AppTime: end of MPI_Init to start of MPI_Finalize per rank (3 significant digits)";
  run.derivations["mpi_time_s_per_rank"] =
      "mpiP MPITime: sum of the profiled MPI call durations per rank (3 significant digits)";
  for (const auto& [key, value] : report.header) run.details["mpip." + key] = value;
  int nodes = 0;
  run.allocation = AllocationOf(report.hosts, &nodes);
  if (nodes > 0) run.details["mpip.nodes"] = std::to_string(nodes);
  if (nodes > 0 && !run.allocation.empty())  // every rank's host is known
    run.SetNodes(nodes, "distinct host names of mpiP's MPI Task Assignment");

  // Per-site records, in report order; rows of the statistics sections fill them.
  // Each site's per-rank vectors are dense (length procs) where consumers read
  // them by rank; a report of 1,000 sites x 100,000 ranks would need 2.4 GB for
  // the few rank rows it prints (issue 19), so beyond kMaxDenseCallSiteValues
  // the sites keep their '*' totals only and the run's per-rank sums are added
  // up from the rows themselves.
  std::size_t declared_sites = report.call_sites.size();
  {
    std::set<int> ids;
    for (const MpipCallSite& site : report.call_sites) ids.insert(site.id);
    for (const auto* rows : {&report.time_stats, &report.sent_stats})
      for (const MpipSiteRow& row : *rows) ids.insert(row.site);
    declared_sites = ids.size();
  }
  const bool dense = procs <= 0 || declared_sites * 3 * static_cast<std::size_t>(procs) <= kMaxDenseCallSiteValues;
  std::map<int, std::size_t> index_of;
  for (const MpipCallSite& site : report.call_sites) {
    CallSiteStats stats;
    stats.id = site.id;
    if (!site.frames.empty()) {
      stats.mpi_function = site.frames.front().mpi_call;
      stats.source_location = FormatLocation(site.frames.front());
    }
    index_of[site.id] = run.call_sites.size();
    run.call_sites.push_back(std::move(stats));
  }
  auto site_of = [&](const MpipSiteRow& row) -> CallSiteStats& {
    auto found = index_of.find(row.site);
    if (found == index_of.end()) {
      CallSiteStats stats;
      stats.id = row.site;
      stats.mpi_function = row.call;
      index_of[row.site] = run.call_sites.size();
      run.call_sites.push_back(std::move(stats));
      found = index_of.find(row.site);
    }
    CallSiteStats& stats = run.call_sites[found->second];
    if (stats.mpi_function.empty()) stats.mpi_function = row.call;
    if (dense && stats.time_s_per_rank.empty() && procs > 0) {
      stats.time_s_per_rank.assign(procs, 0.0);
      stats.calls_per_rank.assign(procs, 0.0);
    }
    return stats;
  };
  // Sparse mode: the rank rows by site index, in report order.
  struct RankRow {
    std::size_t site;
    int rank;
    double calls, bytes;
  };
  std::vector<RankRow> call_rows, byte_rows;
  std::map<int, double> rank_row_calls;  // site -> calls summed over printed rank rows
  for (const MpipSiteRow& row : report.time_stats) {
    CallSiteStats& stats = site_of(row);
    double time_s = row.count * row.mean / 1000.0;  // §9: cumulative time = Count x Mean (ms)
    RequirePlausible(time_s, kSummedTimeS, "Count x Mean", report.path, row.line);
    if (row.rank < 0) {
      stats.total_time_s = time_s;
      stats.total_calls = row.count;
    } else if (row.rank < procs) {
      if (dense) {
        stats.time_s_per_rank[row.rank] += time_s;
        stats.calls_per_rank[row.rank] += row.count;
      } else {
        call_rows.push_back({index_of[row.site], row.rank, static_cast<double>(row.count), 0.0});
      }
      rank_row_calls[row.site] += row.count;
    }
  }
  for (const MpipSiteRow& row : report.sent_stats) {
    CallSiteStats& stats = site_of(row);
    if (dense && stats.bytes_sent_per_rank.empty() && procs > 0) stats.bytes_sent_per_rank.assign(procs, 0.0);
    if (row.rank < 0) stats.total_bytes_sent = row.sum;
    else if (row.rank < procs && dense) stats.bytes_sent_per_rank[row.rank] += row.sum;
    else if (row.rank < procs) byte_rows.push_back({index_of[row.site], row.rank, 0.0, row.sum});
  }
  int hidden_sites = 0;
  for (CallSiteStats& stats : run.call_sites) {
    stats.activity = ClassifyMpiCall(stats.mpi_function);
    if (Known(stats.total_calls) && rank_row_calls[stats.id] < stats.total_calls) {
      stats.ranks_complete = false;  // -t hid rank rows (§9)
      ++hidden_sites;
    }
    if (stats.bytes_sent_per_rank.empty() && procs > 0 && Known(stats.total_calls)) {
      if (dense) stats.bytes_sent_per_rank.assign(procs, 0.0);
      if (!Known(stats.total_bytes_sent)) stats.total_bytes_sent = 0.0;
    }
  }
  if (!dense)
    run.derivations["call_sites.per_rank"] =
        "not kept: " + std::to_string(declared_sites) + " call sites x " + std::to_string(procs) +
        " ranks exceed the " + std::to_string(kMaxDenseCallSiteValues) +
        " per-rank values a report may hold; each site has its '*' totals, the run's per-rank "
        "sums come from the rank rows";
  run.derivations["call_sites.time_s_per_rank"] =
      "Count x Mean (ms per call) of the rank rows of 'Callsite Time statistics'; totals from the '*' rows";
  run.derivations["call_sites.bytes_sent_per_rank"] =
      "Sum of 'Callsite Message Sent statistics': count x type size of the send buffer, sender side only";
  if (hidden_sites > 0) {
    run.per_rank_complete = false;
    run.derivations["per_rank_complete"] =
        "incomplete: mpiP -t " + Fixed(report.threshold_percent) + " hid rank rows of " +
        std::to_string(hidden_sites) + " call sites; per-rank sums understate, '*' totals are complete";
  }
  int single_rank_sites = 0;
  if (dense) {
    for (const CallSiteStats& stats : run.call_sites) {
      int used = 0;
      for (double calls : stats.calls_per_rank) used += calls > 0;
      single_rank_sites += used == 1;
    }
  } else {
    std::map<std::pair<std::size_t, int>, double> calls_of;  // (site, rank) -> calls
    for (const RankRow& row : call_rows) calls_of[{row.site, row.rank}] += row.calls;
    std::vector<int> used(run.call_sites.size(), 0);
    for (const auto& [at, calls] : calls_of) used[at.first] += calls > 0;
    for (int n : used) single_rank_sites += n == 1;
  }
  if (procs > 1 && single_rank_sites == static_cast<int>(run.call_sites.size()) &&
      run.call_sites.size() >= static_cast<std::size_t>(procs))
    run.derivations["call_sites"] =
        "call-site IDs are per rank (unresolved addresses differ between ranks, mpiP issue #45): "
        "aggregate by MPI call rather than by ID";

  if (procs > 0 && !report.time_stats.empty()) {
    run.p2p_calls_per_rank.assign(procs, 0.0);
    run.p2p_bytes_sent_per_rank.assign(procs, 0.0);
    run.collective_calls_per_rank.assign(procs, 0.0);
    run.collective_bytes_sent_per_rank.assign(procs, 0.0);
    std::vector<double> all_calls(procs, 0.0);
    auto is_collective = [](const CallSiteStats& stats) { return CountsAsCollective(stats.activity); };
    // Sparse mode: each rank row once (the dense loop below visits sites x ranks).
    for (const RankRow& row : call_rows) {
      const CallSiteStats& stats = run.call_sites[row.site];
      all_calls[row.rank] += row.calls;
      if (IsPointToPointSend(stats.mpi_function)) run.p2p_calls_per_rank[row.rank] += row.calls;
      else if (is_collective(stats)) run.collective_calls_per_rank[row.rank] += row.calls;
    }
    for (const RankRow& row : byte_rows) {
      const CallSiteStats& stats = run.call_sites[row.site];
      if (IsPointToPointSend(stats.mpi_function)) run.p2p_bytes_sent_per_rank[row.rank] += row.bytes;
      else if (is_collective(stats)) run.collective_bytes_sent_per_rank[row.rank] += row.bytes;
    }
    for (const CallSiteStats& stats : run.call_sites) {
      if (!dense) break;
      bool send = IsPointToPointSend(stats.mpi_function);
      bool collective = is_collective(stats);
      for (int r = 0; r < procs; ++r) {
        double calls = r < static_cast<int>(stats.calls_per_rank.size()) ? stats.calls_per_rank[r] : 0;
        double bytes =
            r < static_cast<int>(stats.bytes_sent_per_rank.size()) ? stats.bytes_sent_per_rank[r] : 0;
        all_calls[r] += calls;
        if (send) {
          run.p2p_calls_per_rank[r] += calls;
          run.p2p_bytes_sent_per_rank[r] += bytes;
        } else if (collective) {
          run.collective_calls_per_rank[r] += calls;
          run.collective_bytes_sent_per_rank[r] += bytes;
        }
      }
    }
    double sum = 0;
    for (double calls : all_calls) sum += calls;
    run.mpi_calls_per_rank = sum / procs;
    run.derivations["mpi_calls_per_rank"] = "mean over ranks of all profiled MPI calls (mpiP rank rows)";
    run.derivations["p2p_calls_per_rank"] =
        "calls of Send, Isend, Ssend, Bsend, Rsend, Sendrecv, Sendrecv_replace per rank; receives and waits excluded";
    run.derivations["p2p_bytes_sent_per_rank"] =
        "mpiP counts bytes on the sender only (count x type size of the send buffer)";
    run.derivations["collective_calls_per_rank"] = "calls of collectives incl. Barrier per rank";
    run.derivations["collective_bytes_sent_per_rank"] =
        "mpiP counts count x type size of the send buffer on every calling rank: Bcast/Reduce/Allreduce "
        "count the whole buffer on every rank (root or not); Alltoall/Allgather/Scatter count one block, "
        "not x procs; Alltoallv counts one destination's share (unreliable); Barrier counts none";
  }
  if (!report.communication_matrix.empty() && procs > 0) {
    run.comm_matrix_bytes.assign(static_cast<std::size_t>(procs) * procs, 0.0);
    run.comm_matrix_messages.assign(static_cast<std::size_t>(procs) * procs, 0.0);
    for (const MpipMatrixEntry& entry : report.communication_matrix) {
      if (entry.source < 0 || entry.source >= procs || entry.target < 0 || entry.target >= procs) continue;
      run.comm_matrix_bytes[entry.source * procs + entry.target] += entry.bytes;
      run.comm_matrix_messages[entry.source * procs + entry.target] += entry.messages;
    }
    run.derivations["comm_matrix_bytes"] =
        "'Communication Matrix' block of a modified mpiP build (CeNAT): Total Amount per (source, target)";
  }
  // Concise reports (-c) give Mean/Max rows instead of per-rank times (§12).
  for (const MpipTable& table : report.other_tables) {
    if (!StartsWith(table.title, "Task Time Statistics")) continue;
    for (const MpipTableRow& row : table.rows) {
      if (row.values.size() < 2) continue;
      if (row.call == "Mean") {
        run.app_time_mean_s = row.values[0];
        run.mpi_time_mean_s = row.values[1];
      } else if (row.call == "Max") {
        run.app_time_max_s = row.values[0];
        run.mpi_time_max_s = row.values[1];
      }
    }
    run.derivations["app_time_mean_s"] = "mpiP concise report 'Task Time Statistics' (no per-rank data)";
  }
  run.Derive();
  RequirePlausibleRecord(run, report.path, 0);
  return run;
}

std::string DescribeMpipReport(const MpipReport& report) {
  std::ostringstream out;
  out << "mpiP report " << report.path << "\n";
  for (const auto& [key, value] : report.header) out << "  " << key << ": " << value << "\n";
  out << "  tasks: " << report.Tasks() << (report.concise ? " (concise report)" : "") << "\n";
  for (std::size_t r = 0; r < report.hosts.size(); ++r)
    out << "  host of rank " << r << ": " << report.hosts[r] << "\n";
  out << "MPI time (s): rank app mpi mpi%\n";
  for (const MpipTaskTime& task : report.task_times)
    out << "  " << task.rank << " " << Fixed(task.app_time_s) << " " << Fixed(task.mpi_time_s) << " "
        << Fixed(task.mpi_percent) << "\n";
  out << "  * " << Fixed(report.task_total.app_time_s) << " " << Fixed(report.task_total.mpi_time_s)
      << " " << Fixed(report.task_total.mpi_percent) << "\n";
  out << "Call sites: " << report.call_sites.size() << "\n";
  for (const MpipCallSite& site : report.call_sites)
    for (const MpipFrame& frame : site.frames)
      out << "  " << site.id << " lev " << frame.level << " " << FormatLocation(frame)
          << (frame.mpi_call.empty() ? "" : " -> " + frame.mpi_call) << "\n";
  auto table = [&](const MpipTable& t) {
    if (t.title.empty()) return;
    out << t.title << ":";
    for (const std::string& column : t.columns) out << " " << column;
    out << "\n";
    for (const MpipTableRow& row : t.rows) {
      out << "  " << row.call;
      for (double value : row.values) out << " " << Fixed(value);
      out << "\n";
    }
  };
  for (const MpipTable* t : {&report.aggregate_time, &report.aggregate_sent, &report.aggregate_io,
                             &report.aggregate_rma, &report.collective_histogram, &report.p2p_histogram})
    table(*t);
  for (const MpipTable& t : report.other_tables) table(t);
  auto site_rows = [&](const char* title, const std::vector<MpipSiteRow>& rows, bool bytes) {
    if (rows.empty()) return;
    out << title << (bytes ? ": call site rank count max mean min sum\n"
                           : ": call site rank count max mean min app% mpi%\n");
    for (const MpipSiteRow& row : rows) {
      out << "  " << row.call << " " << row.site << " "
          << (row.rank < 0 ? std::string("*") : std::to_string(row.rank)) << " " << Fixed(row.count)
          << " " << Fixed(row.max) << " " << Fixed(row.mean) << " " << Fixed(row.min) << " ";
      if (bytes) out << Fixed(row.sum) << "\n";
      else out << Fixed(row.app_percent) << " " << Fixed(row.mpi_percent) << "\n";
    }
  };
  site_rows("Callsite time statistics (ms)", report.time_stats, false);
  site_rows("Callsite message sent statistics (bytes)", report.sent_stats, true);
  site_rows("Callsite I/O statistics (bytes)", report.io_stats, true);
  site_rows("Callsite RMA statistics (bytes)", report.rma_stats, true);
  if (!report.communication_matrix.empty()) {
    out << "Communication matrix: source target bytes messages\n";
    for (const MpipMatrixEntry& entry : report.communication_matrix)
      out << "  " << entry.source << " " << entry.target << " " << Fixed(entry.bytes) << " "
          << Fixed(entry.messages) << "\n";
  }
  for (const std::string& warning : report.warnings) out << "warning: " << warning << "\n";
  return out.str();
}

}  // namespace qnm
