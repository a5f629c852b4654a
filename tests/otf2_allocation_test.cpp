// libotf2's memory starts zeroed (trace/otf2_allocation.h): a reader handed a
// block another rank's reader freed must not see that rank's bytes, or a
// damaged event file decodes them as events, differently for each --jobs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "trace/otf2_allocation.h"

// Defined only when libotf2 is linked with its allocation calls renamed.
extern "C" {
void* qnm_otf2_malloc(std::size_t bytes) __attribute__((weak));
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
