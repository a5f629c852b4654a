#include "trace/replay_records.h"

#include <otf2/otf2.h>

#include <unordered_map>

namespace qnm::trace {
namespace {

struct Frame {
  uint32_t cnode;
  uint64_t enter;
  uint64_t child_ticks;
  uint32_t instance;
};

struct WindowState {
  uint32_t fences_seen = 0;
  uint32_t open_access = kNone;
  uint32_t open_exposure = kNone;
  uint32_t open_locks = 0;
};

/// The forward pass over one rank.
class RankPass {
 public:
  RankPass(const Trace& trace, uint32_t rank, const std::vector<CallClass>& call_class, ReplayRecords* out)
      : trace_(trace), call_class_(call_class), rank_(rank), data_(trace.ranks[rank]), out_(*out),
        send_of_message_(data_.messages.size(), kNone), windows_(trace.windows.size()) {}

  void Run() {
    idle_from_ = data_.first_ticks;
    const std::size_t n = data_.events.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Event& event = data_.events[i];
      switch (event.kind) {
        case EventKind::kEnter: OnEnter(event); break;
        case EventKind::kLeave: OnLeave(event); break;
        default:
          if (!stack_.empty()) OnRecord(event, static_cast<uint32_t>(i));
          break;
      }
    }
    if (stack_.empty() && data_.last_ticks > idle_from_)
      out_.outside_ticks[rank_] += static_cast<double>(data_.last_ticks - idle_from_);
  }

 private:
  void OnEnter(const Event& event) {
    // Time outside every region (no "main" region in MPI-only instrumentation).
    if (stack_.empty() && event.ticks > idle_from_)
      out_.outside_ticks[rank_] += static_cast<double>(event.ticks - idle_from_);
    stack_.push_back(Frame{event.ref, event.ticks, 0, kNone});
    ++out_.visits[Slot(event.ref)];
  }

  void OnLeave(const Event& event) {
    if (stack_.empty() || stack_.back().cnode != event.ref) return;  // the reader balances stacks
    Frame frame = stack_.back();
    stack_.pop_back();
    uint64_t duration = event.ticks - frame.enter;
    out_.exclusive_ticks[Slot(frame.cnode)] += static_cast<double>(duration - std::min(duration, frame.child_ticks));
    if (!stack_.empty()) stack_.back().child_ticks += duration;
    else idle_from_ = event.ticks;
    if (frame.instance != kNone) out_.instances[frame.instance].leave = event.ticks;
    CallClass call_class = call_class_[frame.cnode];
    if (call_class == CallClass::kInit || call_class == CallClass::kFinalize) {
      InitFinalize& slot = call_class == CallClass::kInit ? out_.init[rank_] : out_.finalize[rank_];
      if (!slot.found) slot = InitFinalize{true, frame.enter, event.ticks, frame.cnode};
    }
  }

  std::size_t Slot(uint32_t cnode) const {
    return static_cast<std::size_t>(cnode) * trace_.ranks.size() + rank_;
  }

  uint32_t TopInstance() {
    Frame& frame = stack_.back();
    if (frame.instance == kNone) {
      CallInstance instance;
      instance.enter = instance.leave = frame.enter;
      instance.cnode = frame.cnode;
      instance.rank = rank_;
      instance.call_class = call_class_[frame.cnode];
      out_.instances.push_back(instance);
      frame.instance = static_cast<uint32_t>(out_.instances.size() - 1);
    }
    return frame.instance;
  }

  /// Enter time of the region holding event `index` (the MPI_Irecv of a
  /// request): a short backward walk, usually one step.
  uint64_t EnclosingEnter(uint32_t index) const {
    int depth = 0;
    for (uint32_t k = index; k-- > 0;) {
      const Event& event = data_.events[k];
      if (event.kind == EventKind::kLeave) {
        ++depth;
      } else if (event.kind == EventKind::kEnter) {
        if (depth == 0) return event.ticks;
        --depth;
      }
    }
    return data_.events[index].ticks;
  }

  uint32_t WorldRankIn(uint32_t comm, uint32_t comm_rank) {
    uint32_t world = comm < trace_.comms.size() ? trace_.comms[comm].WorldRank(comm_rank, rank_) : kNone;
    if (world == kNone || world >= trace_.ranks.size()) {
      ++out_.bad_peers;
      return kNone;
    }
    return world;
  }

