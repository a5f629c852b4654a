#pragma once
// Memory a vector holds beyond its size, given back while the vector lives.
// A vector that is emptied from its back (its elements moved elsewhere one by
// one) keeps its whole buffer until it is destroyed, so moving a million
// records into groups held both copies at the peak (issue 19). The pages of
// the buffer past the last element are unused storage: madvise(MADV_DONTNEED)
// returns them to the system (a later push_back would find them zero-filled,
// which is fine for raw storage), and the vector stays valid.
#include <vector>

namespace qnm {

/// Returns to the system every whole page in [begin, end) (MADV_DONTNEED); a no-op when
/// the range holds no whole page. The range must be allocated, unused storage.
void ReleaseUnusedPages(const void* begin, const void* end);

/// Returns the whole pages of `v`'s capacity past its last element to the system.
template <class T>
void ReleaseSpareCapacity(std::vector<T>* v) {
  ReleaseUnusedPages(v->data() + v->size(), v->data() + v->capacity());
}

}  // namespace qnm
