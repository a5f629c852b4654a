#include "record/run_stats_json.h"

#include <cstdio>
#include <algorithm>
#include <iomanip>
#include <sstream>

#include "record/run_stats_fields.h"
#include "util/json_cells.h"
#include "util/text_format.h"

namespace qnm {
namespace {

nlohmann::json Number(double value) { return JsonNumber(value); }
nlohmann::json Vector(const std::vector<double>& values) { return JsonNumbers(values); }
std::string Cell(double value, const char* format) { return FormatKnown(format, value, ""); }

std::string Joined(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : separator) + part;
  return out;
}

}  // namespace

nlohmann::json RunToJson(const RunStats& run) {
  nlohmann::json out;
  // The table columns (record/run_stats_fields.h); "sources" is written whole below.
  for (const RunStatsField& field : RunStatsFields()) {
    if (!field.written) continue;
    switch (field.kind) {
      case RunStatsField::Kind::kText: out[field.column] = run.*field.text; break;
      case RunStatsField::Kind::kCount: out[field.column] = run.*field.count; break;
      case RunStatsField::Kind::kCountOrNone:
        out[field.column] = run.*field.count > 0 ? nlohmann::json(run.*field.count) : nlohmann::json();
        break;
      case RunStatsField::Kind::kSeconds: out[field.column] = Number(WrittenNumber(field, run)); break;
      case RunStatsField::Kind::kSources:
      case RunStatsField::Kind::kRunLabel: break;
      case RunStatsField::Kind::kDetail: {
        auto it = run.details.find(field.detail);
        out[field.column] = it == run.details.end() ? nlohmann::json() : nlohmann::json(it->second);
        break;
      }
    }
  }
  // Record keys beside the columns, so the output reads back as the same records.
  out["series_key"] = KeyOf(run).ToString();
  out["hosts"] = run.hosts;
  out["data_set"] = run.data_set;
  out["variant"] = run.variant;
  out["procs_requested"] = run.procs_requested;
  out["sources"] = run.sources;
  out["wall_time_s"] = Number(run.wall_time_s);
  out["tool_version"] = run.tool_version;
  out["per_rank_complete"] = run.per_rank_complete;
  nlohmann::json per_rank;
  per_rank["app_time_s"] = Vector(run.app_time_s_per_rank);
  per_rank["mpi_time_s"] = Vector(run.mpi_time_s_per_rank);
  per_rank["p2p_calls"] = Vector(run.p2p_calls_per_rank);
  per_rank["p2p_bytes_sent"] = Vector(run.p2p_bytes_sent_per_rank);
  per_rank["collective_calls"] = Vector(run.collective_calls_per_rank);
  per_rank["collective_bytes_sent"] = Vector(run.collective_bytes_sent_per_rank);
  out["per_rank"] = per_rank;
  if (!run.comm_matrix_bytes.empty()) {
    out["comm_matrix_bytes"] = Vector(run.comm_matrix_bytes);
    out["comm_matrix_messages"] = Vector(run.comm_matrix_messages);
  }
  nlohmann::json sites = nlohmann::json::array();
  for (const CallSiteStats& site : run.call_sites) {
    nlohmann::json one;
    one["id"] = site.id;
    one["mpi_function"] = site.mpi_function;
    one["source_location"] = site.source_location;
    one["activity"] = ToString(site.activity);
    one["time_s_per_rank"] = Vector(site.time_s_per_rank);
    one["calls_per_rank"] = Vector(site.calls_per_rank);
    one["bytes_sent_per_rank"] = Vector(site.bytes_sent_per_rank);
    one["total_time_s"] = Number(site.total_time_s);
    one["total_calls"] = Number(site.total_calls);
    one["total_bytes_sent"] = Number(site.total_bytes_sent);
    one["ranks_complete"] = site.ranks_complete;
    sites.push_back(one);
  }
  out["call_sites"] = sites;
  out["details"] = run.details.map();  // an object of strings (a TextMap would dump as pairs)
  out["derivations"] = run.derivations.map();
  return out;
}

void WriteRunsJson(const std::vector<RunStats>& runs, const TextSink& write) {
  // {"runs": [...]} as nlohmann's dump(1) prints it, one record at a time:
  // the document of a million records is never built (issue 19).
  write(runs.empty() ? "{\n \"runs\": []\n}\n" : "{\n \"runs\": [");
  if (runs.empty()) return;
  std::string piece;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    // Invalid UTF-8 (mpiP copies argv bytes verbatim) is replaced, not fatal.
    const std::string text = RunToJson(runs[r]).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
    piece = r == 0 ? "\n  " : ",\n  ";
    for (char c : text) {
      piece += c;
      if (c == '\n') piece += "  ";
    }
    write(piece);
  }
  write("\n ]\n}\n");
}

std::string RunsToJson(const std::vector<RunStats>& runs) {
  std::string out;
  WriteRunsJson(runs, [&out](std::string_view text) { out.append(text); });
  return out;
}

