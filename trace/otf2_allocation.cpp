#include "trace/otf2_allocation.h"

#include <malloc.h>

#include <cstdlib>
#include <cstring>

#ifdef QNM_OTF2_ALLOCATIONS_ZEROED
// libotf2's allocation calls, renamed at build time (trace/otf2_allocation.h).
extern "C" {
void* qnm_otf2_malloc(std::size_t bytes) { return std::calloc(1, bytes); }
void* qnm_otf2_calloc(std::size_t count, std::size_t bytes) { return std::calloc(count, bytes); }
void* qnm_otf2_realloc(void* block, std::size_t bytes) {
  const std::size_t before = block ? malloc_usable_size(block) : 0;
  void* grown = std::realloc(block, bytes);
  if (grown && bytes > before) std::memset(static_cast<char*>(grown) + before, 0, bytes - before);
  return grown;
}
void qnm_otf2_free(void* block) { std::free(block); }
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
