#include "trace/match_while_reading.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <utility>

#include "trace/wait_state_patterns.h"

namespace qnm::trace {

using detail::ChannelHash;
using detail::ChannelKey;
using detail::LateSenderScan;
using detail::MultiWaitBest;
using detail::SeverityShare;

namespace {

/// RecvRecord::matched_send of a receive waiting in its channel for its send.
constexpr uint32_t kAwaiting = kNone - 1;
/// SendRecord::next_in_channel once the send's receive went through Late
/// Sender (SendRecord::enter holds its request Enter), or no receive will
/// come (enter = detail::kUnmatched): Late Receiver may take it.
constexpr uint32_t kResolved = kNone - 1;

template <typename Table>
void DropFront(Table& table, uint32_t* base, uint32_t new_base) {
  if (new_base <= *base) return;
  table.erase(table.begin(), table.begin() + (new_base - *base));
  *base = new_base;
}

}  // namespace

struct MatchWhileReading::RankState {
  RankState(uint32_t rank, const WaitStateOptions& options) : scan(rank, options, &share) {}
  SeverityShare share;  // call paths in this rank's numbering; causes by index into `causes`
  LateSenderScan scan;
  uint32_t receives_seen = 0;     // receives before this one are matched or wait in their channel
  uint32_t late_sender_next = 0;  // the first receive not through Late Sender
  uint32_t late_receiver_next = 0;
  /// Waitall/Waitsome instances with receives not through Late Sender yet,
  /// ascending, and how many (Late Receiver reads whether one of them
  /// waited). Receives open in the order they are matched and close in the
  /// same order, and their completing instances ascend in it but for nested
  /// MPI regions: the entry to open is the last and the one to close the
  /// first, with a search for the rare others (no allocation per Waitall).
  struct OpenCount {
    uint32_t instance, count;
  };
  std::deque<OpenCount> open_receives;

  std::deque<OpenCount>::iterator FindOpen(uint32_t instance) {
    return std::lower_bound(open_receives.begin(), open_receives.end(), instance,
                            [](const OpenCount& entry, uint32_t key) { return entry.instance < key; });
  }
  void OpenReceive(uint32_t instance) {
    if (open_receives.empty() || open_receives.back().instance < instance) {
      open_receives.push_back(OpenCount{instance, 1});
      return;
    }
    if (open_receives.back().instance == instance) {
      ++open_receives.back().count;
      return;
    }
    auto it = FindOpen(instance);
    if (it != open_receives.end() && it->instance == instance) ++it->count;
    else open_receives.insert(it, OpenCount{instance, 1});
  }
  void CloseReceive(uint32_t instance) {
    if (open_receives.front().instance == instance) {
      if (--open_receives.front().count == 0) open_receives.pop_front();
      return;
    }
    auto it = FindOpen(instance);
    if (--it->count == 0) open_receives.erase(it);
  }
  bool HasOpenReceives(uint32_t instance) {
    if (open_receives.empty() || instance < open_receives.front().instance) return false;
    auto it = FindOpen(instance);
    return it != open_receives.end() && it->instance == instance;
  }
  std::unordered_map<uint32_t, uint32_t> candidate_of;  // Waitall/Waitsome instance -> index in `multi`
  std::vector<MultiWaitBest> multi;  // in this rank's numbering of instances and call paths
  std::vector<std::pair<uint32_t, uint32_t>> causes;  // (sending rank, its call path)
  std::vector<std::vector<uint32_t>> cause_of;         // [sending rank][its call path] -> index in `causes` + 1

  uint32_t Cause(uint32_t sender, uint32_t cnode) {
    if (sender >= cause_of.size()) cause_of.resize(sender + 1);
    std::vector<uint32_t>& of_sender = cause_of[sender];
    if (cnode >= of_sender.size()) of_sender.resize(cnode + 1, 0);
    if (of_sender[cnode] == 0) {
      causes.emplace_back(sender, cnode);
      of_sender[cnode] = static_cast<uint32_t>(causes.size());
    }
    return of_sender[cnode] - 1;
  }
};

struct MatchWhileReading::BlockState {
  struct Channel {
    uint32_t head = kNone, tail = kNone;  // its unmatched sends (the sender's numbering), chained
    std::deque<uint32_t> waiting;         // its receives still without a send (the receiver's numbering)
  };
  RankRange ranks;
  std::unordered_map<ChannelKey, Channel, ChannelHash> channels;
  uint64_t considered = 0, matched = 0, unmatched_receives = 0;
  // The last few channels used: a rank sends to and receives from its few
  // neighbours in turn, so most lookups end here (map nodes do not move).
  static constexpr std::size_t kRecent = 4;
  ChannelKey recent_key[kRecent] = {};
  Channel* recent[kRecent] = {};
  std::size_t recent_next = 0;

