// Reader-table row for the Extra-P experiments `qnm-predict export` writes
// (pipeline/extrap_export.h, docs/formats/extrap.md "Export"). They are
// Extra-P files, but this row reads them back as the records they came from,
// undoing what the export did for Extra-P's sake:
//  - "scaling: strong": times and counts were written summed over the p
//    processes (x p), so they are divided by p again;
//  - the series' identity (name, app, class, threads, machine) comes from the
//    '#' comment block (text) or the first line's "experiment" object (JSON Lines);
//  - messages, bytes, MPI calls and the per-function MPI time, calls and
//    bytes come back too, so a re-read export still has what the queueing
//    model needs (a generic Extra-P file gives the run time and MPI time only).
// The parser is our own (it only reads what our writer writes), so it does not
// depend on the general Extra-P reader.
#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "extrap/extrap_readers.h"
#include "reader/run_stats_check.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kTextMark = "# qnm-predict export: Extra-P text format over p";

struct Export {
  std::map<std::string, std::string> identity;
  std::vector<int> points;
  // (call path, metric) -> [point][repetition], and the line each value came from.
  std::map<std::pair<std::string, std::string>, std::vector<std::vector<double>>> values;
  std::map<std::pair<std::string, std::string>, int> first_line;
};

std::map<std::string, std::string> TextIdentity(std::string_view text) {
  std::map<std::string, std::string> identity;
  for (std::string_view line : SplitLines(text)) {
    if (!StartsWith(line, "# ")) break;  // the identity is the leading comment block
    std::size_t colon = line.find(": ");
    if (colon != std::string_view::npos)
      identity.emplace(std::string(line.substr(2, colon - 2)), std::string(line.substr(colon + 2)));
  }
  return identity;
}

// The "experiment" object of the first JSON line, or empty.
std::map<std::string, std::string> JsonLinesIdentity(std::string_view text) {
  std::map<std::string, std::string> identity;
  std::string_view first = text.substr(0, text.find('\n'));
  nlohmann::json line = nlohmann::json::parse(first.begin(), first.end(), nullptr, false);
  if (line.is_discarded() || !line.is_object() || !line.contains("experiment") || !line["experiment"].is_object())
    return identity;
  for (const auto& [key, value] : line["experiment"].items())
    if (value.is_string()) identity[key] = value.get<std::string>();
  return identity;
}

bool IsJsonLines(const std::string& path) { return EndsWith(ToLower(path), ".jsonl"); }

std::map<std::string, std::string> IdentityOf(const std::string& path, std::string_view text) {
  if (StartsWith(text, kTextMark)) return TextIdentity(text);
  if (IsJsonLines(path)) return JsonLinesIdentity(text);
  return {};
}

int PositivePoint(double value, const std::string& path, int line) {
  if (!(value >= 1 && value <= (1 << 30)) || value != std::floor(value))
    throw InputError(path, line, "p must be a positive integer");
  return static_cast<int>(value);
}

double Value(std::string_view token, const std::string& path, int line) {
  auto number = ParseDouble(token);
  if (!number || !std::isfinite(*number) || *number < 0)
    throw InputError(path, line, "DATA needs non-negative numbers, got '" + std::string(token.substr(0, 40)) + "'");
  return *number;
}

void ParseText(std::string_view text, const std::string& path, Export* out) {
  std::string region, metric;
  std::size_t next_point = 0;  // DATA lines seen for the current (region, metric)
  std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    std::string_view trimmed = Trim(lines[i]);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    std::vector<std::string_view> words = SplitWhitespace(trimmed);
    if (words[0] == "PARAMETER") {
      if (words.size() != 2 || words[1] != "p") throw InputError(path, line, "an export is over the one parameter p");
    } else if (words[0] == "POINTS") {
      for (std::size_t w = 1; w < words.size(); ++w) {
        std::string_view token = words[w];
        if (token.size() < 3 || token.front() != '(' || token.back() != ')')
          throw InputError(path, line, "POINTS are written '(p)'");
        auto number = ParseDouble(token.substr(1, token.size() - 2));
        if (!number) throw InputError(path, line, "POINTS are written '(p)'");
        out->points.push_back(PositivePoint(*number, path, line));
      }
    } else if (words[0] == "REGION" || words[0] == "METRIC") {
      std::string name(Trim(trimmed.substr(6)));
      if (name.empty()) throw InputError(path, line, std::string(words[0]) + " needs a name");
      (words[0] == "REGION" ? region : metric) = name;
      if (words[0] == "REGION") metric.clear();
      next_point = 0;
    } else if (words[0] == "DATA") {
      if (region.empty() || metric.empty()) throw InputError(path, line, "DATA before REGION and METRIC");
      auto key = std::make_pair(region, metric);
      auto& rows = out->values[key];
      if (rows.empty()) {
        rows.resize(out->points.size());
        out->first_line[key] = line;
      }
      if (next_point >= out->points.size())
        throw InputError(path, line, "more DATA lines than POINTS for " + region + " " + metric);
      for (std::size_t w = 1; w < words.size(); ++w) rows[next_point].push_back(Value(words[w], path, line));
      ++next_point;
    } else {
      throw InputError(path, line, "unexpected line '" + std::string(trimmed.substr(0, 40)) + "'");
    }
  }
}

