#pragma once
// Scratch memory of the exact MVA solvers, kept between Solve() calls: a caller
// that solves many networks (or one network many times) passes the same
// Workspace to each call, and once it has grown to the largest network no
// solve allocates again (nor touches fresh pages, which cost 10-20 us each on
// the virtual machines we measure on).
#include <cstddef>

namespace qnm::mva {

class Workspace {
 public:
  Workspace() = default;
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  ~Workspace();

  /// `count` doubles, 64-byte aligned, contents unspecified; valid until the next
  /// call. Grows the buffer (never shrinks it) when it is too small.
  double* Doubles(size_t count) {
    if (count > capacity_) Grow(count);
    return buffer_;
  }
  size_t capacity() const { return capacity_; }

 private:
  void Grow(size_t count);
  void Release();

  double* buffer_ = nullptr;
  size_t capacity_ = 0;
  size_t mapped_bytes_ = 0;  // > 0: buffer_ is an mmap of this many bytes
};

}  // namespace qnm::mva
