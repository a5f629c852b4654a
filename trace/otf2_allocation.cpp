#include "trace/otf2_allocation.h"

#include <malloc.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "trace/bulk_allocator.h"

#ifdef QNM_OTF2_ALLOCATIONS_ZEROED
namespace {

// libotf2's large blocks are its chunk buffers: 1 MiB per event reader, 4 MiB per definition
// reader (which libotf2 clears itself when it opens one). They are mapped with transparent huge
// pages asked for, so that a first touch costs one page fault per 2 MiB instead of 512: on the
// project's virtual test machine a first touch of 4 KiB pages runs at 0.3-0.5 GB/s, and the
// definition readers' buffers alone were 92% of the page faults of analysing 10.5 M records
// (bench/README.md, issue 23). Blocks of up to 1 MiB share a 2 MiB huge page two by two (an
// event reader per rank stays 1 MiB); larger ones get their own mapping. Fresh mappings are
// zero; a slot given back is cleared when it is handed out again. The slabs stay mapped until
// the process ends (their number is bounded by the most buffers open at once).
using qnm::trace::kHugePage;
constexpr std::size_t kSlot = kHugePage / 2;
constexpr std::size_t kLargeBlock = std::size_t{1} << 19;  // 512 KiB and more

class LargeBlocks {
 public:
  /// A zeroed block of `bytes` (>= kLargeBlock); null when no memory is left.
  void* Allocate(std::size_t bytes) {
    if (bytes > SIZE_MAX - 2 * kHugePage) return nullptr;
    if (bytes <= kSlot) {
      Slot slot{};
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (free_slots_.empty()) {
          char* slab = static_cast<char*>(qnm::trace::MapHugePageAligned(kHugePage));
          if (!slab) return nullptr;
          free_slots_.push_back(Slot{slab + kSlot, false});
          free_slots_.push_back(Slot{slab, false});
        }
        slot = free_slots_.back();
        free_slots_.pop_back();
        blocks_[reinterpret_cast<std::uintptr_t>(slot.block)] = 0;
      }
      if (slot.dirty) std::memset(slot.block, 0, kSlot);
      return slot.block;
    }
    const std::size_t mapped = qnm::trace::HugePageMultiple(bytes);
    void* block = qnm::trace::MapHugePageAligned(mapped);
    if (!block) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    blocks_[reinterpret_cast<std::uintptr_t>(block)] = mapped;
    return block;
  }
  /// Gives `block` back; false when it is not one of these blocks.
  bool Free(void* block) {
    if (!MaybeOurs(block)) return false;
    std::size_t mapped = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = blocks_.find(reinterpret_cast<std::uintptr_t>(block));
      if (it == blocks_.end()) return false;
      mapped = it->second;
      blocks_.erase(it);
      if (mapped == 0) {
        free_slots_.push_back(Slot{block, true});
        return true;
      }
    }
    ::munmap(block, mapped);
    return true;
  }
  /// The bytes `block` may hold; 0 when it is not one of these blocks.
  std::size_t UsableSize(void* block) {
    if (!MaybeOurs(block)) return 0;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = blocks_.find(reinterpret_cast<std::uintptr_t>(block));
    return it == blocks_.end() ? 0 : (it->second == 0 ? kSlot : it->second);
  }

 private:
  struct Slot {
    void* block;
    bool dirty;  // handed out before: cleared when handed out again
  };
  // Every block starts on a 1 MiB boundary, which no malloc block does in practice (and one
  // that does is simply not found): the other frees take no lock.
  static bool MaybeOurs(void* block) { return block && reinterpret_cast<std::uintptr_t>(block) % kSlot == 0; }

  std::mutex mutex_;
  std::unordered_map<std::uintptr_t, std::size_t> blocks_;  // block -> mapped bytes (0: a slot)
  std::vector<Slot> free_slots_;
};

LargeBlocks& Large() {
  static LargeBlocks* blocks = new LargeBlocks;  // never destroyed: libotf2 may free at exit
  return *blocks;
}

}  // namespace

// libotf2's allocation calls, renamed at build time (trace/otf2_allocation.h).
extern "C" {
void* qnm_otf2_malloc(std::size_t bytes) {
  return bytes >= kLargeBlock ? Large().Allocate(bytes) : std::calloc(1, bytes);
}
void* qnm_otf2_calloc(std::size_t count, std::size_t bytes) {
  if (count && bytes > SIZE_MAX / count) return nullptr;
  return qnm_otf2_malloc(count * bytes);
}
void qnm_otf2_free(void* block) {
  if (!Large().Free(block)) std::free(block);
}
void* qnm_otf2_realloc(void* block, std::size_t bytes) {
  if (!block) return qnm_otf2_malloc(bytes);
  const std::size_t large = Large().UsableSize(block);
  if (large || bytes >= kLargeBlock) {
    const std::size_t before = large ? large : malloc_usable_size(block);
    if (large && bytes <= before) return block;
    void* moved = qnm_otf2_malloc(bytes);  // zeroed
    if (!moved) return nullptr;
    std::memcpy(moved, block, std::min(before, bytes));
    qnm_otf2_free(block);
    return moved;
  }
  const std::size_t before = malloc_usable_size(block);
  void* grown = std::realloc(block, bytes);
  if (grown && bytes > before) std::memset(static_cast<char*>(grown) + before, 0, bytes - before);
  return grown;
}
}
#endif

namespace qnm::trace {

bool ZeroedOtf2Allocations::Renamed() {
#ifdef QNM_OTF2_ALLOCATIONS_ZEROED
  return true;
#else
  return false;
#endif
}

ZeroedOtf2Allocations::ZeroedOtf2Allocations() {
  // Every block malloc returns is filled with 0xff ^ 0xff.
  if (!Renamed()) mallopt(M_PERTURB, 0xff);
}

void ZeroedOtf2Allocations::End() {
  if (ended_) return;
  ended_ = true;
  if (!Renamed()) mallopt(M_PERTURB, 0);
}

}  // namespace qnm::trace
