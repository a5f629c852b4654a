#include "trace/otf2_writer.h"

#include <otf2/otf2.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <system_error>
#include <unordered_map>
#include <vector>

#include "trace/otf2_error.h"
#include "util/input_error.h"
#include "util/output_manifest.h"

namespace qnm::trace {
namespace fs = std::filesystem;
namespace {

// Request ids: an MPI_Isend's is its message index above this base; an
// MPI_Irecv's is the index of its request event. A completion whose request
// the reader could not find gets an id from the third range, never issued.
constexpr uint64_t kIsendRequestBase = uint64_t{1} << 40;
constexpr uint64_t kUnknownRequestBase = uint64_t{1} << 41;
// libotf2 zeroes a chunk per location and file kind: large chunks made writing
// a small trace cost 80x reading it. 256 KiB is OTF2's minimum chunk size.
constexpr uint64_t kEventChunkBytes = 1 << 20, kDefinitionChunkBytes = 256 << 10;

OTF2_FlushType PreFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }

/// Deduplicated OTF2 string definitions.
class StringTable {
 public:
  uint32_t Ref(const std::string& text) {
    auto [it, added] = ids_.emplace(text, static_cast<uint32_t>(order_.size()));
    if (added) order_.push_back(text);
    return it->second;
  }
  const std::vector<std::string>& InOrder() const { return order_; }

 private:
  std::unordered_map<std::string, uint32_t> ids_;
  std::vector<std::string> order_;
};

class ArchiveWriter {
 public:
  ArchiveWriter(const Trace& trace, std::string directory)
      : trace_(trace), directory_(std::move(directory)) {}