  Channel& Of(const ChannelKey& key) {
    for (std::size_t i = 0; i < kRecent; ++i)
      if (recent[i] && recent_key[i] == key) return *recent[i];
    Channel& channel = channels[key];
    recent_key[recent_next] = key;
    recent[recent_next] = &channel;
    recent_next = (recent_next + 1) % kRecent;
    return channel;
  }
};

MatchWhileReading::MatchWhileReading(std::vector<ReplayRecords*> ranks, int threads, const WaitStateOptions& options,
                                     bool keep_instances)
    : records_(std::move(ranks)), options_(options), keep_instances_(keep_instances) {
  const uint32_t m = static_cast<uint32_t>(records_.size());
  for (uint32_t r = 0; r < m; ++r) ranks_.push_back(std::make_unique<RankState>(r, options_));
  const uint32_t n = std::max<uint32_t>(1, std::min<uint32_t>(static_cast<uint32_t>(std::max(threads, 1)), m));
  for (uint32_t b = 0; b < n; ++b) {
    blocks_.push_back(std::make_unique<BlockState>());
    blocks_.back()->ranks = RankPartition{b, n}.Of(m);
  }
  sends_routed_.assign(m, 0);
  block_of_.assign(m, 0);
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t r = blocks_[b]->ranks.first; r < blocks_[b]->ranks.end; ++r) block_of_[r] = b;
  outbox_.assign(m, std::vector<std::vector<uint32_t>>(n));
}

void MatchWhileReading::RouteSends(std::size_t b) {
  const uint32_t m = static_cast<uint32_t>(records_.size());
  for (uint32_t s = blocks_[b]->ranks.first; s < blocks_[b]->ranks.end; ++s) {
    const ReplayRecords& records = *records_[s];
    const uint32_t end = records.send_base + static_cast<uint32_t>(records.sends.size());
    for (std::vector<uint32_t>& to_block : outbox_[s]) to_block.clear();
    for (uint32_t i = sends_routed_[s]; i < end; ++i) {
      const uint32_t dst = records.sends[i - records.send_base].dst;
      if (dst < m) outbox_[s][block_of_[dst]].push_back(i);  // a send to no rank is for no block
    }
    sends_routed_[s] = end;
  }
}

MatchWhileReading::~MatchWhileReading() = default;

void MatchWhileReading::BeginStep() {
  const uint32_t m = static_cast<uint32_t>(records_.size());
  std::size_t bytes = 0;
  for (uint32_t s = 0; s < m; ++s) {
    const ReplayRecords& records = *records_[s];
    bytes += records.instances.size() * sizeof(CallInstance) + records.sends.size() * sizeof(SendRecord) +
             records.recvs.size() * sizeof(RecvRecord);
  }
  peak_bytes_ = std::max(peak_bytes_, bytes);
}

// Each send is written by the block of its receiver only in this part, and
// by the block of its sender only in the next.
void MatchWhileReading::MatchAndLateSender(std::size_t b, const std::vector<char>& finished, bool final) {
  MatchBlock(b, final);
  for (uint32_t d = blocks_[b]->ranks.first; d < blocks_[b]->ranks.end; ++d) LateSenderOf(d, finished, final);
}

void MatchWhileReading::LateReceiverAndDrop(std::size_t b, const std::vector<uint32_t>& open_instance,
                                            const std::vector<char>& finished, bool final) {
  for (uint32_t s = blocks_[b]->ranks.first; s < blocks_[b]->ranks.end; ++s) {
    LateReceiverOf(s, finished, final);
    if (!final) Drop(s, open_instance[s]);
  }
}

