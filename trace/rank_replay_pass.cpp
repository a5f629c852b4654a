#include "trace/rank_replay_pass.h"

#include <otf2/otf2.h>

#include <algorithm>

namespace qnm::trace {

RankReplayPass::RankReplayPass(const Trace& trace, const CallPaths& call_paths, uint32_t rank,
                               const LocationTrace& data, bool streaming, ReplayRecords* out)
    : trace_(trace), call_paths_(call_paths), rank_(rank), data_(data), streaming_(streaming), out_(*out),
      windows_(trace.windows.size()) {}

void RankReplayPass::OnEvent(const Event& event, uint32_t index) {
  if (!started_) {
    idle_from_ = data_.first_ticks;
    started_ = true;
  }
  switch (event.kind) {
    case EventKind::kEnter: OnEnter(event); break;
    case EventKind::kLeave: OnLeave(event); break;
    case EventKind::kSend:
    case EventKind::kIsend: {
      const double bytes = static_cast<double>(RecordOf<Message>(data_.messages, event.ref).bytes);
      profile_.p2p_calls += 1;
      profile_.p2p_bytes += bytes;
      if (!stack_.empty()) {
        profile_.bytes_sent[stack_.back().cnode] += bytes;
        OnRecord(event, index);
      }
      break;
    }
    case EventKind::kCollEnd: {
      const CollectiveRecord& record = RecordOf<CollectiveRecord>(data_.collectives, event.ref);
      if (!IsHandleOp(record.op)) {
        const double bytes = static_cast<double>(record.bytes_sent);
        profile_.collective_bytes += bytes;
        if (!stack_.empty()) profile_.bytes_sent[stack_.back().cnode] += bytes;
      }
      if (!stack_.empty()) OnRecord(event, index);
      break;
    }
    case EventKind::kIrecvRequest:
      // The Enter of the region holding the request (its own time outside
      // every region), found again when the receive completes.
      request_enter_.Insert(index, stack_.empty() ? event.ticks : stack_.back().enter);
      break;
    default:
      if (!stack_.empty()) OnRecord(event, index);
      break;
  }
}

uint32_t RankReplayPass::OldestOpenInstance() const {
  uint32_t oldest = kNone;
  for (const Frame& frame : stack_) oldest = std::min(oldest, frame.instance);
  return oldest;
}

void RankReplayPass::Finish() {
  if (!started_) idle_from_ = data_.first_ticks;
  if (stack_.empty() && data_.last_ticks > idle_from_)
    out_.outside_ticks[rank_] += static_cast<double>(data_.last_ticks - idle_from_);
}

void RankReplayPass::OnEnter(const Event& event) {
  // Time outside every region (no "main" region in MPI-only instrumentation).
  if (stack_.empty() && event.ticks > idle_from_)
    out_.outside_ticks[rank_] += static_cast<double>(event.ticks - idle_from_);
  // Field by field into the new entry: a temporary written with narrow
  // stores and copied with wide loads stalls on store forwarding.
  Frame& frame = stack_.emplace_back();
  frame.cnode = event.ref;
  frame.enter = event.ticks;
  frame.child_ticks = 0;
  frame.instance = kNone;
  if (event.ref >= profile_.visits.size()) {
    profile_.visits.resize(event.ref + 1, 0);
    profile_.exclusive_ticks.resize(event.ref + 1, 0.0);
    profile_.bytes_sent.resize(event.ref + 1, 0.0);
  }
  ++profile_.visits[event.ref];
}

void RankReplayPass::OnLeave(const Event& event) {
  if (stack_.empty() || stack_.back().cnode != event.ref) return;  // the reader balances stacks
  Frame frame = stack_.back();
  stack_.pop_back();
  uint64_t duration = event.ticks - frame.enter;
  profile_.exclusive_ticks[frame.cnode] += static_cast<double>(duration - std::min(duration, frame.child_ticks));
  if (!stack_.empty()) stack_.back().child_ticks += duration;
  else idle_from_ = event.ticks;
  if (frame.instance != kNone) {
    CallInstance& instance = out_.instances[frame.instance - out_.instance_base];
    instance.leave = event.ticks;
    instance.closed = true;
  }
  CallClass call_class = call_paths_.RegionOf(frame.cnode).call_class;
  if (call_class == CallClass::kInit || call_class == CallClass::kFinalize) {
    InitFinalize& slot = call_class == CallClass::kInit ? out_.init[rank_] : out_.finalize[rank_];
    if (!slot.found) slot = InitFinalize{true, frame.enter, event.ticks, frame.cnode};
  }
}

uint32_t RankReplayPass::TopInstance() {
  Frame& frame = stack_.back();
  if (frame.instance == kNone) {
    CallInstance& instance = out_.instances.emplace_back();  // field by field (see OnEnter)
    instance.enter = instance.leave = frame.enter;
    instance.cnode = frame.cnode;
    instance.call_class = call_paths_.RegionOf(frame.cnode).call_class;
    frame.instance = static_cast<uint32_t>(out_.instance_base + out_.instances.size() - 1);
  }
  return frame.instance;
}

uint32_t RankReplayPass::WorldRankIn(uint32_t comm, uint32_t comm_rank) {
  uint32_t world = comm < trace_.comms.size() ? trace_.comms[comm].WorldRank(comm_rank, rank_) : kNone;
  if (world == kNone || world >= trace_.ranks.size()) {
    ++out_.bad_peers;
    return kNone;
  }
  return world;
}

void RankReplayPass::OnRecord(const Event& event, uint32_t index) {
  switch (event.kind) {
    case EventKind::kSend:
    case EventKind::kIsend: {
      const Message& message = RecordOf<Message>(data_.messages, event.ref);
      uint32_t dst = WorldRankIn(message.comm, message.peer);
      if (dst == kNone) return;
      uint32_t completion = event.kind == EventKind::kSend ? TopInstance() : kNone;
      if (event.kind == EventKind::kIsend) {
        send_of_message_.Insert(event.ref, static_cast<uint32_t>(out_.send_base + out_.sends.size()));
        ++out_.incomplete_sends;  // until its completion comes
      }
      SendRecord& send = out_.sends.emplace_back();  // field by field (see OnEnter)
      send.comm = message.comm;
      send.src = rank_;
      send.dst = dst;
      send.tag = message.tag;
      send.enter = stack_.back().enter;
      send.send_ticks = event.ticks;
      send.completion = completion;
      send.next_in_channel = kNone;
      return;
    }
    case EventKind::kIsendComplete: {
      uint32_t send = kNone;
      if (send_of_message_.Take(event.ref, &send)) {
        out_.sends[send - out_.send_base].completion = TopInstance();
        --out_.incomplete_sends;
      }
      return;
    }
    case EventKind::kRecv:
    case EventKind::kIrecv: {
      const Message& message = RecordOf<Message>(data_.messages, event.ref);
      uint32_t src = WorldRankIn(message.comm, message.peer);
      uint64_t request_enter = stack_.back().enter;
      if (message.request_event < index) request_enter_.Take(message.request_event, &request_enter);
      if (src == kNone) return;
      const uint32_t completion = TopInstance();
      RecvRecord& recv = out_.recvs.emplace_back();  // field by field (see OnEnter)
      recv.comm = message.comm;
      recv.src = src;
      recv.dst = rank_;
      recv.tag = message.tag;
      recv.request_enter = request_enter;
      recv.completion = completion;
      recv.matched_send = kNone;
      return;
    }
    case EventKind::kCollBegin:
      coll_begin_ = event.ticks;
      have_coll_begin_ = true;
      return;
    case EventKind::kCollEnd: {
      const CollectiveRecord& record = RecordOf<CollectiveRecord>(data_.collectives, event.ref);
      uint64_t begin = have_coll_begin_ ? coll_begin_ : stack_.back().enter;
      have_coll_begin_ = false;
      out_.collectives.push_back(CollectiveCall{rank_, record.comm, record.root, record.op,
                                                record.bytes_sent, record.bytes_received, begin,
                                                event.ticks, stack_.back().cnode});
      return;
    }
    case EventKind::kRmaCollBegin:
      rma_begin_ = event.ticks;
      have_rma_begin_ = true;
      return;
    case EventKind::kRmaCollEnd: {
      const RmaCollectiveRecord& record = RecordOf<RmaCollectiveRecord>(data_.rma_collectives, event.ref);
      uint64_t begin = have_rma_begin_ ? rma_begin_ : stack_.back().enter;
      have_rma_begin_ = false;
      WindowState& window = windows_[record.win];
      uint32_t fence_index = kNone;
      if (record.op == OTF2_COLLECTIVE_OP_BARRIER) fence_index = window.fences_seen++;
      out_.window_calls.push_back(WindowCall{rank_, record.win, record.op, stack_.back().enter,
                                             begin, event.ticks, stack_.back().cnode, fence_index});
      return;
    }
    case EventKind::kRmaGroupSync: OnGroupSync(RecordOf<RmaSyncRecord>(data_.rma_syncs, event.ref)); return;
    case EventKind::kRmaOp: OnRmaOp(event); return;
    case EventKind::kRmaLock: OnLock(event); return;
    default: return;
  }
}

void RankReplayPass::OnGroupSync(const RmaSyncRecord& record) {
  WindowState& window = windows_[record.win];
  const std::vector<uint32_t>& group = trace_.groups[record.group];
  uint32_t instance = TopInstance();
  switch (out_.instances[instance - out_.instance_base].call_class) {
    case CallClass::kWinStart:
      window.open_access = static_cast<uint32_t>(out_.access_epochs.size());
      out_.access_epochs.push_back(AccessEpoch{rank_, record.win, group, instance, kNone, {}});
      break;
    case CallClass::kWinComplete:
      if (window.open_access != kNone) out_.access_epochs[window.open_access].complete = instance;
      window.open_access = kNone;
      break;
    case CallClass::kWinPost:
      window.open_exposure = static_cast<uint32_t>(out_.exposure_epochs.size());
      out_.exposure_epochs.push_back(ExposureEpoch{rank_, record.win, group, instance, kNone});
      break;
    case CallClass::kWinWait:
      if (window.open_exposure != kNone) out_.exposure_epochs[window.open_exposure].wait = instance;
      window.open_exposure = kNone;
      break;
    default: break;
  }
}

uint32_t RankReplayPass::WindowTarget(uint32_t win, uint32_t remote) {
  uint32_t comm = trace_.windows[win].comm;
  if (comm == kNone || remote == kNone) return kNone;
  return WorldRankIn(comm, remote);
}

void RankReplayPass::OnRmaOp(const Event& event) {
  const RmaOpRecord& record = RecordOf<RmaOpRecord>(data_.rma_ops, event.ref);
  WindowState& window = windows_[record.win];
  uint32_t target = WindowTarget(record.win, record.remote);
  if (target == kNone) return;
  uint32_t op = static_cast<uint32_t>(out_.rma_ops.size());
  auto lock = open_locks_.find((static_cast<uint64_t>(record.win) << 32) | target);
  uint32_t lock_epoch = lock == open_locks_.end() ? kNone : lock->second;
  bool in_epoch = window.open_access != kNone || window.open_locks > 0;
  out_.rma_ops.push_back(RmaOpCall{rank_, target, record.win, event.ticks, TopInstance(),
                                   in_epoch ? kNone : window.fences_seen, window.open_access, lock_epoch});
  if (window.open_access != kNone) out_.access_epochs[window.open_access].ops.push_back(op);
}

void RankReplayPass::OnLock(const Event& event) {
  const RmaLockRecord& record = RecordOf<RmaLockRecord>(data_.rma_locks, event.ref);
  WindowState& window = windows_[record.win];
  uint32_t target = record.remote == kNone ? kNone : WindowTarget(record.win, record.remote);
  uint64_t key = (static_cast<uint64_t>(record.win) << 32) | target;
  auto open = open_locks_.find(key);
  switch (record.what) {
    case LockEvent::kRequest: {
      LockEpoch epoch;
      epoch.rank = rank_;
      epoch.win = record.win;
      epoch.target = target;
      epoch.exclusive = record.exclusive != 0;
      epoch.lock_call = TopInstance();
      epoch.acquired = event.ticks;
      open_locks_[key] = static_cast<uint32_t>(out_.lock_epochs.size());
      out_.lock_epochs.push_back(epoch);
      ++window.open_locks;
      return;
    }
    case LockEvent::kAcquire:
      if (open != open_locks_.end()) out_.lock_epochs[open->second].acquired = event.ticks;
      return;
    case LockEvent::kRelease:
      if (open == open_locks_.end()) return;
      out_.lock_epochs[open->second].released = event.ticks;
      out_.lock_epochs[open->second].has_release = true;
      open_locks_.erase(open);
      if (window.open_locks > 0) --window.open_locks;
      return;
  }
}

}  // namespace qnm::trace
