#include "replay/parallel_replay_mpi.h"

#include <time.h>

#include <stdexcept>

#include "replay/mpi_exchange_mpi.h"
#include "replay/shared_records_mpi.h"
#include "trace/call_tree_unify.h"
#include "trace/otf2_reader.h"
#include "trace/replay_records.h"
#include "trace/wait_state_patterns.h"

namespace qnm::trace {
namespace {

/// Reading is the only step that can fail on bad input; it fails on some
/// processes only (their event files), so agree on the outcome before any
/// other collective. Process 0 receives the lowest failing process's message.
void AgreeOnReadErrors(const std::string& error, bool failed, MPI_Comm comm) {
  const int self = mpi::Rank(comm);
  int mine = failed ? self : mpi::Size(comm), first = 0;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == mpi::Size(comm)) return;
  std::string message = error;
  if (first != 0) {
    if (self == first) {
      MPI_Send(message.data(), mpi::ByteCount(message.size()), MPI_CHAR, 0, 0, comm);
    } else if (self == 0) {
      MPI_Status status;
      int length = 0;
      MPI_Probe(first, 0, comm, &status);
      MPI_Get_count(&status, MPI_CHAR, &length);
      message.assign(length, '\0');
      MPI_Recv(message.data(), length, MPI_CHAR, first, 0, comm, MPI_STATUS_IGNORE);
    }
  }
  throw std::runtime_error(self == 0 ? message : std::string());
}

/// Geimer et al. 2009, §3.1: unify the call trees; renumber this process's events.
void UnifyCallTrees(Trace* trace, RankRange owned, MPI_Comm comm) {
  mpi::Packer out;
  out.PutVector(CallPathDefs(trace->call_paths));
  std::vector<std::vector<CallPathDef>> lists;
  for (const std::vector<char>& bytes : mpi::AllGather(out.bytes(), comm))
    lists.push_back(mpi::Unpacker(bytes).GetVector<std::vector<CallPathDef>>());
  std::vector<std::vector<uint32_t>> maps;
  CallPaths global = UnifyCallPaths(trace->call_paths, lists, &maps);
  for (uint32_t r = owned.first; r < owned.end; ++r)
    RenumberCallPaths(maps[mpi::Rank(comm)], &trace->ranks[r]);
  trace->call_paths = std::move(global);
}

/// Geimer et al. 2009, §3.3.1, point-to-point: send records go to the process
/// owning the receiver (Late Sender, Wrong Order there). Geimer et al. 2009 computes
/// Late Receiver at the receiver too and ships the waiting time back (3.4);
/// we ship the matched receive's request Enter time back instead and compute
/// Late Receiver at the sender's owner, because Waitall/Waitsome count only
/// their largest wait, which needs all of the sender's completions in one place.
void PointToPoint(const std::vector<uint32_t>& owner_of_rank, ReplayRecords& local,
                  const WaitStateOptions& options, MPI_Comm comm, WaitStateResult& result) {
  const int processes = mpi::Size(comm);
  // Counting sort of the sends by the process owning their receiver.
  std::vector<std::size_t> counts(processes, 0), next(processes, 0);
  for (const SendRecord& send : local.sends) ++counts[owner_of_rank[send.dst]];
  for (int q = 1; q < processes; ++q) next[q] = next[q - 1] + counts[q - 1];
  BulkVector<SendRecord> sorted(local.sends.size());
  BulkVector<uint32_t> position(local.sends.size());
  for (uint32_t s = 0; s < local.sends.size(); ++s) {
    position[s] = static_cast<uint32_t>(next[owner_of_rank[local.sends[s].dst]]++);
    sorted[position[s]] = local.sends[s];
  }
  std::vector<std::size_t> incoming_counts;
  auto incoming = mpi::Exchange<SendRecord>(sorted, counts, &incoming_counts, comm);
  sorted = BulkVector<SendRecord>();
  detail::SendView incoming_sends;
  incoming_sends.AddSends(incoming);
  RecordBlock block;
  block.records = &local;
  block.ranks = RankRange{0, kNone};
  detail::SeverityShare share;
  detail::MatchMessages(incoming_sends, local.recvs, block.ranks, share);
  detail::LateSender(incoming_sends, block, options, share);

  // Backward: `incoming` is grouped by source process, so the answers (the
  // matched receive's request Enter, per incoming send) go back as they are.
  detail::ReturnRequestEnters(local.recvs, incoming_sends);
  BulkVector<uint64_t> request_enter(incoming.size());
  for (uint32_t s = 0; s < incoming.size(); ++s) request_enter[s] = incoming[s].enter;
  std::vector<std::size_t> answer_counts;
  auto answers = mpi::Exchange<uint64_t>(request_enter, incoming_counts, &answer_counts, comm);
  for (uint32_t s = 0; s < local.sends.size(); ++s) local.sends[s].enter = answers[position[s]];
  std::vector<std::vector<detail::MultiWaitBest>> multi(1);
  detail::LateReceiver(block, share, &multi[0]);
  share.MergeInto(result);
  detail::ChargeMultiWaits(multi, result);
}

/// Collectives, Init/Finalize and RMA on the replicated tables; keeps the
/// severities of the owned ranks (every process computes all of them).
void SharedPatterns(const Trace& trace, const ReplayRecords& local, RankRange owned, MPI_Comm comm,
                    WaitStateResult& result) {
  ReplayRecords all;
  all.init.assign(trace.ranks.size(), {});
  all.finalize.assign(trace.ranks.size(), {});
  for (const std::vector<char>& bytes : mpi::AllGather(PackSharedRecords(local, owned), comm))
    UnpackSharedRecords(bytes, &all);
  WaitStateResult shared;
  shared.ranks = result.ranks;
  shared.cnodes = result.cnodes;
  detail::AnalyzeCollectives(trace, all, shared);
  detail::AnalyzeRma(trace, all, shared);
  for (std::size_t p = 0; p < kPatternCount; ++p)
    for (const auto& [key, ticks] : shared.severity[p]) {
      uint32_t rank = static_cast<uint32_t>(key & 0xFFFFFFFFu);
      if (rank >= owned.first && rank < owned.end) result.severity[p][key] += ticks;
    }
  // Counters and warnings are the same on every process; process 0 reports them.
  result.collective_instances = shared.collective_instances;
  result.collectives_skipped = shared.collectives_skipped;
  result.rma_epochs_matched = shared.rma_epochs_matched;
  result.warnings = std::move(shared.warnings);
}

struct KeyTicks {  // one severity entry: (cnode << 32 | rank) -> ticks
  uint64_t key;
  double ticks;
};
struct RankCount {  // one quirk count
  uint32_t rank;
  uint64_t count;
};

/// What each process sends to process 0 at the end (Geimer et al. 2009, §3.4).
std::vector<char> PackLocalResult(const Trace& trace, RankRange owned, const QuirkCounts& quirks,
                                  const ReplayRecords& local, const WaitStateResult& result) {
  mpi::Packer out;
  out.Put(owned);
  for (const auto& values : result.severity) {
    std::vector<KeyTicks> entries;
    for (const auto& [key, ticks] : values) entries.push_back(KeyTicks{key, ticks});
    out.PutVector(entries);
  }
  out.Put(result.messages_matched);
  out.Put(result.unmatched_sends);
  out.Put(result.unmatched_receives);
  out.Put(local.incomplete_sends);
  out.Put(local.bad_peers);
  const std::size_t ranks = trace.ranks.size();
  std::vector<double> exclusive, outside;
  std::vector<uint64_t> visits, raw_events;
  for (uint32_t r = owned.first; r < owned.end; ++r) {
    for (std::size_t c = 0; c < trace.call_paths.size(); ++c) {
      exclusive.push_back(local.exclusive_ticks[c * ranks + r]);
      visits.push_back(local.visits[c * ranks + r]);
    }
    outside.push_back(local.outside_ticks[r]);
    raw_events.push_back(trace.ranks[r].raw_events);
  }
  out.PutVector(exclusive);
  out.PutVector(visits);
  out.PutVector(outside);
  out.PutVector(raw_events);
  out.Put<uint64_t>(quirks.size());
  for (const auto& [what, per_rank] : quirks) {
    out.PutString(what);
    std::vector<RankCount> counts;
    for (const auto& [rank, count] : per_rank) counts.push_back(RankCount{rank, count});
    out.PutVector(counts);
  }
  return std::move(out.bytes());
}

/// Process 0: merges every process's block into `trace` and `result`.
void Collate(const std::vector<std::vector<char>>& blocks, Trace* trace, WaitStateResult* result) {
  const std::size_t ranks = trace->ranks.size(), cnodes = trace->call_paths.size();
  ReplayRecords profile;  // the parts of the records FinishWaitStates reads
  profile.exclusive_ticks.assign(cnodes * ranks, 0.0);
  profile.visits.assign(cnodes * ranks, 0);
  profile.outside_ticks.assign(ranks, 0.0);
  result->messages_matched = result->unmatched_sends = result->unmatched_receives = 0;
  for (auto& values : result->severity) values.clear();
  QuirkCounts quirks;
  for (const std::vector<char>& block : blocks) {
    mpi::Unpacker in(block);
    RankRange owned = in.Get<RankRange>();
    for (auto& values : result->severity)
      for (const KeyTicks& entry : in.GetVector<std::vector<KeyTicks>>()) values[entry.key] = entry.ticks;
    result->messages_matched += in.Get<uint64_t>();
    result->unmatched_sends += in.Get<uint64_t>();
    result->unmatched_receives += in.Get<uint64_t>();
    profile.incomplete_sends += in.Get<uint64_t>();
    profile.bad_peers += in.Get<uint64_t>();
    auto exclusive = in.GetVector<std::vector<double>>();
    auto visits = in.GetVector<std::vector<uint64_t>>();
    auto outside = in.GetVector<std::vector<double>>();
    auto raw_events = in.GetVector<std::vector<uint64_t>>();
    const std::size_t owned_ranks = owned.end - owned.first;
    if (exclusive.size() != owned_ranks * cnodes || visits.size() != exclusive.size() ||
        outside.size() != owned_ranks || raw_events.size() != owned_ranks || owned.end > ranks)
      throw std::runtime_error("inconsistent replay result block");
    for (std::size_t i = 0; i < owned_ranks; ++i) {
      const std::size_t r = owned.first + i;
      for (std::size_t c = 0; c < cnodes; ++c) {
        profile.exclusive_ticks[c * ranks + r] = exclusive[i * cnodes + c];
        profile.visits[c * ranks + r] = visits[i * cnodes + c];
      }
      profile.outside_ticks[r] = outside[i];
      trace->ranks[r].raw_events = raw_events[i];
    }
    for (uint64_t n = in.Get<uint64_t>(); n > 0; --n) {
      std::string what = in.GetString();
      for (const RankCount& entry : in.GetVector<std::vector<RankCount>>())
        quirks[what].emplace_back(entry.rank, entry.count);
    }
  }
  AddQuirkWarnings(quirks, &trace->warnings);
  detail::FinishWaitStates(*trace, profile, *result);
}

double CpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

/// Wall and CPU time per phase on this process; the maxima go to process 0
/// (on a shared machine the CPU time is the fair measure of the work).
class PhaseClock {
 public:
  void Mark(const char* phase) {
    double wall = MPI_Wtime(), cpu = CpuSeconds();
    names_.push_back(phase);
    seconds_.push_back(wall - last_wall_);
    seconds_.push_back(cpu - last_cpu_);
    last_wall_ = wall;
    last_cpu_ = cpu;
  }
  std::vector<PhaseTime> MaxOnZero(MPI_Comm comm) const {
    std::vector<double> max(seconds_.size());
    MPI_Reduce(seconds_.data(), max.data(), static_cast<int>(seconds_.size()), MPI_DOUBLE, MPI_MAX, 0, comm);
    std::vector<PhaseTime> out;
    for (std::size_t i = 0; i < names_.size(); ++i) out.push_back(PhaseTime{names_[i], max[2 * i], max[2 * i + 1]});
    return out;
  }