void MatchWhileReading::MatchBlock(std::size_t b, bool final) {
  BlockState& block = *blocks_[b];
  auto send_at = [&](uint32_t rank, uint32_t send) -> SendRecord& {
    return records_[rank]->sends[send - records_[rank]->send_base];
  };
  auto recv_at = [&](uint32_t rank, uint32_t recv) -> RecvRecord& {
    return records_[rank]->recvs[recv - records_[rank]->recv_base];
  };
  // The window's sends to this block's ranks, in each sender's send order.
  for (uint32_t s = 0; s < records_.size(); ++s) {
    for (uint32_t i : outbox_[s][b]) {
      SendRecord& send = send_at(s, i);
      ++block.considered;
      BlockState::Channel& channel = block.Of(ChannelKey{send.comm, send.src, send.dst, send.tag});
      if (!channel.waiting.empty()) {
        recv_at(send.dst, channel.waiting.front()).matched_send = i;
        channel.waiting.pop_front();
        ++block.matched;
        continue;
      }
      send.next_in_channel = kNone;
      if (channel.tail == kNone) channel.head = i;
      else send_at(s, channel.tail).next_in_channel = i;
      channel.tail = i;
    }
  }
  // The window's receives of this block's ranks, in completion order.
  for (uint32_t d = block.ranks.first; d < block.ranks.end; ++d) {
    RankState& rank = *ranks_[d];
    ReplayRecords& to = *records_[d];
    const uint32_t end = to.recv_base + static_cast<uint32_t>(to.recvs.size());
    for (uint32_t r = rank.receives_seen; r < end; ++r) {
      RecvRecord& recv = to.recvs[r - to.recv_base];
      BlockState::Channel& channel = block.Of(ChannelKey{recv.comm, recv.src, recv.dst, recv.tag});
      if (channel.head != kNone) {
        recv.matched_send = channel.head;
        channel.head = send_at(recv.src, channel.head).next_in_channel;
        if (channel.head == kNone) channel.tail = kNone;
        ++block.matched;
      } else {
        recv.matched_send = kAwaiting;
        channel.waiting.push_back(r);
      }
      if (to.instances[recv.completion - to.instance_base].call_class == CallClass::kWaitMulti)
        rank.OpenReceive(recv.completion);
    }
    rank.receives_seen = end;
  }
  if (!final) return;
  // The trace is read: what waits now has no partner.
  for (auto& [key, channel] : block.channels) {
    for (uint32_t r : channel.waiting) recv_at(key.dst, r).matched_send = kNone;
    block.unmatched_receives += channel.waiting.size();
    channel.waiting.clear();
    for (uint32_t s = channel.head; s != kNone;) {
      SendRecord& send = send_at(key.src, s);
      s = send.next_in_channel;
      send.enter = detail::kUnmatched;
      send.next_in_channel = kResolved;
    }
    channel.head = channel.tail = kNone;
  }
}

void MatchWhileReading::LateSenderOf(uint32_t d, const std::vector<char>& finished, bool final) {
  RankState& rank = *ranks_[d];
  ReplayRecords& to = *records_[d];
  const uint32_t end = to.recv_base + static_cast<uint32_t>(to.recvs.size());
  for (; rank.late_sender_next < end; ++rank.late_sender_next) {
    const RecvRecord& recv = to.recvs[rank.late_sender_next - to.recv_base];
    if (recv.matched_send == kAwaiting) break;
    CallInstance& completion = to.instances[recv.completion - to.instance_base];
    if (!completion.closed && !final) break;  // its Leave time is still to come
    if (recv.matched_send != kNone) {
      ReplayRecords& from = *records_[recv.src];
      SendRecord& send = from.sends[recv.matched_send - from.send_base];
      if (send.completion == kNone && !finished[recv.src] && !final) break;  // its completion may still come
      const uint32_t cause =
          send.completion == kNone
              ? kNone
              : rank.Cause(recv.src, from.instances[send.completion - from.instance_base].cnode);
      rank.scan.Receive(recv.src, recv.completion, completion, completion.cnode, send, cause);
      // Late Receiver of the send needs the request Enter of its receive.
      send.enter = recv.request_enter;
      send.next_in_channel = kResolved;
    }
    if (completion.call_class == CallClass::kWaitMulti) rank.CloseReceive(recv.completion);
  }
  if (final) rank.scan.Finish();
}

