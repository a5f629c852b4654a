#pragma once
// The in-memory form of an OTF2 trace: definitions (regions, call paths,
// communicators, windows, groups) plus one compact event vector per MPI rank.
// Each event is 16 bytes; records with payload (messages, collectives, RMA)
// keep it in small side tables that the event points into. The reader
// normalises the quirks of real traces (unbalanced stacks, measurement
// off/on, requests) so that every location's Enter/Leave nest correctly.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trace/bulk_allocator.h"
#include "trace/call_paths.h"

namespace qnm::trace {

constexpr uint32_t kNone = 0xFFFFFFFFu;

enum class EventKind : uint8_t {
  kEnter,            // ref = call path (cnode) entered
  kLeave,            // ref = call path left
  kSend,             // MpiSend; ref = message index; the send completes in the same region
  kIsend,            // MpiIsend; ref = message index
  kIsendComplete,    // MpiIsendComplete; ref = message index of the Isend it completes
  kIrecvRequest,     // MpiIrecvRequest; ref = kNone (message filled at completion)
  kRecv,             // MpiRecv (blocking); ref = message index
  kIrecv,            // MpiIrecv (completion of a request); ref = message index
  kCollBegin,        // MpiCollectiveBegin; ref unused
  kCollEnd,          // MpiCollectiveEnd; ref = collective index
  kRmaCollBegin,     // RmaCollectiveBegin
  kRmaCollEnd,       // RmaCollectiveEnd; ref = rma collective index
  kRmaGroupSync,     // RmaGroupSync; ref = rma sync index
  kRmaOp,            // RmaPut / RmaGet / RmaAtomic; ref = rma op index
  kRmaOpComplete,    // RmaOpComplete*; ref = rma op index (or kNone if unknown)
  kRmaLock,          // RmaRequestLock / RmaAcquireLock / RmaReleaseLock; ref = lock index
};

/// One event: 16 bytes. `ticks` is relative to the clock's global offset.
struct Event {
  uint64_t ticks;
  uint32_t ref;
  EventKind kind;
  uint8_t pad[3] = {0, 0, 0};
};
static_assert(sizeof(Event) == 16, "events must stay compact");

/// A point-to-point message half as one location saw it.
struct Message {
  uint32_t comm;           // communicator id (index into Trace::comms)
  uint32_t peer;           // rank of the other side in `comm`
  uint32_t tag;
  uint32_t request_event;  // receives: index of the request event (MpiIrecvRequest,
                           // or the MpiRecv itself); sends: kNone
  uint64_t bytes;
};

struct CollectiveRecord {
  uint32_t comm;
  uint32_t root;  // rank in comm, or kNone
  uint8_t op;     // OTF2_CollectiveOp
  uint64_t bytes_sent;
  uint64_t bytes_received;
};

struct RmaCollectiveRecord {
  uint32_t win;
  uint8_t op;  // OTF2_CollectiveOp (CREATE_HANDLE, BARRIER = fence, DESTROY_HANDLE, ...)
};

struct RmaSyncRecord {
  uint32_t win;
  uint32_t group;  // group id; members are world ranks
  uint8_t level;   // OTF2_RmaSyncLevel bits
};

enum class RmaOpKind : uint8_t { kPut, kGet, kAtomic };
struct RmaOpRecord {
  uint32_t win;
  uint32_t remote;  // rank in the window's communicator
  uint64_t bytes;
  uint64_t matching_id;
  RmaOpKind kind;
};

enum class LockEvent : uint8_t { kRequest, kAcquire, kRelease };
struct RmaLockRecord {
  uint32_t win;
  uint32_t remote;
  uint8_t exclusive;
  LockEvent what;
};

/// All events of one MPI rank (one OTF2 location), in recorded order.
struct LocationTrace {
  uint64_t otf2_location = 0;
  std::string name;     // "MPI Rank 3"
  std::string node;     // system tree node name ("kn4.eth")
  BulkVector<Event> events;
  BulkVector<Message> messages;
  std::vector<CollectiveRecord> collectives;
  std::vector<RmaCollectiveRecord> rma_collectives;
  std::vector<RmaSyncRecord> rma_syncs;
  std::vector<RmaOpRecord> rma_ops;
  std::vector<RmaLockRecord> rma_locks;
  uint64_t first_ticks = 0, last_ticks = 0;  // first and last event (incl. ignored records)
  uint64_t raw_events = 0;                   // OTF2 records read for this location
  uint64_t header_events = 0;                // records the global definitions announce

  std::size_t MemoryBytes() const;  // bytes the events and side tables use
};

struct Communicator {
  std::string name;
  std::vector<uint32_t> world_ranks;  // comm rank -> world rank; empty = COMM_SELF
  bool self_like = false;             // COMM_SELF-type group
  uint32_t group = kNone;             // the OTF2 group definition it names (for writing it back)
  int Size() const { return self_like ? 1 : static_cast<int>(world_ranks.size()); }
  /// World rank of `comm_rank`; `self` is the caller's own rank for COMM_SELF.
  uint32_t WorldRank(uint32_t comm_rank, uint32_t self) const {
    if (self_like) return comm_rank == 0 ? self : kNone;
    return comm_rank < world_ranks.size() ? world_ranks[comm_rank] : kNone;
  }
};

/// An OTF2 group definition as written (type 0 = no group with this id).
struct GroupDefinition {
  uint8_t type = 0;      // OTF2_GroupType
  uint8_t paradigm = 0;  // OTF2_Paradigm
  std::string name;
};

struct RmaWindow {
  std::string name;
  uint32_t comm = kNone;
};

/// Everything the analyses need from one trace.
struct Trace {
  std::string path;      // the anchor file
  std::string creator;   // "Score-P 7.1" or empty
  uint64_t timer_resolution = 1;  // ticks per second
  uint64_t global_offset = 0;
  uint64_t trace_length_ticks = 0;  // clock properties' trace length (0 = not recorded)
  CallPaths call_paths;           // regions and the call tree (cnodes)
  std::vector<Communicator> comms;
  std::vector<RmaWindow> windows;
  std::vector<std::vector<uint32_t>> groups;  // group id -> world ranks (COMM_GROUP members)
  std::vector<GroupDefinition> group_defs;    // group id -> how it was defined (for writing it back)
  bool program_begin = false;        // a ProgramBegin record was read
  std::string program_name;         // ProgramBegin's program name; "" if the trace has none
  uint32_t program_region = kNone;  // the region whose canonical name is program_name
                                    // (Score-P >= 5 defines one; Scalasca's call-tree root)
  std::vector<LocationTrace> ranks;           // index = MPI world rank
  // Distinct system-tree nodes of class "node" holding the ranks' location groups; 0 when a
  // rank's group hangs below something else (the nodes are then unknown).
  int nodes = 0;
  std::vector<std::string> warnings;          // quirks the reader repaired or skipped
  uint64_t metric_records = 0;                // hardware-counter records (counted, not kept)
  uint64_t repaired_leaves = 0;               // Leave events synthesised to balance stacks

  double Seconds(uint64_t ticks) const {
    return static_cast<double>(ticks) / static_cast<double>(timer_resolution);
  }
  std::size_t EventCount() const;     // stored events over all ranks
  std::size_t RawEventCount() const;  // OTF2 records read
  std::size_t MemoryBytes() const;    // bytes held by events and side tables
};

}  // namespace qnm::trace
