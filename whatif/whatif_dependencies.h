#pragma once
// The communication dependencies the what-if replay re-times against: which
// event of which rank cannot complete before which remote events (Hermanns 2008,
// section 4.3.2: receives after their sends, collectives after their
// participants, synchronous sends after the receiver posts), and which events
// a `cut message` hypothesis removes (section 4.4.4).
#include <cstdint>
#include <vector>

#include "trace/bulk_allocator.h"
#include "trace/trace_events.h"
#include "whatif/whatif_hypothesis.h"

namespace qnm::trace {

struct RemoteEvent {
  uint32_t rank;
  uint32_t event;
};

/// Event `event` of a rank completes no earlier than the latest of its sources.
struct Dependency {
  uint32_t event;
  uint32_t first;  // sources[first .. first + count)
  uint32_t count;
  bool message = false;  // a receive completing after its send (the span is the transfer)
};

struct WhatifDependencies {
  std::vector<std::vector<Dependency>> per_rank;  // sorted by event
  std::vector<RemoteEvent> sources;
  /// Per rank and event: kDropped = removed by a cut, kCollapsed = the gap
  /// before it is zero (inside an MPI call whose every record was cut).
  static constexpr uint8_t kDropped = 1, kCollapsed = 2;
  std::vector<BulkVector<uint8_t>> flags;

  uint64_t messages_matched = 0, messages_cut = 0;
  uint64_t unmatched_sends = 0, unmatched_receives = 0;
  uint64_t collective_instances = 0, collectives_incomplete = 0;
  uint64_t collectives_cut = 0;       // instances removed on every rank (cut region)
  uint64_t region_instances_cut = 0;  // outermost instances of cut regions, over ranks
  std::vector<bool> has_drops;  // per rank: some event is dropped
};

/// Matches messages (k-th send with k-th receive completion per channel, as
/// the wait-state analysis does), collectives (k-th on each communicator or
/// window), MPI_Init and MPI_Finalize, and applies the cut hypotheses: CUT
/// MESSAGE by size, tag or region (a message is cut if its send or its
/// receive lies inside an instance of the region, on either rank), and CUT
/// REGION (Hermanns 2008, §3.4.3 / §4.4.3: every event of each instance, the
/// messages with either end inside one, and every collective instance in which
/// any participant is inside one, on all its ranks).
WhatifDependencies BuildDependencies(const Trace& trace, const std::vector<Hypothesis>& hypotheses);

}  // namespace qnm::trace
