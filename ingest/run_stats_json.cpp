#include "ingest/run_stats_json.h"

#include <cstdio>
#include <sstream>

namespace qnm {
namespace {

nlohmann::json Number(double value) {
  return Known(value) && std::isfinite(value) ? nlohmann::json(value) : nlohmann::json();
}

nlohmann::json Vector(const std::vector<double>& values) {
  nlohmann::json out = nlohmann::json::array();
  for (double value : values) out.push_back(Number(value));
  return out;
}

std::string Cell(double value, const char* format = "%.6g") {
  if (!Known(value)) return "";
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string CsvQuote(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n' || c == '\r') c = ' ';
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string Joined(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : separator) + part;
  return out;
}

}  // namespace

nlohmann::json RunToJson(const RunStats& run) {
  nlohmann::json out;
  out["series"] = run.series;
  out["series_key"] = KeyOf(run).ToString();
  out["app"] = run.app;
  out["class"] = run.problem_class;
  out["size"] = run.problem_size;
  out["machine"] = run.machine;
  out["hosts"] = run.hosts;
  out["data_set"] = run.data_set;
  out["variant"] = run.variant;
  out["procs"] = run.procs;
  out["procs_requested"] = run.procs_requested;
  out["threads"] = run.threads_per_proc;
  out["allocation"] = run.allocation;
  out["sources"] = run.sources;
  out["time_s"] = Number(run.TotalTimeSeconds());
  out["wall_time_s"] = Number(run.wall_time_s);
  out["app_time_s"] = Number(run.app_time_mean_s);
  out["app_time_max_s"] = Number(run.app_time_max_s);
  out["mpi_time_s"] = Number(run.mpi_time_mean_s);
  out["mpi_time_max_s"] = Number(run.mpi_time_max_s);
  out["compute_time_s"] = Number(run.compute_time_mean_s);
  out["messages"] = Number(run.messages_per_rank);
  out["bytes"] = Number(run.bytes_sent_per_rank);
  out["bytes_per_message"] = Number(run.bytes_per_message);
  out["mpi_calls"] = Number(run.mpi_calls_per_rank);
  out["mops"] = Number(run.mops_total);
  out["mops_per_proc"] = Number(run.mops_per_proc);
  out["iterations"] = run.iterations > 0 ? nlohmann::json(run.iterations) : nlohmann::json();
  out["verification"] = run.verification;
  out["version"] = run.npb_version;
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
  out["details"] = run.details;
  out["derivations"] = run.derivations;
  return out;
}

std::string RunsToJson(const std::vector<RunStats>& runs) {
  nlohmann::json out;
  out["runs"] = nlohmann::json::array();
  for (const RunStats& run : runs) out["runs"].push_back(RunToJson(run));
  // Invalid UTF-8 (mpiP copies argv bytes verbatim) is replaced, not fatal.
  return out.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string RunsToCsv(const std::vector<RunStats>& runs) {
  std::ostringstream out;
  out << "series,app,class,size,machine,allocation,procs,threads,time_s,app_time_s,app_time_max_s,"
         "mpi_time_s,mpi_time_max_s,compute_time_s,messages,bytes,bytes_per_message,mpi_calls,mops,"
         "mops_per_proc,iterations,verification,version,source\n";
  for (const RunStats& run : runs) {
    out << CsvQuote(run.series) << ',' << CsvQuote(run.app) << ',' << CsvQuote(run.problem_class) << ','
        << CsvQuote(run.problem_size) << ',' << CsvQuote(run.machine) << ',' << CsvQuote(run.allocation)
        << ',' << run.procs << ',' << run.threads_per_proc << ',' << Cell(run.TotalTimeSeconds(), "%.10g")
        << ',' << Cell(run.app_time_mean_s, "%.10g") << ',' << Cell(run.app_time_max_s, "%.10g") << ','
        << Cell(run.mpi_time_mean_s, "%.10g") << ',' << Cell(run.mpi_time_max_s, "%.10g") << ','
        << Cell(run.compute_time_mean_s, "%.10g") << ',' << Cell(run.messages_per_rank, "%.10g") << ','
        << Cell(run.bytes_sent_per_rank, "%.10g") << ',' << Cell(run.bytes_per_message, "%.10g") << ','
        << Cell(run.mpi_calls_per_rank, "%.10g") << ',' << Cell(run.mops_total, "%.10g") << ','
        << Cell(run.mops_per_proc, "%.10g") << ',' << (run.iterations > 0 ? std::to_string(run.iterations) : "")
        << ',' << CsvQuote(run.verification) << ',' << CsvQuote(run.npb_version) << ','
        << CsvQuote(Joined(run.sources, ";")) << '\n';
  }
  return out.str();
}

std::string RunsToTable(const std::vector<RunStats>& runs) {
  std::ostringstream out;
  char line[512];
  std::snprintf(line, sizeof line, "%-28s %6s %4s %10s %10s %10s %6s %10s %10s  %s\n", "series", "procs",
                "thr", "time_s", "app_s", "mpi_s", "mpi%", "msg/rank", "B/msg", "sources");
  out << line;
  for (const RunStats& run : runs) {
    double mpi_share = Known(run.mpi_time_mean_s) && Known(run.app_time_mean_s) && run.app_time_mean_s > 0
                           ? 100.0 * run.mpi_time_mean_s / run.app_time_mean_s
                           : kUnknown;
    std::string sources;
    for (const std::string& source : run.sources) {
      std::size_t slash = source.find_last_of('/');
      sources += (sources.empty() ? "" : " + ") + (slash == std::string::npos ? source : source.substr(slash + 1));
    }
    std::snprintf(line, sizeof line, "%-28s %6d %4d %10s %10s %10s %6s %10s %10s  %s\n",
                  KeyOf(run).ToString().substr(0, 28).c_str(), run.procs, run.threads_per_proc,
                  Cell(run.TotalTimeSeconds(), "%.4g").c_str(), Cell(run.app_time_mean_s, "%.4g").c_str(),
                  Cell(run.mpi_time_mean_s, "%.4g").c_str(), Cell(mpi_share, "%.1f").c_str(),
                  Cell(run.messages_per_rank, "%.4g").c_str(), Cell(run.bytes_per_message, "%.4g").c_str(),
                  sources.substr(0, 200).c_str());
    out << line;
  }
  return out.str();
}

std::string SeriesToTable(const std::vector<Series>& series) {
  std::ostringstream out;
  char line[512];
  std::snprintf(line, sizeof line, "%-40s %6s %5s %10s %10s %10s\n", "series", "procs", "runs", "median_s",
                "min_s", "max_s");
  out << line;
  for (const Series& one : series)
    for (const RunGroup& group : one.groups) {
      std::snprintf(line, sizeof line, "%-40s %6d %5zu %10s %10s %10s\n", one.name.substr(0, 40).c_str(),
                    group.procs, group.runs.size(), Cell(group.median_time_s, "%.4g").c_str(),
                    Cell(group.min_time_s, "%.4g").c_str(), Cell(group.max_time_s, "%.4g").c_str());
      out << line;
    }
  return out.str();
}

}  // namespace qnm
