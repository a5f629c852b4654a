// The four BALANCE REGION modes of SILAS (Hermanns 2008, §3.4.2, Figure 3.3
// (b)-(e)) against time stamps computed by hand, on a two-rank trace built in
// memory, plus identity: balancing a region that is already balanced changes
// nothing in any mode.
#include <catch2/catch.hpp>

#include <otf2/otf2.h>

#include <string>
#include <vector>

#include "tests/whatif_test_util.h"
#include "whatif/balance_modes.h"
#include "whatif/whatif_simulation.h"

using namespace qnm::trace;

namespace {

/// Rank p: main { compute (x[p][0] ns), 10 ns, compute (x[p][1] ns), MPI_Barrier };
/// the barrier ends 5 ns after the last rank entered it, its Leave 1 ns later,
/// main 4 ns after that. Ticks are ns.
Trace TwoInstanceTrace(const std::vector<std::vector<uint64_t>>& x) {
  Trace trace = testutil::InMemoryTrace(static_cast<uint32_t>(x.size()), {"main", "compute", "MPI_Barrier"});
  uint32_t m = trace.call_paths.Child(CallPaths::kNoParent, 0);
  uint32_t c = trace.call_paths.Child(m, 1), b = trace.call_paths.Child(m, 2);
  uint64_t last_enter = 0;
  for (const auto& rank : x) last_enter = std::max(last_enter, 20 + rank[0] + rank[1]);
  for (std::size_t p = 0; p < x.size(); ++p) {
    uint64_t a = x[p][0], d = x[p][1], end = last_enter + 5;
    trace.ranks[p].collectives = {CollectiveRecord{0, kNone, 0, 0, 0}};  // BARRIER
    trace.ranks[p].events = {
        {0, m, EventKind::kEnter},           {10, c, EventKind::kEnter},
        {10 + a, c, EventKind::kLeave},      {20 + a, c, EventKind::kEnter},
        {20 + a + d, c, EventKind::kLeave},  {20 + a + d, b, EventKind::kEnter},
        {20 + a + d, 0, EventKind::kCollBegin}, {end, 0, EventKind::kCollEnd},
        {end + 1, b, EventKind::kLeave},     {end + 5, m, EventKind::kLeave}};
  }
  return trace;
}

std::vector<uint64_t> Ticks(const Trace& trace, uint32_t rank) {
  std::vector<uint64_t> out;
  for (const Event& e : trace.ranks[rank].events) out.push_back(e.ticks);
  return out;
}

WhatifResult Balance(const Trace& trace, const std::string& mode) {
  WhatifOptions options;
  options.hypotheses = {BalanceFromArg("compute:" + mode)};
  return SimulateWhatif(trace, options);
}

}  // namespace