void ParseJsonLines(std::string_view text, const std::string& path, Export* out) {
  struct Entry {
    std::string callpath, metric;
    int p;
    double value;
    int line;
  };
  std::vector<Entry> entries;
  std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    std::string_view trimmed = Trim(lines[i]);
    if (trimmed.empty()) continue;
    nlohmann::json object = nlohmann::json::parse(trimmed.begin(), trimmed.end(), nullptr, false);
    if (object.is_discarded() || !object.is_object()) throw InputError(path, line, "not a JSON object");
    const nlohmann::json& params = object.contains("params") ? object["params"] : nlohmann::json();
    if (!params.is_object() || params.size() != 1 || !params.contains("p") || !params["p"].is_number())
      throw InputError(path, line, "\"params\" must be {\"p\": <processes>}");
    if (!object.contains("callpath") || !object["callpath"].is_string() || !object.contains("metric") ||
        !object["metric"].is_string() || !object.contains("value") || !object["value"].is_number())
      throw InputError(path, line, "needs \"callpath\", \"metric\" (strings) and \"value\" (a number)");
    double value = object["value"].get<double>();
    if (!std::isfinite(value) || value < 0) throw InputError(path, line, "\"value\" must be a non-negative number");
    entries.push_back({object["callpath"].get<std::string>(), object["metric"].get<std::string>(),
                       PositivePoint(params["p"].get<double>(), path, line), value, line});
  }
  for (const Entry& entry : entries) out->points.push_back(entry.p);
  std::sort(out->points.begin(), out->points.end());
  out->points.erase(std::unique(out->points.begin(), out->points.end()), out->points.end());
  for (const Entry& entry : entries) {
    auto key = std::make_pair(entry.callpath, entry.metric);
    auto& rows = out->values[key];
    if (rows.empty()) {
      rows.resize(out->points.size());
      out->first_line[key] = entry.line;
    }
    std::size_t g = static_cast<std::size_t>(
        std::lower_bound(out->points.begin(), out->points.end(), entry.p) - out->points.begin());
    rows[g].push_back(entry.value);
  }
}

}  // namespace

bool SniffQnmExport(const std::string& path, std::string_view text) {
  // An export names its scaling; older exports (without it) read as plain Extra-P files.
  return IdentityOf(path, text).count("scaling") == 1;
}

