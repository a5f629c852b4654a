#pragma once
// One forward pass over each rank's events that turns them into the records
// the wait-state patterns match across ranks: call instances (Enter/Leave of
// the MPI call holding a record), message halves, collective participations,
// RMA window collectives, access/exposure epochs and lock epochs. The same
// pass accumulates the exclusive-time profile per call path and rank.
#include <cstdint>
#include <vector>

#include "trace/otf2_reader.h"
#include "trace/trace_events.h"

namespace qnm::trace {

/// One execution of a region that holds MPI records (times in ticks). Its
/// rank is that of the records pointing to it (kept out: one per MPI call).
struct CallInstance {
  uint64_t enter = 0, leave = 0;
  uint32_t cnode = 0;
  CallClass call_class = CallClass::kUser;
  bool late_sender_candidate = false;  // a receive completing here waited (Late Receiver skips it)
  bool closed = false;                 // its Leave was read (leave is final)
};

// Message halves carry no byte counts: no wait-state pattern needs them, and
// leaving them out keeps the records (one per message) small.
struct SendRecord {
  uint32_t comm, src, dst, tag;  // src/dst are world ranks
  /// Es: Enter of the region holding the send event. Once the Late Sender
  /// pattern has read it, the point-to-point analysis keeps the request Enter
  /// of the matched receive here instead (detail::kUnmatched if none), so
  /// that no table of those is needed.
  uint64_t enter;
  uint64_t send_ticks;   // the MpiSend/MpiIsend record time
  uint32_t completion;   // call instance holding the completion, or kNone
  uint32_t next_in_channel = kNone;  // the message matching's chain (in the record's padding)
};

struct RecvRecord {
  uint32_t comm, src, dst, tag;
  uint64_t request_enter;  // Qr_enter: Enter of the region holding the request
  uint32_t completion;     // call instance holding the receive completion
  uint32_t matched_send = kNone;  // set by the message matching (in the record's padding)
};

// One of each per message: what the streaming analysis keeps (docs/streaming-analysis.md).
static_assert(sizeof(SendRecord) == 40 && sizeof(RecvRecord) == 32 && sizeof(CallInstance) == 24,
              "message records grew");

struct CollectiveCall {
  uint32_t rank, comm, root;
  uint8_t op;
  uint64_t bytes_sent, bytes_received;
  uint64_t begin, end;  // MpiCollectiveBegin / End times
  uint32_t cnode;
};

struct WindowCall {  // Win_create / Win_fence / Win_free (RmaCollectiveBegin/End)
  uint32_t rank, win;
  uint8_t op;
  uint64_t enter, begin, end;
  uint32_t cnode;
  uint32_t fence_index;  // k-th fence on this window on this rank (fences only)
};

struct RmaOpCall {
  uint32_t origin, target, win;  // world ranks
  uint64_t op_ticks;             // the RmaPut/Get record time
  uint32_t instance;             // the MPI_Put/Get call (leave time, call path)
  uint32_t fence_epoch;          // fences seen on the window before the op; kNone in GATS/lock epochs
  uint32_t access_epoch;         // index into access_epochs, or kNone
  uint32_t lock_epoch;           // index into lock_epochs, or kNone
};

struct AccessEpoch {  // origin side: Win_start ... Win_complete
  uint32_t rank, win;
  std::vector<uint32_t> targets;  // world ranks
  uint32_t start = kNone, complete = kNone;  // call instances
  std::vector<uint32_t> ops;      // indices into rma_ops
};

struct ExposureEpoch {  // target side: Win_post ... Win_wait
  uint32_t rank, win;
  std::vector<uint32_t> origins;
  uint32_t post = kNone, wait = kNone;
};

struct LockEpoch {
  uint32_t rank, win, target;
  bool exclusive = false;
  uint32_t lock_call = kNone;  // the MPI_Win_lock instance
  uint64_t acquired = 0, released = 0;
  bool has_release = false;
};

struct InitFinalize {
  bool found = false;
  uint64_t enter = 0, leave = 0;
  uint32_t cnode = 0;
};

/// What each rank sent, event by event, for the run statistics
/// (trace_run_stats.h): as mpiP counts it.
struct SentBytes {
  /// cnode * ranks + rank: bytes of the sends and collectives (not Score-P's
  /// handle operations) in that call path.
  std::vector<double> by_call_path;
  std::vector<double> p2p_calls, p2p_bytes, collective_bytes;  // per rank: MpiSend + MpiIsend records; their
                                                               // bytes; bytes sent in collectives
  void Resize(std::size_t cnodes, std::size_t ranks);
};

/// Score-P 8's MPI_Init/Finalize and communicator set-up collectives (no data).
bool IsHandleOp(uint8_t op);

struct ReplayRecords {
  // The three big tables (about one entry per message) use huge pages.
  BulkVector<CallInstance> instances;
  BulkVector<SendRecord> sends;   // per rank in send order, ranks ascending
  BulkVector<RecvRecord> recvs;   // per rank in completion order, ranks ascending
  /// Kept to the end even by the matching while reading (56 bytes per
  /// collective call and rank): huge pages too.
  BulkVector<CollectiveCall> collectives;
  std::vector<WindowCall> window_calls;
  std::vector<RmaOpCall> rma_ops;
  std::vector<AccessEpoch> access_epochs;
  std::vector<ExposureEpoch> exposure_epochs;
  std::vector<LockEpoch> lock_epochs;
  std::vector<InitFinalize> init, finalize;  // per rank: the first MPI_Init / MPI_Finalize
  std::vector<double> exclusive_ticks;       // cnode * ranks + rank
  std::vector<uint64_t> visits;
  std::vector<double> outside_ticks;  // per rank: time between events outside any region
  SentBytes sent;
  uint64_t incomplete_sends = 0;             // Isends never completed (counted by the pass)
  uint64_t bad_peers = 0;                    // peers outside their communicator
  /// The number of the first entry of `instances`, `sends` and `recvs`: the
  /// matching while reading (trace/match_while_reading.h) drops the records
  /// it is done with from the front of one rank's tables, and the pass keeps
  /// numbering them as if they were all there (0 everywhere else).
  uint32_t instance_base = 0, send_base = 0, recv_base = 0;
};

/// The point-to-point records (instances, sends, receives) of consecutive
/// ranks, in the table of the thread that read them (or of all ranks): the
/// analysis uses them where they are instead of copying the blocks together.
struct RecordBlock {
  ReplayRecords* records = nullptr;
  RankRange ranks;
  /// The block's call paths -> the trace's (threads number call paths in their
  /// own discovery order); null: already the trace's.
  const std::vector<uint32_t>* cnode_map = nullptr;
  /// Call instances of the blocks before this one: instance i of the block is
  /// instance_offset + i in a sequential pass over all ranks.
  uint32_t instance_offset = 0;

  uint32_t Cnode(uint32_t cnode) const {
    return cnode_map && cnode < cnode_map->size() ? (*cnode_map)[cnode] : cnode;
  }
};

/// Runs the forward pass over every rank.
ReplayRecords ExtractReplayRecords(const Trace& trace);

/// One rank's exclusive ticks and visits per call path (index = cnode; may
/// be shorter than the call-path table when the last cnodes were not visited).
struct RankProfile {
  std::vector<double> exclusive_ticks;
  std::vector<uint64_t> visits;
  std::vector<double> bytes_sent;  // SentBytes::by_call_path of this rank
  double p2p_calls = 0, p2p_bytes = 0, collective_bytes = 0;
};
/// Adds `profile` to the rank's column of records->exclusive_ticks/visits/sent
/// (sized cnodes x ranks, ranks = records->outside_ticks.size()), renumbering
/// the cnodes through `cnode_map` if given.
void PlaceRankProfile(const RankProfile& profile, uint32_t rank, const std::vector<uint32_t>* cnode_map,
                      ReplayRecords* records);

}  // namespace qnm::trace
