#pragma once
// CPU time of the calling thread: on a machine shared with other work, the
// fair measure of what a piece of the program costs.
#include <time.h>

namespace qnm {

/// CPU seconds the calling thread has used so far.
inline double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

}  // namespace qnm
