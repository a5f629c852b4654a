// Validation property of Hermanns 2008 (chapter 5, identity simulation): with no
// hypothesis the replay must reproduce every original timestamp, on every
// trace in tests/data/otf2, and with it the run time and the wait states.
#include <catch2/catch.hpp>

#include <string>

#include "trace/otf2_reader.h"
#include "whatif/whatif_simulation.h"

using namespace qnm::trace;

namespace {

std::string TraceDir(const std::string& tag) {
  return std::string(QNM_TEST_DATA_DIR) + "/otf2/" + tag;
}

}  // namespace

TEST_CASE("whatif identity: no hypothesis reproduces every timestamp", "[whatif]") {
  auto tag = GENERATE(as<std::string>{}, "pipit-ping-pong-otf2", "pipit-ping-pong-otf2-papi",
                      "sstelements-emberotf2-test", "sstmacro-mpi-coverage-test",
                      "synthetic-patterns-4rank", "tracer-stencil4d-32", "tracer-stencil4d-64");
  INFO(tag);
  Trace trace = ReadOtf2Trace(TraceDir(tag));
  WhatifResult result = SimulateWhatif(trace, {});
  const Trace& simulated = result.simulated;
  REQUIRE(simulated.ranks.size() == trace.ranks.size());
  std::size_t differing = 0;
  for (std::size_t p = 0; p < trace.ranks.size(); ++p) {
    REQUIRE(simulated.ranks[p].events.size() == trace.ranks[p].events.size());
    for (std::size_t i = 0; i < trace.ranks[p].events.size(); ++i)
      differing += simulated.ranks[p].events[i].ticks != trace.ranks[p].events[i].ticks;
  }
  CHECK(differing == 0);
  CHECK(result.summary.gain_s == 0.0);
  CHECK(result.summary.deadlocks_broken == 0);
  CHECK(result.summary.original_runtime_s > 0);
  CHECK(result.wait_changes.empty());
  for (const WaitChange& w : result.pattern_totals) CHECK(w.simulated_s == w.original_s);
  // The replay really was constrained by communication: every trace has messages or collectives.
  CHECK(result.summary.dependencies > 0);
}
