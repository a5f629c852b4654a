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
