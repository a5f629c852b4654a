#include "trace/otf2_reader.h"

#include <otf2/otf2.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "trace/anchor_check.h"
#include "trace/otf2_error.h"
#include "trace/pending_requests.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/utf8_text.h"

namespace qnm::trace {
namespace {

// Definition ids above this are treated as corruption (they would make the
// id-indexed tables absurdly large); real Score-P traces stay far below it.
// An id must also be below the size of the global definition file in bytes:
// Score-P numbers definitions densely from 0 and each record takes more than
// one byte, so a larger id cannot come from an intact file (the tables sized
// by ids then stay bounded by what the file can hold).
constexpr uint64_t kMaxDefinitionId = 1u << 24;
constexpr std::size_t kMaxReserveEvents = 1u << 24;
// Timer resolutions of real clocks: 1 kHz (coarse timers) to 10 THz.
constexpr uint64_t kMinTimerResolution = 1000, kMaxTimerResolution = 10'000'000'000'000ull;

bool IsFile(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}
uint64_t FileSize(const std::string& path) { return static_cast<uint64_t>(std::max(0LL, FileSizeBytes(path))); }
bool IsDirectory(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

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

/// What a location's local definitions hold besides definitions: libotf2's
/// mapping tables (local -> global ids) and how many clock offsets it has.
///
/// libotf2 maps every id field of every record it decodes, and corrects
/// every timestamp, looking the location up in the archive each time even
/// when it has no table and no offset (two lookups per record: 42 of the
/// 685 instructions per record of analysing a 1 M-record stencil,
/// bench/README.md, trace_bench round 12). The
/// analysis maps only the fields it reads (MappedIds, the same
/// OTF2_IdMap_GetGlobalId libotf2 calls), and leaves timestamps alone where
/// the location has no clock offset: the ids and times are the same.
struct MappedIds {
  std::array<const OTF2_IdMap*, OTF2_MAPPING_MAX> maps{};
  uint64_t clock_offsets = 0;

  /// `id` as libotf2 maps it: through the table of `type`, unchanged when
  /// the location has none or the table does not hold it.
  uint32_t Global(OTF2_MappingType type, uint32_t id) const {
    const OTF2_IdMap* map = maps[type];
    if (!map) return id;
    uint64_t global = 0;
    return OTF2_IdMap_GetGlobalId(map, id, &global) == OTF2_SUCCESS ? static_cast<uint32_t>(global) : id;
  }
  /// Sets `evt` up to hand over ids unmapped (Global maps them) and
  /// timestamps corrected only where there are corrections to make.
  void Configure(OTF2_EvtReader* evt) const {
    OTF2_EvtReader_ApplyMappingTables(evt, false);
    if (clock_offsets == 0) OTF2_EvtReader_ApplyClockOffsets(evt, false);
  }
};

/// Per-location state while its events are read.
struct LocationReader {
  Trace* trace = nullptr;
  const MappedIds* ids = nullptr;  // the location's mapping tables (set before reading)
  LocationTrace* out = nullptr;
  EventSink* sink = nullptr;  // streaming: events go here, side tables keep the current record only
  uint32_t rank = 0;
  uint32_t events_added = 0, messages_added = 0;  // event index / message id of the next one
  Event current_event{};  // streaming: the event handed to the sink
  uint32_t pausing_region = kNone;
  struct Frame {
    uint32_t cnode;
    uint32_t region;
  };
  std::vector<Frame> stack;
  PendingRequests pending_isend;  // request -> message index
  PendingRequests pending_irecv;  // request -> request event index
  PendingRequests pending_rma;    // (win, matching id) -> op index
  bool paused = false;
  uint32_t* program_string = nullptr;  // first ProgramBegin's name, shared by all locations
  uint64_t last_ticks = 0;
  bool any_event = false;
  // Counts of repaired quirks, turned into one warning line each at the end.
  uint64_t unmatched_leaves = 0, closed_frames = 0, closed_at_end = 0, unknown_regions = 0;
  uint64_t unmatched_completions = 0, bad_refs = 0, backwards_time = 0;

  // Events must lie in the clock range of the global definitions, [offset,
  // offset + length], give or take one trace length (and a millisecond) for
  // clocks that were not synchronised exactly. Farther out, the timestamp is
  // damaged: a 3 ms trace would otherwise report hours.
  uint64_t outside_clock = 0;       // such events; the first one is reported
  OTF2_TimeStamp first_outside = 0;
  uint64_t earliest = 0, latest = UINT64_MAX;  // the clock range with its slack
  void SetClockRange() {
    const uint64_t length = trace->trace_length_ticks;
    if (length == 0) return;  // clock range not recorded: nothing to check against
    const uint64_t slack = std::max<uint64_t>(length, trace->timer_resolution / 1000);
    const uint64_t begin = trace->global_offset, end = trace->global_offset + length;
    earliest = begin >= slack ? begin - slack : 0;
    latest = end <= UINT64_MAX - slack ? end + slack : UINT64_MAX;
  }
  bool InClockRange(OTF2_TimeStamp time) const { return time >= earliest && time <= latest; }
  uint64_t Ticks(OTF2_TimeStamp time) {
    if (!InClockRange(time) && outside_clock++ == 0) first_outside = time;
    uint64_t ticks = time >= trace->global_offset ? time - trace->global_offset : 0;
    if (any_event && ticks < last_ticks) {
      ++backwards_time;
      ticks = last_ticks;
    }
    if (!any_event) out->first_ticks = ticks;
    any_event = true;
    last_ticks = ticks;
    out->last_ticks = ticks;
    return ticks;
  }
  uint32_t Add(uint64_t ticks, EventKind kind, uint32_t ref) {
    if (sink) {
      Event& event = current_event;  // field by field (a temporary stalls on store forwarding)
      event.ticks = ticks;
      event.ref = ref;
      event.kind = kind;
      sink->OnEvent(event, events_added);
    }
    else out->events.push_back(Event{ticks, ref, kind});
    return events_added++;
  }
  /// Appends a side-table record and returns its index (streaming: the table
  /// holds only this record, and the index only tells records apart).
  template <typename Table, typename Record>
  uint32_t Append(Table& table, const Record& record) {
    if (sink) table.clear();
    table.push_back(record);
    return static_cast<uint32_t>(table.size() - 1);
  }
  /// Append for a message, field by field (a temporary written with narrow
  /// stores and copied with wide loads stalls on store forwarding).
  void AppendMessage(uint32_t comm, uint32_t peer, uint32_t tag, uint32_t request_event, uint64_t bytes) {
    if (sink) out->messages.clear();
    Message& message = out->messages.emplace_back();
    message.comm = comm;
    message.peer = peer;
    message.tag = tag;
    message.request_event = request_event;
    message.bytes = bytes;
  }
  void Enter(uint64_t ticks, uint32_t region) {
    uint32_t parent = stack.empty() ? CallPaths::kNoParent : stack.back().cnode;
    uint32_t cnode = trace->call_paths.Child(parent, region);
    Frame& frame = stack.emplace_back();  // field by field (see Add)
    frame.cnode = cnode;
    frame.region = region;
    Add(ticks, EventKind::kEnter, cnode);
  }
  void PopTo(std::size_t depth, uint64_t ticks) {  // leaves frames until stack.size() == depth
    while (stack.size() > depth) {
      Add(ticks, EventKind::kLeave, stack.back().cnode);
      stack.pop_back();
    }
  }
  // A Leave of a region deeper in the stack closes the frames above it at the
  // same time (TraceR's stencil leaves TRACER_Loop before its inner regions).
  void Leave(uint64_t ticks, uint32_t region) {
    for (std::size_t i = stack.size(); i-- > 0;) {
      if (stack[i].region != region) continue;
      closed_frames += stack.size() - i - 1;
      PopTo(i, ticks);
      return;
    }
    ++unmatched_leaves;
  }
  bool CommOk(uint32_t comm) {
    if (comm < trace->comms.size()) return true;
    ++bad_refs;
    return false;
  }
  bool WinOk(uint32_t win) {
    if (win < trace->windows.size()) return true;
    ++bad_refs;
    return false;
  }
  void Finish(QuirkCounts* quirks) {
    closed_at_end += stack.size();
    PopTo(0, last_ticks);
    trace->repaired_leaves += closed_frames + closed_at_end;
    auto note = [&](uint64_t count, const char* what) {
      if (count) (*quirks)[what].emplace_back(rank, count);
    };
    note(unmatched_leaves, "Leave events without a matching Enter were ignored");
    note(closed_frames, "regions left out of order were closed with their parent");
    note(closed_at_end, "regions still open at the end of the trace were closed there");
    note(unknown_regions, "events named undefined regions and were ignored");
    note(unmatched_completions, "request completions without a request were ignored");
    note(bad_refs, "records named undefined communicators/windows/groups and were ignored");
    note(backwards_time, "timestamps went backwards and were clamped");
    note(pending_isend.size(), "non-blocking sends were never completed");
  }
};

}  // namespace

void AddQuirkWarnings(const QuirkCounts& quirks, std::vector<std::string>* warnings) {
  for (const auto& [what, per_rank] : quirks) {
    uint64_t total = 0;
    std::string ranks;
    for (std::size_t i = 0; i < per_rank.size(); ++i) {
      total += per_rank[i].second;
      std::size_t j = i;
      while (j + 1 < per_rank.size() && per_rank[j + 1].first == per_rank[j].first + 1) ++j;
      if (!ranks.empty()) ranks += ", ";
      ranks += std::to_string(per_rank[i].first);
      if (j > i) {
        for (std::size_t k = i + 1; k <= j; ++k) total += per_rank[k].second;
        ranks += "-" + std::to_string(per_rank[j].first);
      }
      i = j;
    }
    warnings->push_back(std::to_string(total) + " " + what + " (rank" +
                        (per_rank.size() > 1 ? "s " : " ") + ranks + ")");
  }
}

namespace {

LocationReader& Loc(void* user) { return *static_cast<LocationReader*>(user); }

OTF2_CallbackCode EvEnter(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                          OTF2_AttributeList*, OTF2_RegionRef region) {
  LocationReader& loc = Loc(user);
  region = loc.ids->Global(OTF2_MAPPING_REGION, region);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.trace->call_paths.HasRegion(region)) {
    ++loc.unknown_regions;
    return OTF2_CALLBACK_SUCCESS;
  }
  loc.Enter(ticks, region);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvLeave(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                          OTF2_AttributeList*, OTF2_RegionRef region) {
  LocationReader& loc = Loc(user);
  region = loc.ids->Global(OTF2_MAPPING_REGION, region);
  loc.Leave(loc.Ticks(time), region);
  return OTF2_CALLBACK_SUCCESS;
}
// Measurement OFF..ON becomes an artificial region "MEASUREMENT OFF", as in
// Score-P profiles and Scalasca 2.6 reports (EPIK/PEARL called it "PAUSING").
OTF2_CallbackCode EvOnOff(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                          OTF2_AttributeList*, OTF2_MeasurementMode mode) {
  LocationReader& loc = Loc(user);
  uint64_t ticks = loc.Ticks(time);
  if (mode == OTF2_MEASUREMENT_OFF && !loc.paused) {
    loc.Enter(ticks, loc.pausing_region);
    loc.paused = true;
  } else if (mode == OTF2_MEASUREMENT_ON && loc.paused) {
    loc.Leave(ticks, loc.pausing_region);
    loc.paused = false;
  }
  return OTF2_CALLBACK_SUCCESS;
}
uint32_t AddMessage(LocationReader& loc, uint32_t comm, uint32_t peer, uint32_t tag,
                    uint64_t bytes, uint32_t request_event) {
  loc.AppendMessage(comm, peer, tag, request_event, bytes);
  return loc.messages_added++;
}
OTF2_CallbackCode EvSend(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                         OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                         uint64_t bytes) {
  LocationReader& loc = Loc(user);
  comm = loc.ids->Global(OTF2_MAPPING_COMM, comm);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.CommOk(comm)) return OTF2_CALLBACK_SUCCESS;
  loc.Add(ticks, EventKind::kSend, AddMessage(loc, comm, receiver, tag, bytes, kNone));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvIsend(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                          OTF2_AttributeList*, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                          uint64_t bytes, uint64_t request) {
  LocationReader& loc = Loc(user);
  comm = loc.ids->Global(OTF2_MAPPING_COMM, comm);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.CommOk(comm)) return OTF2_CALLBACK_SUCCESS;
  uint32_t message = AddMessage(loc, comm, receiver, tag, bytes, kNone);
  loc.pending_isend.Insert(request, message);
  loc.Add(ticks, EventKind::kIsend, message);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvIsendComplete(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                  OTF2_AttributeList*, uint64_t request) {
  LocationReader& loc = Loc(user);
  uint64_t ticks = loc.Ticks(time);
  uint32_t message = kNone;
  if (!loc.pending_isend.Take(request, &message)) {
    ++loc.unmatched_completions;
    return OTF2_CALLBACK_SUCCESS;
  }
  loc.Add(ticks, EventKind::kIsendComplete, message);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvIrecvRequest(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                 OTF2_AttributeList*, uint64_t request) {
  LocationReader& loc = Loc(user);
  loc.pending_irecv.Insert(request, loc.Add(loc.Ticks(time), EventKind::kIrecvRequest, kNone));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRequestCancelled(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                     OTF2_AttributeList*, uint64_t request) {
  LocationReader& loc = Loc(user);
  loc.Ticks(time);
  uint32_t ignored;
  loc.pending_isend.Take(request, &ignored);
  loc.pending_irecv.Take(request, &ignored);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRecv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                         OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                         uint64_t bytes) {
  LocationReader& loc = Loc(user);
  comm = loc.ids->Global(OTF2_MAPPING_COMM, comm);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.CommOk(comm)) return OTF2_CALLBACK_SUCCESS;
  uint32_t self = loc.events_added;  // MPI_Recv is its own request
  loc.Add(ticks, EventKind::kRecv, AddMessage(loc, comm, sender, tag, bytes, self));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvIrecv(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                          OTF2_AttributeList*, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                          uint64_t bytes, uint64_t request) {
  LocationReader& loc = Loc(user);
  comm = loc.ids->Global(OTF2_MAPPING_COMM, comm);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.CommOk(comm)) return OTF2_CALLBACK_SUCCESS;
  uint32_t request_event = loc.events_added;
  if (!loc.pending_irecv.Take(request, &request_event)) ++loc.unmatched_completions;
  loc.Add(ticks, EventKind::kIrecv, AddMessage(loc, comm, sender, tag, bytes, request_event));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvCollBegin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                              OTF2_AttributeList*) {
  LocationReader& loc = Loc(user);
  loc.Add(loc.Ticks(time), EventKind::kCollBegin, kNone);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvCollEnd(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                            OTF2_AttributeList*, OTF2_CollectiveOp op, OTF2_CommRef comm,
                            uint32_t root, uint64_t sent, uint64_t received) {
  LocationReader& loc = Loc(user);
  comm = loc.ids->Global(OTF2_MAPPING_COMM, comm);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.CommOk(comm)) return OTF2_CALLBACK_SUCCESS;
  loc.Add(ticks, EventKind::kCollEnd,
          loc.Append(loc.out->collectives, CollectiveRecord{comm, root, op, sent, received}));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRmaCollBegin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                 OTF2_AttributeList*) {
  LocationReader& loc = Loc(user);
  loc.Add(loc.Ticks(time), EventKind::kRmaCollBegin, kNone);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRmaCollEnd(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                               OTF2_AttributeList*, OTF2_CollectiveOp op, OTF2_RmaSyncLevel,
                               OTF2_RmaWinRef win, uint32_t, uint64_t, uint64_t) {
  LocationReader& loc = Loc(user);
  win = loc.ids->Global(OTF2_MAPPING_RMA_WIN, win);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.WinOk(win)) return OTF2_CALLBACK_SUCCESS;
  loc.Add(ticks, EventKind::kRmaCollEnd, loc.Append(loc.out->rma_collectives, RmaCollectiveRecord{win, op}));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRmaGroupSync(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                 OTF2_AttributeList*, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
                                 OTF2_GroupRef group) {
  LocationReader& loc = Loc(user);
  group = loc.ids->Global(OTF2_MAPPING_GROUP, group);
  win = loc.ids->Global(OTF2_MAPPING_RMA_WIN, win);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.WinOk(win) || group >= loc.trace->groups.size()) {
    if (group >= loc.trace->groups.size()) ++loc.bad_refs;
    return OTF2_CALLBACK_SUCCESS;
  }
  loc.Add(ticks, EventKind::kRmaGroupSync,
          loc.Append(loc.out->rma_syncs, RmaSyncRecord{win, group, static_cast<uint8_t>(level)}));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode AddRmaOp(void* user, OTF2_TimeStamp time, OTF2_RmaWinRef win, uint32_t remote,
                           uint64_t bytes, uint64_t matching, RmaOpKind kind) {
  LocationReader& loc = Loc(user);
  win = loc.ids->Global(OTF2_MAPPING_RMA_WIN, win);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.WinOk(win)) return OTF2_CALLBACK_SUCCESS;
  uint32_t op = loc.Append(loc.out->rma_ops, RmaOpRecord{win, remote, bytes, matching, kind});
  loc.pending_rma.Insert((static_cast<uint64_t>(win) << 40) ^ matching, op);
  loc.Add(ticks, EventKind::kRmaOp, op);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRmaPut(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                           OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote,
                           uint64_t bytes, uint64_t matching) {
  return AddRmaOp(user, time, win, remote, bytes, matching, RmaOpKind::kPut);
}
OTF2_CallbackCode EvRmaGet(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                           OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote,
                           uint64_t bytes, uint64_t matching) {
  return AddRmaOp(user, time, win, remote, bytes, matching, RmaOpKind::kGet);
}
OTF2_CallbackCode EvRmaAtomic(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                              OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote,
                              OTF2_RmaAtomicType, uint64_t sent, uint64_t, uint64_t matching) {
  return AddRmaOp(user, time, win, remote, sent, matching, RmaOpKind::kAtomic);
}
OTF2_CallbackCode EvRmaOpComplete(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                  OTF2_AttributeList*, OTF2_RmaWinRef win, uint64_t matching) {
  LocationReader& loc = Loc(user);
  win = loc.ids->Global(OTF2_MAPPING_RMA_WIN, win);
  uint64_t ticks = loc.Ticks(time);
  uint32_t op = kNone;
  if (!loc.pending_rma.Take((static_cast<uint64_t>(win) << 40) ^ matching, &op)) {
    ++loc.unmatched_completions;
    return OTF2_CALLBACK_SUCCESS;
  }
  loc.Add(ticks, EventKind::kRmaOpComplete, op);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode AddLock(void* user, OTF2_TimeStamp time, OTF2_RmaWinRef win, uint32_t remote,
                          bool exclusive, LockEvent what) {
  LocationReader& loc = Loc(user);
  win = loc.ids->Global(OTF2_MAPPING_RMA_WIN, win);
  uint64_t ticks = loc.Ticks(time);
  if (!loc.WinOk(win)) return OTF2_CALLBACK_SUCCESS;
  loc.Add(ticks, EventKind::kRmaLock,
          loc.Append(loc.out->rma_locks, RmaLockRecord{win, remote, exclusive, what}));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvRequestLock(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote, uint64_t,
                                OTF2_LockType type) {
  return AddLock(user, time, win, remote, type == OTF2_LOCK_EXCLUSIVE, LockEvent::kRequest);
}
OTF2_CallbackCode EvAcquireLock(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote, uint64_t,
                                OTF2_LockType type) {
  return AddLock(user, time, win, remote, type == OTF2_LOCK_EXCLUSIVE, LockEvent::kAcquire);
}
OTF2_CallbackCode EvReleaseLock(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                OTF2_AttributeList*, OTF2_RmaWinRef win, uint32_t remote,
                                uint64_t) {
  return AddLock(user, time, win, remote, false, LockEvent::kRelease);
}
OTF2_CallbackCode EvMetric(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                           OTF2_AttributeList*, OTF2_MetricRef, uint8_t, const OTF2_Type*,
                           const OTF2_MetricValue*) {
  LocationReader& loc = Loc(user);
  loc.Ticks(time);
  ++loc.trace->metric_records;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvProgramBegin(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                                 OTF2_AttributeList*, OTF2_StringRef program, uint32_t,
                                 const OTF2_StringRef*) {
  LocationReader& loc = Loc(user);
  program = loc.ids->Global(OTF2_MAPPING_STRING, program);
  loc.Ticks(time);
  if (*loc.program_string == OTF2_UNDEFINED_STRING) *loc.program_string = program;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode EvProgramEnd(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                               OTF2_AttributeList*, int64_t) {
  Loc(user).Ticks(time);
  return OTF2_CALLBACK_SUCCESS;
}

using ReaderPtr = std::unique_ptr<OTF2_Reader, void (*)(OTF2_Reader*)>;
void CloseReader(OTF2_Reader* reader) {
  if (reader) OTF2_Reader_Close(reader);
}

/// Strings and region canonical names, kept to name the program of ProgramBegin.
struct DefinitionNames {
  std::unordered_map<uint32_t, std::string> strings;
  std::unordered_map<uint32_t, uint32_t> region_of_canonical;
};

/// Opens the archive, reads the global definitions, selects the rank locations.
ReaderPtr OpenArchive(const std::string& anchor, Trace* trace, std::vector<uint64_t>* ranks,
                      RankPartition partition = {}, RankRange* range_out = nullptr,
                      DefinitionNames* names = nullptr) {
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

/// The header's event count, bounded by the file size (a record takes >= 3
/// bytes), so that a corrupt count cannot make us reserve gigabytes.
uint64_t ExpectedEvents(const LocationTrace& rank, const std::string& event_file) {
  return std::min<uint64_t>({rank.header_events, FileSize(event_file) / 3 + 16, kMaxReserveEvents});
}

/// Reads one location's local definitions: libotf2 keeps its mapping tables
/// and clock offsets, `ids` learns where the tables are and counts the offsets.
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

/// Reads each rank's local definitions (the id mapping tables); one MappedIds
/// per rank of `range`.
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

OTF2_EvtReaderCallbacks* NewEventCallbacks() {
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, EvEnter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, EvLeave);
  OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, EvOnOff);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, EvSend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, EvIsend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, EvIsendComplete);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, EvIrecvRequest);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, EvRequestCancelled);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, EvRecv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, EvIrecv);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, EvCollBegin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, EvCollEnd);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, EvRmaCollBegin);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, EvRmaCollEnd);
  OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, EvRmaGroupSync);
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, EvRmaPut);
  OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, EvRmaGet);
  OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, EvRmaAtomic);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, EvRmaOpComplete);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb, EvRmaOpComplete);
  OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(cb, EvRequestLock);
  OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(cb, EvAcquireLock);
  OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, EvReleaseLock);
  OTF2_EvtReaderCallbacks_SetMetricCallback(cb, EvMetric);
  OTF2_EvtReaderCallbacks_SetProgramBeginCallback(cb, EvProgramBegin);
  OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, EvProgramEnd);
  return cb;
}

}  // namespace

