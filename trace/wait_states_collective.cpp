// Collective and Init/Finalize wait states (docs/formats/scalasca-patterns.md section 5).
#include <otf2/otf2.h>

#include <algorithm>
#include <limits>
#include <string>

#include "trace/wait_state_patterns.h"

namespace qnm::trace::detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// One participation in a collective instance, in ticks.
struct Member {
  uint32_t rank;  // world rank
  double begin, end;
  uint32_t cnode;
  uint64_t sent, received;
};

// SCOUT's helpers: latestBeginT_p = min(latest, e_p),
// earliestEndT_p = max(earliest_end, latestBeginT_p).
void ChargeWaitAndCompletion(WaitStateResult& result, const std::vector<const Member*>& members,
                             double latest, Pattern wait, Pattern completion) {
  double earliest_end = kInf;
  for (const Member* m : members) earliest_end = std::min(earliest_end, m->end);
  for (const Member* m : members) {
    double latest_begin = std::min(latest, m->end);
    double earliest_end_p = std::max(earliest_end, latest_begin);
    AddSeverity(result, wait, m->cnode, m->rank, latest_begin - m->begin);
    AddSeverity(result, completion, m->cnode, m->rank, m->end - earliest_end_p);
  }
}

void Barrier(WaitStateResult& result, const std::vector<Member>& members) {
  std::vector<const Member*> all;
  double latest = -kInf;
  for (const Member& m : members) {
    all.push_back(&m);
    latest = std::max(latest, m.begin);
  }
  ChargeWaitAndCompletion(result, all, latest, Pattern::kBarrierWait, Pattern::kBarrierCompletion);
}

void NxN(WaitStateResult& result, const std::vector<Member>& members) {
  std::vector<const Member*> active;  // processes that sent or received data
  for (const Member& m : members)
    if (m.sent > 0 || m.received > 0) active.push_back(&m);
  if (active.empty()) return;
  double latest = -kInf, earliest_end = kInf;
  for (const Member* m : active) {
    latest = std::max(latest, m->begin);
    earliest_end = std::min(earliest_end, m->end);
  }
  if (earliest_end > latest) {  // full overlap: everybody synchronises
    ChargeWaitAndCompletion(result, active, latest, Pattern::kWaitNxN, Pattern::kNxNCompletion);
    return;
  }
  // Otherwise only the receivers that began before the latest sender wait for it.
  const Member* latest_sender = nullptr;
  for (const Member* m : active)
    if (m->sent > 0 && (!latest_sender || m->begin > latest_sender->begin)) latest_sender = m;
  if (!latest_sender) return;
  double sender_begin = latest_sender->begin;
  std::vector<const Member*> synchronising;
  for (const Member* m : active)
    if (m == latest_sender || (m->received > 0 && m->begin < sender_begin)) synchronising.push_back(m);
  ChargeWaitAndCompletion(result, synchronising, sender_begin, Pattern::kWaitNxN,
                          Pattern::kNxNCompletion);
}

void LateBroadcast(WaitStateResult& result, const std::vector<Member>& members, uint32_t root) {
  if (root >= members.size() || members[root].sent == 0) return;
  double root_begin = members[root].begin;
  for (uint32_t p = 0; p < members.size(); ++p) {
    const Member& m = members[p];
    if (p == root || m.received == 0 || !(m.begin < root_begin)) continue;
    AddSeverity(result, Pattern::kLateBroadcast, m.cnode, m.rank,
                std::min(root_begin, m.end) - m.begin);
  }
}

void EarlyReduce(WaitStateResult& result, const std::vector<Member>& members, uint32_t root) {
  if (root >= members.size() || members[root].received == 0) return;
  double latest_sender = -kInf;
  for (const Member& m : members)
    if (m.sent > 0) latest_sender = std::max(latest_sender, m.begin);
  const Member& r = members[root];
  if (r.begin < latest_sender)
    AddSeverity(result, Pattern::kEarlyReduce, r.cnode, r.rank, std::min(latest_sender, r.end) - r.begin);
}

void EarlyScan(WaitStateResult& result, const std::vector<Member>& members) {
  double latest = -kInf;  // MPI_Scan(MAXLOC) over comm ranks 0..p of the senders' begins
  for (const Member& m : members) {
    if (m.sent > 0) latest = std::max(latest, m.begin);
    if (m.sent == 0 && m.received == 0) continue;
    if (m.begin < latest)
      AddSeverity(result, Pattern::kEarlyScan, m.cnode, m.rank, std::min(latest, m.end) - m.begin);
  }
}

/// Dispatches one complete collective instance (members in comm-rank order).
bool AnalyzeInstance(WaitStateResult& result, uint8_t op, uint32_t root,
                     const std::vector<Member>& members) {
  switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER: Barrier(result, members); return true;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: NxN(result, members); return true;
    case OTF2_COLLECTIVE_OP_BCAST:
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV: LateBroadcast(result, members, root); return true;
    case OTF2_COLLECTIVE_OP_REDUCE:
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV: EarlyReduce(result, members, root); return true;
    case OTF2_COLLECTIVE_OP_SCAN:
    case OTF2_COLLECTIVE_OP_EXSCAN: EarlyScan(result, members); return true;
    default:
      // ALLTOALLV/W cannot be reconstructed (Scalasca skips them); CREATE/DESTROY_HANDLE
      // are Score-P 8's MPI_Init/Finalize, analysed from Enter/Leave instead.
      return false;
  }
}

