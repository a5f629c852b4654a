#include "trace/otf2_archive.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <unordered_set>

#include "trace/anchor_check.h"
#include "trace/otf2_error.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/utf8_text.h"

namespace qnm::trace::otf2 {
namespace {

// Definition ids above this are treated as corruption (they would make the
// id-indexed tables absurdly large); real Score-P traces stay far below it.
// An id must also be below the size of the global definition file in bytes:
// Score-P numbers definitions densely from 0 and each record takes more than
// one byte, so a larger id cannot come from an intact file (the tables sized
// by ids then stay bounded by what the file can hold).
constexpr uint64_t kMaxDefinitionId = 1u << 24;
// Timer resolutions of real clocks: 1 kHz (coarse timers) to 10 THz.
constexpr uint64_t kMinTimerResolution = 1000, kMaxTimerResolution = 10'000'000'000'000ull;
// No event count beyond this is reserved for (address space only, but bounded).
constexpr std::size_t kMaxReserveEvents = 1u << 24;

struct RawGroup {
  uint8_t type = 0;
  uint8_t paradigm = 0;
  std::vector<uint64_t> members;
  std::string name;
};
struct RawComm {
  std::string name;
  uint32_t group = kNone;
};
struct RawLocation {
  std::string name;
  uint8_t type = 0;
  uint64_t events = 0;
  uint32_t group = kNone;
};

/// Global definitions as read, before resolving ranks.
struct GlobalDefs {
  std::string file;
  Trace* trace = nullptr;
  std::unordered_map<uint32_t, std::string> strings;
  std::map<uint64_t, RawLocation> locations;
  std::unordered_map<uint32_t, std::pair<std::string, uint32_t>> location_groups;  // name, node
  std::unordered_map<uint32_t, std::string> system_nodes;
  std::unordered_set<uint32_t> host_nodes;  // system-tree nodes of class "node"
  std::map<uint32_t, RawGroup> groups;
  std::map<uint32_t, RawComm> comms;
  std::map<uint32_t, std::pair<std::string, uint32_t>> windows;
  std::unordered_map<uint32_t, uint32_t> region_of_canonical;  // canonical name string -> region
  bool have_clock = false;
  uint64_t max_id = kMaxDefinitionId;  // min(kMaxDefinitionId, size of the definition file)
  std::string error;  // first structural error