std::string Otf2AnchorPath(const std::string& path) {
  if (IsDirectory(path)) return path + (path.empty() || path.back() == '/' ? "" : "/") + "traces.otf2";
  return path;
}

uint32_t CountOtf2Ranks(const std::string& path, uint64_t* event_bytes) {
  const std::string anchor = Otf2AnchorPath(path);
  Trace trace;
  std::vector<uint64_t> rank_locations;
  OpenArchive(anchor, &trace, &rank_locations);
  if (event_bytes) {
    const std::string dir = anchor.substr(0, anchor.size() - 5) + "/";
    *event_bytes = 0;
    for (uint64_t location : rank_locations) *event_bytes += FileSize(dir + std::to_string(location) + ".evt");
  }
  return static_cast<uint32_t>(rank_locations.size());
}

Trace ReadOtf2Trace(const std::string& path) {
  QuirkCounts quirks;
  RankRange range;
  Trace trace = ReadOtf2TraceRanks(path, RankPartition{}, &range, &quirks);
  AddQuirkWarnings(quirks, &trace.warnings);
  return trace;
}

Trace ReadOtf2TraceRanks(const std::string& path, RankPartition partition, RankRange* range_out,
                         QuirkCounts* quirks_out, EventSink* sink) {
  std::string anchor = Otf2AnchorPath(path);
  Trace trace;
  trace.path = anchor;
  std::vector<uint64_t> rank_locations;
  RankRange range;
  DefinitionNames names;
  ReaderPtr reader = OpenArchive(anchor, &trace, &rank_locations, partition, &range, &names);
  uint32_t program_string = OTF2_UNDEFINED_STRING;
  *range_out = range;
  uint32_t pausing = trace.call_paths.AddPausingRegion();
  const std::vector<MappedIds> ids = ReadLocalDefinitions(reader.get(), anchor, rank_locations, range);
  if (range.first == range.end) return trace;  // this process owns no rank

  std::string dir = anchor.substr(0, anchor.size() - 5) + "/";
  if (OTF2_Reader_OpenEvtFiles(reader.get()) != OTF2_SUCCESS)
    throw InputError(anchor, 0, Otf2Message("cannot open the event files"));
  OTF2_EvtReaderCallbacks* callbacks = NewEventCallbacks();
  std::unique_ptr<OTF2_EvtReaderCallbacks, void (*)(OTF2_EvtReaderCallbacks*)> callbacks_owner(
      callbacks, OTF2_EvtReaderCallbacks_Delete);
  QuirkCounts& quirks = *quirks_out;
  if (sink) {
    uint64_t expected = 0, total = 0;
    for (uint32_t rank = 0; rank < rank_locations.size(); ++rank) {
      uint64_t events = ExpectedEvents(trace.ranks[rank], dir + std::to_string(rank_locations[rank]) + ".evt");
      total += events;
      if (rank >= range.first && rank < range.end) expected += events;
    }
    sink->ExpectEvents(expected, total);
  }
  for (uint32_t rank = range.first; rank < range.end; ++rank) {
    std::string file = dir + std::to_string(rank_locations[rank]) + ".evt";
    if (!IsFile(file)) throw InputError(file, 0, "missing event file");
    if (!sink) {
      uint64_t expected = ExpectedEvents(trace.ranks[rank], file);
      trace.ranks[rank].events.reserve(expected);
      // Address space only: pages that stay untouched cost nothing.
      trace.ranks[rank].messages.reserve(expected / 2);
    }
    OTF2_EvtReader* evt = OTF2_Reader_GetEvtReader(reader.get(), rank_locations[rank]);
    if (!evt) throw InputError(file, 0, Otf2Message("cannot open the event file"));
    const MappedIds& rank_ids = ids[rank - range.first];
    rank_ids.Configure(evt);
    LocationReader loc;
    loc.trace = &trace;
    loc.ids = &rank_ids;
    loc.out = &trace.ranks[rank];
    loc.rank = rank;
    loc.pausing_region = pausing;
    loc.program_string = &program_string;
    loc.sink = sink;
    loc.SetClockRange();
    if (sink) sink->BeginRank(trace, rank, *loc.out);
    OTF2_Reader_RegisterEvtCallbacks(reader.get(), evt, callbacks, &loc);
    uint64_t read = 0;
    OTF2_ErrorCode status = OTF2_Reader_ReadAllLocalEvents(reader.get(), evt, &read);
    OTF2_Reader_CloseEvtReader(reader.get(), evt);
    if (status != OTF2_SUCCESS) throw InputError(file, 0, Otf2Message("corrupt event file"));
    if (loc.outside_clock > 0)
      throw InputError(file, 0, std::to_string(loc.outside_clock) + " event timestamps (first " +
                                    std::to_string(loc.first_outside) + ") lie outside the clock range [" +
                                    std::to_string(trace.global_offset) + ", " +
                                    std::to_string(trace.global_offset + trace.trace_length_ticks) +
                                    "] of the global definitions by more than the trace's length");
    loc.out->raw_events = read;
    loc.Finish(&quirks);
    if (sink) sink->EndRank(rank);
    // Only when the header's event count was far off: shrinking copies the events.
    if (loc.out->events.capacity() > loc.out->events.size() + loc.out->events.size() / 4)
      loc.out->events.shrink_to_fit();
  }
  OTF2_Reader_CloseEvtFiles(reader.get());
  // Scalasca's PEARL enters the region named by ProgramBegin (its canonical name).
  if (program_string != OTF2_UNDEFINED_STRING) {
    trace.program_begin = true;
    auto text = names.strings.find(program_string);
    trace.program_name = text != names.strings.end() ? text->second : std::string("program");
    auto region = names.region_of_canonical.find(program_string);
    if (region != names.region_of_canonical.end() && trace.call_paths.HasRegion(region->second))
      trace.program_region = region->second;
  }
  return trace;
}

