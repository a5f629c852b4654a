#include "util/heap_reuse.h"

#include <cstddef>  // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace qnm {

void KeepFreedBlocksForReuse() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc refuses more than half its 64 MiB arena heaps
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

void ReturnFreedPages() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

void PrepareHeapForFits() {
  ReturnFreedPages();
  KeepFreedBlocksForReuse();
}

}  // namespace qnm
