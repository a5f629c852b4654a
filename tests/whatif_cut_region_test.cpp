// CUT REGION and CUT MESSAGE by region (Hermanns 2008, §3.4.3, §3.4.4,
// §4.4.3) against time stamps computed by hand on a three-rank trace built in
// memory; and on a real trace, the simulated run written as OTF2 reads back
// and analyses with no unmatched message or incomplete collective.
#include <catch2/catch.hpp>

#include <otf2/otf2.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/temp_dir.h"
#include "tests/whatif_test_util.h"
#include "trace/otf2_reader.h"
#include "trace/otf2_writer.h"
#include "trace/wait_states.h"
#include "whatif/whatif_simulation.h"

using namespace qnm::trace;

namespace {

/// Ranks 0 and 1: main { setup { MPI_Send 0 -> 1 (rank 1 waits 50 ns in
/// MPI_Recv), MPI_Barrier }, work }. Rank 2 has no setup: main { work (90 ns),
/// MPI_Barrier, work (100 ns) }. The barrier ends 5 ns after rank 2 enters it
/// (100 ns). Ticks are ns.
Trace SetupTrace() {
  Trace trace = testutil::InMemoryTrace(3, {"main", "setup", "MPI_Send", "MPI_Recv", "MPI_Barrier", "work"});
  CallPaths& paths = trace.call_paths;
  uint32_t m = paths.Child(CallPaths::kNoParent, 0);
  uint32_t s = paths.Child(m, 1);
  uint32_t send = paths.Child(s, 2), recv = paths.Child(s, 3), sb = paths.Child(s, 4);
  uint32_t w = paths.Child(m, 5), mb = paths.Child(m, 4);
  for (auto& rank : trace.ranks) rank.collectives = {CollectiveRecord{0, kNone, 0, 0, 0}};
  trace.ranks[0].messages = {Message{0, 1, 1, kNone, 8}};
  trace.ranks[0].events = {{0, m, EventKind::kEnter},      {10, s, EventKind::kEnter},
                           {50, send, EventKind::kEnter},  {50, 0, EventKind::kSend},
                           {60, send, EventKind::kLeave},  {60, sb, EventKind::kEnter},
                           {60, 0, EventKind::kCollBegin}, {105, 0, EventKind::kCollEnd},
                           {106, sb, EventKind::kLeave},   {110, s, EventKind::kLeave},
                           {110, w, EventKind::kEnter},    {210, w, EventKind::kLeave},
                           {220, m, EventKind::kLeave}};
  trace.ranks[1].messages = {Message{0, 0, 1, 3, 8}};
  trace.ranks[1].events = {{0, m, EventKind::kEnter},      {10, s, EventKind::kEnter},
                           {20, recv, EventKind::kEnter},  {70, 0, EventKind::kRecv},
                           {75, recv, EventKind::kLeave},  {75, sb, EventKind::kEnter},
                           {75, 0, EventKind::kCollBegin}, {105, 0, EventKind::kCollEnd},
                           {106, sb, EventKind::kLeave},   {110, s, EventKind::kLeave},
                           {110, w, EventKind::kEnter},    {160, w, EventKind::kLeave},
                           {170, m, EventKind::kLeave}};
  trace.ranks[2].events = {{0, m, EventKind::kEnter},       {10, w, EventKind::kEnter},
                           {100, w, EventKind::kLeave},     {100, mb, EventKind::kEnter},
                           {100, 0, EventKind::kCollBegin}, {105, 0, EventKind::kCollEnd},
                           {106, mb, EventKind::kLeave},    {106, w, EventKind::kEnter},
                           {206, w, EventKind::kLeave},     {210, m, EventKind::kLeave}};
  return trace;
}

std::vector<uint64_t> Ticks(const Trace& trace, uint32_t rank) {
  std::vector<uint64_t> out;
  for (const Event& e : trace.ranks[rank].events) out.push_back(e.ticks);
  return out;
}

WhatifResult Simulate(const Trace& trace, std::vector<Hypothesis> hypotheses) {
  WhatifOptions options;
  options.hypotheses = std::move(hypotheses);
  return SimulateWhatif(trace, options);
}

}  // namespace

TEST_CASE("whatif cut region: the region, its message and its barrier on every rank", "[whatif]") {
  Trace trace = SetupTrace();
  WhatifResult r = Simulate(trace, {CutRegionFromArg("setup")});
  CHECK(r.summary.region_instances_cut == 2);
  CHECK(r.summary.messages_cut == 1);
  CHECK(r.summary.collectives_cut == 1);
  // Ranks 0 and 1 lose setup's 100 ns (10 -> 110): main, work, work, main.
  CHECK(Ticks(r.simulated, 0) == std::vector<uint64_t>{0, 10, 110, 120});
  CHECK(Ticks(r.simulated, 1) == std::vector<uint64_t>{0, 10, 60, 70});
  // Rank 2 has no setup, but its barrier was setup's on the others: it goes
  // with its 6 ns (100 -> 106); the two work instances now touch.
  CHECK(Ticks(r.simulated, 2) == std::vector<uint64_t>{0, 10, 100, 100, 200, 204});
  CHECK(r.summary.original_runtime_s == Approx(220e-9).epsilon(1e-12));
  CHECK(r.summary.simulated_runtime_s == Approx(204e-9).epsilon(1e-12));
  CHECK(r.hypotheses == std::vector<std::string>{"cut region \"setup\""});
  // The simulated trace has no unmatched message and no incomplete collective.
  WaitStateResult after = AnalyzeWaitStates(r.simulated);
  CHECK(after.unmatched_sends == 0);
  CHECK(after.unmatched_receives == 0);
  CHECK(after.collective_instances == 0);
}