// Original: rank 0 computes 300 + 100 ns, rank 1 100 + 100 ns; rank 1 waits
// 200 ns in the barrier, which ends at 425 ns; the run takes 430 ns.
TEST_CASE("whatif balance modes: hand-computed time stamps (Figure 3.3)", "[whatif]") {
  Trace trace = TwoInstanceTrace({{300, 100}, {100, 100}});
  REQUIRE(Ticks(trace, 0) == std::vector<uint64_t>{0, 10, 310, 320, 420, 420, 420, 425, 426, 430});
  REQUIRE(Ticks(trace, 1) == std::vector<uint64_t>{0, 10, 110, 120, 220, 220, 220, 425, 426, 430});

  SECTION("global instance (b): instance k gets the mean of the k-th instances") {
    // (300 + 100) / 2 = 200 and (100 + 100) / 2 = 100 ns on both ranks; both
    // enter the barrier at 320 ns, it ends 5 ns later.
    WhatifResult r = Balance(trace, "global-instance");
    std::vector<uint64_t> both{0, 10, 210, 220, 320, 320, 320, 325, 326, 330};
    CHECK(Ticks(r.simulated, 0) == both);
    CHECK(Ticks(r.simulated, 1) == both);
    CHECK(r.summary.gain_s == Approx(100e-9).epsilon(1e-12));
    CHECK(r.hypotheses == std::vector<std::string>{"balance region \"compute\""});
  }
  SECTION("process-local (c): each rank's instances get that rank's mean") {
    // Rank 0: (300 + 100) / 2 = 200 ns each; rank 1 is already even. The
    // imbalance across ranks stays: no gain (Hermanns 2008: "might not lead to
    // the desired result").
    WhatifResult r = Balance(trace, "process-local");
    CHECK(Ticks(r.simulated, 0) == std::vector<uint64_t>{0, 10, 210, 220, 420, 420, 420, 425, 426, 430});
    CHECK(Ticks(r.simulated, 1) == Ticks(trace, 1));
    CHECK(r.summary.gain_s == 0.0);
    CHECK(r.hypotheses == std::vector<std::string>{"balance region \"compute\" mode process-local"});
  }
  SECTION("global (d): every instance gets the mean of all instances") {
    // (300 + 100 + 100 + 100) / 4 = 150 ns each.
    WhatifResult r = Balance(trace, "global");
    std::vector<uint64_t> both{0, 10, 160, 170, 320, 320, 320, 325, 326, 330};
    CHECK(Ticks(r.simulated, 0) == both);
    CHECK(Ticks(r.simulated, 1) == both);
    CHECK(r.summary.gain_s == Approx(100e-9).epsilon(1e-12));
  }
  SECTION("scaled (e): rank totals to their mean, split in the rank's proportions") {
    // Totals 400 and 200 ns, mean 300: rank 0's instances times 3/4 (225, 75),
    // rank 1's times 3/2 (150, 150).
    WhatifResult r = Balance(trace, "scaled");
    CHECK(Ticks(r.simulated, 0) == std::vector<uint64_t>{0, 10, 235, 245, 320, 320, 320, 325, 326, 330});
    CHECK(Ticks(r.simulated, 1) == std::vector<uint64_t>{0, 10, 160, 170, 320, 320, 320, 325, 326, 330});
    CHECK(r.summary.gain_s == Approx(100e-9).epsilon(1e-12));
  }
}

TEST_CASE("whatif balance modes: a balanced region stays as it is in every mode", "[whatif]") {
  Trace even = TwoInstanceTrace({{100, 100}, {100, 100}});
  for (const char* mode : {"global-instance", "process-local", "global", "scaled"}) {
    INFO(mode);
    WhatifResult r = Balance(even, mode);
    CHECK(Ticks(r.simulated, 0) == Ticks(even, 0));
    CHECK(Ticks(r.simulated, 1) == Ticks(even, 1));
    CHECK(r.summary.gain_s == 0.0);
  }
  // Equal totals, opposite instances: scaled balancing already holds (nothing
  // moves), global instance balancing evens out the instances (200, 200).
  Trace crossed = TwoInstanceTrace({{300, 100}, {100, 300}});
  WhatifResult scaled = Balance(crossed, "scaled");
  CHECK(Ticks(scaled.simulated, 0) == Ticks(crossed, 0));
  CHECK(Ticks(scaled.simulated, 1) == Ticks(crossed, 1));
  WhatifResult instance = Balance(crossed, "global-instance");
  CHECK(Ticks(instance.simulated, 1) == std::vector<uint64_t>{0, 10, 210, 220, 420, 420, 420, 425, 426, 430});
}