struct Otf2BlockReader::Impl {
  struct Rank {
    Trace* trace = nullptr;
    QuirkCounts* quirks = nullptr;
    EventSink* sink = nullptr;
    std::string file;
    OTF2_EvtReader* evt = nullptr;
    std::unique_ptr<LocationReader> loc;
    MappedIds ids;
    uint32_t program_string = OTF2_UNDEFINED_STRING;
    uint64_t read = 0;
    /// More records than the event file has bytes cannot come from it: on a
    /// truncated file libotf2 can go on decoding its chunk buffer's stale
    /// bytes window after window without ever failing.
    uint64_t max_records = 0;
  };
  std::string anchor, dir;
  Trace base;  // the definitions every rank's Trace starts from
  std::vector<uint64_t> locations;
  RankRange range;
  DefinitionNames names;
  ReaderPtr reader{nullptr, CloseReader};
  uint32_t pausing = kNone;
  bool def_files_tried = false, def_files_open = false;
  bool evt_files_open = false;
  std::vector<Rank> ranks;
  std::unique_ptr<OTF2_EvtReaderCallbacks, void (*)(OTF2_EvtReaderCallbacks*)> callbacks{
      NewEventCallbacks(), OTF2_EvtReaderCallbacks_Delete};

  void Open(uint32_t rank, Rank& state) {
    RecordOtf2Errors();
    if (def_files_open) {
      OTF2_Reader_CloseDefFiles(reader.get());
      def_files_open = false;
    }
    if (!evt_files_open) {
      if (OTF2_Reader_OpenEvtFiles(reader.get()) != OTF2_SUCCESS)
        throw InputError(anchor, 0, Otf2Message("cannot open the event files"));
      evt_files_open = true;
    }
    state.file = dir + std::to_string(locations[rank]) + ".evt";
    if (!IsFile(state.file)) throw InputError(state.file, 0, "missing event file");
    state.max_records = FileSize(state.file) + 16;
    state.evt = OTF2_Reader_GetEvtReader(reader.get(), locations[rank]);
    if (!state.evt) throw InputError(state.file, 0, Otf2Message("cannot open the event file"));
    state.ids.Configure(state.evt);
    state.loc = std::make_unique<LocationReader>();
    LocationReader& loc = *state.loc;
    loc.trace = state.trace;
    loc.ids = &state.ids;
    loc.out = &state.trace->ranks[rank];
    loc.rank = rank;
    loc.pausing_region = pausing;
    loc.program_string = &state.program_string;
    loc.sink = state.sink;
    loc.SetClockRange();
    state.sink->ExpectEvents(ExpectedEvents(*loc.out, state.file), 0);
    state.sink->BeginRank(*state.trace, rank, *loc.out);
    OTF2_Reader_RegisterEvtCallbacks(reader.get(), state.evt, callbacks.get(), &loc);
  }

