#include "whatif/whatif_dependencies.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace qnm::trace {
namespace {

struct MessageHalf {
  uint32_t rank, event, message;
};

// Channel = (comm, source, destination, tag): MPI's non-overtaking order.
using ChannelKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;
struct Channel {
  std::vector<MessageHalf> sends, receives;
};

struct Participant {
  uint32_t rank, begin, end;  // event indices of the Begin and End records
  uint32_t root;              // world rank of the root, or kNone
  uint8_t op;
};

uint32_t PrecedingEvent(const LocationTrace& location, uint32_t index, EventKind kind) {
  for (uint32_t i = index; i-- > 0;)
    if (location.events[i].kind == kind) return i;
  return kNone;
}

uint32_t FollowingLeave(const LocationTrace& location, uint32_t index) {
  for (uint32_t i = index + 1; i < location.events.size(); ++i)
    if (location.events[i].kind == EventKind::kLeave) return i;
  return kNone;
}

class Builder {
 public:
  Builder(const Trace& trace, const std::vector<Hypothesis>& hypotheses)
      : trace_(trace), hypotheses_(hypotheses) {
    deps_.per_rank.resize(trace.ranks.size());
    deps_.flags.resize(trace.ranks.size());
    deps_.has_drops.assign(trace.ranks.size(), false);
    isend_complete_.resize(trace.ranks.size());
  }

  WhatifDependencies Build() {
    MarkScopeRegions();
    for (uint32_t rank = 0; rank < trace_.ranks.size(); ++rank) {
      MarkScopes(rank);
      Scan(rank);
    }
    MatchMessages();
    for (auto& [key, members] : collectives_) {
      if (CutCollective(members)) continue;
      uint32_t comm = std::get<1>(key);
      if (std::get<0>(key) == 1)
        comm = comm < trace_.windows.size() ? trace_.windows[comm].comm : kNone;
      if (comm >= trace_.comms.size() || members.size() != static_cast<std::size_t>(trace_.comms[comm].Size()))
        ++deps_.collectives_incomplete;  // a participant is missing: no dependency
      else
        AddCollective(members);
    }
    AddGroup(init_);
    AddGroup(finalize_);
    for (uint32_t rank = 0; rank < trace_.ranks.size(); ++rank) DropCutRegions(rank);
    for (uint32_t rank = 0; rank < trace_.ranks.size(); ++rank) CollapseCutCalls(rank);
    for (auto& list : deps_.per_rank)
      std::sort(list.begin(), list.end(),
                [](const Dependency& a, const Dependency& b) { return a.event < b.event; });
    return std::move(deps_);
  }

 private:
  // kCutOpenBefore: a cut instance is open between the previous event and this one.
  static constexpr uint8_t kInCutRegion = 1, kInCutMessageRegion = 2, kCutOpenBefore = 4;

  /// Per call path: is its region named by a CUT REGION / CUT MESSAGE REGION?
  void MarkScopeRegions() {
    const CallPaths& paths = trace_.call_paths;
    cnode_scope_.assign(paths.size(), 0);
    for (const Hypothesis& h : hypotheses_) {
      uint8_t bit = h.kind == HypothesisKind::kCutRegion ? kInCutRegion
                    : h.kind == HypothesisKind::kCutMessages && h.field == MessageField::kRegion
                        ? kInCutMessageRegion
                        : 0;
      if (bit == 0) continue;
      any_scope_ = true;
      for (uint32_t c = 0; c < paths.size(); ++c)
        if (paths.RegionOf(c).name == h.region) cnode_scope_[c] |= bit;
    }
  }

  /// Per event of `rank`: inside (Enter to Leave, both included) an instance of
  /// a cut region, or of a region whose messages are cut.
  void MarkScopes(uint32_t rank) {
    const LocationTrace& location = trace_.ranks[rank];
    scope_.emplace_back();
    if (!any_scope_) return;
    std::vector<uint8_t>& scope = scope_.back();
    scope.assign(location.events.size(), 0);
    std::vector<uint8_t> stack;  // scope bits of the open frames (inherited)
    for (uint32_t i = 0; i < location.events.size(); ++i) {
      const Event& event = location.events[i];
      uint8_t inherited = stack.empty() ? 0 : stack.back();
      uint8_t open = (inherited & kInCutRegion) ? kCutOpenBefore : 0;
      if (event.kind == EventKind::kEnter) {
        uint8_t own = event.ref < cnode_scope_.size() ? cnode_scope_[event.ref] : 0;
        if ((own & kInCutRegion) && !(inherited & kInCutRegion)) ++deps_.region_instances_cut;
        stack.push_back(inherited | own);
        scope[i] = stack.back() | open;
      } else if (event.kind == EventKind::kLeave) {
        scope[i] = inherited | open;
        if (!stack.empty()) stack.pop_back();
      } else {
        scope[i] = inherited | open;
      }
    }
  }

