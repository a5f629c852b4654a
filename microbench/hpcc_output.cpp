// Reader of the HPC Challenge benchmark's output file, hpccoutf.txt
// (docs/formats/hpcc.md). Each run ends with a Summary section of key=value
// lines; its b_eff part (Rabenseifner's latency-bandwidth benchmark, run on
// every pair of processes) gives the ping-pong of the slowest pair:
//   Begin of Summary section.
//   CommWorldProcs=16
//   MaxPingPongLatency_usec=2.11265        <- 8-byte messages
//   MinPingPongBandwidth_GBytes=1.99586    <- 2,000,000-byte messages, 10^9 bytes/s
//   End of Summary section.
// hpcc appends to hpccoutf.txt, so one file may hold several runs: each
// Summary section is one table, but a run of one process has no ping-pong
// (HPCC prints -1) and gives none; a file of such runs only is refused.
#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include "microbench/micro_benchmark.h"
#include "microbench/table_rows.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kSummaryBegin = "Begin of Summary section.";
constexpr std::string_view kSummaryEnd = "End of Summary section.";
// b_eff's message sizes, printed under "Benchmark conditions:" of the
// LatencyBandwidth section; fixed in HPCC (used when that section is not in the file).
constexpr double kLatencyBytes = 8;
constexpr double kBandwidthBytes = 2000000;

struct SummaryValue {
  std::string text;
  int line = 0;
};

/// The message size "The latency   measurements were done with        8 bytes" states, if the line is one.
std::optional<double> ConditionBytes(std::string_view line, std::string_view what, const std::string& path,
                                     int line_number) {
  if (!StartsWith(line, what)) return std::nullopt;
  std::size_t with = line.find("were done with");
  if (with == std::string_view::npos) return std::nullopt;
  std::vector<std::string_view> tokens = SplitWhitespace(line.substr(with + 14));
  if (tokens.size() != 2 || tokens[1] != "bytes")
    throw InputError(path, line_number, "the b_eff message size is not '<n> bytes'");
  return ParseRowBytes(tokens[0], path, line_number);
}

/// A summary value as a finite number; InputError naming the key's line.
double Number(const std::map<std::string, SummaryValue>& summary, const std::string& key, const std::string& path,
              int section_line) {
  auto it = summary.find(key);
  if (it == summary.end())
    throw InputError(path, section_line, "the Summary section has no " + key + " (not an HPCC 1.x output?)");
  std::optional<double> value = ParseDouble(it->second.text);
  if (!value || !std::isfinite(*value))
    throw InputError(path, it->second.line, key + " '" + it->second.text + "' is not a finite number");
  return *value;
}