  Otf2WriteSummary Write(const std::string& creator) {
    RecordOtf2Errors();
    archive_ = OTF2_Archive_Open(directory_.c_str(), "traces", OTF2_FILEMODE_WRITE, kEventChunkBytes, kDefinitionChunkBytes,
                                 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive_) Fail("cannot create the OTF2 archive");
    OTF2_FlushCallbacks flush = {PreFlush, nullptr};
    Check(OTF2_Archive_SetFlushCallbacks(archive_, &flush, nullptr), "cannot set flush callbacks");
    Check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), "cannot set collective callbacks");
    Check(OTF2_Archive_SetCreator(archive_, (std::string(kOtf2CreatorPrefix) + " " + creator).c_str()),
          "cannot set the creator");
    Check(OTF2_Archive_OpenEvtFiles(archive_), "cannot open the event files");
    event_counts_.assign(trace_.ranks.size(), 0);
    for (uint32_t rank = 0; rank < trace_.ranks.size(); ++rank) WriteEvents(rank);
    Check(OTF2_Archive_CloseEvtFiles(archive_), "cannot close the event files");
    // Empty local definitions: the events use global ids already.
    Check(OTF2_Archive_OpenDefFiles(archive_), "cannot open the local definition files");
    for (const LocationTrace& rank : trace_.ranks)
      Check(OTF2_Archive_CloseDefWriter(archive_, OTF2_Archive_GetDefWriter(archive_, rank.otf2_location)),
            "cannot write local definitions");
    Check(OTF2_Archive_CloseDefFiles(archive_), "cannot close the local definition files");
    WriteDefinitions();
    OTF2_ErrorCode closed = OTF2_Archive_Close(archive_);
    archive_ = nullptr;
    Check(closed, "cannot close the archive");
    Otf2WriteSummary summary;
    for (uint64_t n : event_counts_) summary.events += n;
    summary.locations = trace_.ranks.size();
    return summary;
  }

  ~ArchiveWriter() {
    if (archive_) OTF2_Archive_Close(archive_);
  }

 private:
  [[noreturn]] void Fail(const char* what) const { throw InputError(directory_, 0, Otf2Message(what)); }
  void Check(OTF2_ErrorCode status, const char* what) const {
    if (status != OTF2_SUCCESS) Fail(what);
  }
  OTF2_TimeStamp Time(uint64_t ticks) const { return ticks + trace_.global_offset; }

  void WriteEvents(uint32_t rank) {
    const LocationTrace& in = trace_.ranks[rank];
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive_, in.otf2_location);
    if (!w) Fail("cannot open an event writer");
    uint64_t& count = event_counts_[rank];
    const CallPaths& paths = trace_.call_paths;
    // ProgramBegin/End keep the span of the location (the reader's first and
    // last record), also when no region is open at its start or end.
    bool program = !trace_.program_name.empty();
    if (program || (!in.events.empty() && in.first_ticks < in.events.front().ticks)) {
      Check(OTF2_EvtWriter_ProgramBegin(w, nullptr, Time(in.first_ticks), ProgramString(), 0, nullptr),
            "cannot write ProgramBegin");
      ++count;
    }
    for (std::size_t i = 0; i < in.events.size(); ++i) {
      const Event& e = in.events[i];
      OTF2_TimeStamp t = Time(e.ticks);
      OTF2_ErrorCode status = OTF2_SUCCESS;
      switch (e.kind) {
        case EventKind::kEnter:
        case EventKind::kLeave: {
          uint32_t region = paths.node(e.ref).region;
          bool enter = e.kind == EventKind::kEnter;
          if (paths.region(region).call_class == CallClass::kPausing)  // the measurement-off region
            status = OTF2_EvtWriter_MeasurementOnOff(w, nullptr, t, enter ? OTF2_MEASUREMENT_OFF : OTF2_MEASUREMENT_ON);
          else if (enter)
            status = OTF2_EvtWriter_Enter(w, nullptr, t, region);
          else
            status = OTF2_EvtWriter_Leave(w, nullptr, t, region);
          break;
        }
        case EventKind::kSend: {
          const Message& m = in.messages[e.ref];
          status = OTF2_EvtWriter_MpiSend(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes);
          break;
        }
        case EventKind::kIsend: {
          const Message& m = in.messages[e.ref];
          status = OTF2_EvtWriter_MpiIsend(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes, kIsendRequestBase + e.ref);
          break;
        }
        case EventKind::kIsendComplete:
          status = OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, kIsendRequestBase + e.ref);
          break;
        case EventKind::kIrecvRequest: status = OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t, i); break;
        case EventKind::kRecv: {
          const Message& m = in.messages[e.ref];
          status = OTF2_EvtWriter_MpiRecv(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes);
          break;
        }
        case EventKind::kIrecv: {
          const Message& m = in.messages[e.ref];
          bool has_request = m.request_event < i && in.events[m.request_event].kind == EventKind::kIrecvRequest;
          uint64_t request = has_request ? m.request_event : kUnknownRequestBase + i;
          status = OTF2_EvtWriter_MpiIrecv(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes, request);
          break;
        }
        case EventKind::kCollBegin: status = OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t); break;
        case EventKind::kCollEnd: {
          const CollectiveRecord& c = in.collectives[e.ref];
          status = OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, t, static_cast<OTF2_CollectiveOp>(c.op), c.comm,
                                                   c.root, c.bytes_sent, c.bytes_received);
          break;
        }
        case EventKind::kRmaCollBegin: status = OTF2_EvtWriter_RmaCollectiveBegin(w, nullptr, t); break;
        case EventKind::kRmaCollEnd: {
          const RmaCollectiveRecord& c = in.rma_collectives[e.ref];
          status = OTF2_EvtWriter_RmaCollectiveEnd(w, nullptr, t, static_cast<OTF2_CollectiveOp>(c.op),
                                                   OTF2_RMA_SYNC_LEVEL_PROCESS, c.win, OTF2_UNDEFINED_UINT32, 0, 0);
          break;
        }
        case EventKind::kRmaGroupSync: {
          const RmaSyncRecord& s = in.rma_syncs[e.ref];
          status = OTF2_EvtWriter_RmaGroupSync(w, nullptr, t, s.level, s.win, s.group);
          break;
        }
        case EventKind::kRmaOp: {
          const RmaOpRecord& op = in.rma_ops[e.ref];
          if (op.kind == RmaOpKind::kPut)
            status = OTF2_EvtWriter_RmaPut(w, nullptr, t, op.win, op.remote, op.bytes, op.matching_id);
          else if (op.kind == RmaOpKind::kGet)
            status = OTF2_EvtWriter_RmaGet(w, nullptr, t, op.win, op.remote, op.bytes, op.matching_id);
          else
            status = OTF2_EvtWriter_RmaAtomic(w, nullptr, t, op.win, op.remote, OTF2_RMA_ATOMIC_TYPE_ACCUMULATE,
                                              op.bytes, 0, op.matching_id);
          break;
        }
        case EventKind::kRmaOpComplete: {
          if (e.ref >= in.rma_ops.size()) continue;  // the reader keeps only matched completions
          const RmaOpRecord& op = in.rma_ops[e.ref];
          status = OTF2_EvtWriter_RmaOpCompleteBlocking(w, nullptr, t, op.win, op.matching_id);
          break;
        }
        case EventKind::kRmaLock: {
          const RmaLockRecord& l = in.rma_locks[e.ref];
          OTF2_LockType type = l.exclusive ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED;
          if (l.what == LockEvent::kRequest)
            status = OTF2_EvtWriter_RmaRequestLock(w, nullptr, t, l.win, l.remote, 0, type);
          else if (l.what == LockEvent::kAcquire)
            status = OTF2_EvtWriter_RmaAcquireLock(w, nullptr, t, l.win, l.remote, 0, type);
          else
            status = OTF2_EvtWriter_RmaReleaseLock(w, nullptr, t, l.win, l.remote, 0);
          break;
        }
      }
      Check(status, "cannot write an event");
      ++count;
    }
    if (program || (!in.events.empty() && in.last_ticks > in.events.back().ticks)) {
      Check(OTF2_EvtWriter_ProgramEnd(w, nullptr, Time(in.last_ticks), 0), "cannot write ProgramEnd");
      ++count;
    }
    Check(OTF2_Archive_CloseEvtWriter(archive_, w), "cannot close an event writer");
  }

  uint32_t ProgramString() {
    return strings_.Ref(trace_.program_name.empty() ? std::string("program") : trace_.program_name);
  }

  void WriteDefinitions() {
    OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive_);
    if (!defs) Fail("cannot open the global definition writer");
    // Ids of the definitions are those of the Trace; strings are numbered here.
    const CallPaths& paths = trace_.call_paths;
    // Timestamps stay relative to the same global offset, so that re-reading gives the same ticks.
    uint64_t last = 0;
    for (const LocationTrace& rank : trace_.ranks) last = std::max(last, rank.last_ticks);
    Check(OTF2_GlobalDefWriter_WriteClockProperties(defs, trace_.timer_resolution, trace_.global_offset, last + 1,
                                                    OTF2_UNDEFINED_TIMESTAMP),
          "cannot write the clock properties");
    // Everything that names a string is collected first: OTF2 wants strings defined first.
    uint32_t empty = strings_.Ref("");
    struct RegionDef {
      uint32_t id, name, canonical;
      const Region* region;
    };
    std::vector<RegionDef> regions;
    for (uint32_t id = 0; id < paths.region_count(); ++id) {
      if (!paths.HasRegion(id) || paths.region(id).call_class == CallClass::kPausing) continue;
      const Region& r = paths.region(id);
      uint32_t canonical = id == trace_.program_region ? ProgramString() : strings_.Ref(r.name);
      regions.push_back({id, strings_.Ref(r.name), canonical, &r});
    }
    uint32_t machine = strings_.Ref("machine"), node_class = strings_.Ref("node");
    uint32_t thread = strings_.Ref("Master thread");
    std::map<std::string, uint32_t> node_ids;  // system tree node ids 1.. in order of first use
    std::vector<std::string> nodes;
    for (const LocationTrace& rank : trace_.ranks)
      if (node_ids.emplace(rank.node, static_cast<uint32_t>(nodes.size() + 1)).second) nodes.push_back(rank.node);
    for (const std::string& node : nodes) strings_.Ref(node.empty() ? "node" : node);
    for (const LocationTrace& rank : trace_.ranks) strings_.Ref(rank.name);
    for (const Communicator& comm : trace_.comms) strings_.Ref(comm.name);
    for (const RmaWindow& win : trace_.windows) strings_.Ref(win.name);
    for (const GroupDefinition& group : trace_.group_defs) strings_.Ref(group.name);
    const std::vector<std::string>& texts = strings_.InOrder();
    for (uint32_t s = 0; s < texts.size(); ++s)
      Check(OTF2_GlobalDefWriter_WriteString(defs, s, texts[s].c_str()), "cannot write a string");

    Check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, machine, machine, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "cannot write the system tree");
    for (uint32_t i = 0; i < nodes.size(); ++i)
      Check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, i + 1, strings_.Ref(nodes[i].empty() ? "node" : nodes[i]),
                                                     node_class, 0),
            "cannot write the system tree");
    for (uint32_t rank = 0; rank < trace_.ranks.size(); ++rank) {
      const LocationTrace& in = trace_.ranks[rank];
      Check(OTF2_GlobalDefWriter_WriteLocationGroup(defs, rank, strings_.Ref(in.name), OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                    node_ids[in.node], OTF2_UNDEFINED_LOCATION_GROUP),
            "cannot write a location group");
      Check(OTF2_GlobalDefWriter_WriteLocation(defs, in.otf2_location, thread, OTF2_LOCATION_TYPE_CPU_THREAD,
                                               event_counts_[rank], rank),
            "cannot write a location");
    }
    for (const RegionDef& r : regions)
      Check(OTF2_GlobalDefWriter_WriteRegion(defs, r.id, r.name, r.canonical, empty,
                                             static_cast<OTF2_RegionRole>(r.region->role),
                                             static_cast<OTF2_Paradigm>(r.region->paradigm), OTF2_REGION_FLAG_NONE,
                                             empty, 0, 0),
            "cannot write a region");
    WriteGroupsAndComms(defs);
    for (uint32_t id = 0; id < trace_.windows.size(); ++id) {
      const RmaWindow& win = trace_.windows[id];
      Check(OTF2_GlobalDefWriter_WriteRmaWin(defs, id, strings_.Ref(win.name),
                                             win.comm == kNone ? OTF2_UNDEFINED_COMM : win.comm, OTF2_RMA_WIN_FLAG_NONE),
            "cannot write a window");
    }
  }

  /// Groups keep their ids and types: the MPI world (COMM_LOCATIONS, members
  /// are locations), communicator groups (members are world ranks) and
  /// COMM_SELF. A Trace built in memory without them gets new ones.
  void WriteGroupsAndComms(OTF2_GlobalDefWriter* defs) {
    uint32_t next_group = static_cast<uint32_t>(trace_.groups.size());
    bool have_world = false;
    auto write_group = [&](uint32_t id, const GroupDefinition& def, const std::vector<uint32_t>& ranks) {
      std::vector<uint64_t> members;
      if (def.type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
        have_world = have_world || def.paradigm == OTF2_PARADIGM_MPI;
        for (uint32_t r : ranks)
          if (r < trace_.ranks.size()) members.push_back(trace_.ranks[r].otf2_location);
      } else if (def.type != OTF2_GROUP_TYPE_COMM_SELF) {
        members.assign(ranks.begin(), ranks.end());
      }
      Check(OTF2_GlobalDefWriter_WriteGroup(defs, id, strings_.Ref(def.name), static_cast<OTF2_GroupType>(def.type),
                                            static_cast<OTF2_Paradigm>(def.paradigm), OTF2_GROUP_FLAG_NONE,
                                            static_cast<uint32_t>(members.size()), members.data()),
            "cannot write a group");
    };
    auto def_of = [&](uint32_t id) -> GroupDefinition {
      if (id >= trace_.groups.size()) return {};
      if (id < trace_.group_defs.size()) return trace_.group_defs[id];
      return {OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, ""};  // in-memory traces: rank lists
    };
    for (uint32_t id = 0; id < trace_.groups.size(); ++id) {
      GroupDefinition def = def_of(id);
      if (def.type) write_group(id, def, trace_.groups[id]);
    }
    if (!have_world) {
      std::vector<uint32_t> all(trace_.ranks.size());
      for (uint32_t r = 0; r < all.size(); ++r) all[r] = r;
      write_group(next_group++, {OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, ""}, all);
    }
    for (uint32_t id = 0; id < trace_.comms.size(); ++id) {
      const Communicator& comm = trace_.comms[id];
      uint32_t group = comm.group;
      if (group == kNone || !def_of(group).type) {
        if (comm.world_ranks.empty() && !comm.self_like) continue;  // an id no definition used
        group = next_group++;
        uint8_t type = comm.self_like ? OTF2_GROUP_TYPE_COMM_SELF : OTF2_GROUP_TYPE_COMM_GROUP;
        write_group(group, {type, OTF2_PARADIGM_MPI, ""}, comm.world_ranks);
      }
      Check(OTF2_GlobalDefWriter_WriteComm(defs, id, strings_.Ref(comm.name), group, OTF2_UNDEFINED_COMM,
                                           OTF2_COMM_FLAG_NONE),
            "cannot write a communicator");
    }
  }

  const Trace& trace_;
  std::string directory_;
  OTF2_Archive* archive_ = nullptr;
  StringTable strings_;
  std::vector<uint64_t> event_counts_;
};

