// Wait states: the synthetic trace must reproduce expected_patterns.json
// entry by entry; the real traces are checked for hand-verified values.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "trace/otf2_reader.h"
#include "trace/wait_states.h"

using namespace qnm::trace;

namespace {

std::string TraceDir(const std::string& tag) {
  return std::string(QNM_TEST_DATA_DIR) + "/otf2/" + tag;
}

const PatternInfo* FindPattern(const std::string& id) {
  for (std::size_t p = 0; p < kPatternCount; ++p)
    if (InfoOf(static_cast<Pattern>(p)).id == id) return &InfoOf(static_cast<Pattern>(p));
  return nullptr;
}

// (rank, call path) -> seconds, non-zero entries only.
std::map<std::pair<uint32_t, std::string>, double> Instances(const Trace& trace,
                                                             const WaitStateResult& result,
                                                             Pattern pattern) {
  std::map<std::pair<uint32_t, std::string>, double> out;
  for (const auto& [key, value] : result.severity[static_cast<std::size_t>(pattern)])
    if (value != 0)
      out[{static_cast<uint32_t>(key & 0xFFFFFFFFu),
           trace.call_paths.PathString(static_cast<uint32_t>(key >> 32))}] += value;
  return out;
}

}  // namespace

TEST_CASE("wait states: synthetic trace matches expected_patterns.json exactly", "[trace]") {
  const std::string dir = TraceDir("synthetic-patterns-4rank");
  Trace trace = ReadOtf2Trace(dir);
  WaitStateResult result = AnalyzeWaitStates(trace);
  std::ifstream file(dir + "/expected_patterns.json");
  REQUIRE(file);
  nlohmann::json expected = nlohmann::json::parse(file);
  std::set<std::string> listed;
  std::size_t compared = 0;
  for (const auto& [id, entry] : expected["patterns"].items()) {
    INFO("pattern " << id);
    const PatternInfo* info = FindPattern(id);
    REQUIRE(info != nullptr);
    listed.insert(id);
    auto got = Instances(trace, result, info->pattern);
    std::map<std::pair<uint32_t, std::string>, double> want;
    for (const auto& instance : entry["instances"])
      want[{instance["rank"].get<uint32_t>(), instance["callpath"].get<std::string>()}] +=
          instance["value"].get<double>();
    REQUIRE(got.size() == want.size());
    for (const auto& [where, value] : want) {
      INFO("rank " << where.first << " " << where.second);
      REQUIRE(got.count(where) == 1);
      CHECK(got[where] == Approx(value).margin(1e-15).epsilon(1e-12));
      ++compared;
    }
    CHECK(result.Total(info->pattern) == Approx(entry["total"].get<double>()).margin(1e-15).epsilon(1e-12));
  }
  CHECK(compared == 44);  // every instance listed in the file
  // Patterns the file does not list must be zero on this trace.
  for (std::size_t p = 0; p < kPatternCount; ++p)
    if (!listed.count(InfoOf(static_cast<Pattern>(p)).id))
      CHECK(result.Total(static_cast<Pattern>(p)) == 0.0);
  CHECK(result.warnings.empty());
  CHECK(result.unmatched_sends == 0);
  CHECK(result.unmatched_receives == 0);
  CHECK(result.messages_matched == 7);
}

// Values below were recomputed by hand from `otf2-print` output (ticks / timer resolution).
TEST_CASE("wait states: ping-pong Late Sender and Late Receiver", "[trace]") {
  Trace trace = ReadOtf2Trace(TraceDir("pipit-ping-pong-otf2"));
  WaitStateResult result = AnalyzeWaitStates(trace);
  const double resolution = 2095197216.0;
  CHECK(result.messages_matched == 16);
  CHECK(result.TotalOnRank(Pattern::kLateSender, 0) == Approx(24798 / resolution).epsilon(1e-12));
  CHECK(result.TotalOnRank(Pattern::kLateSender, 1) == Approx(69744 / resolution).epsilon(1e-12));
  CHECK(result.TotalOnRank(Pattern::kLateReceiver, 0) == Approx(1262848 / resolution).epsilon(1e-12));
  CHECK(result.TotalOnRank(Pattern::kLateReceiver, 1) == Approx(37348 / resolution).epsilon(1e-12));
  CHECK(result.Total(Pattern::kLateSenderWrongOrder) == 0.0);
  CHECK(result.warnings.empty());
  // Same run with PAPI counters: the Metric records change nothing structural.
  Trace papi = ReadOtf2Trace(TraceDir("pipit-ping-pong-otf2-papi"));
  CHECK(AnalyzeWaitStates(papi).messages_matched == 16);
}