  bool InScope(uint32_t rank, uint32_t event, uint8_t bits) const {
    const std::vector<uint8_t>& scope = scope_[rank];
    return event < scope.size() && (scope[event] & bits);
  }

  /// A collective instance with a participant inside a cut region goes on
  /// every rank (Hermanns 2008, §4.4.3: a max-reduction of the deletion flags).
  bool CutCollective(const std::vector<Participant>& members) {
    bool cut = false;
    for (const Participant& m : members)
      cut = cut || InScope(m.rank, m.begin, kInCutRegion) || InScope(m.rank, m.end, kInCutRegion);
    if (!cut) return false;
    ++deps_.collectives_cut;
    for (const Participant& m : members) {
      Drop(m.rank, m.begin);
      Drop(m.rank, m.end);
    }
    return true;
  }

  /// Every event of a cut region's instances goes, with the time from its
  /// Enter to its Leave: later events shift back by that span (Hermanns 2008, §4.4.3).
  void DropCutRegions(uint32_t rank) {
    if (!any_scope_) return;
    const std::vector<uint8_t>& scope = scope_[rank];
    BulkVector<uint8_t>& flags = deps_.flags[rank];
    const auto& events = trace_.ranks[rank].events;
    std::vector<bool> cut_ops;  // RMA operations issued inside a cut instance
    for (uint32_t i = 0; i < scope.size(); ++i) {
      if (scope[i] & kInCutRegion) {
        Drop(rank, i);
        if (events[i].kind == EventKind::kRmaOp) {
          if (events[i].ref >= cut_ops.size()) cut_ops.resize(events[i].ref + 1, false);
          cut_ops[events[i].ref] = true;
        }
      }
      if (scope[i] & kCutOpenBefore) flags[i] |= WhatifDependencies::kCollapsed;
    }
    // Their completions, recorded in the closing synchronisation outside the
    // region, go with them.
    for (uint32_t i = 0; i < events.size() && !cut_ops.empty(); ++i)
      if (events[i].kind == EventKind::kRmaOpComplete && events[i].ref < cut_ops.size() &&
          cut_ops[events[i].ref])
        Drop(rank, i);
  }

