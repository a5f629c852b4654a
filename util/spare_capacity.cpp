#include "util/spare_capacity.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace qnm {

void ReleaseUnusedPages(const void* begin, const void* end) {
  static const std::uintptr_t page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) / page * page;
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(end) / page * page;
  // Advice only: on failure the pages simply stay resident.
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

}  // namespace qnm
