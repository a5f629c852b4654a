#pragma once
// Runs independent pieces of work (e.g. one series each) on every core.
#include <cstddef>
#include <functional>

namespace qnm {

/// Calls `body(i)` for i in [0, count) on up to `threads` threads (0: one per
/// core), handing out indices in order. Waits for all; if any call throws,
/// rethrows the exception of the lowest index (the error a serial loop would
/// have reported first, so the output does not depend on timing).
void ParallelFor(std::size_t count, const std::function<void(std::size_t)>& body,
                 unsigned threads = 0);

}  // namespace qnm
