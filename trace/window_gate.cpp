#include "trace/window_gate.h"

#include <algorithm>

namespace qnm::trace {

WindowGate::WindowGate(uint32_t readers, uint32_t slots) : readers_(readers), slots_(std::max<uint32_t>(slots, 1)) {}

void WindowGate::Enter() {
  std::unique_lock<std::mutex> lock(mutex_);
  readers_cv_.wait(lock, [&] { return running_ < slots_; });
  ++running_;
}

void WindowGate::Pause() {
  std::unique_lock<std::mutex> lock(mutex_);
  --running_;
  ++arrived_;
  const uint64_t window = window_;
  coordinator_cv_.notify_one();
  readers_cv_.notify_all();  // a slot is free
  readers_cv_.wait(lock, [&] { return window_ != window && running_ < slots_; });
  ++running_;
}

void WindowGate::Leave() {
  std::lock_guard<std::mutex> lock(mutex_);
  --running_;
  ++arrived_;
  ++left_;
  coordinator_cv_.notify_one();
  readers_cv_.notify_all();
}

void WindowGate::Abandon() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++arrived_;
  ++left_;
  coordinator_cv_.notify_one();
}

bool WindowGate::AwaitWindow() {
  std::unique_lock<std::mutex> lock(mutex_);
  coordinator_cv_.wait(lock, [&] { return arrived_ == readers_; });
  return left_ < readers_;
}

void WindowGate::Open() {
  std::lock_guard<std::mutex> lock(mutex_);
  arrived_ = left_;
  ++window_;
  readers_cv_.notify_all();
}

}  // namespace qnm::trace