/// The creator of the archive in `dir`, or "" when it holds none we can read.
std::string ArchiveCreator(const fs::path& dir) {
  fs::path anchor = dir / "traces.otf2";
  std::error_code error;
  if (!fs::is_regular_file(anchor, error)) return "";
  RecordOtf2Errors();
  OTF2_Reader* reader = OTF2_Reader_Open(anchor.c_str());
  if (!reader) return "";
  char* creator = nullptr;
  std::string out;
  if (OTF2_Reader_GetCreator(reader, &creator) == OTF2_SUCCESS && creator) {
    out = creator;
    std::free(creator);
  }
  OTF2_Reader_Close(reader);
  return out;
}

/// True when `dir` holds exactly an archive we wrote (nothing else is lost by replacing it).
bool IsOurArchive(const fs::path& dir) {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    std::string name = entry.path().filename().string();
    if (name != "traces.otf2" && name != "traces.def" && name != "traces" && name != kOtf2ManifestName) return false;
  }
  return !error && ArchiveCreator(dir).rfind(kOtf2CreatorPrefix, 0) == 0;
}

/// A new empty directory beside `target` (same file system, so rename works).
fs::path TemporaryBeside(const fs::path& target, const char* what) {
  std::string pattern = (target.parent_path() / ("." + target.filename().string() + what + "XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw InputError(target.string(), 0, "cannot create a temporary folder beside it");
  return pattern;
}

}  // namespace

Otf2WriteSummary WriteOtf2Archive(const Trace& trace, const std::string& directory, const std::string& creator) {
  return ArchiveWriter(trace, directory).Write(creator);
}

Otf2WriteSummary WriteOtf2ArchiveAtomically(const Trace& trace, const std::string& directory,
                                            const std::string& creator) {
  fs::path target = fs::path(directory).lexically_normal();
  if (target.has_filename() == false) target = target.parent_path();
  if (target.empty() || target == "." || target == "..")
    throw InputError(directory, 0, "name a new folder for the trace");
  if (target.parent_path().empty()) target = fs::path(".") / target;
  std::error_code error;
  if (!fs::is_directory(target.parent_path(), error))
    throw InputError(directory, 0, "its parent folder does not exist");
  bool exists = fs::exists(fs::symlink_status(target, error));
  bool replace = false;
  if (exists) {
    if (!fs::is_directory(fs::symlink_status(target, error)))
      throw InputError(directory, 0, "exists and is not a folder; refusing to overwrite it");
    replace = !fs::is_empty(target, error);
    if (replace && !IsOurArchive(target))
      throw InputError(directory, 0, "is not empty and not an OTF2 archive written by qnm-predict; refusing to overwrite it");
    // Replace only what the earlier run wrote (its manifest): a file the user
    // added inside, e.g. traces/notes.txt, would be deleted with the folder.
    const std::string unlisted = replace ? FirstUnlistedEntry(target.string(), kOtf2ManifestName) : "";
    if (!unlisted.empty())
      throw InputError(directory, 0, "holds '" + unlisted +
                                         "', which qnm-predict did not write there; refusing to replace the folder");
  }
  fs::path temporary = TemporaryBeside(target, ".tmp-");
  Otf2WriteSummary summary;
  try {
    summary = WriteOtf2Archive(trace, (temporary / "").string(), creator);
    WriteFolderManifest(temporary.string(), kOtf2ManifestName);
    mode_t mask = ::umask(0);
    ::umask(mask);
    fs::permissions(temporary, static_cast<fs::perms>(0777 & ~mask), error);
    if (replace) {
      fs::path old = TemporaryBeside(target, ".old-");
      fs::rename(target, old / "archive");
      fs::rename(temporary, target);
      fs::remove_all(old, error);
    } else {
      fs::rename(temporary, target);  // replaces an empty folder
    }
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(temporary, error);
    throw InputError(directory, 0, std::string("cannot move the written trace into place: ") + e.code().message());
  } catch (...) {
    fs::remove_all(temporary, error);
    throw;
  }
  return summary;
}

}  // namespace qnm::trace
