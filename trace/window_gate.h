#pragma once
// The barrier of the block threads that read a trace in windows (matching
// while reading, trace/match_while_reading.h): each thread reads a window of
// its ranks' events, and the point-to-point step after it starts when every
// thread has read its window. The last thread to arrive runs the step's
// serial part (the completion) before any thread goes on, like C++20's
// std::barrier (Geimer et al. 2009, §3.2, replay in lock-step).
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace qnm::trace {

class WindowBarrier {
 public:
  explicit WindowBarrier(uint32_t threads) : threads_(threads) {}

  /// Waits until all `threads` have arrived; the last one runs `completion`
  /// first (with the others waiting). Its memory effects, and those of every
  /// thread before it arrived, are seen by every thread after the call.
  template <typename Completion>
  void Arrive(Completion&& completion) {
    std::unique_lock<std::mutex> lock(mutex_);
    const uint64_t generation = generation_;
    if (++arrived_ == threads_) {
      completion();
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return generation_ != generation; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  const uint32_t threads_;
  uint32_t arrived_ = 0;
  uint64_t generation_ = 0;
};

}  // namespace qnm::trace