  void OnRecord(const Event& event, uint32_t index) {
    switch (event.kind) {
      case EventKind::kSend:
      case EventKind::kIsend: {
        const Message& message = data_.messages[event.ref];
        uint32_t dst = WorldRankIn(message.comm, message.peer);
        if (dst == kNone) return;
        uint32_t completion = event.kind == EventKind::kSend ? TopInstance() : kNone;
        if (event.kind == EventKind::kIsend)
          send_of_message_[event.ref] = static_cast<uint32_t>(out_.sends.size());
        out_.sends.push_back(SendRecord{message.comm, rank_, dst, message.tag,
                                        stack_.back().enter, event.ticks, completion});
        return;
      }
      case EventKind::kIsendComplete: {
        uint32_t send = send_of_message_[event.ref];
        if (send != kNone) out_.sends[send].completion = TopInstance();
        return;
      }
      case EventKind::kIrecvRequest: return;  // found again from the completion
      case EventKind::kRecv:
      case EventKind::kIrecv: {
        const Message& message = data_.messages[event.ref];
        uint32_t src = WorldRankIn(message.comm, message.peer);
        uint64_t request_enter = message.request_event == index || message.request_event >= index
                                     ? stack_.back().enter
                                     : EnclosingEnter(message.request_event);
        if (src == kNone) return;
        out_.recvs.push_back(RecvRecord{message.comm, src, rank_, message.tag,
                                        request_enter, TopInstance()});
        return;
      }
      case EventKind::kCollBegin:
        coll_begin_ = event.ticks;
        have_coll_begin_ = true;
        return;
      case EventKind::kCollEnd: {
        const CollectiveRecord& record = data_.collectives[event.ref];
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
        const RmaCollectiveRecord& record = data_.rma_collectives[event.ref];
        uint64_t begin = have_rma_begin_ ? rma_begin_ : stack_.back().enter;
        have_rma_begin_ = false;
        WindowState& window = windows_[record.win];
        uint32_t fence_index = kNone;
        if (record.op == OTF2_COLLECTIVE_OP_BARRIER) fence_index = window.fences_seen++;
        out_.window_calls.push_back(WindowCall{rank_, record.win, record.op, stack_.back().enter,
                                               begin, event.ticks, stack_.back().cnode,
                                               fence_index});
        return;
      }
      case EventKind::kRmaGroupSync: OnGroupSync(data_.rma_syncs[event.ref]); return;
      case EventKind::kRmaOp: OnRmaOp(event); return;
      case EventKind::kRmaLock: OnLock(event); return;
      default: return;
    }
  }

  void OnGroupSync(const RmaSyncRecord& record) {
    WindowState& window = windows_[record.win];
    const std::vector<uint32_t>& group = trace_.groups[record.group];
    uint32_t instance = TopInstance();
    switch (out_.instances[instance].call_class) {
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

  uint32_t WindowTarget(uint32_t win, uint32_t remote) {
    uint32_t comm = trace_.windows[win].comm;
    if (comm == kNone || remote == kNone) return kNone;
    return WorldRankIn(comm, remote);
  }

  void OnRmaOp(const Event& event) {
    const RmaOpRecord& record = data_.rma_ops[event.ref];
    WindowState& window = windows_[record.win];
    uint32_t target = WindowTarget(record.win, record.remote);
    if (target == kNone) return;
    uint32_t op = static_cast<uint32_t>(out_.rma_ops.size());
    auto lock = open_locks_.find((static_cast<uint64_t>(record.win) << 32) | target);
    uint32_t lock_epoch = lock == open_locks_.end() ? kNone : lock->second;
    bool in_epoch = window.open_access != kNone || window.open_locks > 0;
    out_.rma_ops.push_back(RmaOpCall{rank_, target, record.win, event.ticks, TopInstance(),
                                     in_epoch ? kNone : window.fences_seen, window.open_access,
                                     lock_epoch});
    if (window.open_access != kNone) out_.access_epochs[window.open_access].ops.push_back(op);
  }

  void OnLock(const Event& event) {
    const RmaLockRecord& record = data_.rma_locks[event.ref];
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

  const Trace& trace_;
  const std::vector<CallClass>& call_class_;  // per call path
  uint32_t rank_;
  const LocationTrace& data_;
  ReplayRecords& out_;
  std::vector<Frame> stack_;
  std::vector<uint32_t> send_of_message_;
  std::vector<WindowState> windows_;
  std::unordered_map<uint64_t, uint32_t> open_locks_;  // (win, target) -> lock epoch
  uint64_t idle_from_ = 0;  // Leave time of the last top-level region
  uint64_t coll_begin_ = 0, rma_begin_ = 0;
  bool have_coll_begin_ = false, have_rma_begin_ = false;
};

}  // namespace

ReplayRecords ExtractReplayRecords(const Trace& trace) {
  ReplayRecords records;
  const std::size_t ranks = trace.ranks.size();
  records.exclusive_ticks.assign(trace.call_paths.size() * ranks, 0.0);
  records.visits.assign(trace.call_paths.size() * ranks, 0);
  records.init.assign(ranks, {});
  records.finalize.assign(ranks, {});
  records.outside_ticks.assign(ranks, 0.0);
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
  std::vector<CallClass> call_class(trace.call_paths.size());
  for (uint32_t c = 0; c < call_class.size(); ++c) call_class[c] = trace.call_paths.RegionOf(c).call_class;
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    RankPass pass(trace, rank, call_class, &records);
    pass.Run();
  }
  for (const SendRecord& send : records.sends)
    if (send.completion == kNone) ++records.incomplete_sends;
  return records;
}

}  // namespace qnm::trace
