// Reading a block of ranks (ReadOtf2TraceRanks) and unifying the call trees
// (Geimer et al. 2009, §3.1) reproduce the sequential reader: same call paths,
// same events per rank, same quirk warnings. No MPI needed.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "trace/call_tree_unify.h"
#include "trace/otf2_reader.h"

using namespace qnm::trace;

namespace {

std::string TraceDir(const std::string& tag) { return std::string(QNM_TEST_DATA_DIR) + "/otf2/" + tag; }

void CheckPartsEqualWhole(const std::string& tag, uint32_t parts) {
  INFO(tag << " in " << parts << " parts");
  Trace whole = ReadOtf2Trace(TraceDir(tag));
  std::vector<Trace> pieces;
  std::vector<RankRange> ranges;
  std::vector<std::vector<CallPathDef>> lists;
  QuirkCounts quirks;
  for (uint32_t p = 0; p < parts; ++p) {
    RankRange range;
    QuirkCounts part_quirks;
    pieces.push_back(ReadOtf2TraceRanks(TraceDir(tag), RankPartition{p, parts}, &range, &part_quirks));
    ranges.push_back(range);
    lists.push_back(CallPathDefs(pieces.back().call_paths));
    for (const auto& [what, per_rank] : part_quirks)
      quirks[what].insert(quirks[what].end(), per_rank.begin(), per_rank.end());
  }
  // The blocks cover every rank once, in order.
  CHECK(ranges.front().first == 0);
  CHECK(ranges.back().end == whole.ranks.size());
  for (uint32_t p = 1; p < parts; ++p) CHECK(ranges[p].first == ranges[p - 1].end);

  std::vector<std::vector<uint32_t>> maps;
  CallPaths unified = UnifyCallPaths(pieces[0].call_paths, lists, &maps);
  REQUIRE(unified.size() == whole.call_paths.size());
  for (uint32_t c = 0; c < unified.size(); ++c) CHECK(unified.PathString(c) == whole.call_paths.PathString(c));

  for (uint32_t p = 0; p < parts; ++p)
    for (uint32_t r = 0; r < whole.ranks.size(); ++r) {
      LocationTrace& mine = pieces[p].ranks[r];
      const LocationTrace& theirs = whole.ranks[r];
      CHECK(mine.name == theirs.name);
      if (r < ranges[p].first || r >= ranges[p].end) {
        CHECK(mine.events.empty());
        continue;
      }
      RenumberCallPaths(maps[p], &mine);
      REQUIRE(mine.events.size() == theirs.events.size());
      CHECK(mine.raw_events == theirs.raw_events);
      bool same = true;
      for (std::size_t i = 0; i < mine.events.size(); ++i)
        same = same && mine.events[i].ticks == theirs.events[i].ticks &&
               mine.events[i].ref == theirs.events[i].ref && mine.events[i].kind == theirs.events[i].kind;
      CHECK(same);
    }
  std::vector<std::string> warnings = pieces[0].warnings;
  AddQuirkWarnings(quirks, &warnings);
  CHECK(warnings == whole.warnings);
}

}  // namespace

TEST_CASE("partial read: blocks of ranks unify to the sequential trace", "[trace]") {
  CheckPartsEqualWhole("tracer-stencil4d-32", 3);  // TraceR repairs (closed frames) on every rank
  CheckPartsEqualWhole("sstmacro-mpi-coverage-test", 4);
  CheckPartsEqualWhole("synthetic-patterns-4rank", 2);
}

TEST_CASE("partial read: more parts than ranks leaves empty parts", "[trace]") {
  RankRange range;
  QuirkCounts quirks;
  // Part 2 of 4 over 2 ranks: [2*2/4, 2*3/4) = [1, 1).
  Trace part = ReadOtf2TraceRanks(TraceDir("pipit-ping-pong-otf2"), RankPartition{2, 4}, &range, &quirks);
  CHECK(range.first == range.end);
  CHECK(part.ranks.size() == 2);
  CHECK(part.EventCount() == 0);
  CHECK(quirks.empty());
  Trace last = ReadOtf2TraceRanks(TraceDir("pipit-ping-pong-otf2"), RankPartition{3, 4}, &range, &quirks);
  CHECK(range.first == 1);
  CHECK(range.end == 2);
  CHECK(last.ranks[1].events.size() > 0);
}
