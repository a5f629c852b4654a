#include "trace/wait_states.h"

#include "trace/replay_records.h"
#include "trace/wait_state_patterns.h"
#include "util/cpu_clock.h"

namespace qnm::trace {
namespace {

// Scalasca 2.6 share/scout.spec.in: uniq_name, display name, parent.
const PatternInfo kPatterns[kPatternCount] = {
    {Pattern::kLateSender, "mpi_latesender", "Late Sender", "mpi_point2point"},
    {Pattern::kLateSenderWrongOrder, "mpi_latesender_wo", "Messages in Wrong Order", "mpi_latesender"},
    {Pattern::kLswoDifferent, "mpi_lswo_different", "From different sources", "mpi_latesender_wo"},
    {Pattern::kLswoSame, "mpi_lswo_same", "From same source", "mpi_latesender_wo"},
    {Pattern::kLateReceiver, "mpi_latereceiver", "Late Receiver", "mpi_point2point"},
    {Pattern::kBarrierWait, "mpi_barrier_wait", "Wait at Barrier", "mpi_sync_collective"},
    {Pattern::kBarrierCompletion, "mpi_barrier_completion", "Barrier Completion", "mpi_sync_collective"},
    {Pattern::kWaitNxN, "mpi_wait_nxn", "Wait at N x N", "mpi_collective"},
    {Pattern::kNxNCompletion, "mpi_nxn_completion", "N x N Completion", "mpi_collective"},
    {Pattern::kLateBroadcast, "mpi_latebroadcast", "Late Broadcast", "mpi_collective"},
    {Pattern::kEarlyReduce, "mpi_earlyreduce", "Early Reduce", "mpi_collective"},
    {Pattern::kEarlyScan, "mpi_earlyscan", "Early Scan", "mpi_collective"},
    {Pattern::kInitCompletion, "mpi_init_completion", "Initialization Completion", "mpi_init_exit"},
    {Pattern::kFinalizeWait, "mpi_finalize_wait", "Wait at Finalize", "mpi_init_exit"},
    {Pattern::kRmaWaitAtCreate, "mpi_rma_wait_at_create", "Wait at Create", "mpi_mgmt_win"},
    {Pattern::kRmaWaitAtFree, "mpi_rma_wait_at_free", "Wait at Free", "mpi_mgmt_win"},
    {Pattern::kRmaWaitAtFence, "mpi_rma_wait_at_fence", "Wait at Fence", "mpi_rma_sync_active"},
    {Pattern::kRmaEarlyFence, "mpi_rma_early_fence", "Early Fence", "mpi_rma_wait_at_fence"},
    {Pattern::kRmaCommLatePost, "mpi_rma_comm_late_post", "Late Post (Communication)", "mpi_rma_communication"},
    {Pattern::kRmaSyncLatePost, "mpi_rma_sync_late_post", "Late Post (Synchronization)", "mpi_rma_sync_active"},
    {Pattern::kRmaEarlyWait, "mpi_rma_early_wait", "Early Wait", "mpi_rma_sync_active"},
    {Pattern::kRmaLateComplete, "mpi_rma_late_complete", "Late Complete", "mpi_rma_early_wait"},
    {Pattern::kRmaSyncLockCompetition, "mpi_rma_sync_lock_competition", "Lock Contention",
     "mpi_rma_sync_passive"},
};

}  // namespace

const PatternInfo& InfoOf(Pattern pattern) { return kPatterns[static_cast<std::size_t>(pattern)]; }

double WaitStateResult::At(Pattern pattern, uint32_t cnode, uint32_t rank) const {
  const auto& values = severity[static_cast<std::size_t>(pattern)];
  auto it = values.find((static_cast<uint64_t>(cnode) << 32) | rank);
  return it == values.end() ? 0.0 : it->second;
}

double WaitStateResult::Total(Pattern pattern) const {
  double total = 0;
  for (const auto& [key, value] : severity[static_cast<std::size_t>(pattern)]) total += value;
  return total;
}

double WaitStateResult::TotalOnRank(Pattern pattern, uint32_t rank) const {
  double total = 0;
  for (const auto& [key, value] : severity[static_cast<std::size_t>(pattern)])
    if ((key & 0xFFFFFFFFu) == rank) total += value;
  return total;
}

namespace detail {

void FinishWaitStates(const Trace& trace, ReplayRecords& records, WaitStateResult& result) {
  if (result.unmatched_sends || result.unmatched_receives)
    result.warnings.push_back(std::to_string(result.unmatched_sends) + " sends and " +
                              std::to_string(result.unmatched_receives) +
                              " receives have no partner; they were skipped");
  if (records.incomplete_sends)
    result.warnings.push_back(std::to_string(records.incomplete_sends) +
                              " non-blocking sends never completed (no Late Receiver for them)");
  if (records.bad_peers)
    result.warnings.push_back(std::to_string(records.bad_peers) +
                              " records name a peer outside their communicator; they were skipped");

  // Severities were summed in ticks so that sums stay exact; report seconds.
  const double ticks_per_second = static_cast<double>(trace.timer_resolution);
  for (auto& values : result.severity)
    for (auto& [key, value] : values) value /= ticks_per_second;
  for (auto& [cnode, value] : result.late_sender_cause_s) value /= ticks_per_second;
  result.exclusive_time_s.resize(records.exclusive_ticks.size());
  for (std::size_t i = 0; i < records.exclusive_ticks.size(); ++i)
    result.exclusive_time_s[i] = records.exclusive_ticks[i] / ticks_per_second;
  result.visits = std::move(records.visits);
  for (double ticks : records.outside_ticks) result.outside_time_s.push_back(ticks / ticks_per_second);
}

}  // namespace detail

WaitStateResult AnalyzeWaitStates(const Trace& trace, const WaitStateOptions& options) {
  ReplayRecords records = ExtractReplayRecords(trace);
  return AnalyzeReplayRecords(trace, records, options);
}

WaitStateResult AnalyzeReplayRecords(const Trace& trace, ReplayRecords& records, const WaitStateOptions& options) {
  std::vector<RecordBlock> blocks(1);
  blocks[0].records = &records;
  blocks[0].ranks = RankRange{0, static_cast<uint32_t>(trace.ranks.size())};
  return AnalyzeReplayBlocks(trace, blocks, records, 1, options);
}

WaitStateResult AnalyzeReplayBlocks(const Trace& trace, std::vector<RecordBlock>& blocks, ReplayRecords& shared,
                                    int threads, const WaitStateOptions& options, ParallelStepTimes* times,
                                    WaitStateResult* point_to_point) {
  WaitStateResult result;
  if (point_to_point) result = std::move(*point_to_point);
  result.ranks = static_cast<uint32_t>(trace.ranks.size());
  result.cnodes = static_cast<uint32_t>(trace.call_paths.size());
  if (!point_to_point) {
    const double start = ThreadCpuSeconds();
    detail::AnalyzePointToPoint(blocks, threads, options, result, times ? &times->critical_cpu_s : nullptr);
    if (times) times->caller_cpu_s += ThreadCpuSeconds() - start;
  }
  detail::AnalyzeCollectives(trace, shared, result);
  detail::AnalyzeRma(trace, shared, result);

  detail::FinishWaitStates(trace, shared, result);
  return result;
}

}  // namespace qnm::trace
