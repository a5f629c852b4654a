// CoMD outputs read into run records (tests/data/comd: real runs of ECP-copa/CoMD made for the
// project, SOURCES.md there). The values below are copied from the files by hand.
#include "app_outputs/comd_output.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

namespace fs = std::filesystem;
using testing::Only;
using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kComd = std::string(QNM_TEST_DATA_DIR) + "/comd";

}  // namespace

TEST_CASE("CoMD: ranks, the slowest rank's total, the mean MPI time of its comm timers", "[ingest][comd]") {
  // np4/comd.out, "Timing Statistics Across 4 Ranks": total 3: 5.8115 0: 5.8125 5.8120; commHalo
  // average 2.8501, commReduce 0.1544; "Timings for Rank 0": commHalo 306 calls, commReduce 24.
  const RunStats four = Only(testing::IngestPath(kComd + "/np4/comd.out"));
  CHECK(four.app == "comd-mpi");
  CHECK(four.procs == 4);
  CHECK(four.threads_per_proc == 1);  // "Threading: none"
  CHECK(four.wall_time_s == 5.8125);
  CHECK(four.app_time_mean_s == 5.8120);
  CHECK(four.mpi_time_mean_s == 2.8501 + 0.1544);
  CHECK(four.messages_per_rank == 2 * 306 + 24);
  CHECK(four.problem_class == "20x20x20 cells, 50 steps, EAM Cu_u6.eam, 1 fs, 600 K");
  CHECK(four.details.at("comd_decomposition") == "2x2x1");
  CHECK(four.details.at("setting.version") == "1.1");
  CHECK(four.verification == "SUCCESSFUL");  // "Final atom count : 32000, no atoms lost"
  CHECK(four.machine == "vm");
  // The YAML CoMD wrote for the same run: the same values, and the same measurement.
  const RunStats yaml = Only(testing::IngestPath(kComd + "/np4/CoMD-mpi.2026-11-30-10-29-49.yaml"));
  CHECK(yaml.wall_time_s == four.wall_time_s);
  CHECK(yaml.mpi_time_mean_s == four.mpi_time_mean_s);
  CHECK(yaml.messages_per_rank == four.messages_per_rank);
  CHECK(yaml.problem_class == four.problem_class);
  CHECK(yaml.origin == four.origin);
  // A campaign folder: each run once, though written twice; a strong-scaling series of 1, 2, 2, 4.
  IngestSummary summary;
  const std::vector<RunStats> runs = testing::IngestPath(kComd, &summary, /*strict=*/false);
  REQUIRE(runs.size() == 4);
  CHECK(summary.duplicates.Total() == 4);
  for (const RunStats& run : runs) CHECK(run.problem_class == four.problem_class);
  // CoMD's own file name, with colons.
  testing::TempDir dir("qnm-comd", "names");
  fs::copy_file(kComd + "/np2/CoMD-mpi.2026-11-30-10-29-43.yaml", dir.path / "CoMD-mpi.2026:11:30-10:29:43.yaml");
  CHECK(Only(testing::IngestPath((dir.path / "CoMD-mpi.2026:11:30-10:29:43.yaml").string())).procs == 2);
}

TEST_CASE("CoMD: unfinished and damaged outputs", "[ingest][comd]") {
  testing::TempDir dir("qnm-comd", "cases");
  const std::string out = ReadText(kComd + "/np4/comd.out");
  const std::string cut = out.substr(0, out.find("Timings for Rank 0"));
  CHECK(testing::IngestErrorOf(WriteCase(dir, "killed.out", cut))
            .find("killed.out:4: CoMD-mpi run without its timing statistics across the ranks: it did not finish") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "stat.out",
                      Replaced(out, "commHalo             0:    2.6858", "commHalo             0:    2.6x58")))
            .find("stat.out:119: CoMD timer minimum needs a non-negative number, got '2.6x58'") != std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "row.out", Replaced(out, "commReduce           3:    0.1237 ", "commReduce ")))
            .find("CoMD timing statistics row needs a timer, rank: min, rank: max, avg and stdev") !=
        std::string::npos);
  const std::string lost = Replaced(out, "  Final atom count : 32000, no atoms lost", "# WARNING:     12 atoms lost #");
  CHECK(Only(testing::IngestPath(WriteCase(dir, "lost.out", lost))).verification == "UNSUCCESSFUL");
  CHECK(LooksLikeComdOutput(out));
  CHECK_FALSE(LooksLikeComdOutput("Mini-Application Name    : miniFE\n"));
}

TEST_CASE("CoMD under mpitrace: its output, its YAML and the profile, one record", "[ingest][comd][pairing]") {
  // np2-mpitrace: comd.out and CoMD's YAML of one 2-rank run (one measurement) beside mpitrace's
  // rank 0 file, "MPI timing summary for all ranks": comm(s) 0.11 and 0.74.
  IngestSummary summary;
  const RunStats run = Only(testing::IngestPath(kComd + "/np2-mpitrace", &summary));
  CHECK(summary.files_paired == 1);
  CHECK(summary.duplicates.Total() == 1);
  CHECK(run.app == "comd-mpi");
  CHECK(run.problem_class == "20x20x20 cells, 50 steps, EAM Cu_u6.eam, 1 fs, 600 K");
  CHECK(run.mpi_time_s_per_rank == std::vector<double>{0.11, 0.74});
  CHECK(run.tool_version == "mpitrace");
  CHECK(run.sources.size() == 3);
  // CoMD's own comm timers and mpitrace agree on the mean MPI time: 0.4239 s (commHalo 0.3972 +
  // commReduce 0.0267 on average over the ranks) against mpitrace's 0.425 s.
  const RunStats own = Only(testing::IngestPath(kComd + "/np2-mpitrace/comd.out"));
  CHECK(std::fabs(own.mpi_time_mean_s - run.mpi_time_mean_s) < 0.01);
}