void MatchWhileReading::LateReceiverOf(uint32_t s, const std::vector<char>& finished, bool final) {
  // As detail::LateReceiver, send by send.
  RankState& rank = *ranks_[s];
  ReplayRecords& from = *records_[s];
  const uint32_t end = from.send_base + static_cast<uint32_t>(from.sends.size());
  for (; rank.late_receiver_next < end; ++rank.late_receiver_next) {
    const SendRecord& send = from.sends[rank.late_receiver_next - from.send_base];
    if (send.next_in_channel != kResolved) break;
    if (send.completion == kNone) {
      if (!finished[s] && !final) break;  // its completion may still come
      continue;
    }
    const CallInstance& completion = from.instances[send.completion - from.instance_base];
    if (!final && (!completion.closed || (completion.call_class == CallClass::kWaitMulti &&
                                          rank.HasOpenReceives(send.completion))))
      break;
    if (send.enter == detail::kUnmatched) continue;
    const double idle = detail::LateReceiverIdle(send.enter, completion);
    switch (completion.call_class) {
      case CallClass::kBlockingSend:
      case CallClass::kWaitSingle: rank.share.Add(Pattern::kLateReceiver, completion.cnode, s, idle); break;
      case CallClass::kWaitMulti:
        if (!completion.late_sender_candidate && idle > 0) {
          auto [it, added] = rank.candidate_of.try_emplace(send.completion, static_cast<uint32_t>(rank.multi.size()));
          if (added) rank.multi.push_back(MultiWaitBest{send.completion, completion.cnode, s, 0.0});
          double& best = rank.multi[it->second].idle_ticks;
          best = std::max(best, idle);
        }
        break;
      default: break;
    }
  }
}

void MatchWhileReading::Drop(uint32_t s, uint32_t open_instance) {
  RankState& rank = *ranks_[s];
  ReplayRecords& records = *records_[s];
  DropFront(records.recvs, &records.recv_base, rank.late_sender_next);
  DropFront(records.sends, &records.send_base, rank.late_receiver_next);
  if (keep_instances_) return;
  // The oldest call instance a record still to be analysed, or an open
  // region of the pass, names.
  uint32_t live = std::min(open_instance, records.instance_base + static_cast<uint32_t>(records.instances.size()));
  for (const RecvRecord& recv : records.recvs) live = std::min(live, recv.completion);
  for (const SendRecord& send : records.sends)
    if (send.completion != kNone) live = std::min(live, send.completion);
  DropFront(records.instances, &records.instance_base, live);
  for (auto it = rank.candidate_of.begin(); it != rank.candidate_of.end();)
    it = it->first < live ? rank.candidate_of.erase(it) : std::next(it);
}

WaitStateResult MatchWhileReading::Result(const std::vector<std::vector<uint32_t>>& cnode_maps) const {
  WaitStateResult result;
  auto renumber = [&](uint32_t rank, uint32_t cnode) {
    const std::vector<uint32_t>& map = cnode_maps[rank];
    return cnode < map.size() ? map[cnode] : cnode;
  };
  std::vector<std::vector<MultiWaitBest>> multi(ranks_.size());
  uint32_t instance_offset = 0;  // instances of the ranks before, as one sequential pass numbers them
  for (uint32_t r = 0; r < ranks_.size(); ++r) {
    const RankState& rank = *ranks_[r];
    std::vector<uint32_t> cause_map;
    for (const auto& [sender, cnode] : rank.causes) cause_map.push_back(renumber(sender, cnode));
    rank.share.MergeInto(result, &cnode_maps[r], &cause_map);
    for (MultiWaitBest candidate : rank.multi) {
      candidate.instance += instance_offset;
      candidate.cnode = renumber(r, candidate.cnode);
      multi[r].push_back(candidate);
    }
    instance_offset += records_[r]->instance_base + static_cast<uint32_t>(records_[r]->instances.size());
  }
  for (const auto& block : blocks_) {
    result.messages_matched += block->matched;
    result.unmatched_sends += block->considered - block->matched;
    result.unmatched_receives += block->unmatched_receives;
  }
  detail::ChargeMultiWaits(multi, result);
  return result;
}

}  // namespace qnm::trace
