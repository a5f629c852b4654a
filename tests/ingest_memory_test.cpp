// Issue 19: memory bounded by what a result needs, not by what a file
// declares or how large it is on disk. Each test runs qnm-predict as a child
// under a 2 GiB address-space limit and asserts its peak RSS (wait4); no test
// is timed (speed figures are in bench/README.md, "Robustness round 4").
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "cube_builder.h"
#include "limited_child.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

constexpr long long kTwoGiB = 2LL << 30;

void WriteText(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

}  // namespace

TEST_CASE("CUBE: a 50,000-deep call chain reads in little memory", "[ingest][cube][memory]") {
  qnm::testing::TempDir dir("qnm-memory", "chain");
  const fs::path cube = dir.path / "chain.cubex";
  WriteText(cube, qnm::testing::ValidCube(50000, 1, true));
  auto run = qnm::testing::RunCliLimited({"ingest", "--strict", "-q", "--format", "csv", cube.string()}, kTwoGiB,
                                         (dir.path / "err").string());
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.peak_rss_kb < 100 * 1024);  // was a std::bad_alloc at 8 GB
}

TEST_CASE("CUBE: declared sizes without data allocate nothing", "[ingest][cube][memory]") {
  qnm::testing::TempDir dir("qnm-memory", "declared");
  const fs::path cube = dir.path / "declared.cubex";
  WriteText(cube, qnm::testing::DeclaredOnlyCube(1000, 100000));  // 1e8 values per table declared
  auto run = qnm::testing::RunCliLimited({"ingest", "--strict", "-q", cube.string()}, kTwoGiB,
                                         (dir.path / "err").string());
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::Contains("declared.cubex") && Catch::Contains("values per metric"));
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK(run.peak_rss_kb < 300 * 1024);  // the anchor's XML tree of 100,000 locations; was 3.1 GB
}

TEST_CASE("walking: huge files beside the runs are refused by size, unread", "[ingest][walk][memory]") {
  qnm::testing::TempDir dir("qnm-memory", "walk");
  const fs::path runs = dir.path / "runs";
  fs::create_directories(runs);
  for (const auto& entry : fs::directory_iterator(std::string(QNM_TEST_DATA_DIR) + "/../../data/default-series")) {
    fs::copy_file(entry.path(), runs / entry.path().filename());
    break;
  }
  // Sparse: no disk space used. A core dump no reader recognises, a table and
  // an mpiP report far above their formats' limits.
  std::ofstream(runs / "core").close();
  fs::resize_file(runs / "core", 3LL << 30);
  std::ofstream(runs / "tera.csv").close();
  fs::resize_file(runs / "tera.csv", 1LL << 40);
  WriteText(runs / "big.mpiP", "@ mpiP\n@ Command : ./a.out\n@ Version : 3.5.0\n");
  fs::resize_file(runs / "big.mpiP", 200LL << 20);
  auto run = qnm::testing::RunCliLimited({"ingest", "--format", "csv", runs.string()}, kTwoGiB,
                                         (dir.path / "err").string());
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK_THAT(run.err, Catch::Contains("3 skipped"));
  CHECK_THAT(run.err, Catch::Contains("tera.csv: not read: 1048576 MiB, larger than the 64 MiB limit"));
  CHECK_THAT(run.err, Catch::Contains("core: not read"));
  CHECK_THAT(run.err, Catch::Contains("big.mpiP: not read: 200 MiB, larger than the 64 MiB limit for a file that looks like mpiP report"));
  CHECK(run.peak_rss_kb < 100 * 1024);  // was 3 GB for the core file
}

TEST_CASE("walking: a path longer than PATH_MAX is skipped and counted", "[ingest][walk]") {
  qnm::testing::TempDir dir("qnm-memory", "longpath");
  const fs::path runs = dir.path / "runs";
  fs::create_directories(runs);
  for (const auto& entry : fs::directory_iterator(std::string(QNM_TEST_DATA_DIR) + "/../../data/default-series")) {
    fs::copy_file(entry.path(), runs / entry.path().filename());
    break;
  }
  // 400 levels of 11 bytes: deeper than PATH_MAX (4096); made and removed
  // relative to the working folder, one level at a time (chdir, no getcwd).
  const fs::path cwd = fs::current_path();
  REQUIRE(::chdir(runs.c_str()) == 0);
  int levels = 0;
  while (levels < 400 && ::mkdir("dddddddddd", 0755) == 0 && ::chdir("dddddddddd") == 0) ++levels;
  REQUIRE(::chdir(cwd.c_str()) == 0);
  REQUIRE(levels == 400);
  auto run = qnm::testing::RunCliLimited({"ingest", "--format", "csv", runs.string()}, kTwoGiB,
                                         (dir.path / "err").string());
  INFO(run.err);
  CHECK(run.exit_code == 0);  // the valid run beside it is read
  CHECK_THAT(run.err, Catch::Contains("read 1 of 2 files") && Catch::Contains("1 skipped"));
  CHECK(run.err.find("filesystem error") == std::string::npos);
  // Nothing can remove a tree that deep by its full path: go down, then up removing.
  REQUIRE(::chdir(runs.c_str()) == 0);
  for (int level = 0; level < levels; ++level) REQUIRE(::chdir("dddddddddd") == 0);
  for (int level = 0; level < levels; ++level) {
    REQUIRE(::chdir("..") == 0);
    REQUIRE(::rmdir("dddddddddd") == 0);
  }
  REQUIRE(::chdir(cwd.c_str()) == 0);
}

TEST_CASE("a statistics table of one series at 100,000 process counts stays small", "[ingest][table][memory]") {
  qnm::testing::TempDir dir("qnm-memory", "table");
  std::string text = "series,procs,time_s\n";
  for (int p = 1; p <= 100000; ++p) text += "s," + std::to_string(p) + "," + std::to_string(100.0 / p + 0.001 * p) + "\n";
  WriteText(dir.path / "series.csv", text);
  auto run = qnm::testing::RunCliLimited({"ingest", "--strict", "-q", "--format", "csv", (dir.path / "series.csv").string()},
                                         kTwoGiB, (dir.path / "err").string());
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.peak_rss_kb < 1024 * 1024);
}
