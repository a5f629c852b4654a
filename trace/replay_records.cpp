#include "trace/replay_records.h"

#include "trace/rank_replay_pass.h"

#include <otf2/otf2.h>

namespace qnm::trace {

ReplayRecords ExtractReplayRecords(const Trace& trace) {
  ReplayRecords records;
  const std::size_t ranks = trace.ranks.size();
  records.exclusive_ticks.assign(trace.call_paths.size() * ranks, 0.0);
  records.visits.assign(trace.call_paths.size() * ranks, 0);
  records.init.assign(ranks, {});
  records.finalize.assign(ranks, {});
  records.outside_ticks.assign(ranks, 0.0);
  records.sent.Resize(trace.call_paths.size(), ranks);
  // Reserve address space for the records (untouched reserved pages cost
  // nothing), so that no vector is copied while growing.
  std::size_t messages = 0, others = 0;
  for (const LocationTrace& rank : trace.ranks) {
    messages += rank.messages.size();
    others += rank.collectives.size() + rank.rma_ops.size() + rank.rma_syncs.size() + rank.rma_locks.size();
  }
  records.sends.reserve(messages);
  records.recvs.reserve(messages);
  records.instances.reserve(messages + others);
  records.collectives.reserve(others);
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    const LocationTrace& data = trace.ranks[rank];
    RankReplayPass pass(trace, trace.call_paths, rank, data, /*streaming=*/false, &records);
    for (std::size_t i = 0; i < data.events.size(); ++i) pass.OnEvent(data.events[i], static_cast<uint32_t>(i));
    pass.Finish();
    PlaceRankProfile(pass.profile(), rank, nullptr, &records);
  }
  return records;
}

void PlaceRankProfile(const RankProfile& profile, uint32_t rank, const std::vector<uint32_t>* cnode_map,
                      ReplayRecords* records) {
  const std::size_t ranks = records->outside_ticks.size();
  const std::vector<double>& exclusive = profile.exclusive_ticks;
  const std::vector<uint64_t>& visits = profile.visits;
  for (uint32_t c = 0; c < visits.size(); ++c) {
    const std::size_t slot = static_cast<std::size_t>(cnode_map ? (*cnode_map)[c] : c) * ranks + rank;
    records->exclusive_ticks[slot] += exclusive[c];
    records->visits[slot] += visits[c];
    records->sent.by_call_path[slot] += profile.bytes_sent[c];
  }
  records->sent.p2p_calls[rank] += profile.p2p_calls;
  records->sent.p2p_bytes[rank] += profile.p2p_bytes;
  records->sent.collective_bytes[rank] += profile.collective_bytes;
}

void SentBytes::Resize(std::size_t cnodes, std::size_t ranks) {
  by_call_path.assign(cnodes * ranks, 0.0);
  p2p_calls.assign(ranks, 0.0);
  p2p_bytes.assign(ranks, 0.0);
  collective_bytes.assign(ranks, 0.0);
}

bool IsHandleOp(uint8_t op) { return op >= OTF2_COLLECTIVE_OP_CREATE_HANDLE; }

}  // namespace qnm::trace