  void Scan(uint32_t rank) {
    const LocationTrace& location = trace_.ranks[rank];
    deps_.flags[rank].assign(location.events.size(), 0);
    isend_complete_[rank].assign(location.messages.size(), kNone);
    std::map<std::pair<uint8_t, uint32_t>, uint32_t> sequence;  // (kind, comm or win) -> count
    uint32_t init_enter = kNone, finalize_enter = kNone;
    bool init_done = false, finalize_done = false;
    for (uint32_t i = 0; i < location.events.size(); ++i) {
      const Event& event = location.events[i];
      switch (event.kind) {
        case EventKind::kSend:
        case EventKind::kIsend:
        case EventKind::kRecv:
        case EventKind::kIrecv: {
          const Message& m = location.messages[event.ref];
          if (m.comm >= trace_.comms.size()) break;
          uint32_t peer = trace_.comms[m.comm].WorldRank(m.peer, rank);
          if (peer == kNone) break;
          bool send = event.kind == EventKind::kSend || event.kind == EventKind::kIsend;
          ChannelKey key = send ? ChannelKey{m.comm, rank, peer, m.tag}
                                : ChannelKey{m.comm, peer, rank, m.tag};
          Channel& channel = channels_[key];
          (send ? channel.sends : channel.receives).push_back({rank, i, event.ref});
          break;
        }
        case EventKind::kIsendComplete:
          if (event.ref < location.messages.size()) isend_complete_[rank][event.ref] = i;
          break;
        case EventKind::kCollEnd: {
          const CollectiveRecord& c = location.collectives[event.ref];
          if (c.comm >= trace_.comms.size()) break;
          uint32_t begin = PrecedingEvent(location, i, EventKind::kCollBegin);
          uint32_t seq = sequence[{0, c.comm}]++;
          uint32_t root = c.root == kNone ? kNone : trace_.comms[c.comm].WorldRank(c.root, rank);
          collectives_[{0, c.comm, seq}].push_back({rank, begin, i, root, c.op});
          break;
        }
        case EventKind::kRmaCollEnd: {
          const RmaCollectiveRecord& c = location.rma_collectives[event.ref];
          uint32_t begin = PrecedingEvent(location, i, EventKind::kRmaCollBegin);
          uint32_t seq = sequence[{1, c.win}]++;
          // A window collective (create, fence, free) synchronises its
          // communicator like a barrier; tag the op so AddCollective treats it so.
          collectives_[{1, c.win, seq}].push_back({rank, begin, i, kNone, 0});
          break;
        }
        case EventKind::kEnter: {
          CallClass cls = trace_.call_paths.RegionOf(event.ref).call_class;
          if (cls == CallClass::kInit && !init_done && init_enter == kNone) init_enter = i;
          if (cls == CallClass::kFinalize && !finalize_done && finalize_enter == kNone)
            finalize_enter = i;
          break;
        }
        case EventKind::kLeave: {
          // MPI_Init and MPI_Finalize synchronise every rank (Scalasca's
          // Init Completion / Finalize Wait): the Leave waits for all Enters.
          if (init_enter != kNone && !init_done &&
              location.events[init_enter].ref == event.ref) {
            init_.push_back({rank, init_enter, i, kNone, 0});
            init_done = true;
          }
          if (finalize_enter != kNone && !finalize_done &&
              location.events[finalize_enter].ref == event.ref) {
            finalize_.push_back({rank, finalize_enter, i, kNone, 0});
            finalize_done = true;
          }
          break;
        }
        default: break;
      }
    }
  }

  bool IsCut(uint64_t bytes, uint32_t tag) const {
    for (const Hypothesis& h : hypotheses_)
      if (h.CutsMessage(bytes, tag)) return true;
    return false;
  }

  void Drop(uint32_t rank, uint32_t event) {
    if (event >= deps_.flags[rank].size()) return;
    deps_.flags[rank][event] |= WhatifDependencies::kDropped;
    deps_.has_drops[rank] = true;
  }

  void AddDependency(uint32_t rank, uint32_t event, std::vector<RemoteEvent> sources,
                     bool message = false) {
    if (sources.empty() || event == kNone) return;
    deps_.per_rank[rank].push_back({event, static_cast<uint32_t>(deps_.sources.size()),
                                    static_cast<uint32_t>(sources.size()), message});
    deps_.sources.insert(deps_.sources.end(), sources.begin(), sources.end());
  }

  void MatchMessages() {
    for (auto& [key, channel] : channels_) {
      std::size_t pairs = std::min(channel.sends.size(), channel.receives.size());
      deps_.unmatched_sends += channel.sends.size() - pairs;
      deps_.unmatched_receives += channel.receives.size() - pairs;
      deps_.messages_matched += pairs;
      for (std::size_t k = 0; k < pairs; ++k) {
        const MessageHalf& s = channel.sends[k];
        const MessageHalf& r = channel.receives[k];
        const LocationTrace& sender = trace_.ranks[s.rank];
        const LocationTrace& receiver = trace_.ranks[r.rank];
        const Message& sent = sender.messages[s.message];
        const Message& received = receiver.messages[r.message];
        uint32_t request = received.request_event;
        const uint8_t both = kInCutRegion | kInCutMessageRegion;
        if (IsCut(sent.bytes, sent.tag) ||  // Hermanns 2008, §4.4.4: the size is known at the sender
            InScope(s.rank, s.event, both) ||
            InScope(s.rank, isend_complete_[s.rank][s.message], both) ||
            InScope(r.rank, r.event, both) ||
            (request != kNone && InScope(r.rank, request, both))) {
          ++deps_.messages_cut;
          Drop(s.rank, s.event);
          Drop(s.rank, isend_complete_[s.rank][s.message]);
          Drop(r.rank, r.event);
          if (request != kNone && request < receiver.events.size() &&
              receiver.events[request].kind == EventKind::kIrecvRequest)
            Drop(r.rank, request);
          continue;
        }
        // A receive completes after the matching send (Hermanns 2008, §4.3.2).
        AddDependency(r.rank, r.event, {{s.rank, s.event}}, true);
        // A blocking MPI_Send/MPI_Ssend may return only after the receiver
        // entered its receive call (Late Receiver); the replay keeps this
        // dependency only where the original trace shows such an order.
        uint32_t leave = FollowingLeave(sender, s.event);
        uint32_t send_enter = PrecedingEvent(sender, s.event + 1, EventKind::kEnter);
        if (sent.request_event == kNone && leave != kNone && send_enter != kNone &&
            sender.events[s.event].kind == EventKind::kSend &&
            trace_.call_paths.RegionOf(sender.events[send_enter].ref).call_class ==
                CallClass::kBlockingSend && request != kNone && request < receiver.events.size()) {
          uint32_t recv_enter = PrecedingEvent(receiver, request + 1, EventKind::kEnter);
          if (recv_enter != kNone) AddDependency(s.rank, leave, {{r.rank, recv_enter}});
        }
      }
    }
  }