TEST_CASE("whatif cut message by region: the calls go, the barrier absorbs them", "[whatif]") {
  Trace trace = SetupTrace();
  Hypothesis h;
  REQUIRE(ParseHypothesisLine("CUT MESSAGE REGION \"setup\"", "cfg", 1, &h));
  CHECK(h.Describe() == "cut message region \"setup\"");
  WhatifResult r = Simulate(trace, {h});
  CHECK(r.summary.messages_cut == 1);
  CHECK(r.summary.collectives_cut == 0);
  // Rank 0 loses MPI_Send (50 -> 60), rank 1 MPI_Recv (20 -> 75); both now
  // wait for rank 2 in the barrier, which still ends at 105 ns: everything
  // after it keeps its time.
  CHECK(Ticks(r.simulated, 0) == std::vector<uint64_t>{0, 10, 50, 50, 105, 106, 110, 110, 210, 220});
  CHECK(Ticks(r.simulated, 1) == std::vector<uint64_t>{0, 10, 20, 20, 105, 106, 110, 110, 160, 170});
  CHECK(Ticks(r.simulated, 2) == Ticks(trace, 2));
  CHECK(r.summary.gain_s == 0.0);
  // Messages outside the named region stay.
  WhatifResult none = Simulate(trace, {CutFromArg("region==work")});
  CHECK(none.summary.messages_cut == 0);
  CHECK(Ticks(none.simulated, 0) == Ticks(trace, 0));
}

TEST_CASE("whatif cut region: config spellings and OPTION lines", "[whatif]") {
  qnm::testing::TempDir dir("whatif", "cutcfg");
  std::string path = (dir.path / "h.cfg").string();
  std::ofstream(path) << "MODEL \"Reenact\"\n  OPTION \"idle overhead\" 5e-06\n"
                         "BALANCE REGION \"compute\"\n  OPTION \"mode\" \"scaled\"\n"
                         "CUT REGION \"setup\"\nCUT MESSAGE REGION work\n";
  std::vector<Hypothesis> h = ReadHypothesisFile(path);
  REQUIRE(h.size() == 3);
  CHECK(h[0].balance_mode == BalanceMode::kScaled);
  CHECK(h[1].kind == HypothesisKind::kCutRegion);
  CHECK(h[1].region == "setup");
  CHECK(h[2].field == MessageField::kRegion);
  CHECK(h[2].region == "work");
  std::ofstream(path) << "CUT REGION \"setup\"\n  OPTION \"mode\" \"global\"\n";
  CHECK_THROWS_WITH(ReadHypothesisFile(path),
                    path + ":2: unknown option 'mode' for cut region \"setup\" (only BALANCE "
                           "REGION takes OPTION \"mode\")");
}

TEST_CASE("whatif cut region: an unknown name lists the closest ones", "[whatif]") {
  Trace trace = SetupTrace();
  Hypothesis h;
  REQUIRE(ParseHypothesisLine("CUT REGION \"setpu\"", "my.cfg", 7, &h));
  CHECK_THROWS_WITH(Simulate(trace, {h}),
                    "my.cfg:7: cut region \"setpu\": no region named \"setpu\" in in-memory; "
                    "closest: \"setup\", \"main\", \"work\"");
}

TEST_CASE("whatif cut region: the simulated stencil trace writes and analyses cleanly", "[whatif]") {
  Trace original = ReadOtf2Trace(std::string(QNM_TEST_DATA_DIR) + "/otf2/tracer-stencil4d-32");
  WhatifResult r = Simulate(original, {CutRegionFromArg("MPI_Waitall")});
  CHECK(r.summary.region_instances_cut > 0);
  qnm::testing::TempDir dir("whatif", "cutstencil");
  std::string out = (dir.path / "sim").string();
  WriteOtf2ArchiveAtomically(r.simulated, out, "test");
  Trace reread = ReadOtf2Trace(out);
  CHECK(reread.warnings.empty());
  WaitStateResult after = AnalyzeWaitStates(reread);
  CHECK(after.unmatched_sends == 0);
  CHECK(after.unmatched_receives == 0);
  CHECK(r.summary.simulated_runtime_s < r.summary.original_runtime_s);
}

TEST_CASE("whatif cut region: RMA operations go with their completions", "[whatif]") {
  Trace original = ReadOtf2Trace(std::string(QNM_TEST_DATA_DIR) + "/otf2/synthetic-patterns-4rank");
  auto count = [](const Trace& t, EventKind kind) {
    std::size_t n = 0;
    for (const LocationTrace& rank : t.ranks)
      for (const Event& e : rank.events) n += e.kind == kind;
    return n;
  };
  REQUIRE(count(original, EventKind::kRmaOp) == 5);  // MPI_Put on ranks 0-2
  REQUIRE(count(original, EventKind::kRmaOpComplete) == 5);
  WhatifResult r = Simulate(original, {CutRegionFromArg("MPI_Put")});
  CHECK(r.summary.region_instances_cut == 5);
  CHECK(count(r.simulated, EventKind::kRmaOp) == 0);
  // The completions sit in the closing MPI_Win_complete / fence, which stay.
  CHECK(count(r.simulated, EventKind::kRmaOpComplete) == 0);
  CHECK(count(r.simulated, EventKind::kRmaCollEnd) == count(original, EventKind::kRmaCollEnd));
  qnm::testing::TempDir dir("whatif", "cutput");
  std::string out = (dir.path / "sim").string();
  WriteOtf2ArchiveAtomically(r.simulated, out, "test");
  Trace reread = ReadOtf2Trace(out);
  CHECK(reread.warnings.empty());
  CHECK(count(reread, EventKind::kRmaOpComplete) == 0);
}
