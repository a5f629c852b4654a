#include "models/machine_profile.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <nlohmann/json.hpp>

#include "util/atomic_file.h"
#include "util/enum_names.h"
#include "util/input_error.h"
#include "util/json_input.h"
#include "util/plausible_range.h"
#include "util/text_format.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

std::string ExecutableDirectory() {
  char buffer[4096];
  ssize_t length = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (length <= 0) return "";
  buffer[length] = '\0';
  return fs::path(buffer).parent_path().string();
}

}  // namespace

// The first name of a value is the one written; "linear" is read as one-per-node.
constexpr EnumName<Allocation> kAllocationNames[] = {{Allocation::kOnePerNode, "one-per-node"},
                                                     {Allocation::kBlock, "block"},
                                                     {Allocation::kCyclic, "cyclic"},
                                                     {Allocation::kOnePerNode, "linear"}};

const char* ToString(Allocation allocation) { return NameOf(kAllocationNames, allocation, "one-per-node"); }

bool ParseAllocation(const std::string& text, Allocation* allocation) {
  return ValueOf(kAllocationNames, ToLower(text), allocation);
}

double MachineProfile::SwitchDelayPerMessage(double bytes_per_message) const {
  return latency_s + std::max(0.0, bytes_per_message) / bandwidth_bytes_per_s;
}

MachineProfile ReadMachineProfile(const std::string& path) {
  return MachineProfileFromJson(ReadFile(path), path);
}

MachineProfile MachineProfileFromJson(const std::string& text, const std::string& path) {
  const nlohmann::json json = ParseJsonDocument(text, path);
  auto fail = [&](const std::string& message) { return InputError(path, 0, message); };
  if (!json.is_object()) throw fail("a machine profile must be a JSON object");
  MachineProfile profile;
  profile.file = path;
  auto number = [&](const char* key, bool required) -> double {
    if (!json.contains(key)) {
      if (required) throw fail(std::string("missing \"") + key + "\"");
      return kUnknown;
    }
    if (!json[key].is_number()) throw fail(std::string("\"") + key + "\" must be a number");
    return json[key].get<double>();
  };
  auto text_field = [&](const char* key) -> std::string {
    if (!json.contains(key)) return "";
    if (!json[key].is_string()) throw fail(std::string("\"") + key + "\" must be a string");
    return json[key].get<std::string>();
  };
  profile.name = text_field("name");
  if (profile.name.empty()) profile.name = fs::path(path).stem().string();
  profile.description = text_field("description");
  profile.source = text_field("source");
  if (profile.source.empty()) throw fail("missing \"source\" (say where the numbers come from)");
  profile.latency_s = number("latency_s", true);
  profile.bandwidth_bytes_per_s = number("bandwidth_bytes_per_s", true);
  RequirePlausible(profile.latency_s, kLatencyS, "\"latency_s\"", path, 0);
  RequirePlausible(profile.bandwidth_bytes_per_s, kBandwidthBytesPerS, "\"bandwidth_bytes_per_s\"", path, 0);
  // An optional positive integer up to `max`; 0 when absent.
  auto count = [&](const char* key, double max) -> int {
    double value = number(key, false);
    if (!Known(value)) return 0;
    if (!(value >= 1 && value <= max) || value != std::floor(value))
      throw fail(std::string("\"") + key + "\" must be a positive integer");
    return static_cast<int>(value);
  };
  profile.cores_per_node = count("cores_per_node", 1e6);
  profile.nodes = count("nodes", 1e7);
  profile.allreduce_latency_s = number("allreduce_latency_s", false);
  if (Known(profile.allreduce_latency_s))
    RequirePlausible(profile.allreduce_latency_s, kLatencyS, "\"allreduce_latency_s\"", path, 0);
  profile.allreduce_processes = count("allreduce_processes", 1e7);
  std::string allocation = text_field("allocation");
  if (!allocation.empty() && !ParseAllocation(allocation, &profile.allocation))
    throw fail("\"allocation\" must be one-per-node, block or cyclic, not '" + allocation + "'");
  if (json.contains("aliases")) {
    if (!json["aliases"].is_array()) throw fail("\"aliases\" must be an array of strings");
    for (const auto& alias : json["aliases"]) {
      if (!alias.is_string()) throw fail("\"aliases\" must be an array of strings");
      profile.aliases.push_back(alias.get<std::string>());
    }
  }
  profile.hosts = text_field("hosts");
  if (!profile.hosts.empty()) {
    try {
      std::regex check(profile.hosts);
    } catch (const std::regex_error& e) {
      throw fail("\"hosts\" is not a valid regular expression: " + std::string(e.what()));
    }
  }
  return profile;
}

