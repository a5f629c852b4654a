// What predict says of the files it could not use in a walked folder (pipeline/skipped_inputs.h):
// damaged files one line each up to kSkippedLinesPerReason per reason, then one line for the rest;
// files that are no run at all (a .txt without any known format) only counted.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "pipeline/skipped_inputs.h"
#include "tests/command_runner.h"
#include "tests/temp_dir.h"

namespace {

int CountOf(const std::string& text, const std::string& part) {
  int count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("a folder's damaged files are said a few per reason, the rest counted in one line", "[cli][skipped]") {
  qnm::testing::TempDir dir("skipped", "folder");
  std::filesystem::copy_file(std::string(QNM_TEST_DATA_DIR) + "/tables/lu_b_g5k_median.csv", dir.path / "runs.csv");
  for (int i = 0; i < 12; ++i) std::ofstream(dir.path / ("crashed" + std::to_string(i) + ".out"));  // empty outputs
  std::ofstream(dir.path / "lscpu.txt") << "Architecture: x86_64\nCPU(s): 128\n";  // no run, no format
  // Jobs that failed before their program printed a run, each with its own error line: one kind.
  for (int i = 0; i < 8; ++i)
    std::ofstream(dir.path / ("failed" + std::to_string(i) + ".log")) << "ERROR on proc " << i << ": no input\n";
  std::string err;
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " predict " + dir.path.string() +
                                       " --procs 64 2>&1 >/dev/null",
                                   &err) == 0);
  INFO(err);
  CHECK(CountOf(err, ": empty file") == qnm::kSkippedLinesPerReason);
  CHECK(err.find("skipped 7 more files for the same reason (empty file), the first ") != std::string::npos);
  CHECK(err.find("lscpu.txt") == std::string::npos);  // named like an output, but not one: counted, not said
  CHECK(CountOf(err, ": no run in it: the job failed before its program printed one, or it is no NPB output (line 1: "
                     "ERROR on proc ") == qnm::kSkippedLinesPerReason);
  CHECK(err.find("skipped 3 more files for the same reason (no run in it: the job failed before its program "
                 "printed one, or it is no NPB output), the first ") != std::string::npos);
}
