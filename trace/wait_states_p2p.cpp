// Point-to-point wait states (notes/scalasca-patterns.md section 4).
#include <algorithm>
#include <deque>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "trace/wait_state_patterns.h"

namespace qnm::trace::detail {
namespace {

template <typename Record>
std::vector<uint32_t> SortedByChannel(const std::vector<Record>& records) {
  std::vector<uint32_t> order(records.size());
  std::iota(order.begin(), order.end(), 0u);
  // Stable: within one channel the k-th send matches the k-th receive.
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Record& x = records[a];
    const Record& y = records[b];
    return std::tie(x.comm, x.src, x.dst, x.tag) < std::tie(y.comm, y.src, y.dst, y.tag);
  });
  return order;
}

double Signed(uint64_t a, uint64_t b) { return static_cast<double>(a) - static_cast<double>(b); }

struct LateSenderEntry {
  uint64_t send_ticks;  // the matched send record's time (Scalasca compares these)
  uint32_t src;
  uint32_t cnode;
  double idle_ticks;
};

}  // namespace

void AnalyzePointToPoint(const Trace& trace, ReplayRecords& records,
                         const WaitStateOptions& options, WaitStateResult& result) {
  (void)trace;
  const auto& sends = records.sends;
  const auto& recvs = records.recvs;
  // Message matching per (comm, source, destination, tag): sends in send
  // order, receives in completion order.
  std::vector<uint32_t> send_order = SortedByChannel(sends);
  std::vector<uint32_t> recv_order = SortedByChannel(recvs);
  std::vector<uint32_t> send_of_recv(recvs.size(), kNone);
  std::vector<uint32_t> recv_of_send(sends.size(), kNone);
  std::size_t i = 0, j = 0;
  while (i < send_order.size() && j < recv_order.size()) {
    const SendRecord& s = sends[send_order[i]];
    const RecvRecord& r = recvs[recv_order[j]];
    auto send_key = std::tie(s.comm, s.src, s.dst, s.tag);
    auto recv_key = std::tie(r.comm, r.src, r.dst, r.tag);
    if (send_key < recv_key) {
      ++result.unmatched_sends;
      ++i;
    } else if (recv_key < send_key) {
      ++result.unmatched_receives;
      ++j;
    } else {
      send_of_recv[recv_order[j]] = send_order[i];
      recv_of_send[send_order[i]] = recv_order[j];
      ++result.messages_matched;
      ++i;
      ++j;
    }
  }
  result.unmatched_sends += send_order.size() - i;
  result.unmatched_receives += recv_order.size() - j;

  // Scalasca: Late Sender, idle = min(Es, Lr) - Er, charged to the receive's
  // completion call; Waitall/Waitsome count only their latest sender.
  std::deque<LateSenderEntry> buffer;  // the last Late Sender instances (Wrong Order)
  uint32_t rank = kNone;
  uint32_t group = kNone;  // current wait-multi call instance
  LateSenderEntry group_best{0, 0, 0, 0.0};
  auto remember = [&](const LateSenderEntry& entry) {
    buffer.push_back(entry);
    if (buffer.size() > options.wrong_order_buffer) buffer.pop_front();
  };
  auto flush_group = [&]() {
    if (group != kNone && group_best.idle_ticks > 0) {
      AddSeverity(result, Pattern::kLateSender, group_best.cnode, rank, group_best.idle_ticks);
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
      rank = recv.dst;
    }
    uint32_t s = send_of_recv[r];
    if (s == kNone) continue;
    const SendRecord& send = sends[s];
    CallInstance& completion = records.instances[recv.completion];
    if (recv.completion != group) flush_group();
    double idle = 0;
    if (completion.call_class != CallClass::kTest)
      idle = Signed(std::min(send.enter, completion.leave), completion.enter);
    LateSenderEntry entry{send.send_ticks, recv.src, completion.cnode, idle};
    if (idle > 0) completion.late_sender_candidate = true;
    if (completion.call_class == CallClass::kWaitMulti) {
      group = recv.completion;
      if (idle > group_best.idle_ticks) group_best = entry;
    } else if (idle > 0) {
      AddSeverity(result, Pattern::kLateSender, completion.cnode, rank, idle);
      remember(entry);
    }
    // Scalasca: Late Sender / Wrong Order. We waited for a message that was
    // sent later than this one, which we received after it.
    for (auto it = buffer.begin(); it != buffer.end();) {
      if (it->send_ticks > send.send_ticks) {
        AddSeverity(result, Pattern::kLateSenderWrongOrder, it->cnode, rank, it->idle_ticks);
        AddSeverity(result, it->src == recv.src ? Pattern::kLswoSame : Pattern::kLswoDifferent,
                    it->cnode, rank, it->idle_ticks);
        it = buffer.erase(it);
      } else {
        ++it;
      }
    }
  }
  flush_group();

  // Scalasca: Late Receiver, only for MPI_Send/MPI_Ssend and single waits;
  // wait-multi calls count their maximum unless they held a Late Sender.
  std::unordered_map<uint32_t, double> multi_best;  // completion instance -> max idle
  for (uint32_t s = 0; s < sends.size(); ++s) {
    const SendRecord& send = sends[s];
    uint32_t r = recv_of_send[s];
    if (r == kNone || send.completion == kNone) continue;
    const CallInstance& completion = records.instances[send.completion];
    uint64_t request_enter = recvs[r].request_enter;
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
    const CallInstance& completion = records.instances[instance];
    AddSeverity(result, Pattern::kLateReceiver, completion.cnode, completion.rank, idle);
  }
}

}  // namespace qnm::trace::detail
