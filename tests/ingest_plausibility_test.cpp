// Issue 19: every reader goes through one validation path (plausible
// ranges, parts within the whole), the CUBE reader included; numbers are
// parsed strictly; the duplicate check keeps its semantics in linear time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <string>

#include "cube/cube_profile.h"
#include "cube_builder.h"
#include "ingest/duplicate_runs.h"
#include "ingest/ingest.h"
#include "reader/run_stats_check.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kRobustness = std::string(QNM_TEST_DATA_DIR) + "/robustness/";

/// The one-line refusal of `file` by a strict ingest ("" when it was read).
std::string StrictIngestError(const std::string& file) {
  try {
    qnm::IngestOptions options;
    options.strict = true;
    qnm::IngestSummary summary;
    qnm::IngestPaths({file}, options, &summary);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("CUBE profiles with implausible values are refused with the reason (issue 19)", "[ingest][cube][robustness]") {
  const std::pair<const char*, const char*> cases[] = {
      {"cube-time-6e300s.cubex", "6e+300 is outside"},
      {"cube-byteswapped-time-3e-320s.cubex", "is not 0 and below 1e-12"},
      {"cube-sparse-empty-index-time-0.cubex", "run time 0 is outside"},
      {"cube-visits-uint64-read-as-double-inf.cubex", "calls of rank[0]"},
      {"cube-sparse-duplicate-positions.cubex", "lists call-tree position 0 twice"},
  };
  for (const auto& [name, reason] : cases) {
    INFO(name);
    const std::string message = StrictIngestError(kRobustness + name);
    CHECK_THAT(message, Catch::Contains(name) && Catch::Contains(reason));
    CHECK(message.find('\n') == std::string::npos);
  }
}

TEST_CASE("Extra-P call paths larger than the run are refused (issue 19)", "[ingest][extrap][robustness]") {
  CHECK_THAT(StrictIngestError(kRobustness + "extrap-mpi-time-larger-than-run.txt"),
             Catch::Contains("mean MPI time 1000 s is larger than the run time 25.04 s"));
  CHECK_THAT(StrictIngestError(kRobustness + "extrap-compute-time-larger-than-run.txt"),
             Catch::Contains("mean computation time 1e+06 s is larger than the run time 25.04 s"));
}

TEST_CASE("parts may exceed the whole by the noise only", "[ingest][robustness]") {
  qnm::RunStats run;
  run.wall_time_s = 10;
  run.mpi_time_mean_s = 10.4;  // within 5 %: another timer, another repetition
  CHECK_NOTHROW(qnm::RequirePartsWithinWhole(run, "f", 3));
  run.mpi_time_mean_s = 11;
  CHECK_THROWS_WITH(qnm::RequirePartsWithinWhole(run, "f", 3), Catch::Contains("f:3") && Catch::Contains("mean MPI time 11 s"));
  qnm::RunStats ranks;
  ranks.app_time_s_per_rank = {5, 5};
  ranks.mpi_time_s_per_rank = {1, 6};
  CHECK_THROWS_WITH(qnm::RequirePartsWithinWhole(ranks, "f", 0), Catch::Contains("MPI time of rank 1 6 s"));
}

TEST_CASE("a deep call chain keeps short call paths (issue 19)", "[ingest][cube][robustness]") {
  // The reproducer: 20,000 levels, 55 KB; path strings were 2.4 GB before.
  const std::string path = kRobustness + "cube-callchain-20000.cubex";
  qnm::RunStats run = qnm::ReadCubeRunStats(qnm::ReadFile(path), path);
  CHECK(run.procs >= 1);
  for (const qnm::CallSiteStats& site : run.call_sites) CHECK(site.source_location.size() < 2000);
  // A generated chain: exact values known.
  const std::string cube = qnm::testing::ValidCube(5000, 1, true);
  qnm::RunStats chain = qnm::ReadCubeRunStats(cube, "chain.cubex");
  REQUIRE(chain.call_sites.size() == 1);
  const std::string& where = chain.call_sites[0].source_location;
  CHECK(where.rfind(".../compute/", 0) == 0);
  CHECK(where.size() > 11);
  CHECK(where.substr(where.size() - 9) == "/MPI_Send");
  CHECK(std::count(where.begin(), where.end(), '/') == 24);  // "..." + 24 regions
  CHECK(chain.app_time_s_per_rank.at(0) == Approx(2500.0));
  CHECK(chain.mpi_time_s_per_rank.at(0) == Approx(0.5));
}

TEST_CASE("a CUBE declaring more values than it stores is refused before allocating", "[ingest][cube][robustness]") {
  const std::string cube = qnm::testing::DeclaredOnlyCube(1000, 20000);  // 2e7 values per table, none stored
  CHECK_THROWS_WITH(qnm::ReadCubeRunStats(cube, "declared.cubex"),
                    Catch::Contains("declared.cubex") && Catch::Contains("values per metric"));
}

TEST_CASE("numbers are parsed whole and decimal (issue 19)", "[ingest][robustness]") {
  for (const char* bad : {"12abc", "0x10", "0X1p3", "1e", "+", "", "1,5", "--1", "+-1", " 12"}) {
    INFO(bad);
    CHECK_FALSE(qnm::ParseDouble(bad).has_value());
  }
  CHECK(*qnm::ParseDouble("+1.5") == 1.5);
  CHECK(*qnm::ParseDouble("-0.5") == -0.5);
  CHECK(*qnm::ParseDouble("1e+04") == 1e4);
  CHECK(std::isinf(*qnm::ParseDouble("1e309")));  // refused later by the plausible range, with the number
  CHECK(*qnm::ParseDouble("1e-400") == 0.0);
  CHECK_FALSE(qnm::ParseInteger("0x10").has_value());
  CHECK_FALSE(qnm::ParseInteger("12abc").has_value());
}

TEST_CASE("copies are counted once in a long series, other runs kept (issue 19)", "[ingest][robustness]") {
  // A copy is the same origin (file content and place) read under another name;
  // equal numbers of another origin are another measurement (issue 18).
  std::vector<qnm::RunStats> runs;
  auto add = [&](int procs, double time_s, const std::string& file, const std::string& origin) {
    qnm::RunStats run;
    run.app = "lu";
    run.procs = procs;
    run.wall_time_s = time_s;
    run.sources = {file};
    run.origin = origin;
    runs.push_back(run);
  };
  for (int p = 1; p <= 100000; ++p) add(p, 100.0 / p + 1, "a/run" + std::to_string(p), "digest" + std::to_string(p) + "#0");
  add(7, 100.0 / 7 + 1, "b/copy-of-7", "digest7#0");             // the same file elsewhere: a copy
  add(7, 100.0 / 7 + 1, "a/equal-time-7", "another-digest#0");    // equal time, another file: kept
  qnm::DuplicateSummary summary;
  std::vector<qnm::RunStats> kept = qnm::CountMeasurementsOnce(runs, &summary);
  CHECK(kept.size() == 100001);
  CHECK(summary.copies == 1);
  CHECK(kept[6].sources == std::vector<std::string>{"a/run7", "b/copy-of-7"});
}

TEST_CASE("series filter drops other series' table rows as the file is read (issue 19)", "[ingest][table][robustness]") {
  const std::string path = (std::filesystem::temp_directory_path() / ("qnm-series-filter-" + std::to_string(::getpid()) + ".csv")).string();
  {
    std::ofstream out(path);
    out << "series,procs,time_s\n";
    for (int s = 0; s < 30; ++s)
      for (int p = 1; p <= 4; ++p) out << "s" << s << "," << p << "," << 10.0 / p + s << "\n";
  }
  qnm::IngestOptions options;
  options.series_filter = "S2";  // case-insensitive substring, as --series: s2, s20..s29
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = qnm::IngestPaths({path}, options, &summary);
  std::filesystem::remove(path);
  CHECK(runs.size() == 11 * 4);
  for (const qnm::RunStats& run : runs) CHECK(run.series.rfind("s2", 0) == 0);
  CHECK_THAT(summary.Report(), Catch::Contains("76 table rows of series not matching 'S2' skipped as read"));
}
