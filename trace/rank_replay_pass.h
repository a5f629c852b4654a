#pragma once
// The forward pass over one rank's events that turns them into replay records
// (see replay_records.h), fed one event at a time: from a rank's stored events
// (ExtractReplayRecords), or straight from the OTF2 reader's callbacks while
// libotf2 decodes the rank (streaming: no event is stored). What the pass
// keeps between events is bounded by the rank's call depth and its open
// requests, RMA epochs and locks.
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/pending_requests.h"
#include "trace/replay_records.h"
#include "trace/trace_events.h"

namespace qnm::trace {

class RankReplayPass {
 public:
  /// `call_paths` numbers the cnodes of the events (it may grow while a
  /// streaming reader feeds the pass). `data` holds the rank's side tables:
  /// with `streaming`, an event's record is the last one of its table (the
  /// reader keeps only that one); otherwise event.ref indexes the table.
  /// `out` must hold per-rank slots (init, finalize, outside_ticks) for every rank.
  RankReplayPass(const Trace& trace, const CallPaths& call_paths, uint32_t rank, const LocationTrace& data,
                 bool streaming, ReplayRecords* out);

  /// Event number `index` of the rank (message request_event values count the same way).
  void OnEvent(const Event& event, uint32_t index);
  /// After the last event: the time outside every region up to data.last_ticks.
  void Finish();

  /// The oldest call instance an open region holds (its Leave is still to
  /// come), or kNone.
  uint32_t OldestOpenInstance() const;

  /// Exclusive ticks and visits of this rank per call path.
  const RankProfile& profile() const { return profile_; }
  RankProfile TakeProfile() { return std::move(profile_); }

 private:
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

  template <typename Record, typename Table>
  const Record& RecordOf(const Table& table, uint32_t ref) const {
    return streaming_ ? table.back() : table[ref];
  }
  void OnEnter(const Event& event);
  void OnLeave(const Event& event);
  void OnRecord(const Event& event, uint32_t index);
  void OnGroupSync(const RmaSyncRecord& record);
  void OnRmaOp(const Event& event);
  void OnLock(const Event& event);
  uint32_t TopInstance();
  uint32_t WorldRankIn(uint32_t comm, uint32_t comm_rank);
  uint32_t WindowTarget(uint32_t win, uint32_t remote);

  const Trace& trace_;
  const CallPaths& call_paths_;
  uint32_t rank_;
  const LocationTrace& data_;
  bool streaming_;
  ReplayRecords& out_;
  std::vector<Frame> stack_;
  RankProfile profile_;
  PendingRequests send_of_message_;          // Isend message id -> send record, until completed
  PendingMap<uint64_t> request_enter_;       // MpiIrecvRequest event index -> Enter of its region
  std::vector<WindowState> windows_;
  std::unordered_map<uint64_t, uint32_t> open_locks_;  // (win, target) -> lock epoch
  bool started_ = false;
  uint64_t idle_from_ = 0;  // Leave time of the last top-level region
  uint64_t coll_begin_ = 0, rma_begin_ = 0;
  bool have_coll_begin_ = false, have_rma_begin_ = false;
};

}  // namespace qnm::trace
