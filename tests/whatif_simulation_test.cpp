// What-if replay against numbers computed by hand: balancing or scaling the
// late rank's region removes its Late Sender wait (Hermanns 2008, §3.4.1-§3.4.2),
// cutting a message removes the waits on it (3.4.4).
#include <catch2/catch.hpp>

#include <otf2/otf2.h>

#include <string>

#include "tests/whatif_test_util.h"
#include "trace/otf2_reader.h"
#include "whatif/whatif_simulation.h"

using namespace qnm::trace;
using qnm::trace::testutil::PatternTotal;

namespace {

/// Rank 0 computes 300 ns, then MPI_Send (tag 5) to rank 1; rank 1 computes
/// 100 ns and waits in MPI_Recv: a 200 ns Late Sender. Ticks are ns.
Trace LateSenderTrace() {
  Trace trace = testutil::InMemoryTrace(2, {"main", "compute", "MPI_Send", "MPI_Recv"});
  CallPaths& paths = trace.call_paths;
  uint32_t main = paths.Child(CallPaths::kNoParent, 0);
  uint32_t compute = paths.Child(main, 1), send = paths.Child(main, 2), recv = paths.Child(main, 3);
  trace.ranks[0].messages = {Message{0, 1, 5, kNone, 64}};
  trace.ranks[0].events = {{0, main, EventKind::kEnter},     {10, compute, EventKind::kEnter},
                           {310, compute, EventKind::kLeave}, {310, send, EventKind::kEnter},
                           {310, 0, EventKind::kSend},        {320, send, EventKind::kLeave},
                           {330, main, EventKind::kLeave}};
  trace.ranks[1].messages = {Message{0, 0, 5, 4, 64}};
  trace.ranks[1].events = {{0, main, EventKind::kEnter},     {10, compute, EventKind::kEnter},
                           {110, compute, EventKind::kLeave}, {110, recv, EventKind::kEnter},
                           {330, 0, EventKind::kRecv},        {335, recv, EventKind::kLeave},
                           {340, main, EventKind::kLeave}};
  return trace;
}

std::vector<uint64_t> Ticks(const Trace& trace, uint32_t rank) {
  std::vector<uint64_t> out;
  for (const Event& e : trace.ranks[rank].events) out.push_back(e.ticks);
  return out;
}

WhatifOptions With(std::vector<Hypothesis> hypotheses) {
  WhatifOptions options;
  options.hypotheses = std::move(hypotheses);
  return options;
}

Hypothesis Parse(const std::string& line) {
  Hypothesis h;
  REQUIRE(ParseHypothesisLine(line, "test", 1, &h));
  return h;
}

double WaitAt(const WhatifResult& result, Pattern pattern, const std::string& path, uint32_t rank,
              bool simulated) {
  for (const WaitChange& w : result.wait_changes)
    if (w.pattern == pattern && w.call_path == path && w.rank == rank)
      return simulated ? w.simulated_s : w.original_s;
  return -1;  // unchanged (or absent)
}

}  // namespace

TEST_CASE("whatif: balancing the late rank's region removes the Late Sender", "[whatif]") {
  Trace trace = LateSenderTrace();
  WhatifResult result = SimulateWhatif(trace, With({Parse("BALANCE REGION \"compute\"")}));
  // Both instances get (300 + 100) / 2 = 200 ns. Rank 0 sends at 210; MPI_Send
  // keeps its 10 ns after the receiver entered (210); the receive completes
  // 20 ns after the send, as in the original (330 - 310).
  CHECK(Ticks(result.simulated, 0) == std::vector<uint64_t>{0, 10, 210, 210, 210, 220, 230});
  CHECK(Ticks(result.simulated, 1) == std::vector<uint64_t>{0, 10, 210, 210, 230, 235, 240});
  CHECK(result.summary.original_runtime_s == Approx(340e-9).epsilon(1e-12));
  CHECK(result.summary.simulated_runtime_s == Approx(240e-9).epsilon(1e-12));
  CHECK(result.summary.gain_s == Approx(100e-9).epsilon(1e-12));
  CHECK(PatternTotal(result, Pattern::kLateSender, false) == Approx(200e-9).epsilon(1e-12));
  CHECK(PatternTotal(result, Pattern::kLateSender, true) == 0.0);
  CHECK(WaitAt(result, Pattern::kLateSender, "main/MPI_Recv", 1, true) == 0.0);
}

TEST_CASE("whatif: scaling the late rank's region halves the Late Sender", "[whatif]") {
  Trace trace = LateSenderTrace();
  WhatifResult result = SimulateWhatif(trace, With({Parse("SCALE REGION compute 0.5")}));
  // compute: 300 -> 150 ns on rank 0, 100 -> 50 ns on rank 1: wait 150 - 50 = 100 ns.
  CHECK(Ticks(result.simulated, 0) == std::vector<uint64_t>{0, 10, 160, 160, 160, 170, 180});
  CHECK(Ticks(result.simulated, 1) == std::vector<uint64_t>{0, 10, 60, 60, 180, 185, 190});
  CHECK(PatternTotal(result, Pattern::kLateSender, true) == Approx(100e-9).epsilon(1e-12));
  CHECK(result.summary.gain_s == Approx(150e-9).epsilon(1e-12));
  // Exclusive compute time over both ranks: 400 -> 200 ns.
  bool found = false;
  for (const RegionTimeChange& r : result.regions)
    if (r.region == "compute") {
      found = true;
      CHECK(r.original_s == Approx(400e-9).epsilon(1e-12));
      CHECK(r.simulated_s == Approx(200e-9).epsilon(1e-12));
    }
  CHECK(found);
}

