// Collectives in the what-if replay, on a trace built in memory: a barrier
// ends a fixed span after its last participant enters (Hermanns 2008, §4.3.2), so
// balancing the computation before it removes Wait at Barrier.
#include <catch2/catch.hpp>

#include <otf2/otf2.h>

#include <string>

#include "tests/whatif_test_util.h"
#include "whatif/whatif_simulation.h"

using namespace qnm::trace;
using qnm::trace::testutil::PatternTotal;

namespace {

/// Rank r computes 100 * (r + 1) ns, then MPI_Barrier; the barrier ends 5 ns
/// after the last rank (rank 2, at 310 ns) entered. Ticks are ns.
Trace BarrierTrace() {
  Trace trace = testutil::InMemoryTrace(3, {"main", "compute", "MPI_Barrier"});
  uint32_t m = trace.call_paths.Child(CallPaths::kNoParent, 0);
  uint32_t c = trace.call_paths.Child(m, 1), b = trace.call_paths.Child(m, 2);
  for (uint64_t r = 0; r < 3; ++r) {
    uint64_t enter = 10 + 100 * (r + 1);
    trace.ranks[r].collectives = {CollectiveRecord{0, kNone, 0, 0, 0}};  // BARRIER
    trace.ranks[r].events = {{0, m, EventKind::kEnter},       {10, c, EventKind::kEnter},
                             {enter, c, EventKind::kLeave},   {enter, b, EventKind::kEnter},
                             {enter, 0, EventKind::kCollBegin}, {315, 0, EventKind::kCollEnd},
                             {316, b, EventKind::kLeave},     {320, m, EventKind::kLeave}};
  }
  return trace;
}

}  // namespace

TEST_CASE("whatif collectives: balancing before a barrier removes its waiting", "[whatif]") {
  Trace trace = BarrierTrace();
  WhatifOptions options;
  Hypothesis balance;
  balance.kind = HypothesisKind::kBalanceRegion;
  balance.region = "compute";
  options.hypotheses = {balance};
  WhatifResult result = SimulateWhatif(trace, options);
  // Everyone computes (100 + 200 + 300) / 3 = 200 ns, enters at 210 ns, and
  // the barrier ends 5 ns later.
  for (uint32_t r = 0; r < 3; ++r) {
    const auto& events = result.simulated.ranks[r].events;
    CHECK(events[3].ticks == 210);
    CHECK(events[5].ticks == 215);
    CHECK(events[7].ticks == 220);
  }
  CHECK(result.summary.gain_s == Approx(100e-9).epsilon(1e-12));
  CHECK(PatternTotal(result, Pattern::kBarrierWait, false) == Approx(300e-9).epsilon(1e-12));
  CHECK(PatternTotal(result, Pattern::kBarrierWait, true) == 0.0);

  Hypothesis scale;
  scale.kind = HypothesisKind::kScaleRegion;
  scale.region = "compute";
  scale.factor = 0.5;
  options.hypotheses = {scale};
  WhatifResult halved = SimulateWhatif(trace, options);
  // All compute halves: 50/100/150 ns, last enters at 160 ns, ends 165 ns.
  CHECK(halved.simulated.ranks[0].events[5].ticks == 165);
  CHECK(PatternTotal(halved, Pattern::kBarrierWait, true) == Approx(150e-9).epsilon(1e-12));
  CHECK(halved.summary.gain_s == Approx(150e-9).epsilon(1e-12));
}
