// Scaling all computation on the real TraceR stencil traces (Score-P, 32 and
// 64 ranks): the computation halves exactly, and the run gains what the
// replay predicts along its critical path.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "trace/otf2_reader.h"
#include "whatif/whatif_simulation.h"

using namespace qnm::trace;

namespace {

WhatifResult ScaleComputation(const Trace& trace, double factor) {
  WhatifOptions options;
  Hypothesis h;
  h.kind = HypothesisKind::kScaleComputation;
  h.factor = factor;
  options.hypotheses = {h};
  options.analyze_wait_states = false;
  return SimulateWhatif(trace, options);
}

}  // namespace

TEST_CASE("whatif stencil: scaling all computation by 0.5", "[whatif]") {
  Trace trace = ReadOtf2Trace(std::string(QNM_TEST_DATA_DIR) + "/otf2/tracer-stencil4d-32");
  WhatifResult half = ScaleComputation(trace, 0.5);
  // Every non-MPI region (and the time outside regions) halves, up to a few
  // ticks per rank (scaled gaps are rounded to whole ticks, the remainder carried).
  const double ticks32 = 32 * 4 / static_cast<double>(trace.timer_resolution);
  std::map<std::string, const RegionTimeChange*> regions;
  for (const RegionTimeChange& r : half.regions) regions[r.region] = &r;
  REQUIRE(regions.count("TRACER_Loop"));
  CHECK(regions["TRACER_Loop"]->simulated_s ==
        Approx(regions["TRACER_Loop"]->original_s / 2).margin(ticks32));
  CHECK(regions["(outside regions)"]->simulated_s ==
        Approx(regions["(outside regions)"]->original_s / 2).margin(ticks32));
  // Measurement-off time (1.55 s of the 1.5534 s run) is not computation.
  CHECK(half.summary.original_runtime_s == Approx(1.5534157).epsilon(1e-7));
  // The replay's prediction: 24.49 us shorter (0.0016 %): the halved
  // computation on the path through the final MPI_Barrier. Each rank ends
  // 20 us earlier; rank 0, the last to finish, 24.4 us earlier.
  CHECK(half.summary.gain_s == Approx(24.487e-6).epsilon(1e-3));
  CHECK(half.simulated_end_s[0] - half.original_end_s[0] == Approx(-24.4e-6).epsilon(1e-2));
  for (std::size_t p = 1; p < half.original_end_s.size(); ++p)
    CHECK(half.simulated_end_s[p] < half.original_end_s[p]);
  // Near f = 1 the critical path stays the same, so the gain is linear in
  // (1 - f): scaling by 0.75 gains half as much as scaling by 0.5.
  WhatifResult three_quarters = ScaleComputation(trace, 0.75);
  CHECK(three_quarters.summary.gain_s == Approx(half.summary.gain_s / 2).epsilon(1e-2));
  // Removing all computation gains at most the computation of the whole run.
  WhatifResult none = ScaleComputation(trace, 0.0);
  CHECK(none.summary.gain_s > half.summary.gain_s);
  CHECK(none.summary.gain_s < regions["TRACER_Loop"]->original_s + regions["(outside regions)"]->original_s);
  CHECK(none.summary.deadlocks_broken == 0);
}

TEST_CASE("whatif stencil: scaling MPI leaves waiting and MPI_Init alone", "[whatif]") {
  Trace trace = ReadOtf2Trace(std::string(QNM_TEST_DATA_DIR) + "/otf2/tracer-stencil4d-32");
  WhatifOptions options;
  Hypothesis h;
  h.kind = HypothesisKind::kScaleMpi;
  h.factor = 0.5;
  options.hypotheses = {h};
  WhatifResult result = SimulateWhatif(trace, options);
  std::map<std::string, const RegionTimeChange*> regions;
  for (const RegionTimeChange& r : result.regions) regions[r.region] = &r;
  // MPI_Init (1.55 s per rank, start-up) keeps its time; MPI_Send's time
  // halves (its receivers had posted the Irecv); the run gains far less than half.
  CHECK(regions["MPI_Init"]->simulated_s == Approx(regions["MPI_Init"]->original_s).epsilon(1e-6));
  CHECK(regions["MPI_Send"]->simulated_s ==
        Approx(regions["MPI_Send"]->original_s / 2).epsilon(1e-3));
  CHECK(result.summary.gain_s > 0);
  CHECK(result.summary.gain_percent < 1.0);
  // Waiting shrinks no more than the time that caused it: Late Sender stays positive.
  for (const WaitChange& w : result.pattern_totals)
    if (w.pattern == Pattern::kLateSender) CHECK(w.simulated_s > 0);
}
