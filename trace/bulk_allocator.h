#pragma once
// Allocator for the large per-rank vectors of a trace: blocks of 2 MiB and
// more are mapped with transparent huge pages requested (madvise), so that
// first touch costs one page fault per 2 MiB instead of one per 4 KiB; on a
// virtual machine the 4 KiB faults cost more than decoding the events.
#include <sys/mman.h>

#include <cstddef>
#include <memory>
#include <cstdint>
#include <new>
#include <vector>

namespace qnm::trace {

/// A transparent huge page of x86-64 Linux.
constexpr std::size_t kHugePage = std::size_t{1} << 21;

/// `bytes` rounded up to whole huge pages: what MapHugePageAligned maps for them.
constexpr std::size_t HugePageMultiple(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

/// `bytes` (a multiple of 2 MiB) of fresh, zeroed memory starting on a 2 MiB boundary, with
/// transparent huge pages asked for; null when no address space is left. Given back with munmap.
inline void* MapHugePageAligned(std::size_t bytes) {
  // Over-map by one huge page so that the block can start on a 2 MiB boundary.
  void* raw = ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  auto address = reinterpret_cast<std::uintptr_t>(raw);
  std::uintptr_t aligned = HugePageMultiple(address);
  if (aligned > address) ::munmap(raw, aligned - address);
  std::size_t tail = address + bytes + kHugePage - (aligned + bytes);
  if (tail) ::munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  ::madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

template <typename T>
struct BulkAllocator {
  using value_type = T;

  BulkAllocator() = default;
  template <typename U>
  BulkAllocator(const BulkAllocator<U>&) {}

  static std::size_t MappedBytes(std::size_t n) { return HugePageMultiple(n * sizeof(T)); }

  T* allocate(std::size_t n) {
    if (n * sizeof(T) < kHugePage) return std::allocator<T>().allocate(n);
    void* block = MapHugePageAligned(MappedBytes(n));
    if (!block) throw std::bad_alloc();
    return static_cast<T*>(block);
  }
  void deallocate(T* block, std::size_t n) {
    if (n * sizeof(T) < kHugePage)
      std::allocator<T>().deallocate(block, n);
    else
      ::munmap(block, MappedBytes(n));
  }
  template <typename U>
  bool operator==(const BulkAllocator<U>&) const { return true; }
  template <typename U>
  bool operator!=(const BulkAllocator<U>&) const { return false; }
};

template <typename T>
using BulkVector = std::vector<T, BulkAllocator<T>>;

}  // namespace qnm::trace
