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

/// Late Sender (+ Wrong Order) and Late Receiver.
void AnalyzePointToPoint(const Trace& trace, ReplayRecords& records,
                         const WaitStateOptions& options, WaitStateResult& result);
/// Barrier, N x N, Late Broadcast, Early Reduce, Early Scan, Init/Finalize.
void AnalyzeCollectives(const Trace& trace, const ReplayRecords& records, WaitStateResult& result);
/// Window create/free/fence, Early Fence, GATS (Late Post, Early Wait, Late Complete), locks.
void AnalyzeRma(const Trace& trace, const ReplayRecords& records, WaitStateResult& result);

}  // namespace qnm::trace::detail
