#pragma once
// Scalasca 2.x wait-state analysis of an in-memory trace: point-to-point
// (Late Sender, Wrong Order, Late Receiver), collectives (Wait at Barrier/NxN,
// completions, Early Reduce/Scan, Late Broadcast), Init/Finalize, and the
// MPI-2 RMA patterns mapped onto Score-P's OTF2 RMA records. Definitions:
// docs/formats/scalasca-patterns.md (sections 4-6); every severity is charged to
// the waiting rank at the call path of the MPI call in which it waits.
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/trace_events.h"

namespace qnm::trace {

/// The trace-analysis metrics, keyed in JSON/Cube by Scalasca's uniq_name.
enum class Pattern : uint8_t {
  kLateSender,
  kLateSenderWrongOrder,
  kLswoDifferent,
  kLswoSame,
  kLateReceiver,
  kBarrierWait,
  kBarrierCompletion,
  kWaitNxN,
  kNxNCompletion,
  kLateBroadcast,
  kEarlyReduce,
  kEarlyScan,
  kInitCompletion,
  kFinalizeWait,
  kRmaWaitAtCreate,
  kRmaWaitAtFree,
  kRmaWaitAtFence,
  kRmaEarlyFence,
  kRmaCommLatePost,
  kRmaSyncLatePost,
  kRmaEarlyWait,
  kRmaLateComplete,
  kRmaSyncLockCompetition,
  kCount
};
constexpr std::size_t kPatternCount = static_cast<std::size_t>(Pattern::kCount);

struct PatternInfo {
  Pattern pattern;
  const char* id;            // Scalasca uniq_name, e.g. "mpi_latesender"
  const char* display_name;  // "Late Sender"
  const char* parent_id;     // metric-tree parent (a pattern or a time category)
};
const PatternInfo& InfoOf(Pattern pattern);

/// Severities and the time profile of one analysed trace.
struct WaitStateResult {
  uint32_t ranks = 0;
  uint32_t cnodes = 0;
  /// Per pattern: (cnode << 32 | rank) -> seconds.
  std::array<std::unordered_map<uint64_t, double>, kPatternCount> severity;
  /// Exclusive time per call path and rank, seconds; index cnode * ranks + rank.
  std::vector<double> exclusive_time_s;
  /// Late Sender waiting by its cause on the sender's side: the call path of
  /// the call that completed the late send (MPI_Send, or the Wait of an
  /// MPI_Isend) -> seconds the receivers waited. The sender was computing in
  /// that call path's parent region (whatif --suggest). Not reported.
  std::unordered_map<uint32_t, double> late_sender_cause_s;
  /// Visits (Enter events) per call path and rank; same index.
  std::vector<uint64_t> visits;
  /// Per rank: time between the first and last event spent outside every
  /// region (traces without a "main" region); counted as computation.
  std::vector<double> outside_time_s;

  // What the analysis matched, and what it had to skip.
  uint64_t messages_matched = 0;
  uint64_t unmatched_sends = 0, unmatched_receives = 0;
  uint64_t collective_instances = 0, collectives_skipped = 0;
  uint64_t rma_epochs_matched = 0;
  std::vector<std::string> warnings;

  double At(Pattern pattern, uint32_t cnode, uint32_t rank) const;
  double Total(Pattern pattern) const;
  double TotalOnRank(Pattern pattern, uint32_t rank) const;
  double ExclusiveTime(uint32_t cnode, uint32_t rank) const {
    return exclusive_time_s[static_cast<std::size_t>(cnode) * ranks + rank];
  }
};

struct WaitStateOptions {
  std::size_t wrong_order_buffer = 100;  // Scalasca keeps the last 100 Late Sender instances
};

/// Runs every pattern over the trace. Never throws on inconsistent traces:
/// unmatched messages and incomplete collectives are skipped and listed in
/// WaitStateResult::warnings.
WaitStateResult AnalyzeWaitStates(const Trace& trace, const WaitStateOptions& options = {});

struct ReplayRecords;
struct RecordBlock;
/// The same on replay records already extracted from the trace's events
/// (ExtractReplayRecords); consumes `records`.
WaitStateResult AnalyzeReplayRecords(const Trace& trace, ReplayRecords& records,
                                     const WaitStateOptions& options = {});
/// The same on the point-to-point records of consecutive blocks of ranks (in
/// rank order; the streaming reader's threads), analysed `threads` blocks at a
/// time, and `shared`: the collective, RMA and profile records of all ranks
/// (may be one of the blocks' records). The result is bit-identical to one
/// sequential pass over all ranks. Consumes the records.
/// `times`, if given, gets the CPU seconds of the point-to-point step, which
/// runs on the threads: the calling thread's own and its critical path's.
/// `point_to_point`, if given: the point-to-point part of the result, found
/// already (trace/match_while_reading.h); `blocks` are then not read.
struct ParallelStepTimes {
  double caller_cpu_s = 0;
  double critical_cpu_s = 0;
};
WaitStateResult AnalyzeReplayBlocks(const Trace& trace, std::vector<RecordBlock>& blocks, ReplayRecords& shared,
                                    int threads, const WaitStateOptions& options = {},
                                    ParallelStepTimes* times = nullptr, WaitStateResult* point_to_point = nullptr);

}  // namespace qnm::trace
