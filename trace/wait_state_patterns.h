#pragma once
// Internal to the wait-state analysis: the pattern families, each matching
// replay records across ranks and adding severities (in ticks, converted to
// seconds once at the end so that sums of integral tick counts stay exact).
#include <cstdint>

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

// Point-to-point in three steps, so that the parallel replay can run each one
// on the process owning the records (Geimer et al. 2009, §3.3.1).

/// "No receive matched this send" in LateReceiver's request-enter table.
constexpr uint64_t kUnmatched = ~0ull;
/// The k-th send of a (comm, src, dst, tag) channel matches the k-th receive:
/// the matched send index per receive (kNone if none). Counts matches into `result`.
BulkVector<uint32_t> MatchMessages(const BulkVector<SendRecord>& sends,
                                   const BulkVector<RecvRecord>& recvs, WaitStateResult& result);
/// Late Sender and Wrong Order for `recvs` (grouped by receiving rank), whose
/// completion instances are in `instances`; marks instances that waited.
/// `sends_local`: the sends' completion instances are in `instances` too (the
/// sequential analysis), so the waiting is also charged to the sender's call
/// (WaitStateResult::late_sender_cause_s); not in the parallel replay, where
/// sends come from other processes.
void LateSender(const BulkVector<SendRecord>& sends, const BulkVector<RecvRecord>& recvs,
                const BulkVector<uint32_t>& send_of_recv, BulkVector<CallInstance>& instances,
                const WaitStateOptions& options, WaitStateResult& result, bool sends_local = false);
/// Late Receiver for `sends`, given the request Enter time of each one's
/// matched receive (kUnmatched if none); run after LateSender on `instances`.
void LateReceiver(const BulkVector<SendRecord>& sends, const BulkVector<uint64_t>& request_enter_of_send,
                  const BulkVector<CallInstance>& instances, WaitStateResult& result);
/// Late Sender (+ Wrong Order) and Late Receiver.
void AnalyzePointToPoint(const Trace& trace, ReplayRecords& records,
                         const WaitStateOptions& options, WaitStateResult& result);
/// Barrier, N x N, Late Broadcast, Early Reduce, Early Scan, Init/Finalize.
void AnalyzeCollectives(const Trace& trace, const ReplayRecords& records, WaitStateResult& result);
/// Window create/free/fence, Early Fence, GATS (Late Post, Early Wait, Late Complete), locks.
void AnalyzeRma(const Trace& trace, const ReplayRecords& records, WaitStateResult& result);

/// The summary warnings, severities and profile converted from ticks to
/// seconds (takes the profile vectors out of `records`).
void FinishWaitStates(const Trace& trace, ReplayRecords& records, WaitStateResult& result);

}  // namespace qnm::trace::detail
