// A record's identity texts (record/shared_text.h): one pointer each, shared
// between copies and between a table's rows, read as a std::string (issue 19,
// memory per record).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "record/run_stats.h"
#include "record/shared_text.h"
#include "tables/statistics_table.h"

namespace qnm {
namespace {

TEST_CASE("A shared text reads as the std::string it was given", "[record][shared_text]") {
  SharedText empty;
  CHECK(empty.empty());
  CHECK(empty.size() == 0);
  CHECK(empty.str().empty());
  CHECK(empty == "");
  SharedText text = std::string("lu-mz");
  CHECK(text == "lu-mz");
  CHECK(text == std::string("lu-mz"));
  CHECK(std::string("lu-mz") == text);
  CHECK(text.size() == 5);
  CHECK(text.find('-') == 2);
  CHECK(text.substr(3) == "mz");
  CHECK(text + ".C" == "lu-mz.C");
  CHECK("bt-" + SharedText("mz") == "bt-mz");
  CHECK(SharedText("a") < SharedText("b"));
  CHECK(SharedText("a") < std::string("b"));
  const std::string& view = text;
  CHECK(view == "lu-mz");
  SharedText from_empty = std::string();
  CHECK(from_empty.empty());
}

TEST_CASE("A copy shares the text and does not see later changes", "[record][shared_text]") {
  SharedText a("machine-1");
  SharedText b = a;
  CHECK(&a.str() == &b.str());  // one block
  b += "-x";
  CHECK(a == "machine-1");
  CHECK(b == "machine-1-x");
  a = "other";
  CHECK(b == "machine-1-x");
  a.clear();
  CHECK(a.empty());
  SharedText moved = std::move(b);
  CHECK(moved == "machine-1-x");
  CHECK(sizeof(SharedText) == sizeof(void*));
}

TEST_CASE("A table's rows share their identity texts", "[record][shared_text]") {
  std::string table = "series,app,machine,procs,time_s\n";
  for (int p = 1; p <= 8; ++p) table += "solver,lulesh,cluster-a," + std::to_string(p) + ",1.5\n";
  std::vector<RunStats> runs = ReadStatisticsCsv(table, "rows.csv", nullptr, nullptr);
  REQUIRE(runs.size() == 8);
  for (const RunStats& run : runs) {
    CHECK(run.series == "solver");
    CHECK(run.app == "lulesh");
    CHECK(run.machine == "cluster-a");
    CHECK(run.variant.empty());
    CHECK(&run.series.str() == &runs.front().series.str());
    CHECK(&run.machine.str() == &runs.front().machine.str());
  }
  // Twelve std::string identity fields were 384 of a record's 688 bytes.
  CHECK(sizeof(RunStats) <= 440);
}

}  // namespace
}  // namespace qnm
