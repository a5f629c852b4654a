#include "microbench/network_profile.h"

#include <algorithm>
#include <cmath>

#include "util/input_error.h"
#include "util/plausible_range.h"
#include "util/statistics.h"
#include "util/text_format.h"

namespace qnm {
namespace {

std::string Where(const MicroBenchmarkTable& table) {
  return table.file + ":" + std::to_string(table.line) + " (" + table.suite + ")";
}

/// Median one-way time of the flat small-message part; unknown without such rows.
double FlatLatency(const MicroBenchmarkTable& table, double flat_max_bytes) {
  std::vector<double> times;
  for (const MessageSizeRow& row : table.rows)
    if (row.bytes <= flat_max_bytes && row.time_s > 0) times.push_back(row.time_s);
  if (times.empty() && !table.rows.empty() && table.rows.front().time_s > 0)
    times.push_back(table.rows.front().time_s);  // a table starting above flat_max_bytes: its smallest message
  return times.empty() ? kUnknown : MedianOfKnown(times);
}

/// L / (t(L) - Lat) at the largest message of a ping-pong table (Hockney's line through its end).
double PingPongBandwidth(const MicroBenchmarkTable& table, double latency_s, double min_bytes) {
  for (auto it = table.rows.rbegin(); it != table.rows.rend(); ++it)
    if (it->bytes >= min_bytes && it->time_s > latency_s) return it->bytes / (it->time_s - latency_s);
  return kUnknown;
}

/// A table's value (a latency, a bandwidth) and the table.
struct Candidate {
  double value;
  const MicroBenchmarkTable* table;
};

/// The table the profile takes of `candidates` (known values only; none: null): the slowest path
/// (`slower_is_larger`: a latency; else a bandwidth), or with PathChoice::kMedian the middle one by
/// value, of an even number the slower of the two middle ones. `how` gets ", the median of N ...".
const Candidate* Choose(std::vector<Candidate>* candidates, PathChoice paths, bool slower_is_larger,
                        const char* what, std::string* how) {
  if (candidates->empty()) return nullptr;
  // From the slowest path to the fastest; of equal values the first given stays first.
  std::stable_sort(candidates->begin(), candidates->end(), [slower_is_larger](const Candidate& a, const Candidate& b) {
    return slower_is_larger ? a.value > b.value : a.value < b.value;
  });
  const std::size_t n = candidates->size();
  if (paths == PathChoice::kSlowest || n == 1) {
    if (n > 1) *how = ", the slowest of " + std::to_string(n) + " " + what;
    return &candidates->front();
  }
  *how = ", the median of " + std::to_string(n) + " " + what + " (repetitions of one path)";
  return &(*candidates)[(n - 1) / 2];
}

}  // namespace

bool NetworkProfileOptions::IsValid(std::string* error) const {
  if (name.empty()) {
    *error = "a profile needs a name (--name)";
    return false;
  }
  if (cores_per_node < 0 || nodes < 0) {
    *error = "cores per node and nodes must be positive (or 0 = unknown)";
    return false;
  }
  if (!(flat_max_bytes >= 0) || !(bandwidth_min_bytes > 0)) {
    *error = "message size limits must be positive";
    return false;
  }
  return true;
}

MachineProfile BuildNetworkProfile(const std::vector<MicroBenchmarkTable>& tables,
                                   const NetworkProfileOptions& options, std::vector<std::string>* notes) {
  const std::string first = tables.empty() ? std::string() : tables.front().file;
  if (std::string error; !options.IsValid(&error)) throw InputError("", 0, error);
  MachineProfile profile;
  profile.name = options.name;
  profile.description = options.description;
  profile.cores_per_node = options.cores_per_node;
  profile.nodes = options.nodes;
  profile.allocation = options.allocation;
  std::vector<std::string> said;
  std::vector<std::string> sources;

  std::vector<Candidate> latencies;
  for (const MicroBenchmarkTable& table : tables)
    if (table.kind == MicroBenchmarkKind::kPingPongLatency)
      if (double latency = FlatLatency(table, options.flat_max_bytes); Known(latency))
        latencies.push_back({latency, &table});
  std::string how;
  const Candidate* latency = Choose(&latencies, options.paths, true, "latency tables", &how);
  if (!latency)
    throw InputError(first, 0,
                     "a profile needs a latency: give an osu_latency or IMB-MPI1 PingPong output beside the others");
  profile.latency_s = latency->value;
  const MicroBenchmarkTable* latency_table = latency->table;
  said.push_back("latency " + FormatDouble("%.3g", profile.latency_s * 1e6) +
                 " us: median one-way time of messages <= " + FormatDouble("%.0f", options.flat_max_bytes) +
                 " bytes" + how + ", " + Where(*latency_table));
  sources.push_back(latency_table->suite + " (" + latency_table->file + ")");

  std::vector<Candidate> plateaus;
  for (const MicroBenchmarkTable& table : tables) {
    if (table.kind != MicroBenchmarkKind::kStreamBandwidth) continue;
    double peak = 0;
    for (const MessageSizeRow& row : table.rows)
      if (row.bytes >= options.bandwidth_min_bytes) peak = std::max(peak, row.bandwidth_bytes_per_s);
    if (peak > 0) plateaus.push_back({peak, &table});
  }
  how.clear();
  const MicroBenchmarkTable* bandwidth_table = nullptr;
  if (const Candidate* plateau = Choose(&plateaus, options.paths, false, "bandwidth tables", &how)) {
    profile.bandwidth_bytes_per_s = plateau->value;
    bandwidth_table = plateau->table;
    said.push_back("bandwidth " + FormatDouble("%.4g", profile.bandwidth_bytes_per_s / 1e6) +
                   " MB/s: plateau of the messages >= " + FormatDouble("%.0f", options.bandwidth_min_bytes) +
                   " bytes" + how + ", " + Where(*bandwidth_table));
    sources.push_back(bandwidth_table->suite + " (" + bandwidth_table->file + ")");
  } else {
    std::vector<Candidate> lines;
    for (const MicroBenchmarkTable& table : tables)
      if (table.kind == MicroBenchmarkKind::kPingPongLatency)
        if (double bandwidth = PingPongBandwidth(table, profile.latency_s, options.bandwidth_min_bytes);
            Known(bandwidth))
          lines.push_back({bandwidth, &table});
    const Candidate* line = Choose(&lines, options.paths, false, "ping-pong tables", &how);
    if (!line)
      throw InputError(first, 0,
                       "no bandwidth: no osu_bw output and no ping-pong message of at least " +
                           FormatDouble("%.0f", options.bandwidth_min_bytes) + " bytes");
    profile.bandwidth_bytes_per_s = line->value;
    bandwidth_table = line->table;
    said.push_back("bandwidth " + FormatDouble("%.4g", profile.bandwidth_bytes_per_s / 1e6) +
                   " MB/s: L / (t(L) - latency) at the largest ping-pong message" + how + ", " +
                   Where(*bandwidth_table));
  }
  RequirePlausible(profile.latency_s, kLatencyS, "latency", latency_table->file, latency_table->line);
  RequirePlausible(profile.bandwidth_bytes_per_s, kBandwidthBytesPerS, "bandwidth", bandwidth_table->file,
                   bandwidth_table->line);

  for (const MicroBenchmarkTable& table : tables) {
    if (table.kind != MicroBenchmarkKind::kAllreduce) continue;
    // The smallest non-empty message: the collective's latency (log2 P rounds of Lat).
    for (const MessageSizeRow& row : table.rows) {
      if (row.bytes <= 0 || !(row.time_s > 0)) continue;
      if (!Known(profile.allreduce_latency_s) || table.processes > profile.allreduce_processes) {
        profile.allreduce_latency_s = row.time_s;
        profile.allreduce_processes = table.processes;
        said.push_back("allreduce " + FormatDouble("%.3g", row.time_s * 1e6) + " us at " +
                       FormatDouble("%.0f", row.bytes) + " bytes" +
                       (table.processes > 0 ? " on " + std::to_string(table.processes) + " processes" : "") +
                       ", " + Where(table));
        sources.push_back(table.suite + " (" + table.file + ")");
      }
      break;
    }
  }
  profile.source = "measured: ";
  for (std::size_t i = 0; i < sources.size(); ++i)
    if (std::find(sources.begin(), sources.begin() + i, sources[i]) == sources.begin() + i)
      profile.source += (i ? "; " : "") + sources[i];
  if (notes) *notes = said;
  return profile;
}

}  // namespace qnm