void InitAndFinalize(const Trace& trace, const ReplayRecords& records, WaitStateResult& result) {
  auto analyse = [&](const std::vector<InitFinalize>& calls, const char* name, bool init) {
    std::vector<Member> members;
    for (uint32_t rank = 0; rank < calls.size(); ++rank) {
      if (!calls[rank].found) {
        bool any = std::any_of(calls.begin(), calls.end(), [](const InitFinalize& c) { return c.found; });
        if (any || init)
          result.warnings.push_back(std::string(name) + " is missing on rank " + std::to_string(rank) +
                                    "; its wait state was not analysed");
        else
          result.warnings.push_back(std::string(name) + " is not in the trace; Wait at Finalize not analysed");
        return;
      }
      const InitFinalize& c = calls[rank];
      members.push_back(Member{rank, static_cast<double>(c.enter), static_cast<double>(c.leave),
                               c.cnode, 0, 0});
    }
    if (members.size() < 2) return;
    std::vector<const Member*> all;
    double latest = -kInf, earliest_end = kInf;
    for (const Member& m : members) {
      all.push_back(&m);
      latest = std::max(latest, m.begin);
      earliest_end = std::min(earliest_end, m.end);
    }
    for (const Member& m : members) {
      double latest_begin = std::min(latest, m.end);
      if (init)  // Scalasca charges only the completion to MPI_Init
        AddSeverity(result, Pattern::kInitCompletion, m.cnode, m.rank,
                    m.end - std::max(earliest_end, latest_begin));
      else
        AddSeverity(result, Pattern::kFinalizeWait, m.cnode, m.rank, latest_begin - m.begin);
    }
  };
  (void)trace;
  analyse(records.init, "MPI_Init", true);
  analyse(records.finalize, "MPI_Finalize", false);
}

}  // namespace

void AnalyzeCollectives(const Trace& trace, const ReplayRecords& records, WaitStateResult& result) {
  const std::size_t ranks = trace.ranks.size();
  // calls[comm][comm rank] = that member's collective calls on comm, in order.
  std::vector<std::vector<std::vector<uint32_t>>> calls(trace.comms.size());
  std::vector<std::vector<uint32_t>> comm_rank_of(trace.comms.size());
  for (uint32_t c = 0; c < trace.comms.size(); ++c) {
    const Communicator& comm = trace.comms[c];
    if (comm.self_like || comm.Size() < 2) continue;
    calls[c].resize(comm.world_ranks.size());
    comm_rank_of[c].assign(ranks, kNone);
    for (uint32_t r = 0; r < comm.world_ranks.size(); ++r)
      if (comm.world_ranks[r] < ranks) comm_rank_of[c][comm.world_ranks[r]] = r;
  }
  for (uint32_t i = 0; i < records.collectives.size(); ++i) {
    const CollectiveCall& call = records.collectives[i];
    if (calls[call.comm].empty()) continue;  // self-like communicator: nothing to wait for
    uint32_t comm_rank = comm_rank_of[call.comm][call.rank];
    if (comm_rank == kNone) {
      ++result.collectives_skipped;
      continue;
    }
    calls[call.comm][comm_rank].push_back(i);
  }
  for (uint32_t c = 0; c < calls.size(); ++c) {
    if (calls[c].empty()) continue;
    std::size_t fewest = kNone, most = 0;
    for (const auto& member_calls : calls[c]) {
      fewest = std::min(fewest, member_calls.size());
      most = std::max(most, member_calls.size());
    }
    const std::string comm_name = trace.comms[c].name.empty() ? "#" + std::to_string(c) : trace.comms[c].name;
    if (fewest != most) {
      result.warnings.push_back("communicator " + comm_name + ": members recorded between " +
                                std::to_string(fewest) + " and " + std::to_string(most) +
                                " collective calls (a participant is missing); only the first " +
                                std::to_string(fewest) + " were analysed");
      result.collectives_skipped += most - fewest;
    }
    bool warned_mismatch = false;
    std::vector<Member> members(calls[c].size());
    for (std::size_t k = 0; k < fewest; ++k) {
      const CollectiveCall& first = records.collectives[calls[c][0][k]];
      bool consistent = true;
      for (uint32_t p = 0; p < calls[c].size(); ++p) {
        const CollectiveCall& call = records.collectives[calls[c][p][k]];
        if (call.op != first.op || call.root != first.root) consistent = false;
        members[p] = Member{call.rank, static_cast<double>(call.begin), static_cast<double>(call.end),
                            call.cnode, call.bytes_sent, call.bytes_received};
      }
      if (!consistent) {
        ++result.collectives_skipped;
        if (!warned_mismatch)
          result.warnings.push_back("communicator " + comm_name + ": collective #" + std::to_string(k) +
                                    " has different operations or roots on its members; skipped");
        warned_mismatch = true;
        continue;
      }
      if (AnalyzeInstance(result, first.op, first.root, members))
        ++result.collective_instances;
      else
        ++result.collectives_skipped;
    }
  }
  InitAndFinalize(trace, records, result);
}

}  // namespace qnm::trace::detail
