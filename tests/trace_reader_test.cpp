// The OTF2 reader on the seven traces in tests/data/otf2 (SOURCES.md lists
// their record counts and quirks).
#include <catch2/catch.hpp>

#include <string>

#include "trace/otf2_reader.h"

using namespace qnm::trace;

namespace {

std::string TraceDir(const std::string& tag) {
  return std::string(QNM_TEST_DATA_DIR) + "/otf2/" + tag;
}

// Every stored Enter has its Leave, in stack order, on every rank.
bool StacksBalanced(const Trace& trace) {
  for (const LocationTrace& rank : trace.ranks) {
    std::vector<uint32_t> stack;
    uint64_t previous = 0;
    for (const Event& event : rank.events) {
      if (event.ticks < previous) return false;
      previous = event.ticks;
      if (event.kind == EventKind::kEnter) stack.push_back(event.ref);
      if (event.kind == EventKind::kLeave) {
        if (stack.empty() || stack.back() != event.ref) return false;
        stack.pop_back();
      }
    }
    if (!stack.empty()) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("trace reader: record counts of all seven traces match otf2-print", "[trace]") {
  struct Expected {
    const char* tag;
    std::size_t ranks;
    std::size_t records;
  };
  const Expected expected[] = {
      {"pipit-ping-pong-otf2", 2, 120},       {"pipit-ping-pong-otf2-papi", 2, 204},
      {"sstmacro-mpi-coverage-test", 10, 22180}, {"tracer-stencil4d-32", 32, 4324},
      {"tracer-stencil4d-64", 64, 8644},      {"sstelements-emberotf2-test", 4, 80},
      {"synthetic-patterns-4rank", 4, 287}};
  for (const Expected& e : expected) {
    INFO(e.tag);
    Trace trace = ReadOtf2Trace(TraceDir(e.tag));
    CHECK(trace.ranks.size() == e.ranks);
    CHECK(trace.RawEventCount() == e.records);
    CHECK(StacksBalanced(trace));
    CHECK(trace.timer_resolution > 1000000);
  }
}

TEST_CASE("trace reader: synthetic trace definitions and clock", "[trace]") {
  Trace trace = ReadOtf2Trace(TraceDir("synthetic-patterns-4rank") + "/traces.otf2");
  CHECK(trace.timer_resolution == 1000000000u);
  CHECK(trace.global_offset == 5000000000000u);
  REQUIRE(trace.comms.size() == 1);
  CHECK(trace.comms[0].name == "MPI_COMM_WORLD");
  CHECK(trace.comms[0].world_ranks == std::vector<uint32_t>{0, 1, 2, 3});
  REQUIRE(trace.windows.size() == 1);
  CHECK(trace.windows[0].comm == 0);
  CHECK(trace.groups[2] == std::vector<uint32_t>{0, 2});  // grp_origins
  CHECK(trace.warnings.empty());
  // Rank 0: first event at 0 s (PROGRAM_BEGIN), last at 3.101 ms (PROGRAM_END).
  CHECK(trace.Seconds(trace.ranks[0].first_ticks) == 0.0);
  CHECK(trace.Seconds(trace.ranks[0].last_ticks) == Approx(0.003101).epsilon(1e-12));
  // Rank 1 sent one MPI_Send, two ... : its messages carry peer ranks in the comm.
  const LocationTrace& rank2 = trace.ranks[2];
  REQUIRE(!rank2.messages.empty());
  CHECK(rank2.messages[0].peer == 3);
  CHECK(rank2.messages[0].tag == 22);
  CHECK(rank2.messages[0].bytes == 4096);
  CHECK(rank2.rma_ops.size() == 2);
}

TEST_CASE("trace reader: TraceR stencil quirks are repaired with warnings", "[trace]") {
  Trace trace = ReadOtf2Trace(TraceDir("tracer-stencil4d-32"));
  CHECK(trace.repaired_leaves > 0);
  bool saw_out_of_order = false, saw_open_at_end = false;
  for (const std::string& warning : trace.warnings) {
    if (warning == "3 regions left out of order were closed with their parent (rank 0)")
      saw_out_of_order = true;
    if (warning == "32 regions still open at the end of the trace were closed there (ranks 0-31)")
      saw_open_at_end = true;
  }
  CHECK(saw_out_of_order);
  CHECK(saw_open_at_end);
  // Measurement OFF..ON becomes the "MEASUREMENT OFF" pseudo region on every rank.
  bool pausing = false;
  for (uint32_t c = 0; c < trace.call_paths.size(); ++c)
    if (trace.call_paths.RegionOf(c).name == "MEASUREMENT OFF") pausing = true;
  CHECK(pausing);
}

TEST_CASE("trace reader: metric records are counted, not kept", "[trace]") {
  Trace plain = ReadOtf2Trace(TraceDir("pipit-ping-pong-otf2"));
  Trace papi = ReadOtf2Trace(TraceDir("pipit-ping-pong-otf2-papi"));
  CHECK(plain.metric_records == 0);
  CHECK(papi.metric_records == 84);  // 204 - 120 records
  CHECK(plain.EventCount() == papi.EventCount());
}