  std::string String(uint32_t ref) const {
    auto it = strings.find(ref);
    return it == strings.end() ? std::string() : it->second;
  }
  bool CheckId(uint64_t id, const char* what) {
    if (id < max_id) return true;
    if (error.empty())
      error = std::string("implausible ") + what + " id " + std::to_string(id) +
              " (ids are numbered densely; this file holds at most " + std::to_string(max_id) + ")";
    return false;
  }
};

GlobalDefs& Defs(void* user) { return *static_cast<GlobalDefs*>(user); }

OTF2_CallbackCode OnClock(void* user, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t) {
  GlobalDefs& defs = Defs(user);
  defs.trace->timer_resolution = resolution;
  defs.trace->global_offset = offset;
  defs.trace->trace_length_ticks = length;
  defs.have_clock = true;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnString(void* user, OTF2_StringRef self, const char* text) {
  Defs(user).strings[self] = ValidUtf8(text ? text : "");
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnSystemTreeNode(void* user, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
                                   OTF2_StringRef class_name, OTF2_SystemTreeNodeRef) {
  Defs(user).system_nodes[self] = Defs(user).String(name);
  if (Defs(user).String(class_name) == "node") Defs(user).host_nodes.insert(self);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnLocationGroup(void* user, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                  OTF2_LocationGroupType, OTF2_SystemTreeNodeRef parent,
                                  OTF2_LocationGroupRef) {
  Defs(user).location_groups[self] = {Defs(user).String(name), parent};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnLocation(void* user, OTF2_LocationRef self, OTF2_StringRef name,
                             OTF2_LocationType type, uint64_t events, OTF2_LocationGroupRef group) {
  Defs(user).locations[self] = RawLocation{Defs(user).String(name), type, events, group};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnRegion(void* user, OTF2_RegionRef self, OTF2_StringRef name,
                           OTF2_StringRef canonical, OTF2_StringRef, OTF2_RegionRole role,
                           OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t,
                           uint32_t) {
  GlobalDefs& defs = Defs(user);
  if (!defs.CheckId(self, "region")) return OTF2_CALLBACK_INTERRUPT;
  defs.region_of_canonical.emplace(canonical, self);
  defs.trace->call_paths.SetRegion(self, DescribeRegion(defs.String(name), role, paradigm));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnGroup(void* user, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                          OTF2_Paradigm paradigm, OTF2_GroupFlag, uint32_t n,
                          const uint64_t* members) {
  GlobalDefs& defs = Defs(user);
  if (!defs.CheckId(self, "group")) return OTF2_CALLBACK_INTERRUPT;
  RawGroup group{type, paradigm, std::vector<uint64_t>(members, members + n), defs.String(name)};
  defs.groups[self] = std::move(group);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnComm(void* user, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                         OTF2_CommRef, OTF2_CommFlag) {
  GlobalDefs& defs = Defs(user);
  if (!defs.CheckId(self, "communicator")) return OTF2_CALLBACK_INTERRUPT;
  defs.comms[self] = RawComm{defs.String(name), group};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnRmaWin(void* user, OTF2_RmaWinRef self, OTF2_StringRef name, OTF2_CommRef comm,
                           OTF2_RmaWinFlag) {
  GlobalDefs& defs = Defs(user);
  if (!defs.CheckId(self, "window")) return OTF2_CALLBACK_INTERRUPT;
  defs.windows[self] = {defs.String(name), comm};
  return OTF2_CALLBACK_SUCCESS;
}

/// Turns raw definitions into ranks, communicators, groups and windows.
void ResolveDefinitions(GlobalDefs& defs, std::vector<uint64_t>* rank_locations) {
  Trace& trace = *defs.trace;
  if (!defs.error.empty()) throw InputError(defs.file, 0, defs.error);
  if (!defs.have_clock || trace.timer_resolution == 0)
    throw InputError(defs.file, 0, "no valid clock properties in the global definitions");
  if (trace.timer_resolution < kMinTimerResolution || trace.timer_resolution > kMaxTimerResolution)
    throw InputError(defs.file, 0, "implausible timer resolution of " + std::to_string(trace.timer_resolution) +
                                       " ticks per second (a clock has 1e3 to 1e13)");
  if (trace.trace_length_ticks > UINT64_MAX - trace.global_offset)
    throw InputError(defs.file, 0, "the clock range (offset + length) overflows 64 bits");
  // MPI world ranks: the COMM_LOCATIONS group of the MPI paradigm (member index = rank).
  const RawGroup* world = nullptr;
  for (const auto& [id, group] : defs.groups)
    if (group.type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
        (group.paradigm == OTF2_PARADIGM_MPI || world == nullptr))
      world = &group;
  rank_locations->clear();
  if (world) {
    *rank_locations = world->members;
  } else {
    for (const auto& [id, location] : defs.locations)
      if (location.type == OTF2_LOCATION_TYPE_CPU_THREAD) rank_locations->push_back(id);
    trace.warnings.push_back("no MPI location group; every CPU thread is taken as one rank");
  }
  if (rank_locations->empty()) throw InputError(defs.file, 0, "the trace defines no locations");
  std::unordered_map<uint64_t, uint32_t> rank_of;
  for (uint32_t rank = 0; rank < rank_locations->size(); ++rank) {
    uint64_t loc = (*rank_locations)[rank];
    if (!defs.locations.count(loc))
      throw InputError(defs.file, 0, "MPI rank " + std::to_string(rank) + " names undefined location " +
                                         std::to_string(loc));
    if (!rank_of.emplace(loc, rank).second)
      throw InputError(defs.file, 0, "location " + std::to_string(loc) + " appears twice as a rank");
  }
  trace.ranks.resize(rank_locations->size());
  std::unordered_set<uint32_t> nodes_used;
  bool every_rank_on_a_node = !rank_locations->empty();
  for (uint32_t rank = 0; rank < rank_locations->size(); ++rank) {
    LocationTrace& out = trace.ranks[rank];
    out.otf2_location = (*rank_locations)[rank];
    const RawLocation& raw = defs.locations[out.otf2_location];
    out.header_events = raw.events;
    auto group = defs.location_groups.find(raw.group);
    out.name = group != defs.location_groups.end() ? group->second.first : raw.name;
    if (group != defs.location_groups.end()) {
      auto node = defs.system_nodes.find(group->second.second);
      if (node != defs.system_nodes.end()) out.node = node->second;
    }
    if (group != defs.location_groups.end() && defs.host_nodes.count(group->second.second))
      nodes_used.insert(group->second.second);
    else
      every_rank_on_a_node = false;
  }
  trace.nodes = every_rank_on_a_node ? static_cast<int>(nodes_used.size()) : 0;
  // Groups: COMM_GROUP members index the COMM_LOCATIONS group, i.e. they are ranks.
  uint32_t max_group = defs.groups.empty() ? 0 : defs.groups.rbegin()->first + 1;
  trace.groups.assign(max_group, {});
  trace.group_defs.assign(max_group, {});
  for (const auto& [id, group] : defs.groups) {
    trace.group_defs[id] = GroupDefinition{group.type, group.paradigm, group.name};
    std::vector<uint32_t>& ranks = trace.groups[id];
    for (uint64_t member : group.members) {
      if (group.type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
        auto it = rank_of.find(member);
        ranks.push_back(it == rank_of.end() ? kNone : it->second);
      } else {
        ranks.push_back(member < rank_locations->size() ? static_cast<uint32_t>(member) : kNone);
      }
    }
  }
  uint32_t max_comm = defs.comms.empty() ? 0 : defs.comms.rbegin()->first + 1;
  trace.comms.assign(max_comm, {});
  for (const auto& [id, raw] : defs.comms) {
    Communicator& comm = trace.comms[id];
    comm.name = raw.name;
    auto group = defs.groups.find(raw.group);
    if (group == defs.groups.end()) {
      trace.warnings.push_back("communicator " + std::to_string(id) + " names an undefined group");
      continue;
    }
    comm.self_like = group->second.type == OTF2_GROUP_TYPE_COMM_SELF;
    comm.group = raw.group;
    comm.world_ranks = trace.groups[raw.group];
    if (std::count(comm.world_ranks.begin(), comm.world_ranks.end(), kNone))
      trace.warnings.push_back("communicator " + std::to_string(id) +
                               " has members outside the MPI ranks");
  }
  uint32_t max_win = defs.windows.empty() ? 0 : defs.windows.rbegin()->first + 1;
  trace.windows.assign(max_win, {});
  for (const auto& [id, window] : defs.windows) {
    trace.windows[id].name = window.first;
    trace.windows[id].comm = window.second < trace.comms.size() ? window.second : kNone;
  }
}

}  // namespace

bool IsFile(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}
uint64_t FileSize(const std::string& path) { return static_cast<uint64_t>(std::max(0LL, FileSizeBytes(path))); }

ReaderPtr OpenArchive(const std::string& anchor, Trace* trace, std::vector<uint64_t>* ranks,
                      RankPartition partition, RankRange* range_out, DefinitionNames* names) {
  RecordOtf2Errors();
  if (!IsFile(anchor)) throw InputError(anchor, 0, "no such trace anchor file");
  if (anchor.size() < 5 || anchor.compare(anchor.size() - 5, 5, ".otf2") != 0)
    throw InputError(anchor, 0, "not an OTF2 trace: expected the anchor file X.otf2 or its directory");
  std::string base = anchor.substr(0, anchor.size() - 5);  // strip ".otf2"
  if (!IsFile(base + ".def"))
    throw InputError(base + ".def", 0, "missing global definition file");
  CheckAnchorFile(anchor, base + ".def");  // libotf2 trusts the anchor's counts (loops and allocates on a damaged one)
  ReaderPtr reader(OTF2_Reader_Open(anchor.c_str()), CloseReader);
  if (!reader) throw InputError(anchor, 0, Otf2Message("not a readable OTF2 anchor file"));
  if (OTF2_Reader_SetSerialCollectiveCallbacks(reader.get()) != OTF2_SUCCESS)
    throw InputError(anchor, 0, Otf2Message("cannot set up the OTF2 reader"));
  char* creator = nullptr;
  if (OTF2_Reader_GetCreator(reader.get(), &creator) == OTF2_SUCCESS && creator) {
    trace->creator = ValidUtf8(creator);
    std::free(creator);
  }

  GlobalDefs defs;
  defs.file = base + ".def";
  defs.trace = trace;
  defs.max_id = std::min<uint64_t>(kMaxDefinitionId, std::max<uint64_t>(FileSize(defs.file), 64));
  OTF2_GlobalDefReader* global = OTF2_Reader_GetGlobalDefReader(reader.get());
  if (!global) throw InputError(defs.file, 0, Otf2Message("cannot open the global definitions"));
  OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(callbacks, OnClock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(callbacks, OnString);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(callbacks, OnSystemTreeNode);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(callbacks, OnLocationGroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks, OnLocation);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(callbacks, OnRegion);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(callbacks, OnGroup);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(callbacks, OnComm);
  OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(callbacks, OnRmaWin);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader.get(), global, callbacks, &defs);
  OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
  uint64_t definitions = 0;
  OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalDefinitions(reader.get(), global, &definitions);
  OTF2_Reader_CloseGlobalDefReader(reader.get(), global);
  if (!defs.error.empty()) throw InputError(defs.file, 0, defs.error);
  if (status != OTF2_SUCCESS)
    throw InputError(defs.file, 0, Otf2Message("corrupt global definitions"));
  ResolveDefinitions(defs, ranks);
  if (names) {
    names->strings = std::move(defs.strings);
    names->region_of_canonical = std::move(defs.region_of_canonical);
  }
  // Parallel replay: select only this part's ranks.
  RankRange range = partition.Of(static_cast<uint32_t>(ranks->size()));
  if (range_out) *range_out = range;
  for (uint32_t rank = range.first; rank < range.end; ++rank)
    OTF2_Reader_SelectLocation(reader.get(), (*ranks)[rank]);
  return reader;
}

uint64_t ExpectedEvents(const LocationTrace& rank, const std::string& event_file) {
  return std::min<uint64_t>({rank.header_events, FileSize(event_file) / 3 + 16, kMaxReserveEvents});
}

OTF2_ErrorCode ReadLocalDefinitionsOf(OTF2_Reader* reader, OTF2_DefReader* def_reader, MappedIds* ids) {
  std::unique_ptr<OTF2_DefReaderCallbacks, void (*)(OTF2_DefReaderCallbacks*)> callbacks(
      OTF2_DefReaderCallbacks_New(), OTF2_DefReaderCallbacks_Delete);
  OTF2_DefReaderCallbacks_SetMappingTableCallback(
      callbacks.get(), [](void* user, OTF2_MappingType type, const OTF2_IdMap* map) {
        if (type < OTF2_MAPPING_MAX) static_cast<MappedIds*>(user)->maps[type] = map;
        return OTF2_CALLBACK_SUCCESS;
      });
  OTF2_DefReaderCallbacks_SetClockOffsetCallback(callbacks.get(),
                                                [](void* user, OTF2_TimeStamp, int64_t, double) {
                                                  ++static_cast<MappedIds*>(user)->clock_offsets;
                                                  return OTF2_CALLBACK_SUCCESS;
                                                });
  OTF2_Reader_RegisterDefCallbacks(reader, def_reader, callbacks.get(), ids);
  uint64_t count = 0;
  return OTF2_Reader_ReadAllLocalDefinitions(reader, def_reader, &count);
}

std::vector<MappedIds> ReadLocalDefinitions(OTF2_Reader* reader, const std::string& anchor,
                                            const std::vector<uint64_t>& ranks, RankRange range) {
  std::vector<MappedIds> ids(range.end - range.first);
  if (range.first == range.end) return ids;
  std::string dir = anchor.substr(0, anchor.size() - 5) + "/";
  bool opened = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  for (uint32_t rank = range.first; rank < range.end; ++rank) {
    uint64_t location = ranks[rank];
    std::string file = dir + std::to_string(location) + ".def";
    if (!IsFile(file)) throw InputError(file, 0, "missing local definition file");
    if (!opened) throw InputError(file, 0, Otf2Message("cannot open local definition files"));
    OTF2_DefReader* def_reader = OTF2_Reader_GetDefReader(reader, location);
    if (!def_reader) throw InputError(file, 0, Otf2Message("cannot open local definitions"));
    OTF2_ErrorCode status = ReadLocalDefinitionsOf(reader, def_reader, &ids[rank - range.first]);
    OTF2_Reader_CloseDefReader(reader, def_reader);
    if (status != OTF2_SUCCESS) {
      std::string message = Otf2Message("corrupt local definitions");
      OTF2_Reader_CloseDefFiles(reader);
      throw InputError(file, 0, message);
    }
  }
  OTF2_Reader_CloseDefFiles(reader);
  return ids;
}

}  // namespace qnm::trace::otf2
