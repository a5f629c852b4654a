#pragma once
// Internal to the wait-state analysis: the pattern families, each matching
// replay records across ranks and adding severities (in ticks, converted to
// seconds once at the end so that sums of integral tick counts stay exact).
#include <array>
#include <cstdint>
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
  /// Adds this share to `result`; call for the blocks in rank order.
  void MergeInto(WaitStateResult& result) const;
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
