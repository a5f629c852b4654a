#pragma once
// The section of one OTF2 trace in the report (`report --trace TRACE`):
// Scalasca wait states, the worst call paths and ranks, the dissimilarity
// (load-imbalance) ranking, the what-if suggestions ranked by simulated gain
// and the region names a `whatif` can name.
#include <string>

namespace qnm::report {

/// The anchor of trace number `index` ("trace-2").
std::string TraceAnchor(std::size_t index);

/// Reads and analyses the trace at `path` and returns its <section>; the
/// reader's InputError (naming the file) passes through.
std::string TraceSection(std::size_t index, const std::string& path);

}  // namespace qnm::report
