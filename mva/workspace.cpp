// Workspace memory: large buffers are mapped with every page faulted in by one
// system call (MAP_POPULATE), which on a virtual machine costs about half of
// faulting the same pages one by one on first touch (24 pages: ~150 us vs
// ~320 us measured); small ones come from the aligned heap.
#include "mva/workspace.h"

#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace qnm::mva {
namespace {
constexpr size_t kMapBytes = 16384;  // below this, the heap (its pages are likely touched already)
}

Workspace::~Workspace() { Release(); }

void Workspace::Release() {
#if defined(__linux__)
  if (mapped_bytes_ > 0) munmap(buffer_, mapped_bytes_);
  else
#endif
    ::operator delete[](buffer_, std::align_val_t(64));
  buffer_ = nullptr;
  capacity_ = mapped_bytes_ = 0;
}

void Workspace::Grow(size_t count) {
  Release();
  const size_t bytes = count * sizeof(double);
#if defined(__linux__)
  if (bytes >= kMapBytes) {
    void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (memory == MAP_FAILED) throw std::bad_alloc();
    buffer_ = static_cast<double*>(memory);
    mapped_bytes_ = bytes;
    capacity_ = count;
    return;
  }
#endif
  buffer_ = static_cast<double*>(::operator new[](bytes, std::align_val_t(64)));
  capacity_ = count;
}

}  // namespace qnm::mva
