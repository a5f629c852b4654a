#pragma once
// CUBE4 profiles (.cubex, what Score-P writes as scorep-*/profile.cubex and
// Scalasca/qnm-predict write as analysis reports) read into the run-statistics
// record. docs/formats/cube4.md says which record value comes from which
// metric and call path.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

struct CubeMetric {
  int id = 0;
  std::string uniq_name;  // "time", "visits", "bytes_sent", ...
  std::string dtype;      // "DOUBLE", "UINT64", "MAXDOUBLE", ...
  std::string type;       // along the call tree: "EXCLUSIVE", "INCLUSIVE" (derived metrics have no data)
  int parent = -1;        // index in CubeProfile::metrics of the parent in the metric tree
};

struct CubeRegion {
  std::string name, paradigm, role;  // paradigm "mpi", "compiler", ...; role "point2point", ...
};

struct CubeCallNode {
  uint32_t id = 0;   // the anchor's cnode id (what .index files refer to)
  int parent = -1;   // index in CubeProfile::call_nodes, -1 for roots
  int region = -1;   // index in CubeProfile::regions
};

struct CubeLocation {
  uint32_t id = 0;   // column of the .data rows
  int process = 0;   // index of its location group (process) in CubeProfile::process_ranks
  std::string type;  // "thread", "accelerator", "metric"
};

/// Which call paths' values ParseCubeProfile holds.
enum class CubeValues {
  kEveryCallPath,  // [call node x location] for every call node (cube sets model every call path)
  kRecordRows,     // only the rows the record needs: call-tree roots and MPI call paths
};

/// The parts of a .cubex the record needs: the three trees and the values of
/// the metrics asked for, as [row][location column].
struct CubeProfile {
  std::string path;
  std::string creator;  // <attr key="Creator">, e.g. "Score-P 8.4"
  std::vector<CubeMetric> metrics;
  std::vector<CubeRegion> regions;
  std::vector<CubeCallNode> call_nodes;  // anchor order (parents before children)
  std::vector<CubeLocation> locations;   // sorted by id = data column
  std::vector<int> process_ranks;        // MPI rank of each location group of type process
  // Distinct system-tree nodes of class "node" (Score-P: "node <host name>") that hold the
  // processes; 0 when a process has no such node above it (BlueGene's trees stop at node cards).
  int nodes = 0;

  /// The row of each call node in the tables below, -1 when its values were
  /// not kept (CubeValues::kRecordRows); empty = every call node, row = index.
  std::vector<int> row_of_node;

  /// Values of metric `uniq_name` converted to EXCLUSIVE along the call tree,
  /// [Row(call node) * locations + column]; empty when the metric or its data is absent.
  std::vector<double> exclusive_time, exclusive_visits, exclusive_bytes_sent, exclusive_bytes_received;
  /// Inclusive time of every kept call node (same layout).
  std::vector<double> inclusive_time;

  /// The table row of call node `node` (its index when every node is kept), -1 when not kept.
  int Row(std::size_t node) const { return row_of_node.empty() ? static_cast<int>(node) : row_of_node[node]; }
};

/// Parses a .cubex held in `bytes` (the file at `path`, named in errors).
/// Throws InputError for anything that is not a readable CUBE4 profile, and
/// when the values to hold exceed cube/cube_memory_budget.h's bounds.
CubeProfile ParseCubeProfile(std::string_view bytes, const std::string& path,
                             CubeValues values = CubeValues::kEveryCallPath);

/// The run-statistics record of one profile (one run).
RunStats CubeProfileToRunStats(const CubeProfile& profile);

/// ParseCubeProfile + CubeProfileToRunStats: the entry point for ingest/.
RunStats ReadCubeRunStats(std::string_view bytes, const std::string& path);

/// True when `bytes` start like a tar archive holding CUBE4 members (or gzip).
bool LooksLikeCubeProfile(std::string_view bytes);

}  // namespace qnm