TEST_CASE("wait states: Score-P 8 Init/Finalize collectives are skipped, Bcast analysed", "[trace]") {
  Trace trace = ReadOtf2Trace(TraceDir("sstelements-emberotf2-test"));
  WaitStateResult result = AnalyzeWaitStates(trace);
  const double resolution = 2000000653.0;
  CHECK(result.collective_instances == 1);  // the MPI_Bcast
  CHECK(result.collectives_skipped == 2);   // CREATE_HANDLE / DESTROY_HANDLE
  // Root 0 enters the Bcast last: ranks 1..3 wait for it (Late Broadcast).
  CHECK(result.TotalOnRank(Pattern::kLateBroadcast, 0) == 0.0);
  CHECK(result.TotalOnRank(Pattern::kLateBroadcast, 1) == Approx(1392 / resolution).epsilon(1e-12));
  CHECK(result.TotalOnRank(Pattern::kLateBroadcast, 2) == Approx(1449 / resolution).epsilon(1e-12));
  CHECK(result.TotalOnRank(Pattern::kLateBroadcast, 3) == Approx(1288 / resolution).epsilon(1e-12));
  CHECK(result.Total(Pattern::kFinalizeWait) > 0);
  CHECK(result.warnings.empty());
}

TEST_CASE("wait states: TraceR stencil with unbalanced stacks and no MPI_Finalize", "[trace]") {
  Trace trace = ReadOtf2Trace(TraceDir("tracer-stencil4d-32"));
  WaitStateResult result = AnalyzeWaitStates(trace);
  const double resolution = 2095147102.0;
  CHECK(result.messages_matched == 512);  // 32 ranks x 8 neighbours x 2 iterations
  CHECK(result.unmatched_sends == 0);
  CHECK(result.unmatched_receives == 0);
  CHECK(result.collective_instances == 3);  // three MPI_Barrier
  CHECK(result.TotalOnRank(Pattern::kInitCompletion, 0) == Approx(1397135 / resolution).epsilon(1e-12));
  CHECK(result.Total(Pattern::kInitCompletion) == Approx(21425854 / resolution).epsilon(1e-12));
  CHECK(result.Total(Pattern::kFinalizeWait) == 0.0);
  REQUIRE(result.warnings.size() == 1);
  CHECK(result.warnings[0] == "MPI_Finalize is not in the trace; Wait at Finalize not analysed");
  CHECK(result.Total(Pattern::kLateSender) > 0);
  CHECK(result.Total(Pattern::kBarrierWait) > 0);
}

TEST_CASE("wait states: sst-macro coverage test with sub-communicators", "[trace]") {
  Trace trace = ReadOtf2Trace(TraceDir("sstmacro-mpi-coverage-test"));
  WaitStateResult result = AnalyzeWaitStates(trace);
  CHECK(result.messages_matched == 1440);
  CHECK(result.unmatched_sends + result.unmatched_receives == 0);
  CHECK(result.collective_instances == 200);
  // Wrong order is a subset of Late Sender, split exactly into its two children.
  CHECK(result.Total(Pattern::kLateSenderWrongOrder) <= result.Total(Pattern::kLateSender));
  CHECK(result.Total(Pattern::kLateSenderWrongOrder) ==
        Approx(result.Total(Pattern::kLswoDifferent) + result.Total(Pattern::kLswoSame)));
  CHECK(result.Total(Pattern::kWaitNxN) > 0);
  CHECK(result.Total(Pattern::kNxNCompletion) > 0);
  CHECK(result.Total(Pattern::kEarlyReduce) > 0);
  CHECK(result.Total(Pattern::kLateBroadcast) > 0);
  // Every severity is charged to an MPI call path.
  for (std::size_t p = 0; p < kPatternCount; ++p)
    for (const auto& [key, value] : result.severity[p]) {
      CHECK(trace.call_paths.RegionOf(static_cast<uint32_t>(key >> 32)).is_mpi);
      CHECK(value > 0);
    }
}
