#pragma once
// A machine profile (models/machine_profile.h) from MPI micro-benchmark
// tables (microbench/micro_benchmark.h). The model's per-message switch delay
// is Lat + L/BW (Buckwalter 2005, §3; the postal/Hockney model of a
// point-to-point message), so the profile needs the two constants of that
// line: Lat is the one-way time of small messages, where the ping-pong curve
// is flat; BW is the slope's inverse at large messages, from osu_bw's
// plateau when given, else from the ping-pong's largest messages as
// L / (t(L) - Lat).
#include <string>
#include <vector>

#include "microbench/micro_benchmark.h"
#include "models/machine_profile.h"

namespace qnm {

/// Which of several latency (or bandwidth) tables the profile takes.
enum class PathChoice {
  kSlowest,  // the tables are different paths (intra- and inter-node, node pairs): the network is the slowest
  kMedian,   // the tables are repetitions of one path (a monitoring history): the middle one by value
};

struct NetworkProfileOptions {
  std::string name;         // the profile's name (required)
  std::string description;  // one line for reports
  int cores_per_node = 0;   // 0 = unknown
  int nodes = 0;            // 0 = unknown
  Allocation allocation = Allocation::kBlock;
  // Latency = median one-way time of the messages up to this size: the flat
  // part of every ping-pong curve in docs/formats (0..8 bytes within 5%).
  double flat_max_bytes = 8;
  // Bandwidth from the messages at least this large (64 KiB: past the eager
  // limit of the common MPI libraries, where the curve is a line).
  double bandwidth_min_bytes = 65536;
  // Several latency or bandwidth tables: the slowest path (default), or the median of repetitions.
  PathChoice paths = PathChoice::kSlowest;

  bool IsValid(std::string* error) const;
};

/// Builds the profile. With several ping-pong tables (intra- and inter-node
/// files) the slowest path is the network: the largest latency, the smallest
/// bandwidth; with PathChoice::kMedian the tables are repetitions of one path and
/// the middle table by value gives each (of an even number, the slower of the two
/// middle ones). `notes` (may be null) receives where each number came from.
/// Throws InputError naming the first table's file when a ping-pong table is missing.
MachineProfile BuildNetworkProfile(const std::vector<MicroBenchmarkTable>& tables,
                                   const NetworkProfileOptions& options, std::vector<std::string>* notes);

}  // namespace qnm
