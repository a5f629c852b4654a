#pragma once
// Open MPI requests of one location while its events are read: request id ->
// index (or time). Few requests are open at a time, so a small vector searched
// linearly beats a node-based hash map; very many open requests switch to a hash map.
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace qnm::trace {

template <typename Value>
class PendingMap {
 public:
  void Insert(uint64_t request, Value value) {
    if (!large_.empty() || small_.size() >= kSmallLimit) {
      if (large_.empty()) large_.insert(small_.begin(), small_.end()), small_.clear();
      large_[request] = value;
      return;
    }
    for (auto& entry : small_)
      if (entry.first == request) {
        entry.second = value;
        return;
      }
    small_.emplace_back(request, value);
  }
  /// Removes `request` and returns its value; false when it is not open.
  bool Take(uint64_t request, Value* value) {
    if (!large_.empty()) {
      auto it = large_.find(request);
      if (it == large_.end()) return false;
      *value = it->second;
      large_.erase(it);
      return true;
    }
    for (std::size_t i = 0; i < small_.size(); ++i)
      if (small_[i].first == request) {
        *value = small_[i].second;
        small_[i] = small_.back();
        small_.pop_back();
        return true;
      }
    return false;
  }
  std::size_t size() const { return large_.empty() ? small_.size() : large_.size(); }

 private:
  static constexpr std::size_t kSmallLimit = 64;
  std::vector<std::pair<uint64_t, Value>> small_;
  std::unordered_map<uint64_t, Value> large_;
};

using PendingRequests = PendingMap<uint32_t>;

}  // namespace qnm::trace