  void Finish(uint32_t rank, Rank& state) {
    LocationReader& loc = *state.loc;
    Trace& trace = *state.trace;
    if (loc.outside_clock > 0)
      throw InputError(state.file, 0, std::to_string(loc.outside_clock) + " event timestamps (first " +
                                          std::to_string(loc.first_outside) + ") lie outside the clock range [" +
                                          std::to_string(trace.global_offset) + ", " +
                                          std::to_string(trace.global_offset + trace.trace_length_ticks) +
                                          "] of the global definitions by more than the trace's length");
    loc.out->raw_events = state.read;
    loc.Finish(state.quirks);
    state.sink->EndRank(rank);
    if (state.program_string != OTF2_UNDEFINED_STRING) {
      trace.program_begin = true;
      auto text = names.strings.find(state.program_string);
      trace.program_name = text != names.strings.end() ? text->second : std::string("program");
      auto region = names.region_of_canonical.find(state.program_string);
      if (region != names.region_of_canonical.end() && trace.call_paths.HasRegion(region->second))
        trace.program_region = region->second;
    }
    state.loc.reset();
  }
};

Otf2BlockReader::Otf2BlockReader(const std::string& path, RankPartition partition) : impl_(std::make_unique<Impl>()) {
  Impl& in = *impl_;
  in.anchor = Otf2AnchorPath(path);
  in.dir = in.anchor.substr(0, in.anchor.size() < 5 ? 0 : in.anchor.size() - 5) + "/";
  in.base.path = in.anchor;
  in.reader = OpenArchive(in.anchor, &in.base, &in.locations, partition, &in.range, &in.names);
  in.pausing = in.base.call_paths.AddPausingRegion();
  in.ranks.resize(in.range.end - in.range.first);
}

