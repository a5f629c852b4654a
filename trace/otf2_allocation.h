#pragma once
// libotf2's memory starts zeroed while traces are read.
//
// libotf2 does not clear an event reader's chunk buffer, and on a truncated or
// damaged event file it decodes what the buffer held before. A thread reading
// several ranks (and having read the definitions) would hand it memory freed
// there, whose bytes can decode as events: a damaged rank read for ever, or
// ending "successfully" where the sequential reader fails, depending on which
// thread freed what. With libotf2's buffers zeroed when allocated, every
// reader starts as a fresh reader thread does and damaged inputs end the same
// way for any --jobs and --window.
//
// Linked statically (the default), libotf2's malloc/calloc/realloc/free are
// renamed when the project is built (CMakeLists.txt: objcopy --redefine-sym)
// to the qnm_otf2_* functions of otf2_allocation.cpp, which zero: nothing else
// pays. They also give libotf2's chunk buffers (1 MiB per event reader, 4 MiB
// per definition reader) transparent huge pages, two event buffers to a 2 MiB
// page: a first touch then costs a page fault per 2 MiB, not per 4 KiB.
// Against a shared libotf2 (the sanitizer and fuzz builds) the guard below
// zeroes every allocation of the process while it lives instead
// (glibc's M_PERTURB), which costs a memset per allocation and free: about 4%
// of the CPU time of reading 10.5 M records (bench/README.md, issue 23).

namespace qnm::trace {

/// Held while libotf2 reads (the streaming analysis: every thread's readers).
class ZeroedOtf2Allocations {
 public:
  ZeroedOtf2Allocations();
  ~ZeroedOtf2Allocations() { End(); }
  ZeroedOtf2Allocations(const ZeroedOtf2Allocations&) = delete;
  ZeroedOtf2Allocations& operator=(const ZeroedOtf2Allocations&) = delete;
  /// Once every reader is closed: what is allocated after need not be zeroed.
  void End();
  /// True when libotf2's own allocations are zeroed (the renamed static library).
  static bool Renamed();

 private:
  bool ended_ = false;
};

}  // namespace qnm::trace
