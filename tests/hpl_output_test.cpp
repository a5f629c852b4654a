// HPL outputs read into run records (tests/data/hpl: real runs of HPL 2.3 made for the project,
// SOURCES.md there). The values below are copied from the files by hand.
#include "app_outputs/hpl_output.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kHpl = std::string(QNM_TEST_DATA_DIR) + "/hpl";

// HPL_pdtest.c's rate, Gflops = (N / 1e9) (N / t) ((2/3) N + 3/2), solved for t.
double TimeOf(double n, double gflops) { return (n / 1e9) * n * ((2.0 / 3.0) * n + 1.5) / gflops; }

}  // namespace

TEST_CASE("HPL: every test a run of its P x Q grid, the time from its rate", "[ingest][hpl]") {
  // HPL.out: one xhpl of 4 processes sweeping grids 1x1, 1x2, 2x1, 2x2 at N 3000, NB 128.
  const std::vector<RunStats> sweep = testing::IngestPath(kHpl + "/HPL.out");
  REQUIRE(sweep.size() == 4);
  // "WR11C2R4  3000  128  1  1  6.60  2.7307e+00" (line 47) ... "2  2  9.62  1.8715e+00" (line 77).
  CHECK(sweep[0].app == "hpl");
  CHECK(sweep[0].procs == 1);
  CHECK(sweep[3].procs == 4);
  CHECK(std::fabs(sweep[0].wall_time_s - TimeOf(3000, 2.7307)) < 1e-12);
  CHECK(std::fabs(sweep[0].wall_time_s - 6.60) < 0.005);
  CHECK(std::fabs(sweep[3].wall_time_s - TimeOf(3000, 1.8715)) < 1e-12);
  CHECK(sweep[3].derivations.at("wall_time_s").find("agrees to its rounding") != std::string::npos);
  CHECK(sweep[0].problem_class == "N=3000");
  CHECK(sweep[3].details.at("hpl_grid") == "2x2");
  CHECK(sweep[2].details.at("hpl_grid") == "2x1");
  CHECK(sweep[0].details.at("setting.nb") == "128");
  CHECK(sweep[0].details.at("setting.variant") == "R11C2R4");
  CHECK(sweep[0].details.at("setting.version") == "2.3");
  CHECK(sweep[0].verification == "SUCCESSFUL");
  CHECK(sweep[1].sources.front().find("HPL.out:57") != std::string::npos);
  // xhpl's standard output: 2 N x 2 NB on a 1x2 grid; the failed residual check of another.
  const std::vector<RunStats> two = testing::IngestPath(kHpl + "/hpl-np2.out");
  REQUIRE(two.size() == 4);
  CHECK(two[0].problem_class == "N=1000");
  CHECK(two[0].details.at("setting.nb") == "64");
  CHECK(std::fabs(two[3].wall_time_s - TimeOf(2000, 3.6049)) < 1e-12);
  const std::vector<RunStats> failed = testing::IngestPath(kHpl + "/hpl-np1-failed.out");
  REQUIRE(failed.size() == 1);
  CHECK(failed[0].verification == "UNSUCCESSFUL");
  // A 0.07 s test: the rate's five digits agree with the printed two decimals.
  CHECK(std::fabs(failed[0].wall_time_s - TimeOf(500, 1.1683)) < 1e-12);
}

TEST_CASE("HPL: cut, damaged and CPU-time outputs", "[ingest][hpl]") {
  testing::TempDir dir("qnm-hpl", "cases");
  const std::string sweep = ReadText(kHpl + "/HPL.out");
  // Killed during the third test: the two finished tests are runs.
  const std::string killed = sweep.substr(0, sweep.find("WR11C2R4        3000   128     2     1"));
  IngestSummary summary;
  const std::vector<RunStats> two = testing::IngestPath(WriteCase(dir, "killed.out", killed), &summary);
  CHECK(two.size() == 2);
  std::string notes = testing::NotesOf(summary);
  CHECK(notes.find("killed.out: 1 of its 3 HPL tests were not read (the first at line 65: HPL result table without "
                   "its row: the run was killed or the output cut during this test)") != std::string::npos);
  // Killed before its first test finished: no run, said so.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "none.out", sweep.substr(0, sweep.find("WR11C2R4"))))
            .find("none.out:45: no HPL result row: the run finished no test") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "early.out", sweep.substr(0, sweep.find("T/V                N"))))
            .find("early.out: no HPL result row: the run finished no test") != std::string::npos);
  // Numbers that do not parse: the file and the line.
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "n.out", Replaced(sweep, "3000   128     2     2", "3x00   128     2     2")))
            .find("n.out:77: HPL N needs a whole number") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "rate.out", Replaced(sweep, "1.8715e+00", "1.8715e+0x")))
            .find("rate.out:77: HPL Gflops needs a non-negative number, got '1.8715e+0x'") != std::string::npos);
  // A printed time its rate does not agree with: the printed one, said so.
  const std::vector<RunStats> edited =
      testing::IngestPath(WriteCase(dir, "edited.out", Replaced(sweep, "9.62", "9.95")));
  CHECK(edited[3].wall_time_s == 9.95);
  CHECK(edited[3].derivations.at("wall_time_s") == "HPL Time (line 77)");
  // T/V's C: CPU time, not the wall time; the file's other tests are read, the note says why.
  const std::vector<RunStats> cpu = testing::IngestPath(
      WriteCase(dir, "cpu.out",
                Replaced(sweep, "WR11C2R4        3000   128     2     2", "CR11C2R4        3000   128     2     2")),
      &summary);
  CHECK(cpu.size() == 3);
  notes = testing::NotesOf(summary);
  CHECK(notes.find("cpu.out: 1 of its 4 HPL tests were not read (the first at line 77: HPL test of T/V "
                   "'CR11C2R4': its Time is not the wall time") != std::string::npos);
  CHECK(LooksLikeHplOutput(sweep));
  CHECK_FALSE(LooksLikeHplOutput("T/V N NB P Q Time Gflops\n"));
}
