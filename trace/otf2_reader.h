#pragma once
// Reads an OTF2 archive (Score-P trace) through libotf2's OTF2_Reader into the
// compact in-memory Trace: global definitions, the local definition mapping
// tables, and each MPI rank's events. Quirks of real traces are repaired and
// listed in Trace::warnings (see tests/data/otf2/SOURCES.md).
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "trace/trace_events.h"

namespace qnm::trace {

/// Reads the trace whose anchor is `path` (a `traces.otf2` file, or a
/// directory holding one). Throws InputError naming the file on any error
/// (missing or corrupt anchor, definition or event file).
Trace ReadOtf2Trace(const std::string& path);

// --- Reading a subset of the ranks (parallel replay, Geimer et al. 2009, §3.2) ---

/// World ranks [first, end) of a trace.
struct RankRange {
  uint32_t first = 0, end = 0;
};
/// Block partition of M ranks over `parts` analysis processes: part p reads
/// ranks [M*p/parts, M*(p+1)/parts).
struct RankPartition {
  uint32_t part = 0, parts = 1;
  RankRange Of(uint32_t ranks) const {
    return RankRange{static_cast<uint32_t>(uint64_t{ranks} * part / parts),
                     static_cast<uint32_t>(uint64_t{ranks} * (part + 1) / parts)};
  }
};
/// Repaired quirks: message -> (rank, count) in ascending rank order.
using QuirkCounts = std::map<std::string, std::vector<std::pair<uint32_t, uint64_t>>>;

/// Like ReadOtf2Trace, but reads local definitions and events only for this
/// part's ranks (set in `*range`; other ranks keep their name/node and no
/// events), and returns the per-rank quirk counts in `quirks` instead of
/// warning lines. Call paths are numbered in this part's discovery order.
Trace ReadOtf2TraceRanks(const std::string& path, RankPartition partition, RankRange* range,
                         QuirkCounts* quirks);
/// "12 regions ... (ranks 0-3, 7)": one warning per kind of repaired quirk.
void AddQuirkWarnings(const QuirkCounts& quirks, std::vector<std::string>* warnings);

/// Decodes every event record of the trace without keeping anything (the
/// baselines for the benchmark): with no callbacks at all, or with callbacks
/// that only count the common MPI records. Returns the records decoded.
uint64_t DecodeOtf2EventsOnly(const std::string& path, bool counting_callbacks = false);

/// The anchor file for `path` (appends "traces.otf2" to a directory).
std::string Otf2AnchorPath(const std::string& path);

}  // namespace qnm::trace