Otf2BlockReader::~Otf2BlockReader() = default;

RankRange Otf2BlockReader::range() const { return impl_->range; }

void Otf2BlockReader::Begin(uint32_t rank, Trace* trace, QuirkCounts* quirks, EventSink* sink) {
  Impl& in = *impl_;
  Impl::Rank& state = in.ranks.at(rank - in.range.first);
  state.trace = trace;
  state.quirks = quirks;
  state.sink = sink;
  *trace = in.base;
  RecordOtf2Errors();
  // As ReadLocalDefinitions, one rank at a time in one session of the block.
  const uint64_t location = in.locations[rank];
  const std::string file = in.dir + std::to_string(location) + ".def";
  if (!IsFile(file)) throw InputError(file, 0, "missing local definition file");
  if (!in.def_files_tried) {
    in.def_files_open = OTF2_Reader_OpenDefFiles(in.reader.get()) == OTF2_SUCCESS;
    in.def_files_tried = true;
  }
  if (!in.def_files_open) throw InputError(file, 0, Otf2Message("cannot open local definition files"));
  OTF2_DefReader* def_reader = OTF2_Reader_GetDefReader(in.reader.get(), location);
  if (!def_reader) throw InputError(file, 0, Otf2Message("cannot open local definitions"));
  OTF2_ErrorCode status = ReadLocalDefinitionsOf(in.reader.get(), def_reader, &state.ids);
  OTF2_Reader_CloseDefReader(in.reader.get(), def_reader);
  if (status != OTF2_SUCCESS) throw InputError(file, 0, Otf2Message("corrupt local definitions"));
}

