// libotf2's memory starts zeroed (trace/otf2_allocation.h): a reader handed a
// block another rank's reader freed must not see that rank's bytes, or a
// damaged event file decodes them as events, differently for each --jobs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "trace/otf2_allocation.h"

// Defined only when libotf2 is linked with its allocation calls renamed.
extern "C" {
void* qnm_otf2_malloc(std::size_t bytes) __attribute__((weak));
void* qnm_otf2_calloc(std::size_t count, std::size_t bytes) __attribute__((weak));
void* qnm_otf2_realloc(void* block, std::size_t bytes) __attribute__((weak));
void qnm_otf2_free(void* block) __attribute__((weak));
}

namespace {

using qnm::trace::ZeroedOtf2Allocations;

/// What libotf2 calls to allocate: the renamed functions, else malloc under the guard.
void* Allocate(std::size_t bytes) { return ZeroedOtf2Allocations::Renamed() ? qnm_otf2_malloc(bytes) : std::malloc(bytes); }
void Release(void* block) { ZeroedOtf2Allocations::Renamed() ? qnm_otf2_free(block) : std::free(block); }

std::size_t NonZeroBytes(const char* block, std::size_t bytes) {
  return static_cast<std::size_t>(std::count_if(block, block + bytes, [](char c) { return c != 0; }));
}

}  // namespace

TEST_CASE("libotf2's allocations start zeroed whatever the block held before") {
  if (ZeroedOtf2Allocations::Renamed()) {
    REQUIRE(qnm_otf2_malloc != nullptr);
    REQUIRE(qnm_otf2_realloc != nullptr);
    REQUIRE(qnm_otf2_free != nullptr);
  }
  ZeroedOtf2Allocations zeroed;
  // A definition buffer's size and libotf2's event chunk size (1 MiB), freed dirty and taken again.
  for (std::size_t bytes : {std::size_t{64} << 10, std::size_t{1} << 20}) {
    for (int round = 0; round < 4; ++round) {
      char* dirty = static_cast<char*>(Allocate(bytes));
      REQUIRE(dirty != nullptr);
      std::memset(dirty, 0xa5, bytes);
      Release(dirty);
      char* fresh = static_cast<char*>(Allocate(bytes));
      REQUIRE(fresh != nullptr);
      CHECK(NonZeroBytes(fresh, bytes) == 0);
      Release(fresh);
    }
  }
  if (ZeroedOtf2Allocations::Renamed()) {
    // Grown in place or moved, the new tail is zero and the old bytes are kept.
    char* block = static_cast<char*>(qnm_otf2_malloc(100));
    std::memset(block, 7, 100);
    char* dirty = static_cast<char*>(std::malloc(8000));
    std::memset(dirty, 0xa5, 8000);
    std::free(dirty);
    block = static_cast<char*>(qnm_otf2_realloc(block, 5000));
    REQUIRE(block != nullptr);
    CHECK(std::count(block, block + 100, 7) == 100);
    CHECK(NonZeroBytes(block + 100, 4900) == 0);
    qnm_otf2_free(block);
  }
}

TEST_CASE("libotf2's chunk buffers come from huge pages, zeroed, two event buffers to a page") {
  if (!ZeroedOtf2Allocations::Renamed()) return;  // a shared libotf2: glibc's malloc under the guard
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  // Event chunk buffers (1 MiB): on a 1 MiB boundary (a slot of a 2 MiB huge page), zero when
  // handed out again after being written.
  std::vector<char*> chunks;
  for (int k = 0; k < 6; ++k) {
    chunks.push_back(static_cast<char*>(qnm_otf2_malloc(kMiB)));
    REQUIRE(chunks.back() != nullptr);
    CHECK(reinterpret_cast<std::uintptr_t>(chunks.back()) % kMiB == 0);
    CHECK(NonZeroBytes(chunks.back(), kMiB) == 0);
    std::memset(chunks.back(), 0x5a, kMiB);
  }
  // Six buffers take three huge pages.
  std::vector<std::uintptr_t> pages;
  for (char* c : chunks) pages.push_back(reinterpret_cast<std::uintptr_t>(c) / (2 * kMiB));
  std::sort(pages.begin(), pages.end());
  CHECK(std::unique(pages.begin(), pages.end()) - pages.begin() == 3);
  for (char* c : chunks) qnm_otf2_free(c);
  for (int k = 0; k < 6; ++k) {
    char* again = static_cast<char*>(qnm_otf2_malloc(kMiB - 100));
    REQUIRE(again != nullptr);
    CHECK(NonZeroBytes(again, kMiB) == 0);
    chunks[k] = again;
  }
  for (char* c : chunks) qnm_otf2_free(c);
  // A definition chunk (4 MiB) has its own mapping: zero, written, given back, mapped again.
  for (int round = 0; round < 2; ++round) {
    char* definitions = static_cast<char*>(qnm_otf2_malloc(4 * kMiB));
    REQUIRE(definitions != nullptr);
    CHECK(NonZeroBytes(definitions, 4 * kMiB) == 0);
    std::memset(definitions, 0x33, 4 * kMiB);
    qnm_otf2_free(definitions);
  }
  // Grown across the threshold, within the large blocks and shrunk: the bytes are kept, the tail is zero.
  char* block = static_cast<char*>(qnm_otf2_malloc(100));
  std::memset(block, 7, 100);
  block = static_cast<char*>(qnm_otf2_realloc(block, kMiB));
  REQUIRE(block != nullptr);
  CHECK(std::count(block, block + 100, 7) == 100);
  CHECK(NonZeroBytes(block + 100, kMiB - 100) == 0);
  std::memset(block, 9, kMiB);
  block = static_cast<char*>(qnm_otf2_realloc(block, 3 * kMiB));
  REQUIRE(block != nullptr);
  CHECK(std::count(block, block + kMiB, 9) == static_cast<std::ptrdiff_t>(kMiB));
  CHECK(NonZeroBytes(block + kMiB, 2 * kMiB) == 0);
  char* same = static_cast<char*>(qnm_otf2_realloc(block, 2 * kMiB));
  CHECK(same == block);
  qnm_otf2_free(same);
  // calloc's overflow is refused, not wrapped.
  void* (*calloc_renamed)(std::size_t, std::size_t) = qnm_otf2_calloc;
  REQUIRE(calloc_renamed != nullptr);
  CHECK(calloc_renamed(SIZE_MAX / 2, 4) == nullptr);
}