void WriteRunsCsv(const std::vector<RunStats>& runs, const TextSink& write) {
  std::string out;
  for (const RunStatsField& field : RunStatsFields())
    if (field.written) out += std::string(out.empty() ? "" : ",") + field.column;
  out += '\n';
  for (const RunStats& run : runs) {
    bool first = true;
    for (const RunStatsField& field : RunStatsFields()) {
      if (!field.written) continue;
      if (!first) out += ',';
      first = false;
      switch (field.kind) {
        case RunStatsField::Kind::kText: out += CsvQuote(run.*field.text); break;
        case RunStatsField::Kind::kCount: out += std::to_string(run.*field.count); break;
        case RunStatsField::Kind::kCountOrNone:
          if (run.*field.count > 0) out += std::to_string(run.*field.count);
          break;
        case RunStatsField::Kind::kSeconds: out += Cell(WrittenNumber(field, run), "%.10g"); break;
        case RunStatsField::Kind::kSources: out += CsvQuote(Joined(run.sources, ";")); break;
        case RunStatsField::Kind::kRunLabel: break;
        case RunStatsField::Kind::kDetail: {
          auto it = run.details.find(field.detail);
          if (it != run.details.end()) out += CsvQuote(it->second);
          break;
        }
      }
    }
    out += '\n';
    if (out.size() >= (1u << 16)) {  // handed on in pieces: the text of a million rows is never held
      write(out);
      out.clear();
    }
  }
  write(out);
}

std::string RunsToCsv(const std::vector<RunStats>& runs) {
  std::string out;
  WriteRunsCsv(runs, [&out](std::string_view text) { out.append(text); });
  return out;
}

std::string RunsToTable(const std::vector<RunStats>& runs) {
  // Sorted by series, then P as a number, then source (file order says
  // nothing: P = 1, 16, 2, ...). The series column is as wide as the longest
  // name, so names that differ only at their end (compilers) stay apart.
  std::vector<std::pair<std::string, const RunStats*>> rows;
  std::size_t width = 28;
  for (const RunStats& run : runs) {
    rows.emplace_back(KeyOf(run).ToString(), &run);
    width = std::max(width, rows.back().first.size());
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return a.second->procs < b.second->procs;
  });
  std::ostringstream out;
  const int name_width = static_cast<int>(width);
  char line[512];
  std::snprintf(line, sizeof line, " %6s %4s %10s %10s %10s %6s %10s %10s  %s\n", "procs", "thr", "time_s", "app_s",
                "mpi_s", "mpi%", "msg/rank", "B/msg", "sources");
  out << std::left << std::setw(name_width) << "series" << line;
  for (const auto& [name, row] : rows) {
    const RunStats& run = *row;
    double mpi_share = Known(run.mpi_time_mean_s) && Known(run.app_time_mean_s) && run.app_time_mean_s > 0
                           ? 100.0 * run.mpi_time_mean_s / run.app_time_mean_s
                           : kUnknown;
    std::string sources;
    for (const std::string& source : run.sources) {
      std::size_t slash = source.find_last_of('/');
      sources += (sources.empty() ? "" : " + ") + (slash == std::string::npos ? source : source.substr(slash + 1));
    }
    std::snprintf(line, sizeof line, " %6d %4d %10s %10s %10s %6s %10s %10s  %s\n", run.procs, run.threads_per_proc,
                  Cell(run.TotalTimeSeconds(), "%.4g").c_str(), Cell(run.app_time_mean_s, "%.4g").c_str(),
                  Cell(run.mpi_time_mean_s, "%.4g").c_str(), Cell(mpi_share, "%.1f").c_str(),
                  Cell(run.messages_per_rank, "%.4g").c_str(), Cell(run.bytes_per_message, "%.4g").c_str(),
                  sources.substr(0, 200).c_str());
    out << std::left << std::setw(name_width) << name << line;
  }
  return out.str();
}

std::string SeriesToTable(const std::vector<Series>& series) {
  std::ostringstream out;
  char line[512];
  // Full names, sorted, in a column as wide as the longest (never cut).
  std::size_t width = 40;
  std::vector<const Series*> order;
  for (const Series& one : series) {
    width = std::max(width, one.name.size());
    order.push_back(&one);
  }
  std::stable_sort(order.begin(), order.end(), [](const Series* a, const Series* b) { return a->name < b->name; });
  const int name_width = static_cast<int>(width);
  std::snprintf(line, sizeof line, " %6s %5s %10s %10s %10s\n", "procs", "runs", "median_s", "min_s", "max_s");
  out << std::left << std::setw(name_width) << "series" << line;
  for (const Series* one : order)
    for (const RunGroup& group : one->groups) {  // groups are sorted by procs
      std::snprintf(line, sizeof line, " %6d %5zu %10s %10s %10s\n", group.procs, group.runs.size(),
                    Cell(group.median_time_s, "%.4g").c_str(), Cell(group.min_time_s, "%.4g").c_str(),
                    Cell(group.max_time_s, "%.4g").c_str());
      out << std::left << std::setw(name_width) << one->name << line;
    }
  return out.str();
}

}  // namespace qnm