bool Otf2BlockReader::Read(uint32_t rank, uint64_t records) {
  Impl& in = *impl_;
  Impl::Rank& state = in.ranks.at(rank - in.range.first);
  if (!state.evt) in.Open(rank, state);
  uint64_t read = 0;
  OTF2_ErrorCode status = OTF2_Reader_ReadLocalEvents(in.reader.get(), state.evt, records, &read);
  state.read += read;
  const bool impossible = state.read > state.max_records;
  if (status == OTF2_SUCCESS && read == records && !impossible) return true;
  OTF2_Reader_CloseEvtReader(in.reader.get(), state.evt);
  state.evt = nullptr;
  if (status != OTF2_SUCCESS || impossible) throw InputError(state.file, 0, Otf2Message("corrupt event file"));
  in.Finish(rank, state);
  return false;
}

namespace {

OTF2_CallbackCode Count(void* user) {
  ++*static_cast<uint64_t*>(user);
  return OTF2_CALLBACK_SUCCESS;
}

/// Callbacks that only count: the least any reader does with the records.
OTF2_EvtReaderCallbacks* NewCountingCallbacks() {
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  using L = OTF2_LocationRef;
  using T = OTF2_TimeStamp;
  using A = OTF2_AttributeList;
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, [](L, T, uint64_t, void* u, A*, OTF2_RegionRef) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, [](L, T, uint64_t, void* u, A*, OTF2_RegionRef) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(
      cb, [](L, T, uint64_t, void* u, A*, uint32_t, OTF2_CommRef, uint32_t, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(
      cb, [](L, T, uint64_t, void* u, A*, uint32_t, OTF2_CommRef, uint32_t, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(
      cb, [](L, T, uint64_t, void* u, A*, uint32_t, OTF2_CommRef, uint32_t, uint64_t, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(
      cb, [](L, T, uint64_t, void* u, A*, uint32_t, OTF2_CommRef, uint32_t, uint64_t, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, [](L, T, uint64_t, void* u, A*, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, [](L, T, uint64_t, void* u, A*, uint64_t) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, [](L, T, uint64_t, void* u, A*) { return Count(u); });
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(
      cb, [](L, T, uint64_t, void* u, A*, OTF2_CollectiveOp, OTF2_CommRef, uint32_t, uint64_t, uint64_t) {
        return Count(u);
      });
  OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, [](L, T, uint64_t, void* u, A*, OTF2_MeasurementMode) {
    return Count(u);
  });
  return cb;
}

}  // namespace

uint64_t DecodeOtf2EventsOnly(const std::string& path, bool counting_callbacks) {
  std::string anchor = Otf2AnchorPath(path);
  Trace trace;
  std::vector<uint64_t> rank_locations;
  ReaderPtr reader = OpenArchive(anchor, &trace, &rank_locations);
  ReadLocalDefinitions(reader.get(), anchor, rank_locations,
                       RankRange{0, static_cast<uint32_t>(rank_locations.size())});
  if (OTF2_Reader_OpenEvtFiles(reader.get()) != OTF2_SUCCESS)
    throw InputError(anchor, 0, Otf2Message("cannot open the event files"));
  std::unique_ptr<OTF2_EvtReaderCallbacks, void (*)(OTF2_EvtReaderCallbacks*)> counting(
      NewCountingCallbacks(), OTF2_EvtReaderCallbacks_Delete);
  uint64_t total = 0;
  for (uint64_t location : rank_locations) {
    OTF2_EvtReader* evt = OTF2_Reader_GetEvtReader(reader.get(), location);
    if (!evt) throw InputError(anchor, 0, Otf2Message("cannot open an event file"));
    uint64_t read = 0, counted = 0;
    if (counting_callbacks) OTF2_Reader_RegisterEvtCallbacks(reader.get(), evt, counting.get(), &counted);
    OTF2_ErrorCode status = OTF2_Reader_ReadAllLocalEvents(reader.get(), evt, &read);
    OTF2_Reader_CloseEvtReader(reader.get(), evt);
    if (status != OTF2_SUCCESS) throw InputError(anchor, 0, Otf2Message("corrupt event file"));
    total += read;
  }
  OTF2_Reader_CloseEvtFiles(reader.get());
  return total;
}

std::size_t LocationTrace::MemoryBytes() const {
  return events.size() * sizeof(Event) + messages.size() * sizeof(Message) +
         collectives.size() * sizeof(CollectiveRecord) + rma_collectives.size() * sizeof(RmaCollectiveRecord) +
         rma_syncs.size() * sizeof(RmaSyncRecord) + rma_ops.size() * sizeof(RmaOpRecord) +
         rma_locks.size() * sizeof(RmaLockRecord);
}

std::size_t Trace::EventCount() const {
  std::size_t n = 0;
  for (const LocationTrace& rank : ranks) n += rank.events.size();
  return n;
}
std::size_t Trace::RawEventCount() const {
  std::size_t n = 0;
  for (const LocationTrace& rank : ranks) n += rank.raw_events;
  return n;
}
std::size_t Trace::MemoryBytes() const {
  std::size_t n = 0;
  for (const LocationTrace& rank : ranks) n += rank.MemoryBytes();
  return n;
}

}  // namespace qnm::trace