TEST_CASE("whatif balance modes: instances that do not match across ranks", "[whatif]") {
  // Rank 0 enters three times, rank 1 once, rank 2 never.
  std::vector<std::vector<double>> x{{300, 100, 50}, {100}, {}};
  using V = std::vector<std::vector<double>>;
  // k-th instances over the ranks that have one: (300 + 100) / 2, 100 / 1, 50 / 1.
  CHECK(BalanceInstances(x, BalanceMode::kGlobalInstance) == V{{200, 100, 50}, {200}, {}});
  CHECK(BalanceInstances(x, BalanceMode::kProcessLocal) == V{{150, 150, 150}, {100}, {}});
  // 550 ns over 4 instances.
  CHECK(BalanceInstances(x, BalanceMode::kGlobal) == V{{137.5, 137.5, 137.5}, {137.5}, {}});
  // Totals 450 and 100 over the 2 ranks that enter: 275 each, split 6:2:1 on rank 0.
  V scaled = BalanceInstances(x, BalanceMode::kScaled);
  REQUIRE(scaled[0].size() == 3);
  CHECK(scaled[0][0] == Approx(300.0 * 275 / 450));
  CHECK(scaled[0][1] == Approx(100.0 * 275 / 450));
  CHECK(scaled[0][2] == Approx(50.0 * 275 / 450));
  CHECK(scaled[1] == std::vector<double>{275});
  CHECK(scaled[2].empty());
  // A rank whose instances took no time gets equal shares of the mean total.
  CHECK(BalanceInstances({{0, 0}, {100}}, BalanceMode::kScaled) == V{{25, 25}, {50}});
}

TEST_CASE("whatif balance modes: spellings on the command line and in a config", "[whatif]") {
  CHECK(BalanceFromArg("solve").balance_mode == BalanceMode::kGlobalInstance);
  CHECK(BalanceFromArg("solve:scaled").balance_mode == BalanceMode::kScaled);
  CHECK(BalanceFromArg("solve:process_local").balance_mode == BalanceMode::kProcessLocal);
  Hypothesis colons = BalanceFromArg("ns::solve:global");
  CHECK(colons.region == "ns::solve");
  CHECK(colons.balance_mode == BalanceMode::kGlobal);
  CHECK(BalanceFromArg("ns::solve").region == "ns::solve");  // no mode: the name stays whole
  Hypothesis h;
  REQUIRE(ParseHypothesisLine("BALANCE REGION \"foo\" OPTION \"mode\" \"global instance\"", "f", 1, &h));
  CHECK(h.balance_mode == BalanceMode::kGlobalInstance);
  REQUIRE(ParseHypothesisLine("balance region foo option mode scaled", "f", 1, &h));
  CHECK(h.balance_mode == BalanceMode::kScaled);
  CHECK_THROWS_WITH(ParseHypothesisLine("BALANCE REGION foo OPTION mode even", "f.cfg", 3, &h),
                    "f.cfg:3: unknown balance mode 'even' (global instance, process-local, global, scaled)");
}

TEST_CASE("whatif balance modes: a region that calls another is balanced on its own time", "[whatif]") {
  // outer calls inner (50 ns on both ranks); outer's own time is 200 ns on
  // rank 0 (100 before inner, 100 after) and 40 ns on rank 1 (20 + 20).
  Trace trace = testutil::InMemoryTrace(2, {"outer", "inner"});
  uint32_t o = trace.call_paths.Child(CallPaths::kNoParent, 0);
  uint32_t i = trace.call_paths.Child(o, 1);
  trace.ranks[0].events = {{0, o, EventKind::kEnter}, {100, i, EventKind::kEnter},
                           {150, i, EventKind::kLeave}, {250, o, EventKind::kLeave}};
  trace.ranks[1].events = {{0, o, EventKind::kEnter}, {20, i, EventKind::kEnter},
                           {70, i, EventKind::kLeave}, {90, o, EventKind::kLeave}};
  WhatifOptions options;
  options.hypotheses = {BalanceFromArg("outer")};
  WhatifResult r = SimulateWhatif(trace, options);
  // Own time (200 + 40) / 2 = 120 ns on both: rank 0's parts times 0.6, rank
  // 1's times 3; inner keeps its 50 ns.
  CHECK(Ticks(r.simulated, 0) == std::vector<uint64_t>{0, 60, 110, 170});
  CHECK(Ticks(r.simulated, 1) == std::vector<uint64_t>{0, 60, 110, 170});
}
