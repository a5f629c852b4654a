// `whatif --suggest`: candidate hypotheses from the imbalance of computation
// regions, each simulated, ranked by gain. On a trace built in memory the
// gains are computed by hand; on the synthetic-patterns trace the planted
// imbalance (ranks compute different times in main before their messages and
// collectives) ranks first.
#include <catch2/catch.hpp>

#include <otf2/otf2.h>

#include <string>

#include "tests/whatif_test_util.h"
#include "trace/otf2_reader.h"
#include "trace/wait_states.h"
#include "whatif/suggestions.h"

using namespace qnm::trace;

namespace {

/// Rank p: main { big (b[p] ns), small (s[p] ns), MPI_Barrier }; the barrier
/// ends 5 ns after the last rank enters, main 5 ns after that. Ticks are ns.
Trace TwoRegionTrace(uint64_t b0, uint64_t s0, uint64_t b1, uint64_t s1) {
  Trace trace = testutil::InMemoryTrace(2, {"main", "big", "small", "MPI_Barrier"});
  uint32_t m = trace.call_paths.Child(CallPaths::kNoParent, 0);
  uint32_t cb = trace.call_paths.Child(m, 1), cs = trace.call_paths.Child(m, 2);
  uint32_t bar = trace.call_paths.Child(m, 3);
  uint64_t end = std::max(10 + b0 + s0, 10 + b1 + s1) + 5;
  uint64_t x[2][2] = {{b0, s0}, {b1, s1}};
  for (int p = 0; p < 2; ++p) {
    uint64_t b = x[p][0], s = x[p][1];
    trace.ranks[p].collectives = {CollectiveRecord{0, kNone, 0, 0, 0}};
    trace.ranks[p].events = {{0, m, EventKind::kEnter},         {10, cb, EventKind::kEnter},
                             {10 + b, cb, EventKind::kLeave},   {10 + b, cs, EventKind::kEnter},
                             {10 + b + s, cs, EventKind::kLeave}, {10 + b + s, bar, EventKind::kEnter},
                             {10 + b + s, 0, EventKind::kCollBegin}, {end, 0, EventKind::kCollEnd},
                             {end, bar, EventKind::kLeave},     {end + 5, m, EventKind::kLeave}};
  }
  return trace;
}

}  // namespace

TEST_CASE("whatif suggest: hand-computed gains rank the imbalanced region first", "[whatif]") {
  // big: 300 vs 100 ns, small: 100 vs 150 ns; the barrier ends at 415 ns, the run takes 420.
  Trace trace = TwoRegionTrace(300, 100, 100, 150);
  SuggestionReport report = SuggestHypotheses(trace);
  // big and small are imbalanced; main is balanced (14 ns on each rank) but
  // rank 1 waits 410 - 260 = 150 ns in the barrier it calls (Wait at
  // Barrier): proposed too.
  REQUIRE(report.ranked.size() == 3);
  CHECK(report.original_runtime_s == Approx(420e-9).epsilon(1e-12));
  // Balancing big (200 ns each): ranks enter the barrier at 310 and 360 ns, run 370 ns.
  CHECK(report.ranked[0].hypothesis.Describe() == "balance region \"big\"");
  CHECK(report.ranked[0].gain_s == Approx(50e-9).epsilon(1e-12));
  // Balancing main changes nothing.
  CHECK(report.ranked[1].hypothesis.Describe() == "balance region \"main\"");
  CHECK(report.ranked[1].gain_s == 0.0);
  CHECK(report.ranked[1].reason.find("its MPI calls wait 1.5e-07 s") != std::string::npos);
  // Balancing small (125 ns each): rank 0 enters at 435 ns: 25 ns slower.
  CHECK(report.ranked[2].hypothesis.Describe() == "balance region \"small\"");
  CHECK(report.ranked[2].gain_s == Approx(-25e-9).epsilon(1e-12));
}

TEST_CASE("whatif suggest: on the synthetic-patterns trace the planted imbalance ranks first",
          "[whatif]") {
  Trace trace = ReadOtf2Trace(std::string(QNM_TEST_DATA_DIR) + "/otf2/synthetic-patterns-4rank");
  SuggestionReport report = SuggestHypotheses(trace);
  REQUIRE(!report.ranked.empty());
  CHECK(report.ranked[0].hypothesis.kind == HypothesisKind::kBalanceRegion);
  CHECK(report.ranked[0].hypothesis.region == "main");
  CHECK(report.ranked[0].gain_s > 0);
  for (std::size_t i = 1; i < report.ranked.size(); ++i)
    CHECK(report.ranked[i - 1].gain_s >= report.ranked[i].gain_s);
  // The dissimilarity ranking (Calzarossa et al. 2004) blames the same region first,
  // and the late senders were computing in it.
  CHECK(report.ranked[0].reason.find("dissimilarity ranking #1") != std::string::npos);
  CHECK(report.ranked[0].reason.find("late senders computed here") != std::string::npos);
}

TEST_CASE("whatif suggest: the Late Sender waiting charged to the senders adds up to the pattern's total",
          "[whatif][waitstates]") {
  for (const char* name : {"synthetic-patterns-4rank", "tracer-stencil4d-32", "pipit-ping-pong-otf2"}) {
    INFO(name);
    Trace trace = ReadOtf2Trace(std::string(QNM_TEST_DATA_DIR) + "/otf2/" + name);
    WaitStateResult waits = AnalyzeWaitStates(trace);
    double caused = 0;
    for (const auto& [cnode, seconds] : waits.late_sender_cause_s) {
      CHECK(cnode < trace.call_paths.size());
      CHECK(seconds > 0);
      caused += seconds;
    }
    CHECK(waits.Total(Pattern::kLateSender) > 0);
    CHECK(caused == Approx(waits.Total(Pattern::kLateSender)).epsilon(1e-9));
  }
}