 private:
  double last_wall_ = MPI_Wtime(), last_cpu_ = CpuSeconds();
  std::vector<std::string> names_;
  std::vector<double> seconds_;  // wall, cpu per phase
};

}  // namespace

ParallelAnalysis AnalyzeWaitStatesParallel(const std::string& path, MPI_Comm comm,
                                           const WaitStateOptions& options) {
  const int self = mpi::Rank(comm), processes = mpi::Size(comm);
  ParallelAnalysis out;
  PhaseClock clock;
  RankRange owned;
  QuirkCounts quirks;
  std::string error;
  bool failed = false;
  try {
    out.trace = ReadOtf2TraceRanks(
        path, RankPartition{static_cast<uint32_t>(self), static_cast<uint32_t>(processes)}, &owned, &quirks);
  } catch (const std::exception& e) {
    error = e.what();
    failed = true;
  }
  AgreeOnReadErrors(error, failed, comm);
  clock.Mark("read own ranks");
  Trace& trace = out.trace;
  UnifyCallTrees(&trace, owned, comm);
  clock.Mark("unify call trees");

  const uint32_t ranks = static_cast<uint32_t>(trace.ranks.size());
  std::vector<uint32_t> owner_of_rank(ranks);
  for (uint32_t p = 0; p < static_cast<uint32_t>(processes); ++p) {
    RankRange block = RankPartition{p, static_cast<uint32_t>(processes)}.Of(ranks);
    for (uint32_t r = block.first; r < block.end; ++r) owner_of_rank[r] = p;
  }
  WaitStateResult& result = out.result;
  result.ranks = ranks;
  result.cnodes = static_cast<uint32_t>(trace.call_paths.size());
  ReplayRecords local = ExtractReplayRecords(trace);
  clock.Mark("replay records");
  PointToPoint(owner_of_rank, local, options, comm, result);
  clock.Mark("point-to-point exchange + patterns");
  SharedPatterns(trace, local, owned, comm, result);
  clock.Mark("collective/RMA tables + patterns");

  std::vector<std::vector<char>> blocks =
      mpi::GatherToZero(PackLocalResult(trace, owned, quirks, local, result), comm);
  if (self == 0) Collate(blocks, &trace, &result);
  clock.Mark("collate on process 0");
  out.phase_times = clock.MaxOnZero(comm);
  if (self != 0) return ParallelAnalysis{};
  return out;
}

}  // namespace qnm::trace
