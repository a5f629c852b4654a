#pragma once
// A machine profile: the network and node parameters the model needs that the
// run statistics do not carry (Buckwalter 2005: switch delay = m * (Lat + L / BW)).
// Bundled presets live in data/machines/<name>.json, each with its `source`.
#include <string>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// How MPI processes are placed on nodes; decides how many MPI service queues
/// the contention network has (models/contention_network.h).
enum class Allocation {
  kOnePerNode,  // one process per node: every process has its own MPI service
  kBlock,       // consecutive ranks fill a node before the next node is used
  kCyclic,      // ranks dealt round-robin over `nodes` nodes
};
const char* ToString(Allocation allocation);
/// Parses "one-per-node" | "block" | "cyclic"; false if unknown.
bool ParseAllocation(const std::string& text, Allocation* allocation);

struct MachineProfile {
  std::string name;                        // "llnl-cab"
  std::string description;                 // one line for reports and chart titles
  std::vector<std::string> aliases;        // machine names (whole, any case) that mean this machine ("cab")
  std::string hosts;                       // ECMAScript regex a node's host name matches ("^cab[0-9]+$"), or empty
  double latency_s = kUnknown;             // per-message network latency (Lat)
  double bandwidth_bytes_per_s = kUnknown; // point-to-point bandwidth (BW)
  int cores_per_node = 0;                  // 0 = unknown
  int nodes = 0;                           // nodes available (cyclic allocation); 0 = unknown
  Allocation allocation = Allocation::kOnePerNode;
  // Small-message MPI_Allreduce time and the processes it ran on (osu_allreduce,
  // IMB Allreduce; microbench/network_profile.h); unknown / 0 when not measured.
  double allreduce_latency_s = kUnknown;
  int allreduce_processes = 0;
  std::string source;                      // where the numbers come from
  std::string file;                        // the JSON file it was read from (empty if estimated)
  bool estimated = false;                  // latency/bandwidth estimated from the series itself
  std::string estimate_note;               // how, when estimated

  /// Per-message switch delay for messages of `bytes_per_message` bytes (Buckwalter 2005: Lat + L/BW).
  double SwitchDelayPerMessage(double bytes_per_message) const;
};

/// Reads a profile JSON file. Throws InputError naming the file on any problem.
MachineProfile ReadMachineProfile(const std::string& path);
/// The same from JSON text; `path` names the file in errors.
MachineProfile MachineProfileFromJson(const std::string& text, const std::string& path);

/// The profile as the JSON ReadMachineProfile reads (unknown fields left out).
std::string MachineProfileToJson(const MachineProfile& profile);

/// Directories searched for bundled data, in order: $QNM_DATA_DIR, the source
/// tree's data/ (QNM_SOURCE_DIR), <executable dir>/../data, <executable dir>/../share/qnm-predict.
std::vector<std::string> DataDirectories();

/// Resolves `name_or_path`: an existing file, or the name of a bundled profile
/// (data/machines/<name>.json). Throws InputError listing the bundled names when unknown.
MachineProfile LoadMachineProfile(const std::string& name_or_path);

/// All bundled profiles (unreadable files are skipped).
std::vector<MachineProfile> BundledMachineProfiles();

/// The bundled profile whose name or an alias equals `machine` (whole, any case), if any.
bool FindProfileForMachine(const std::string& machine, MachineProfile* profile);

/// True when every host in `hosts` (at least one) matches the profile's `hosts` pattern.
bool ProfileMatchesHosts(const MachineProfile& profile, const std::vector<std::string>& hosts);

/// The bundled profile for a series: the one whose `hosts` pattern matches the
/// host names its runs' files give (mpiP MPI Task Assignment, info files), else
/// the one named like the series' machine (FindProfileForMachine). `why` says which.
bool FindProfileForSeries(const Series& series, MachineProfile* profile, std::string* why);

}  // namespace qnm
