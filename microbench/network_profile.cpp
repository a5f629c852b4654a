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

  const MicroBenchmarkTable* latency_table = nullptr;
  for (const MicroBenchmarkTable& table : tables) {
    if (table.kind != MicroBenchmarkKind::kPingPongLatency) continue;
    double latency = FlatLatency(table, options.flat_max_bytes);
    if (Known(latency) && (!latency_table || latency > profile.latency_s)) {
      profile.latency_s = latency;
      latency_table = &table;
    }
  }
  if (!latency_table)
    throw InputError(first, 0,
                     "a profile needs a latency: give an osu_latency or IMB-MPI1 PingPong output beside the others");
  said.push_back("latency " + FormatDouble("%.3g", profile.latency_s * 1e6) +
                 " us: median one-way time of messages <= " + FormatDouble("%.0f", options.flat_max_bytes) +
                 " bytes, " + Where(*latency_table));
  sources.push_back(latency_table->suite + " (" + latency_table->file + ")");

  const MicroBenchmarkTable* bandwidth_table = nullptr;
  for (const MicroBenchmarkTable& table : tables) {
    if (table.kind != MicroBenchmarkKind::kStreamBandwidth) continue;
    double peak = 0;
    for (const MessageSizeRow& row : table.rows)
      if (row.bytes >= options.bandwidth_min_bytes) peak = std::max(peak, row.bandwidth_bytes_per_s);
    if (peak > 0 && (!bandwidth_table || peak < profile.bandwidth_bytes_per_s)) {
      profile.bandwidth_bytes_per_s = peak;
      bandwidth_table = &table;
    }
  }
  if (bandwidth_table) {
    said.push_back("bandwidth " + FormatDouble("%.4g", profile.bandwidth_bytes_per_s / 1e6) +
                   " MB/s: plateau of the messages >= " + FormatDouble("%.0f", options.bandwidth_min_bytes) +
                   " bytes, " + Where(*bandwidth_table));
    sources.push_back(bandwidth_table->suite + " (" + bandwidth_table->file + ")");
  } else {
    for (const MicroBenchmarkTable& table : tables) {
      if (table.kind != MicroBenchmarkKind::kPingPongLatency) continue;
      double bandwidth = PingPongBandwidth(table, profile.latency_s, options.bandwidth_min_bytes);
      if (Known(bandwidth) && (!bandwidth_table || bandwidth < profile.bandwidth_bytes_per_s)) {
        profile.bandwidth_bytes_per_s = bandwidth;
        bandwidth_table = &table;
      }
    }
    if (!bandwidth_table)
      throw InputError(first, 0,
                       "no bandwidth: no osu_bw output and no ping-pong message of at least " +
                           FormatDouble("%.0f", options.bandwidth_min_bytes) + " bytes");
    said.push_back("bandwidth " + FormatDouble("%.4g", profile.bandwidth_bytes_per_s / 1e6) +
                   " MB/s: L / (t(L) - latency) at the largest ping-pong message, " + Where(*bandwidth_table));
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