/// The ping-pong table of one Summary section; nullopt for a run of one process
/// (`no_pingpong` says so), which has none.
std::optional<MicroBenchmarkTable> SummaryTable(const std::map<std::string, SummaryValue>& summary,
                                                int section_line, const std::string& version, double latency_bytes,
                                                double bandwidth_bytes, const std::string& path,
                                                std::optional<InputError>* no_pingpong) {
  const double processes = Number(summary, "CommWorldProcs", path, section_line);
  if (processes != std::floor(processes) || processes < 1 || processes > 1e7)
    throw InputError(path, summary.at("CommWorldProcs").line, "CommWorldProcs is not a process count");
  const double latency_us = Number(summary, "MaxPingPongLatency_usec", path, section_line);
  const double bandwidth_gb = Number(summary, "MinPingPongBandwidth_GBytes", path, section_line);
  const int latency_line = summary.at("MaxPingPongLatency_usec").line;
  const int bandwidth_line = summary.at("MinPingPongBandwidth_GBytes").line;
  if (processes < 2 || latency_us == -1 || bandwidth_gb == -1) {
    if (!*no_pingpong)  // the first such run is the one named
      *no_pingpong = InputError(path, latency_line,
                                "no ping-pong in this run (" + std::to_string(static_cast<long long>(processes)) +
                                    " process; HPCC prints -1): give the output of a run on 2 or more processes");
    return std::nullopt;
  }
  MicroBenchmarkTable table;
  table.file = path;
  table.line = section_line;
  table.suite = "HPC Challenge " + version + ": b_eff ping-pong, slowest of " +
                std::to_string(static_cast<long long>(processes)) + " processes' pairs";
  table.kind = MicroBenchmarkKind::kPingPongLatency;
  table.processes = static_cast<int>(processes);
  MessageSizeRow small;
  small.bytes = latency_bytes;
  small.time_s = RequireMicroseconds(latency_us, path, latency_line);
  small.line = latency_line;
  AppendRow(&table, small, path);
  // The slowest pair's time for the large message: HPCC's bandwidth is L / t.
  MessageSizeRow large;
  large.bytes = bandwidth_bytes;
  large.bandwidth_bytes_per_s = bandwidth_gb * 1e9;
  if (!(large.bandwidth_bytes_per_s > 0))
    throw InputError(path, bandwidth_line, "MinPingPongBandwidth_GBytes is not a positive bandwidth");
  RequireBandwidth(large.bandwidth_bytes_per_s, path, bandwidth_line);
  large.time_s = RequireMicroseconds(bandwidth_bytes / large.bandwidth_bytes_per_s * 1e6, path, bandwidth_line);
  large.line = bandwidth_line;
  AppendRow(&table, large, path);
  return table;
}

}  // namespace

std::vector<MicroBenchmarkTable> ReadHpccOutput(const std::string& text, const std::string& path) {
  std::vector<MicroBenchmarkTable> tables;
  std::vector<std::string_view> lines = SplitLines(text);
  std::string version = "1.x";
  double latency_bytes = kLatencyBytes, bandwidth_bytes = kBandwidthBytes;
  std::map<std::string, SummaryValue> summary;
  std::optional<InputError> no_pingpong;  // a run of one process, kept to say why when no run has a ping-pong
  int section_line = 0;  // the open Summary section's first line; 0 outside one
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line_number = static_cast<int>(i) + 1;
    std::string_view line = Trim(lines[i]);
    if (section_line == 0) {
      if (std::size_t at = line.find("HPC Challenge Benchmark version "); at != std::string_view::npos) {
        std::vector<std::string_view> tokens = SplitWhitespace(line.substr(at + 32));
        if (!tokens.empty()) version = std::string(tokens.front());
      } else if (auto bytes = ConditionBytes(line, "The latency", path, line_number)) {
        latency_bytes = *bytes;
      } else if (auto bytes = ConditionBytes(line, "The bandwidth", path, line_number)) {
        bandwidth_bytes = *bytes;
      } else if (line == kSummaryBegin) {
        section_line = line_number;
        summary.clear();
      }
      continue;
    }
    if (line == kSummaryEnd) {
      if (auto table = SummaryTable(summary, section_line, version, latency_bytes, bandwidth_bytes, path,
                                    &no_pingpong))
        tables.push_back(std::move(*table));
      section_line = 0;
      latency_bytes = kLatencyBytes;  // the next run states its own
      bandwidth_bytes = kBandwidthBytes;
      continue;
    }
    if (line.empty()) continue;
    std::string_view key, value;
    if (!SplitAtFirst(line, '=', &key, &value))
      throw InputError(path, line_number, "a line of the Summary section is not key=value");
    if (!summary.emplace(std::string(key), SummaryValue{std::string(value), line_number}).second)
      throw InputError(path, line_number, std::string(key) + " appears twice in one Summary section");
  }
  if (section_line != 0)
    throw InputError(path, section_line, "the Summary section has no end (a truncated output?)");
  if (tables.empty() && no_pingpong) throw *no_pingpong;
  if (tables.empty())
    throw InputError(path, 0,
                     "no Summary section (\"Begin of Summary section.\"): an HPCC run that did not finish?");
  return tables;
}

}  // namespace qnm