std::string MachineProfileToJson(const MachineProfile& profile) {
  nlohmann::ordered_json json;
  json["name"] = profile.name;
  if (!profile.description.empty()) json["description"] = profile.description;
  if (!profile.aliases.empty()) json["aliases"] = profile.aliases;
  if (!profile.hosts.empty()) json["hosts"] = profile.hosts;
  json["latency_s"] = profile.latency_s;
  json["bandwidth_bytes_per_s"] = profile.bandwidth_bytes_per_s;
  if (profile.cores_per_node > 0) json["cores_per_node"] = profile.cores_per_node;
  if (profile.nodes > 0) json["nodes"] = profile.nodes;
  json["allocation"] = ToString(profile.allocation);
  if (Known(profile.allreduce_latency_s)) json["allreduce_latency_s"] = profile.allreduce_latency_s;
  if (profile.allreduce_processes > 0) json["allreduce_processes"] = profile.allreduce_processes;
  json["source"] = profile.source;
  return json.dump(2) + "\n";
}

std::vector<std::string> DataDirectories() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("QNM_DATA_DIR")) candidates.push_back(env);
#ifdef QNM_SOURCE_DIR
  candidates.push_back(std::string(QNM_SOURCE_DIR) + "/data");
#endif
  std::string exe_dir = ExecutableDirectory();
  if (!exe_dir.empty()) {
    candidates.push_back(exe_dir + "/../data");
    candidates.push_back(exe_dir + "/../share/qnm-predict");
  }
  std::vector<std::string> existing;
  std::error_code ec;
  for (const std::string& dir : candidates)
    if (fs::is_directory(dir, ec)) existing.push_back(fs::weakly_canonical(dir, ec).string());
  existing.erase(std::unique(existing.begin(), existing.end()), existing.end());
  return existing;
}

std::vector<MachineProfile> BundledMachineProfiles() {
  std::vector<MachineProfile> profiles;
  std::error_code ec;
  for (const std::string& dir : DataDirectories()) {
    fs::path machines = fs::path(dir) / "machines";
    if (!fs::is_directory(machines, ec)) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(machines, ec))
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      try {
        profiles.push_back(ReadMachineProfile(file.string()));
      } catch (const InputError&) {
        // A broken bundled file must not stop a run that does not use it.
      }
    }
    if (!profiles.empty()) break;  // the first data directory with profiles wins
  }
  return profiles;
}

MachineProfile LoadMachineProfile(const std::string& name_or_path) {
  std::error_code ec;
  if (fs::is_regular_file(name_or_path, ec)) return ReadMachineProfile(name_or_path);
  std::string names;
  for (const MachineProfile& profile : BundledMachineProfiles()) {
    if (ToLower(profile.name) == ToLower(name_or_path)) return profile;
    names += (names.empty() ? "" : ", ") + profile.name;
  }
  throw InputError(name_or_path, 0,
                   "no such machine profile file or bundled profile (bundled: " +
                       (names.empty() ? std::string("none found") : names) + ")");
}

bool FindProfileForMachine(const std::string& machine, MachineProfile* profile) {
  if (machine.empty()) return false;
  std::string lower = ToLower(machine);
  for (const MachineProfile& candidate : BundledMachineProfiles()) {
    std::vector<std::string> names = candidate.aliases;
    names.push_back(candidate.name);
    for (const std::string& name : names)
      if (!name.empty() && lower == ToLower(name)) {
        *profile = candidate;
        return true;
      }
  }
  return false;
}

bool ProfileMatchesHosts(const MachineProfile& profile, const std::vector<std::string>& hosts) {
  if (profile.hosts.empty() || hosts.empty()) return false;
  std::regex pattern(profile.hosts, std::regex::icase);
  for (const std::string& host : hosts)
    if (!std::regex_search(host, pattern)) return false;
  return true;
}

bool FindProfileForSeries(const Series& series, MachineProfile* profile, std::string* why) {
  std::vector<std::string> hosts;
  for (const RunGroup& group : series.groups)
    for (const RunStats& run : group.runs)
      for (const std::string& host : run.hosts)
        if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
  if (!hosts.empty())
    for (const MachineProfile& candidate : BundledMachineProfiles())
      if (ProfileMatchesHosts(candidate, hosts)) {
        *profile = candidate;
        if (why)
          *why = "its host pattern " + candidate.hosts + " matches the runs' " + std::to_string(hosts.size()) +
                 " host names (" + hosts.front() + ", …)";
        return true;
      }
  if (!FindProfileForMachine(series.key.machine, profile)) return false;
  if (why) *why = "named like the series' machine '" + series.key.machine + "'";
  return true;
}

}  // namespace qnm
