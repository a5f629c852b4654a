// Point-to-point wait states (docs/formats/scalasca-patterns.md section 4).
#include <algorithm>
#include <deque>
#include <functional>
#include <optional>
#include <unordered_map>

#include "trace/wait_state_patterns.h"
#include "util/cpu_clock.h"
#include "util/parallel_for.h"

namespace qnm::trace::detail {
namespace {

double Signed(uint64_t a, uint64_t b) { return static_cast<double>(a) - static_cast<double>(b); }


}  // namespace

void EachBlock(std::size_t blocks, int threads, double* critical_cpu_s, const std::function<void(std::size_t)>& step) {
  std::vector<double> cpu_s(blocks, 0.0);
  ParallelFor(
      blocks,
      [&](std::size_t b) {
        const double start = ThreadCpuSeconds();
        step(b);
        cpu_s[b] = ThreadCpuSeconds() - start;
      },
      static_cast<unsigned>(std::max(threads, 1)));
  if (critical_cpu_s && blocks > 0) *critical_cpu_s += *std::max_element(cpu_s.begin(), cpu_s.end());
}

void SeverityShare::Add(Pattern pattern, uint32_t cnode, uint32_t rank, double ticks) {
  if (!(ticks > 0)) return;
  const std::size_t p = static_cast<std::size_t>(pattern);
  const uint64_t key = (static_cast<uint64_t>(cnode) << 32) | rank;
  auto [it, added] = severity[p].try_emplace(key, 0.0);
  if (added) first_added[p].push_back(key);
  it->second += ticks;
}

void SeverityShare::AddCause(uint32_t cnode, double ticks) {
  auto [it, added] = late_sender_cause.try_emplace(cnode, 0.0);
  if (added) cause_first_added.push_back(cnode);
  it->second += ticks;
}

void SeverityShare::MergeInto(WaitStateResult& result, const std::vector<uint32_t>* cnode_map,
                              const std::vector<uint32_t>* cause_map) const {
  auto renumber = [&](uint64_t key) {
    if (!cnode_map) return key;
    const uint64_t cnode = key >> 32;
    return cnode < cnode_map->size() ? (static_cast<uint64_t>((*cnode_map)[cnode]) << 32) | (key & 0xFFFFFFFFu) : key;
  };
  for (std::size_t p = 0; p < kPatternCount; ++p)
    for (uint64_t key : first_added[p]) result.severity[p][renumber(key)] += severity[p].at(key);
  for (uint32_t cause : cause_first_added)
    result.late_sender_cause_s[cause_map ? (*cause_map)[cause] : cause] += late_sender_cause.at(cause);
  result.messages_matched += messages_matched;
  result.unmatched_sends += unmatched_sends;
  result.unmatched_receives += unmatched_receives;
}

void SendView::AddBlock(RecordBlock& block) {
  parts_.push_back(Part{&block.records->sends, &block, offsets_.back()});
  offsets_.push_back(static_cast<uint32_t>(offsets_.back() + block.records->sends.size()));
}

void SendView::AddSends(BulkVector<SendRecord>& sends) {
  parts_.push_back(Part{&sends, nullptr, offsets_.back()});
  offsets_.push_back(static_cast<uint32_t>(offsets_.back() + sends.size()));
}

std::size_t SendView::PartOf(uint32_t send) const {
  if (parts_.size() == 1) return 0;
  return static_cast<std::size_t>(std::upper_bound(offsets_.begin() + 1, offsets_.end() - 1, send) -
                                  (offsets_.begin() + 1));
}

uint32_t SendView::CompletionCnode(uint32_t send) const {
  const Part& part = parts_[PartOf(send)];
  if (!part.block) return kNone;
  const uint32_t completion = (*part.sends)[send - part.offset].completion;
  const BulkVector<CallInstance>& instances = part.block->records->instances;
  return completion < instances.size() ? part.block->Cnode(instances[completion].cnode) : kNone;
}

void MatchMessages(SendView& sends, BulkVector<RecvRecord>& recvs, RankRange receivers, SeverityShare& share) {
  // Message matching per (comm, source, destination, tag) channel: the k-th
  // send (in send order) matches the k-th receive (in completion order).
  // Each channel's sends are chained through SendRecord::next_in_channel
  // (in the record's padding), so that no list of them is kept.
  std::unordered_map<ChannelKey, uint32_t, ChannelHash> channel_of;
  std::vector<uint32_t> channel_next, channel_last;  // per channel: the next send to match, the last send
  // The last few channels used: a rank sends to and receives from its few
  // neighbours in turn, so most lookups end here.
  constexpr std::size_t kRecent = 4;
  ChannelKey recent_key[kRecent];
  uint32_t recent_channel[kRecent] = {kNone, kNone, kNone, kNone};
  std::size_t recent_next = 0;
  auto channel = [&](const ChannelKey& key, bool create) -> uint32_t {
    for (std::size_t i = 0; i < kRecent; ++i)
      if (recent_channel[i] != kNone && recent_key[i] == key) return recent_channel[i];
    auto it = channel_of.find(key);
    if (it == channel_of.end()) {
      if (!create) return kNone;
      it = channel_of.emplace(key, static_cast<uint32_t>(channel_next.size())).first;
      channel_next.push_back(kNone);
      channel_last.push_back(kNone);
    }
    recent_key[recent_next] = key;
    recent_channel[recent_next] = it->second;
    recent_next = (recent_next + 1) % kRecent;
    return it->second;
  };
  uint64_t considered = 0;
  for (uint32_t s = 0; s < sends.size(); ++s) {
    SendRecord& send = sends[s];
    if (send.dst < receivers.first || send.dst >= receivers.end) continue;
    ++considered;
    const uint32_t c = channel({send.comm, send.src, send.dst, send.tag}, true);
    send.next_in_channel = kNone;
    if (channel_last[c] == kNone) channel_next[c] = s;
    else sends[channel_last[c]].next_in_channel = s;
    channel_last[c] = s;
  }
  uint64_t matched = 0;
  for (uint32_t r = 0; r < recvs.size(); ++r) {
    uint32_t c = channel({recvs[r].comm, recvs[r].src, recvs[r].dst, recvs[r].tag}, false);
    if (c == kNone || channel_next[c] == kNone) {
      recvs[r].matched_send = kNone;
      ++share.unmatched_receives;
      continue;
    }
    recvs[r].matched_send = channel_next[c];
    channel_next[c] = sends[channel_next[c]].next_in_channel;
    ++matched;
  }
  for (uint32_t s : channel_next)
    for (; s != kNone; s = sends[s].next_in_channel) sends[s].enter = kUnmatched;
  share.messages_matched += matched;
  share.unmatched_sends += considered - matched;
}

LateSenderScan::LateSenderScan(uint32_t rank, const WaitStateOptions& options, SeverityShare* share)
    : rank_(rank), buffer_limit_(options.wrong_order_buffer), share_(share) {}

void LateSenderScan::Add(const LateSenderEntry& entry) {
  share_->Add(Pattern::kLateSender, entry.cnode, rank_, entry.idle_ticks);
  if (entry.send_cnode != kNone && entry.idle_ticks > 0) share_->AddCause(entry.send_cnode, entry.idle_ticks);
}

void LateSenderScan::Remember(const LateSenderEntry& entry) {
  buffer_.push_back(entry);
  buffer_max_send_ = std::max(buffer_max_send_, entry.send_ticks);
  if (buffer_.size() > buffer_limit_) buffer_.pop_front();
}

void LateSenderScan::Finish() {
  if (group_ != kNone && group_best_.idle_ticks > 0) {
    Add(group_best_);
    Remember(group_best_);
  }
  group_ = kNone;
  group_best_ = LateSenderEntry{0, 0, 0, 0.0};
}

void LateSenderScan::Receive(uint32_t src, uint32_t completion_id, CallInstance& completion, uint32_t cnode,
                             const SendRecord& send, uint32_t send_cnode) {
  // Scalasca: Late Sender, idle = min(Es, Lr) - Er, charged to the receive's
  // completion call; Waitall/Waitsome count only their latest sender.
  if (completion_id != group_) Finish();
  double idle = 0;
  if (completion.call_class != CallClass::kTest) idle = Signed(std::min(send.enter, completion.leave), completion.enter);
  LateSenderEntry entry{send.send_ticks, src, cnode, idle, send_cnode};
  if (idle > 0) completion.late_sender_candidate = true;
  if (completion.call_class == CallClass::kWaitMulti) {
    group_ = completion_id;
    if (idle > group_best_.idle_ticks) group_best_ = entry;
  } else if (idle > 0) {
    Add(entry);
    Remember(entry);
  }
  // Scalasca: Late Sender / Wrong Order. We waited for a message that was
  // sent later than this one, which we received after it.
  if (buffer_max_send_ <= send.send_ticks) return;
  buffer_max_send_ = 0;
  for (auto it = buffer_.begin(); it != buffer_.end();) {
    if (it->send_ticks > send.send_ticks) {
      share_->Add(Pattern::kLateSenderWrongOrder, it->cnode, rank_, it->idle_ticks);
      share_->Add(it->src == src ? Pattern::kLswoSame : Pattern::kLswoDifferent, it->cnode, rank_, it->idle_ticks);
      it = buffer_.erase(it);
    } else {
      buffer_max_send_ = std::max(buffer_max_send_, it->send_ticks);
      ++it;
    }
  }
}

void LateSender(const SendView& sends, RecordBlock& block, const WaitStateOptions& options, SeverityShare& share,
                bool sends_local) {
  const BulkVector<RecvRecord>& recvs = block.records->recvs;
  BulkVector<CallInstance>& instances = block.records->instances;
  std::optional<LateSenderScan> scan;  // of the current receiving rank
  for (uint32_t r = 0; r < recvs.size(); ++r) {
    const RecvRecord& recv = recvs[r];
    if (!scan || scan->rank() != recv.dst) {
      if (scan) scan->Finish();
      scan.emplace(recv.dst, options, &share);
    }
    uint32_t s = recv.matched_send;
    if (s == kNone) continue;
    CallInstance& completion = instances[recv.completion];
    scan->Receive(recv.src, recv.completion, completion, block.Cnode(completion.cnode), sends[s],
                  sends_local ? sends.CompletionCnode(s) : kNone);
  }
  if (scan) scan->Finish();
}

double LateReceiverIdle(uint64_t request_enter, const CallInstance& completion) {
  // Scalasca: Late Receiver, idle = Er(receive request) - Es, if the send
  // was still in its call when the receive was posted.
  return completion.leave <= request_enter ? 0.0 : Signed(request_enter, completion.enter);
}

void ReturnRequestEnters(const BulkVector<RecvRecord>& recvs, SendView& sends) {
  for (const RecvRecord& recv : recvs)
    if (recv.matched_send != kNone) sends[recv.matched_send].enter = recv.request_enter;
}

void LateReceiver(const RecordBlock& block, SeverityShare& share, std::vector<MultiWaitBest>* multi) {
  // Scalasca: Late Receiver, only for MPI_Send/MPI_Ssend and single waits;
  // wait-multi calls count their maximum unless they held a Late Sender.
  const BulkVector<SendRecord>& sends = block.records->sends;
  const BulkVector<CallInstance>& instances = block.records->instances;
  BulkVector<uint32_t> candidate_of;  // block instance -> index in *multi + 1 (0: none yet)
  const std::size_t first = multi->size();
  for (uint32_t s = 0; s < sends.size(); ++s) {
    const SendRecord& send = sends[s];
    uint64_t request_enter = send.enter;  // the matched receive's, since ReturnRequestEnters
    if (request_enter == kUnmatched || send.completion == kNone) continue;
    const CallInstance& completion = instances[send.completion];
    double idle = LateReceiverIdle(request_enter, completion);
    switch (completion.call_class) {
      case CallClass::kBlockingSend:
      case CallClass::kWaitSingle:
        share.Add(Pattern::kLateReceiver, block.Cnode(completion.cnode), send.src, idle);
        break;
      case CallClass::kWaitMulti:
        if (!completion.late_sender_candidate && idle > 0) {
          if (candidate_of.empty()) candidate_of.assign(instances.size(), 0);
          uint32_t& slot = candidate_of[send.completion];
          if (slot == 0) {
            multi->push_back(MultiWaitBest{block.instance_offset + send.completion, block.Cnode(completion.cnode),
                                           send.src, 0.0});
            slot = static_cast<uint32_t>(multi->size() - first);
          }
          double& best = (*multi)[first + slot - 1].idle_ticks;
          best = std::max(best, idle);
        }
        break;
      default: break;
    }
  }
}

void ChargeMultiWaits(const std::vector<std::vector<MultiWaitBest>>& per_block, WaitStateResult& result) {
  // The sequential analysis charged these while walking a hash map of the
  // candidates; the same map, filled in the same order, walks them in the
  // same order, so the severity map gains its keys in the same order too.
  std::unordered_map<uint32_t, const MultiWaitBest*> multi_best;
  for (const std::vector<MultiWaitBest>& block : per_block)
    for (const MultiWaitBest& candidate : block) multi_best.emplace(candidate.instance, &candidate);
  for (const auto& [instance, candidate] : multi_best)
    AddSeverity(result, Pattern::kLateReceiver, candidate->cnode, candidate->rank, candidate->idle_ticks);
}

void AnalyzePointToPoint(std::vector<RecordBlock>& blocks, int threads, const WaitStateOptions& options,
                         WaitStateResult& result, double* critical_cpu_s) {
  const std::size_t n = blocks.size();
  SendView sends;
  for (RecordBlock& block : blocks) sends.AddBlock(block);
  std::vector<SeverityShare> shares(n);
  std::vector<std::vector<MultiWaitBest>> multi(n);
  // Geimer et al. 2009, §3.3.1: the receiver's side (matching, Late Sender)
  // per receiving block, then Late Receiver per sending block with the
  // matched receives' request Enter times.
  // (Every send is matched, read and overwritten by the thread of its
  // receiver's block only; the steps are separated by joins.)
  EachBlock(n, threads, critical_cpu_s, [&](std::size_t b) {
    MatchMessages(sends, blocks[b].records->recvs, blocks[b].ranks, shares[b]);
  });
  EachBlock(n, threads, critical_cpu_s, [&](std::size_t b) {
    LateSender(sends, blocks[b], options, shares[b], /*sends_local=*/true);
    ReturnRequestEnters(blocks[b].records->recvs, sends);
  });
  EachBlock(n, threads, critical_cpu_s,
            [&](std::size_t b) { LateReceiver(blocks[b], shares[b], &multi[b]); });
  const double start = ThreadCpuSeconds();
  for (const SeverityShare& share : shares) share.MergeInto(result);
  ChargeMultiWaits(multi, result);
  if (critical_cpu_s) *critical_cpu_s += ThreadCpuSeconds() - start;
}

}  // namespace qnm::trace::detail