TEST_CASE("whatif: a faster network shortens the message-bound receive", "[whatif]") {
  Trace trace = LateSenderTrace();
  WhatifResult result = SimulateWhatif(trace, With({Parse("SCALE TRANSFER 0.5")}));
  // The receive completed 20 ns after the late send: now 10 ns. Rank 0 is unchanged.
  CHECK(Ticks(result.simulated, 0) == Ticks(trace, 0));
  CHECK(Ticks(result.simulated, 1) == std::vector<uint64_t>{0, 10, 110, 110, 320, 325, 330});
  CHECK(result.summary.gain_s == Approx(10e-9).epsilon(1e-12));
  CHECK(PatternTotal(result, Pattern::kLateSender, true) == Approx(200e-9).epsilon(1e-12));
}

TEST_CASE("whatif: cutting the message removes the wait and both MPI calls", "[whatif]") {
  Trace trace = LateSenderTrace();
  WhatifResult result = SimulateWhatif(trace, With({Parse("CUT MESSAGE TAG == 5")}));
  CHECK(result.summary.messages_cut == 1);
  // MPI_Send (10 ns) and MPI_Recv (225 ns) disappear with their time.
  CHECK(Ticks(result.simulated, 0) == std::vector<uint64_t>{0, 10, 310, 320});
  CHECK(Ticks(result.simulated, 1) == std::vector<uint64_t>{0, 10, 110, 115});
  CHECK(PatternTotal(result, Pattern::kLateSender, true) == 0.0);
  CHECK(result.summary.simulated_runtime_s == Approx(320e-9).epsilon(1e-12));
  // A size condition that matches nothing changes nothing.
  WhatifResult none = SimulateWhatif(trace, With({Parse("CUT MESSAGE SIZE > 64")}));
  CHECK(none.summary.messages_cut == 0);
  CHECK(none.summary.gain_s == 0.0);
}

TEST_CASE("whatif synthetic: scaling main by 0.5 halves the first Late Sender", "[whatif]") {
  Trace trace = ReadOtf2Trace(std::string(QNM_TEST_DATA_DIR) + "/otf2/synthetic-patterns-4rank");
  WhatifResult result = SimulateWhatif(trace, With({Parse("SCALE REGION \"main\" 0.5")}));
  // expected_patterns.json: rank 1 waits 100 us in MPI_Recv (rank 0 enters
  // MPI_Send at 300 us, rank 1 MPI_Recv at 200 us). By hand: MPI_Init ends at
  // 95 us (rank 0) and 97 us (rank 1); main's 200 us and 98 us before the
  // calls halve, so the send starts at 195 us, the receive at 146 us: 49 us.
  CHECK(WaitAt(result, Pattern::kLateSender, "main/MPI_Recv", 1, false) ==
        Approx(100e-6).epsilon(1e-9));
  CHECK(WaitAt(result, Pattern::kLateSender, "main/MPI_Recv", 1, true) ==
        Approx(49e-6).epsilon(1e-9));
  const auto& rank0 = result.simulated.ranks[0].events;
  const uint64_t base = trace.ranks[0].events[0].ticks;
  // Events 2..5 of rank 0: MPI_Init leave, MPI_Send enter, send, MPI_Send leave
  // (20 us after the send: the receiver entered MPI_Recv before, at 146 us).
  CHECK(rank0[2].ticks - base == 95000);
  CHECK(rank0[3].ticks - base == 195000);
  CHECK(rank0[5].ticks - base == 215000);
  CHECK(result.summary.gain_s > 0);
  CHECK(result.summary.deadlocks_broken == 0);
}

TEST_CASE("whatif synthetic: cutting messages by tag removes their Late Sender", "[whatif]") {
  Trace trace = ReadOtf2Trace(std::string(QNM_TEST_DATA_DIR) + "/otf2/synthetic-patterns-4rank");
  WhatifResult result = SimulateWhatif(trace, With({Parse("CUT MESSAGE TAG == 11")}));
  CHECK(result.summary.messages_cut == 1);
  // Rank 0's MPI_Send and rank 1's MPI_Recv (3 events each) are gone.
  CHECK(result.simulated.ranks[0].events.size() == trace.ranks[0].events.size() - 3);
  CHECK(result.simulated.ranks[1].events.size() == trace.ranks[1].events.size() - 3);
  CHECK(WaitAt(result, Pattern::kLateSender, "main/MPI_Recv", 1, true) == 0.0);
  // By hand: rank 1 now sends tag 31 at 570 us (700 - 130 us of MPI_Recv),
  // before rank 0 enters its MPI_Recv at 580 us (600 - 20 us of MPI_Send):
  // that receive ends 12 us later (592 us), the next one (from rank 2) is
  // entered at 593 us, but rank 2 still sends at 610 us: rank 0's Late Sender
  // drops from 100 us to 17 us, and it is no longer in wrong order.
  CHECK(WaitAt(result, Pattern::kLateSender, "main/MPI_Recv", 0, true) ==
        Approx(17e-6).epsilon(1e-9));
  CHECK(PatternTotal(result, Pattern::kLateSenderWrongOrder, true) == 0.0);
  CHECK(PatternTotal(result, Pattern::kLateSender, false) == Approx(320e-6).epsilon(1e-9));
  // The Late Receiver (rank 2 -> 3, tag 22) is not on a cut message.
  CHECK(PatternTotal(result, Pattern::kLateReceiver, true) > 0);
}
