#pragma once
// Writes an in-memory Trace (definitions + per-rank events) as an OTF2
// archive through libotf2's writer API, so that any OTF2 tool (otf2-print,
// Vampir, Scalasca) and our own reader open it. Whatever produced the Trace
// (the OTF2 reader, the what-if replay, a test) can write it back.
//
// What the Trace keeps is what is written: regions, communicators, groups,
// windows, ranks and their nodes; Enter/Leave, the MPI point-to-point,
// collective and RMA records, measurement OFF/ON (the reader's "MEASUREMENT OFF"
// region) and ProgramBegin/End. Records the reader does not keep (metrics,
// threads other than the MPI ranks, RMA sync levels and lock ids) are not.
// Reading the written archive gives the same events, call paths, messages
// and collectives as the Trace that was written.
#include <cstdint>
#include <string>

#include "trace/trace_events.h"

namespace qnm::trace {

/// The creator recorded in every archive we write ("qnm-predict ...").
constexpr const char* kOtf2CreatorPrefix = "qnm-predict";
/// What WriteOtf2ArchiveAtomically wrote into the folder (util/output_manifest.h).
constexpr const char* kOtf2ManifestName = "traces.qnm-manifest";

struct Otf2WriteSummary {
  uint64_t events = 0;     // event records written over all locations
  uint64_t locations = 0;  // one per MPI rank
};

/// Writes `trace` as `directory`/traces.otf2 (+ traces.def, traces/). The
/// directory must not hold an archive already. `creator` follows
/// kOtf2CreatorPrefix in the anchor's creator field. Throws InputError naming
/// `directory` when libotf2 fails.
Otf2WriteSummary WriteOtf2Archive(const Trace& trace, const std::string& directory,
                                  const std::string& creator);

/// WriteOtf2Archive into a temporary folder beside `directory`, renamed to
/// `directory` at the end, so that a failure leaves nothing half-written.
/// Refuses (InputError) to replace a non-empty `directory` unless it is an
/// OTF2 archive whose creator starts with kOtf2CreatorPrefix and holds only
/// what its manifest (kOtf2ManifestName) lists.
Otf2WriteSummary WriteOtf2ArchiveAtomically(const Trace& trace, const std::string& directory,
                                            const std::string& creator);

}  // namespace qnm::trace
