#pragma once
// Lock-step windows for the readers of a trace's ranks (one thread per rank,
// at most `slots` of them reading at a time): each reader reads a window of
// its rank's events, then pauses; when every reader has paused or finished,
// the coordinator works on what the window brought (no reader runs meanwhile)
// and opens the next window. This is how the matching while reading
// (trace/match_while_reading.h) sees every rank advance together without
// holding the whole trace (Geimer et al. 2009, §3.2, replay in lock-step).
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace qnm::trace {

class WindowGate {
 public:
  WindowGate(uint32_t readers, uint32_t slots);

  /// Reader: before its first event; waits for a free slot.
  void Enter();
  /// Reader: its window is read; gives its slot up until the next window
  /// opens and a slot is free again.
  void Pause();
  /// Reader: done (its last event read, or failed); never blocks.
  void Leave();
  /// For a reader that could not be started: counts as one that left.
  void Abandon();

  /// Coordinator: waits until every reader has paused or left; false when
  /// all have left (the trace is read).
  bool AwaitWindow();
  /// Coordinator: lets the paused readers read their next window.
  void Open();

 private:
  std::mutex mutex_;
  std::condition_variable readers_cv_, coordinator_cv_;
  const uint32_t readers_, slots_;
  uint32_t running_ = 0;  // readers holding a slot
  uint32_t arrived_ = 0;  // readers paused in this window, or left
  uint32_t left_ = 0;
  uint64_t window_ = 0;
};

}  // namespace qnm::trace