ReaderOutput ReadQnmExport(const ReaderInput& input) {
  const std::string& path = input.path;
  Export data;
  data.identity = IdentityOf(input.FormatPath(), input.text);
  const std::string scaling = data.identity["scaling"];
  if (scaling != "strong" && scaling != "none")
    throw InputError(path, 1, "export names scaling '" + scaling + "' (known: strong, none)");
  if (IsJsonLines(input.FormatPath()) && !StartsWith(input.text, kTextMark)) ParseJsonLines(input.text, path, &data);
  else ParseText(input.text, path, &data);
  if (data.points.empty()) throw InputError(path, 0, "export without POINTS");

  // The root: the one call path without "->" that has a time.
  std::string root;
  for (const auto& [key, rows] : data.values)
    if (key.second == "time" && key.first.find("->") == std::string::npos) {
      if (!root.empty()) throw InputError(path, data.first_line[key], "two roots with a time: " + root + ", " + key.first);
      root = key.first;
    }
  if (root.empty()) throw InputError(path, 0, "no call path without '->' has a time (the run time)");
  const auto& times = data.values[{root, "time"}];
  for (std::size_t g = 0; g < data.points.size(); ++g)
    if (times[g].empty())
      throw InputError(path, data.first_line[{root, "time"}], "no run time at p = " + std::to_string(data.points[g]));

  auto at = [&](const std::string& callpath, const std::string& metric, std::size_t g, std::size_t r) {
    auto it = data.values.find({callpath, metric});
    if (it == data.values.end() || r >= it->second[g].size()) return kUnknown;
    return it->second[g][r];
  };
  int threads = 1;
  if (data.identity.count("threads_per_proc")) {
    auto parsed = ParseInteger(data.identity["threads_per_proc"]);
    if (!parsed || *parsed <= 0 || *parsed > (1 << 20))
      throw InputError(path, 1, "export names threads_per_proc '" + data.identity["threads_per_proc"] + "'");
    threads = static_cast<int>(*parsed);
  }
  const std::string function_prefix = root + "->MPI->MPI_";
  ReaderOutput output;
  for (std::size_t g = 0; g < data.points.size(); ++g) {
    const int p = data.points[g];
    // Written per process x p (strong) or per process: back to per process.
    const double per_process = scaling == "strong" ? 1.0 / p : 1.0;
    for (std::size_t r = 0; r < times[g].size(); ++r) {
      RunStats run;
      run.sources.push_back(path);
      run.procs = p;
      run.threads_per_proc = threads;
      run.series = data.identity.count("series") ? data.identity["series"] : root;
      if (data.identity.count("app")) run.app = data.identity["app"];
      if (data.identity.count("class")) run.problem_class = data.identity["class"];
      if (data.identity.count("machine") && data.identity["machine"] != "unknown") run.machine = data.identity["machine"];
      if (data.identity.count("variant")) run.variant = data.identity["variant"];
      for (const char* key : {"series", "app", "class", "machine", "threads_per_proc"})
        if (data.identity.count(key)) run.derivations[key] = "qnm-predict export: the experiment's identity";
      run.details["run"] = "repetition " + std::to_string(r + 1) + " at p = " + std::to_string(p);
      const char* how = scaling == "strong" ? "qnm-predict export (strong scaling: written x p, divided by p)"
                                            : "qnm-predict export";
      run.wall_time_s = times[g][r] * per_process;
      run.mpi_time_mean_s = at(root + "->MPI", "time", g, r) * per_process;
      run.compute_time_mean_s = at(root + "->compute", "time", g, r) * per_process;
      run.messages_per_rank = at(root, "messages", g, r) * per_process;
      run.bytes_sent_per_rank = at(root, "bytes_sent", g, r) * per_process;
      run.mpi_calls_per_rank = at(root + "->MPI", "visits", g, r) * per_process;
      if (Known(run.compute_time_mean_s) && Known(run.mpi_time_mean_s))
        run.app_time_mean_s = run.compute_time_mean_s + run.mpi_time_mean_s;  // the export's MPI + compute = run time
      for (const char* field : {"wall_time_s", "mpi_time_mean_s", "compute_time_mean_s", "messages_per_rank",
                                "bytes_sent_per_rank", "mpi_calls_per_rank", "app_time_mean_s"})
        run.derivations[field] = how;
      // MPI functions: totals over the ranks (the record's call-site totals).
      for (const auto& [key, rows] : data.values) {
        if (key.second != "time" || !StartsWith(key.first, function_prefix) || r >= rows[g].size()) continue;
        CallSiteStats site;
        site.id = static_cast<int>(run.call_sites.size()) + 1;
        site.mpi_function = key.first.substr(function_prefix.size());
        site.source_location = key.first;
        site.activity = ClassifyMpiCall(site.mpi_function);
        site.ranks_complete = false;  // the export keeps totals, not per-rank rows
        site.total_time_s = rows[g][r] * per_process * p;
        site.total_calls = at(key.first, "visits", g, r) * per_process * p;
        site.total_bytes_sent = at(key.first, "bytes_sent", g, r) * per_process * p;
        run.call_sites.push_back(std::move(site));
      }
      if (!run.call_sites.empty()) run.per_rank_complete = false;
      run.Derive();
      RequirePlausibleRecord(run, path, data.first_line[{root, "time"}]);
      output.runs.push_back(std::move(run));
    }
  }
  return output;
}

}  // namespace qnm
