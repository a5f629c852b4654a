#pragma once
// Reads an OTF2 archive (Score-P trace) through libotf2's OTF2_Reader into the
// compact in-memory Trace: global definitions, the local definition mapping
// tables, and each MPI rank's events. Quirks of real traces are repaired and
// listed in Trace::warnings (see tests/data/otf2/SOURCES.md).
#include <cstdint>
#include <string>

#include "trace/trace_events.h"

namespace qnm::trace {

/// Reads the trace whose anchor is `path` (a `traces.otf2` file, or a
/// directory holding one). Throws InputError naming the file on any error
/// (missing or corrupt anchor, definition or event file).
Trace ReadOtf2Trace(const std::string& path);

/// Decodes every event record of the trace without keeping anything (the
/// baselines for the benchmark): with no callbacks at all, or with callbacks
/// that only count the common MPI records. Returns the records decoded.
uint64_t DecodeOtf2EventsOnly(const std::string& path, bool counting_callbacks = false);

/// The anchor file for `path` (appends "traces.otf2" to a directory).
std::string Otf2AnchorPath(const std::string& path);

}  // namespace qnm::trace
