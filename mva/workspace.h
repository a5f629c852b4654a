#pragma once
// Scratch memory of the exact MVA solvers, kept between Solve() calls: a caller
// that solves many networks (or one network many times) passes the same
// Workspace to each call, and once it has grown to the largest network no
// solve allocates again (nor touches fresh pages, which cost microseconds each
// on a virtual machine).
#include <cstddef>
#include <memory>

namespace qnm::mva {

class Workspace {
 public:
  /// `count` doubles, 64-byte aligned, contents unspecified; valid until the next
  /// call. Grows the buffer (never shrinks it) when it is too small.
  double* Doubles(size_t count) {
    if (count > capacity_) {
      buffer_.reset(new (std::align_val_t(64)) double[count]);
      capacity_ = count;
    }
    return buffer_.get();
  }
  size_t capacity() const { return capacity_; }

 private:
  struct AlignedDelete {
    void operator()(double* p) const { ::operator delete[](p, std::align_val_t(64)); }
  };
  std::unique_ptr<double[], AlignedDelete> buffer_;
  size_t capacity_ = 0;
};

}  // namespace qnm::mva
