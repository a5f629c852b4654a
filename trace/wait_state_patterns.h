#pragma once
// Internal to the wait-state analysis: the pattern families, each matching
// replay records across ranks and adding severities (in ticks, converted to
// seconds once at the end so that sums of integral tick counts stay exact).
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

#include "trace/otf2_reader.h"
#include "trace/replay_records.h"
#include "trace/wait_states.h"

namespace qnm::trace::detail {

/// Adds `ticks` of `pattern` at (cnode, rank); ignores non-positive values.
inline void AddSeverity(WaitStateResult& result, Pattern pattern, uint32_t cnode, uint32_t rank,
                        double ticks) {
  if (!(ticks > 0)) return;
  result.severity[static_cast<std::size_t>(pattern)][(static_cast<uint64_t>(cnode) << 32) | rank] +=
      ticks;
}

/// A point-to-point channel: messages on it match in order (MPI's
/// non-overtaking rule), the k-th send with the k-th receive.
struct ChannelKey {
  uint32_t comm, src, dst, tag;
  bool operator==(const ChannelKey& other) const {
    return comm == other.comm && src == other.src && dst == other.dst && tag == other.tag;
  }
};
struct ChannelHash {
  std::size_t operator()(const ChannelKey& key) const {
    uint64_t h = (static_cast<uint64_t>(key.comm) * 0x9E3779B97F4A7C15ull) ^ key.src;
    h = h * 0xC2B2AE3D27D4EB4Full ^ key.dst;
    h = h * 0x165667B19E3779F9ull ^ key.tag;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

/// Severities that one thread finds for its block of ranks, with the order in
/// which each key was first added: merged block by block in rank order, the
/// shares leave the hash maps exactly as one sequential pass over all ranks
/// would (same keys inserted in the same order, so the same iteration order;
/// the values are sums of whole ticks, exact in any order).
struct SeverityShare {
  std::array<std::unordered_map<uint64_t, double>, kPatternCount> severity;
  std::array<std::vector<uint64_t>, kPatternCount> first_added;
  std::unordered_map<uint32_t, double> late_sender_cause;  // WaitStateResult::late_sender_cause_s, in ticks
  std::vector<uint32_t> cause_first_added;
  uint64_t messages_matched = 0, unmatched_sends = 0, unmatched_receives = 0;

  /// Adds `ticks` of `pattern` at (cnode, rank); ignores non-positive values.
  void Add(Pattern pattern, uint32_t cnode, uint32_t rank, double ticks);
  void AddCause(uint32_t cnode, double ticks);
  /// Adds this share to `result`; call for the blocks in rank order. With
  /// `cnode_map`, the severities' call paths are renumbered through it; with
  /// `cause_map`, the Late Sender causes' (whose keys are then its indices).
  void MergeInto(WaitStateResult& result, const std::vector<uint32_t>* cnode_map = nullptr,
                 const std::vector<uint32_t>* cause_map = nullptr) const;
};

/// The send records of consecutive blocks of ranks, each block's own table,
/// numbered as one table would be: block b's sends follow block b-1's.
class SendView {
 public:
  /// A block's sends; the call instances and call-path map of `block` give
  /// each send's completing call (CompletionCnode).
  void AddBlock(RecordBlock& block);
  /// Sends without their completing calls (another process's).
  void AddSends(BulkVector<SendRecord>& sends);
  std::size_t size() const { return offsets_.back(); }
  SendRecord& operator[](uint32_t send) const {
    const Part& part = parts_[PartOf(send)];
    return (*part.sends)[send - part.offset];
  }
  /// The (trace) call path of the call that completed `send`, or kNone.
  uint32_t CompletionCnode(uint32_t send) const;
  std::size_t PartOf(uint32_t send) const;  // the block holding `send`

 private:
  struct Part {
    BulkVector<SendRecord>* sends;
    const RecordBlock* block;  // null: no completing calls known
    uint32_t offset;
  };
  std::vector<Part> parts_;
  std::vector<uint32_t> offsets_{0};  // offsets_[b] = first send of block b; back() = size
};

/// Runs step(b) for every block b < `blocks` on up to `threads` threads and
/// adds the slowest block's CPU time to `*critical_cpu_s` if given (the
/// step's wall time on idle cores).
void EachBlock(std::size_t blocks, int threads, double* critical_cpu_s, const std::function<void(std::size_t)>& step);

// Point-to-point in three steps, so that the parallel replay can run each one
// on the process (or thread) owning the records (Geimer et al. 2009, §3.3.1).

/// "No receive matched this send" in SendRecord::enter after the matching.
constexpr uint64_t kUnmatched = ~0ull;
/// The k-th send of a (comm, src, dst, tag) channel matches the k-th receive,
/// for the receives `recvs` of the ranks `receivers` and the sends to those
/// ranks: sets RecvRecord::matched_send (an index into `sends`), and the
/// Enter time of the sends no receive matched to kUnmatched. Counts matches
/// into `share`.
void MatchMessages(SendView& sends, BulkVector<RecvRecord>& recvs, RankRange receivers, SeverityShare& share);
struct LateSenderEntry {
  uint64_t send_ticks;  // the matched send record's time (Scalasca compares these)
  uint32_t src;
  uint32_t cnode;
  double idle_ticks;
  uint32_t send_cnode = kNone;  // the call completing the send (WaitStateResult::late_sender_cause_s)
};

/// Late Sender and Wrong Order for one receiving rank, fed its matched
/// receives in completion order (a receive without a partner is left out):
/// what LateSender runs per rank, and what the matching while reading runs
/// as each receive's partner arrives (trace/match_while_reading.h).
class LateSenderScan {
 public:
  LateSenderScan(uint32_t rank, const WaitStateOptions& options, SeverityShare* share);
  uint32_t rank() const { return rank_; }
  /// A receive from `src` completed in call instance `completion_id`
  /// (`completion`, whose call path is `cnode` in the share's numbering; marked
  /// if it waited), matched with `send`; `send_cnode`: the call path that
  /// completed the send (the cause), or kNone.
  void Receive(uint32_t src, uint32_t completion_id, CallInstance& completion, uint32_t cnode,
               const SendRecord& send, uint32_t send_cnode);
  /// After the rank's last receive: charges the open Waitall/Waitsome group.
  void Finish();

 private:
  void Add(const LateSenderEntry& entry);
  void Remember(const LateSenderEntry& entry);

  uint32_t rank_;
  std::size_t buffer_limit_;
  SeverityShare* share_;
  std::deque<LateSenderEntry> buffer_;  // the last Late Sender instances (Wrong Order)
  uint64_t buffer_max_send_ = 0;        // >= every buffered send time; lets most receives skip the scan
  uint32_t group_ = kNone;              // current wait-multi call instance
  LateSenderEntry group_best_{0, 0, 0, 0.0};
};

/// Late Sender and Wrong Order for the receives of `block` (grouped by
/// receiving rank); marks the block's call instances that waited.
/// `sends_local`: the sends' completing calls are known (SendView::AddBlock),
/// so the waiting is also charged to the sender's call
/// (WaitStateResult::late_sender_cause_s); not in the MPI parallel replay,
/// where sends come from other processes.
void LateSender(const SendView& sends, RecordBlock& block, const WaitStateOptions& options, SeverityShare& share,
                bool sends_local = false);
/// After LateSender: the request Enter of each matched receive of `recvs`
/// goes to its send's Enter time (SendRecord::enter), for LateReceiver.
void ReturnRequestEnters(const BulkVector<RecvRecord>& recvs, SendView& sends);
/// Late Receiver's waiting of a send completed in `completion` whose matched
/// receive's request was entered at `request_enter` (0 if none).
double LateReceiverIdle(uint64_t request_enter, const CallInstance& completion);
/// A Waitall/Waitsome call and the longest Late Receiver wait of the sends it
/// completed (charged once, after every block's sends are seen).
struct MultiWaitBest {
  uint32_t instance;  // in the trace's numbering (RecordBlock::instance_offset added)
  uint32_t cnode, rank;
  double idle_ticks;
};
/// Late Receiver for the sends of `block`, whose Enter times hold the
/// request Enter of each one's matched receive (kUnmatched if none); run
/// after LateSender marked the block's instances. The Waitall/Waitsome
/// candidates go to `multi` in the order a sequential pass first meets them.
void LateReceiver(const RecordBlock& block, SeverityShare& share, std::vector<MultiWaitBest>* multi);
/// Charges the Waitall/Waitsome candidates of every block (in rank order).
void ChargeMultiWaits(const std::vector<std::vector<MultiWaitBest>>& per_block, WaitStateResult& result);
/// Late Sender (+ Wrong Order) and Late Receiver over blocks of consecutive
/// ranks (in rank order), `threads` blocks at a time: matching and Late
/// Sender per receiving block, then Late Receiver per sending block.
/// Adds the critical path's CPU time (the slowest block of each parallel step,
/// plus the merge) to `*critical_cpu_s` if given.
void AnalyzePointToPoint(std::vector<RecordBlock>& blocks, int threads, const WaitStateOptions& options,
                         WaitStateResult& result, double* critical_cpu_s = nullptr);
/// Barrier, N x N, Late Broadcast, Early Reduce, Early Scan, Init/Finalize.
void AnalyzeCollectives(const Trace& trace, const ReplayRecords& records, WaitStateResult& result);
/// Window create/free/fence, Early Fence, GATS (Late Post, Early Wait, Late Complete), locks.
void AnalyzeRma(const Trace& trace, const ReplayRecords& records, WaitStateResult& result);

/// The summary warnings, severities and profile converted from ticks to
/// seconds (takes the profile vectors out of `records`).
void FinishWaitStates(const Trace& trace, ReplayRecords& records, WaitStateResult& result);

}  // namespace qnm::trace::detail
