// Point-to-point wait states (docs/formats/scalasca-patterns.md section 4).
#include <algorithm>
#include <deque>
#include <unordered_map>

#include "trace/wait_state_patterns.h"

namespace qnm::trace::detail {
namespace {

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

double Signed(uint64_t a, uint64_t b) { return static_cast<double>(a) - static_cast<double>(b); }

struct LateSenderEntry {
  uint64_t send_ticks;  // the matched send record's time (Scalasca compares these)
  uint32_t src;
  uint32_t cnode;
  double idle_ticks;
  uint32_t send_cnode = kNone;  // the call completing the send (WaitStateResult::late_sender_cause_s)
};

void AddLateSender(WaitStateResult& result, uint32_t rank, const LateSenderEntry& entry) {
  AddSeverity(result, Pattern::kLateSender, entry.cnode, rank, entry.idle_ticks);
  if (entry.send_cnode != kNone && entry.idle_ticks > 0) result.late_sender_cause_s[entry.send_cnode] += entry.idle_ticks;
}

}  // namespace

BulkVector<uint32_t> MatchMessages(const BulkVector<SendRecord>& sends,
                                   const BulkVector<RecvRecord>& recvs, WaitStateResult& result) {
  // Message matching per (comm, source, destination, tag) channel: the k-th
  // send (in send order) matches the k-th receive (in completion order).
  std::unordered_map<ChannelKey, uint32_t, ChannelHash> channel_of;
  std::vector<std::vector<uint32_t>> channel_sends;
  std::vector<uint32_t> channel_next;
  BulkVector<uint32_t> send_of_recv(recvs.size(), kNone);
  ChannelKey last_key{kNone, kNone, kNone, kNone};
  uint32_t last_channel = kNone;
  auto channel = [&](const ChannelKey& key, bool create) -> uint32_t {
    if (last_channel != kNone && key == last_key) return last_channel;
    auto it = channel_of.find(key);
    if (it == channel_of.end()) {
      if (!create) return kNone;
      it = channel_of.emplace(key, static_cast<uint32_t>(channel_sends.size())).first;
      channel_sends.emplace_back();
    }
    last_key = key;
    return last_channel = it->second;
  };
  for (uint32_t s = 0; s < sends.size(); ++s)
    channel_sends[channel({sends[s].comm, sends[s].src, sends[s].dst, sends[s].tag}, true)].push_back(s);
  channel_next.assign(channel_sends.size(), 0);
  uint64_t matched = 0;
  for (uint32_t r = 0; r < recvs.size(); ++r) {
    uint32_t c = channel({recvs[r].comm, recvs[r].src, recvs[r].dst, recvs[r].tag}, false);
    if (c == kNone || channel_next[c] == channel_sends[c].size()) {
      ++result.unmatched_receives;
      continue;
    }
    send_of_recv[r] = channel_sends[c][channel_next[c]++];
    ++matched;
  }
  result.messages_matched += matched;
  result.unmatched_sends += sends.size() - matched;
  return send_of_recv;
}

void LateSender(const BulkVector<SendRecord>& sends, const BulkVector<RecvRecord>& recvs,
                const BulkVector<uint32_t>& send_of_recv, BulkVector<CallInstance>& instances,
                const WaitStateOptions& options, WaitStateResult& result, bool sends_local) {
  // Scalasca: Late Sender, idle = min(Es, Lr) - Er, charged to the receive's
  // completion call; Waitall/Waitsome count only their latest sender.
  std::deque<LateSenderEntry> buffer;  // the last Late Sender instances (Wrong Order)
  uint32_t rank = kNone;
  uint32_t group = kNone;  // current wait-multi call instance
  LateSenderEntry group_best{0, 0, 0, 0.0};
  uint64_t buffer_max_send = 0;  // >= every buffered send time; lets most receives skip the scan
  auto remember = [&](const LateSenderEntry& entry) {
    buffer.push_back(entry);
    buffer_max_send = std::max(buffer_max_send, entry.send_ticks);
    if (buffer.size() > options.wrong_order_buffer) buffer.pop_front();
  };
  auto flush_group = [&]() {
    if (group != kNone && group_best.idle_ticks > 0) {
      AddLateSender(result, rank, group_best);
      remember(group_best);
    }
    group = kNone;
    group_best = LateSenderEntry{0, 0, 0, 0.0};
  };
  for (uint32_t r = 0; r < recvs.size(); ++r) {
    const RecvRecord& recv = recvs[r];
    if (recv.dst != rank) {
      flush_group();
      buffer.clear();
      buffer_max_send = 0;
      rank = recv.dst;
    }
    uint32_t s = send_of_recv[r];
    if (s == kNone) continue;
    const SendRecord& send = sends[s];
    CallInstance& completion = instances[recv.completion];
    if (recv.completion != group) flush_group();
    double idle = 0;
    if (completion.call_class != CallClass::kTest)
      idle = Signed(std::min(send.enter, completion.leave), completion.enter);
    LateSenderEntry entry{send.send_ticks, recv.src, completion.cnode, idle,
                          sends_local && send.completion < instances.size() ? instances[send.completion].cnode : kNone};
    if (idle > 0) completion.late_sender_candidate = true;
    if (completion.call_class == CallClass::kWaitMulti) {
      group = recv.completion;
      if (idle > group_best.idle_ticks) group_best = entry;
    } else if (idle > 0) {
      AddLateSender(result, rank, entry);
      remember(entry);
    }
    // Scalasca: Late Sender / Wrong Order. We waited for a message that was
    // sent later than this one, which we received after it.
    if (buffer_max_send <= send.send_ticks) continue;
    buffer_max_send = 0;
    for (auto it = buffer.begin(); it != buffer.end();) {
      if (it->send_ticks > send.send_ticks) {
        AddSeverity(result, Pattern::kLateSenderWrongOrder, it->cnode, rank, it->idle_ticks);
        AddSeverity(result, it->src == recv.src ? Pattern::kLswoSame : Pattern::kLswoDifferent,
                    it->cnode, rank, it->idle_ticks);
        it = buffer.erase(it);
      } else {
        buffer_max_send = std::max(buffer_max_send, it->send_ticks);
        ++it;
      }
    }
  }
  flush_group();
}

void LateReceiver(const BulkVector<SendRecord>& sends, const BulkVector<uint64_t>& request_enter_of_send,
                  const BulkVector<CallInstance>& instances, WaitStateResult& result) {
  // Scalasca: Late Receiver, only for MPI_Send/MPI_Ssend and single waits;
  // wait-multi calls count their maximum unless they held a Late Sender.
  std::unordered_map<uint32_t, double> multi_best;  // completion instance -> max idle
  for (uint32_t s = 0; s < sends.size(); ++s) {
    const SendRecord& send = sends[s];
    uint64_t request_enter = request_enter_of_send[s];
    if (request_enter == kUnmatched || send.completion == kNone) continue;
    const CallInstance& completion = instances[send.completion];
    double idle = completion.leave <= request_enter ? 0.0 : Signed(request_enter, completion.enter);
    switch (completion.call_class) {
      case CallClass::kBlockingSend:
      case CallClass::kWaitSingle:
        AddSeverity(result, Pattern::kLateReceiver, completion.cnode, send.src, idle);
        break;
      case CallClass::kWaitMulti:
        if (!completion.late_sender_candidate && idle > 0) {
          double& best = multi_best[send.completion];
          best = std::max(best, idle);
        }
        break;
      default: break;
    }
  }
  for (const auto& [instance, idle] : multi_best) {
    const CallInstance& completion = instances[instance];
    AddSeverity(result, Pattern::kLateReceiver, completion.cnode, completion.rank, idle);
  }
}

void AnalyzePointToPoint(const Trace& trace, ReplayRecords& records,
                         const WaitStateOptions& options, WaitStateResult& result) {
  (void)trace;
  BulkVector<uint32_t> send_of_recv = MatchMessages(records.sends, records.recvs, result);
  LateSender(records.sends, records.recvs, send_of_recv, records.instances, options, result, true);
  BulkVector<uint64_t> request_enter(records.sends.size(), kUnmatched);
  for (uint32_t r = 0; r < records.recvs.size(); ++r)
    if (send_of_recv[r] != kNone) request_enter[send_of_recv[r]] = records.recvs[r].request_enter;
  LateReceiver(records.sends, request_enter, records.instances, result);
}

}  // namespace qnm::trace::detail
