// MPI-2 RMA wait states (docs/formats/scalasca-patterns.md section 6), mapped onto
// Score-P's OTF2 RMA records. Scalasca 2.x computes these only for EPIK
// traces; the mapping of records to epochs is our own.
#include <otf2/otf2.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <tuple>

#include "trace/wait_state_patterns.h"

namespace qnm::trace::detail {
namespace {

using Key = std::tuple<uint32_t, uint32_t, uint32_t>;  // (window, rank a, rank b)
constexpr double kInf = std::numeric_limits<double>::infinity();

double Ticks(uint64_t ticks) { return static_cast<double>(ticks); }

Pattern WindowPattern(uint8_t op, bool* known) {
  *known = true;
  switch (op) {
    case OTF2_COLLECTIVE_OP_CREATE_HANDLE:
    case OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE: return Pattern::kRmaWaitAtCreate;
    case OTF2_COLLECTIVE_OP_DESTROY_HANDLE:
    case OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE: return Pattern::kRmaWaitAtFree;
    case OTF2_COLLECTIVE_OP_BARRIER: return Pattern::kRmaWaitAtFence;
    default: *known = false; return Pattern::kRmaWaitAtFence;
  }
}

void WindowCollectives(const Trace& trace, const ReplayRecords& records, WaitStateResult& result) {
  // Latest Leave of the RMA calls that target a rank, per (window, fence epoch, target).
  std::map<Key, uint64_t> last_op_leave;
  for (const RmaOpCall& op : records.rma_ops) {
    if (op.fence_epoch == kNone) continue;
    uint64_t& last = last_op_leave[{op.win, op.fence_epoch, op.target}];
    last = std::max(last, records.instances[op.instance].leave);
  }
  // calls[win][member index] in order; members are the window communicator's ranks.
  std::map<uint32_t, std::vector<std::vector<uint32_t>>> calls;
  for (uint32_t i = 0; i < records.window_calls.size(); ++i) {
    const WindowCall& call = records.window_calls[i];
    uint32_t comm = trace.windows[call.win].comm;
    if (comm == kNone) continue;
    const std::vector<uint32_t>& members = trace.comms[comm].world_ranks;
    auto position = std::find(members.begin(), members.end(), call.rank);
    if (position == members.end()) continue;
    auto& lists = calls[call.win];
    lists.resize(members.size());
    lists[position - members.begin()].push_back(i);
  }
  for (const auto& [win, lists] : calls) {
    std::size_t fewest = kNone, most = 0;
    for (const auto& list : lists) {
      fewest = std::min(fewest, list.size());
      most = std::max(most, list.size());
    }
    if (fewest != most)
      result.warnings.push_back("window " + trace.windows[win].name + ": members recorded between " +
                                std::to_string(fewest) + " and " + std::to_string(most) +
                                " window collectives; only the first " + std::to_string(fewest) +
                                " were analysed");
    for (std::size_t k = 0; k < fewest; ++k) {
      const WindowCall& first = records.window_calls[lists[0][k]];
      bool known = false;
      Pattern pattern = WindowPattern(first.op, &known);
      double latest = -kInf, earliest_end = kInf;
      bool consistent = known;
      for (const auto& list : lists) {
        const WindowCall& call = records.window_calls[list[k]];
        consistent = consistent && call.op == first.op;
        latest = std::max(latest, Ticks(call.begin));
        earliest_end = std::min(earliest_end, Ticks(call.end));
      }
      if (!consistent) continue;
      ++result.collective_instances;
      // Scalasca: idle only when all time spans overlap.
      if (!(earliest_end > latest)) continue;
      for (const auto& list : lists) {
        const WindowCall& call = records.window_calls[list[k]];
        double idle = latest - Ticks(call.begin);
        if (!(idle > 0)) continue;
        AddSeverity(result, pattern, call.cnode, call.rank, idle);
        if (pattern != Pattern::kRmaWaitAtFence) continue;
        // Scalasca 2.x: Early Fence, the target waits for RMA ops to it to finish.
        auto last = last_op_leave.find({win, call.fence_index, call.rank});
        if (last == last_op_leave.end()) continue;
        if (call.enter < last->second && last->second <= call.end)
          AddSeverity(result, Pattern::kRmaEarlyFence, call.cnode, call.rank,
                      Ticks(last->second) - Ticks(call.enter));
      }
    }
  }
}

void GeneralActiveTarget(const ReplayRecords& records, WaitStateResult& result) {
  const auto& inst = records.instances;
  // The j-th access epoch of o naming t matches the j-th exposure epoch of t naming o.
  std::map<Key, std::vector<uint32_t>> access_by, exposure_by;
  for (uint32_t a = 0; a < records.access_epochs.size(); ++a)
    for (uint32_t t : records.access_epochs[a].targets)
      access_by[{records.access_epochs[a].win, records.access_epochs[a].rank, t}].push_back(a);
  for (uint32_t x = 0; x < records.exposure_epochs.size(); ++x)
    for (uint32_t o : records.exposure_epochs[x].origins)
      exposure_by[{records.exposure_epochs[x].win, records.exposure_epochs[x].rank, o}].push_back(x);
  auto partner = [](const std::map<Key, std::vector<uint32_t>>& mine,
                    const std::map<Key, std::vector<uint32_t>>& theirs, uint32_t win, uint32_t self,
                    uint32_t other, uint32_t epoch) -> uint32_t {
    auto own = mine.find({win, self, other});
    auto their = theirs.find({win, other, self});
    if (own == mine.end() || their == theirs.end()) return kNone;
    std::size_t j = std::find(own->second.begin(), own->second.end(), epoch) - own->second.begin();
    return j < their->second.size() ? their->second[j] : kNone;
  };

  for (uint32_t a = 0; a < records.access_epochs.size(); ++a) {
    const AccessEpoch& epoch = records.access_epochs[a];
    if (epoch.start == kNone) continue;
    double last_post = -kInf;
    for (uint32_t t : epoch.targets) {
      uint32_t x = partner(access_by, exposure_by, epoch.win, epoch.rank, t, a);
      if (x != kNone && records.exposure_epochs[x].post != kNone)
        last_post = std::max(last_post, Ticks(inst[records.exposure_epochs[x].post].enter));
    }
    if (last_post == -kInf) continue;
    ++result.rma_epochs_matched;
    const CallInstance& start = inst[epoch.start];
    // Scalasca 2.x: Late Post, checked in the order complete, start, RMA operations.
    if (epoch.complete != kNone && Ticks(inst[epoch.complete].enter) < last_post &&
        last_post < Ticks(inst[epoch.complete].leave)) {
      AddSeverity(result, Pattern::kRmaSyncLatePost, inst[epoch.complete].cnode, epoch.rank,
                  last_post - Ticks(inst[epoch.complete].enter));
    } else if (Ticks(start.enter) < last_post && last_post < Ticks(start.leave)) {
      AddSeverity(result, Pattern::kRmaSyncLatePost, start.cnode, epoch.rank,
                  last_post - Ticks(start.enter));
    } else {
      for (uint32_t o : epoch.ops) {
        const RmaOpCall& op = records.rma_ops[o];
        double op_ticks = Ticks(op.op_ticks);
        if (op_ticks < last_post && last_post < Ticks(inst[op.instance].leave))
          AddSeverity(result, Pattern::kRmaCommLatePost, inst[op.instance].cnode, epoch.rank,
                      last_post - op_ticks);
      }
    }
  }

  for (uint32_t x = 0; x < records.exposure_epochs.size(); ++x) {
    const ExposureEpoch& epoch = records.exposure_epochs[x];
    if (epoch.wait == kNone) continue;
    double last_complete = -kInf, last_op = -kInf;
    for (uint32_t o : epoch.origins) {
      uint32_t a = partner(exposure_by, access_by, epoch.win, epoch.rank, o, x);
      if (a == kNone || records.access_epochs[a].complete == kNone) continue;
      last_complete = std::max(last_complete, Ticks(inst[records.access_epochs[a].complete].enter));
      for (uint32_t op : records.access_epochs[a].ops)
        if (records.rma_ops[op].target == epoch.rank)
          last_op = std::max(last_op, Ticks(inst[records.rma_ops[op].instance].leave));
    }
    const CallInstance& wait = inst[epoch.wait];
    if (!(last_complete > Ticks(wait.enter))) continue;
    // Scalasca 2.x: Early Wait, and its part after the last transfer, Late Complete.
    AddSeverity(result, Pattern::kRmaEarlyWait, wait.cnode, epoch.rank, last_complete - Ticks(wait.enter));
    AddSeverity(result, Pattern::kRmaLateComplete, wait.cnode, epoch.rank,
                last_complete - std::max(last_op, Ticks(wait.enter)));
  }
}

// Scalasca 2.x Lock Contention (synchronisation part): an epoch that follows
// an exclusive epoch on the same (window, target) waits from the Enter of its
// lock call until the previous holder released the lock.
void LockContention(const ReplayRecords& records, WaitStateResult& result) {
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> by_target;
  for (uint32_t e = 0; e < records.lock_epochs.size(); ++e)
    if (records.lock_epochs[e].target != kNone)
      by_target[{records.lock_epochs[e].win, records.lock_epochs[e].target}].push_back(e);
  for (auto& [key, epochs] : by_target) {
    std::sort(epochs.begin(), epochs.end(), [&](uint32_t a, uint32_t b) {
      return records.lock_epochs[a].acquired < records.lock_epochs[b].acquired;
    });
    for (std::size_t i = 1; i < epochs.size(); ++i) {
      const LockEpoch& previous = records.lock_epochs[epochs[i - 1]];
      const LockEpoch& current = records.lock_epochs[epochs[i]];
      if (!previous.exclusive || !previous.has_release || current.lock_call == kNone) continue;
      const CallInstance& lock = records.instances[current.lock_call];
      AddSeverity(result, Pattern::kRmaSyncLockCompetition, lock.cnode, current.rank,
                  Ticks(previous.released) - Ticks(lock.enter));
    }
  }
}

}  // namespace

void AnalyzeRma(const Trace& trace, const ReplayRecords& records, WaitStateResult& result) {
  WindowCollectives(trace, records, result);
  GeneralActiveTarget(records, result);
  LockContention(records, result);
}

}  // namespace qnm::trace::detail