  /// Sources of one participant's End record (Hermanns 2008, §4.3.2: the collective
  /// is reenacted at its exit). Rooted operations wait only where data flows.
  void AddCollective(const std::vector<Participant>& members) {
    ++deps_.collective_instances;
    for (const Participant& me : members) {
      std::vector<RemoteEvent> sources;
      bool one_to_all = me.op == 1 || me.op == 4 || me.op == 5;  // BCAST, SCATTER(V)
      bool all_to_one = me.op == 2 || me.op == 3 || me.op == 12;  // GATHER(V), REDUCE
      for (const Participant& other : members) {
        if (other.rank == me.rank || other.begin == kNone) continue;
        if (one_to_all && (me.root == me.rank || other.rank != me.root)) continue;
        if (all_to_one && me.root != me.rank) continue;
        sources.push_back({other.rank, other.begin});
      }
      AddDependency(me.rank, me.end, std::move(sources));
    }
  }

  void AddGroup(const std::vector<Participant>& members) {
    if (members.size() < 2) return;
    for (const Participant& m : members)  // MPI_Init/Finalize inside a cut region
      if (InScope(m.rank, m.begin, kInCutRegion) || InScope(m.rank, m.end, kInCutRegion)) return;
    if (members.size() != trace_.ranks.size()) {
      ++deps_.collectives_incomplete;
      return;
    }
    AddCollective(members);
  }

  /// An MPI call whose every record was cut disappears with its time (Hermanns
  /// 2008, §4.4.4 deletes the call's Enter, record and Exit).
  void CollapseCutCalls(uint32_t rank) {
    const LocationTrace& location = trace_.ranks[rank];
    BulkVector<uint8_t>& flags = deps_.flags[rank];
    struct Open {
      uint32_t enter;
      bool has_records = false, all_cut = true;
    };
    std::vector<Open> stack;
    for (uint32_t i = 0; i < location.events.size(); ++i) {
      EventKind kind = location.events[i].kind;
      if (kind == EventKind::kEnter) {
        stack.push_back({i});
      } else if (kind == EventKind::kLeave) {
        if (stack.empty()) continue;
        Open open = stack.back();
        stack.pop_back();
        if (!open.has_records || !open.all_cut) continue;
        Drop(rank, open.enter);
        Drop(rank, i);
        for (uint32_t j = open.enter + 1; j <= i; ++j) flags[j] |= WhatifDependencies::kCollapsed;
      } else if (!stack.empty()) {
        stack.back().has_records = true;
        if (!(flags[i] & WhatifDependencies::kDropped)) stack.back().all_cut = false;
      }
    }
  }

  const Trace& trace_;
  const std::vector<Hypothesis>& hypotheses_;
  WhatifDependencies deps_;
  std::vector<std::vector<uint32_t>> isend_complete_;  // per rank: Isend message -> completion event
  std::map<ChannelKey, Channel> channels_;
  std::map<std::tuple<uint8_t, uint32_t, uint32_t>, std::vector<Participant>> collectives_;
  std::vector<Participant> init_, finalize_;
  std::vector<uint8_t> cnode_scope_;         // per call path: kInCutRegion | kInCutMessageRegion
  std::vector<std::vector<uint8_t>> scope_;  // per rank and event (empty without such cuts)
  bool any_scope_ = false;
};

}  // namespace

WhatifDependencies BuildDependencies(const Trace& trace, const std::vector<Hypothesis>& hypotheses) {
  return Builder(trace, hypotheses).Build();
}

}  // namespace qnm::trace
