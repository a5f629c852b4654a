// Intel APS text reports read into run records. No public APS report carries a licence that allows
// copying it here (docs/formats/intel-aps.md lists the real reports the reader was checked on), so
// tests/data/aps holds the two layouts written here (SOURCES.md there): VTune 2025's (times in "s", "% of
// Elapsed Time", MPI_ names with a colon, an MPI Imbalance of "N/A*") and VTune 2020's with `aps-report
// --all`'s per-rank statistics (times in "sec", bare percentages, call names without MPI_).
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "ingest_test_util.h"
#include "reader/series_identity.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::Replaced;
using testing::WriteCase;

const std::string kAps = std::string(QNM_TEST_DATA_DIR) + "/aps";

// VTune 2025's layout (tests/data/aps/aps_amr_wind_48.txt: 48 ranks, 6 a node, 4 threads each) at another
// rank count, elapsed and MPI time, and ranks per node.
std::string Report2025(int ranks, const std::string& elapsed, const std::string& mpi, int per_node = 6) {
  std::string text = testing::ReadText(kAps + "/aps_amr_wind_48.txt");
  text =
      Replaced(text, "Number of ranks               : 48", "Number of ranks               : " + std::to_string(ranks));
  text = Replaced(text, "Ranks per node                : 6",
                  "Ranks per node                : " + std::to_string(per_node));
  text = Replaced(text, "Elapsed Time:                             468.82 s",
                  "Elapsed Time:                             " + elapsed + " s");
  return Replaced(text, "MPI Time:                                 218.00 s",
                  "MPI Time:                                 " + mpi + " s");
}

}  // namespace

TEST_CASE("Intel APS 2025 report: ranks, nodes, threads, elapsed and MPI time, the costliest calls", "[ingest][aps]") {
  testing::TempDir dir("qnm-aps", "cases");
  const RunStats run = testing::Only(testing::IngestPath(kAps + "/aps_amr_wind_48.txt"));
  CHECK(run.app == "amr_wind");
  CHECK(run.procs == 48);
  CHECK(run.threads_per_proc == 4);
  CHECK(run.ranks_per_node == 6);
  CHECK(run.nodes == 8);
  CHECK(run.wall_time_s == 468.82);
  CHECK(run.app_time_mean_s == 468.82);
  CHECK(run.mpi_time_mean_s == 218.00);
  CHECK(run.compute_time_mean_s == Approx(250.82));
  CHECK(run.tool_version == "Intel APS");
  CHECK(run.details.at("aps.mpi_imbalance_time_s") == "N/A");
  // The five calls, the advice between them skipped.
  CHECK(run.details.at("aps.mpi_time.MPI_Waitall_s") == "126.34");
  CHECK(run.details.at("aps.mpi_time.MPI_Isend_s") == "50.44");
  CHECK(run.details.at("aps.mpi_time.MPI_Barrier_s") == "3.44");
  int calls = 0;
  for (const auto& [key, value] : run.details) calls += key.rfind("aps.mpi_time.", 0) == 0;
  CHECK(calls == 5);
  // The node of the peak memory: a detail, not the machine (another run's peak is elsewhere).
  CHECK(run.details.at("aps.peak_memory_node") == "x4013c2s7b0n0");
  CHECK(run.machine.empty());
  // Two reports of one program at two rank counts: one series.
  const std::string folder = (dir.path / "campaign").string();
  std::filesystem::create_directories(folder);
  WriteCase(dir, "campaign/aps_24.txt", Report2025(24, "830.10", "150.20"));
  WriteCase(dir, "campaign/aps_48.txt", Report2025(48, "468.82", "218.00"));
  const std::vector<RunStats> both = testing::IngestPath(folder);
  CHECK(both.size() == 2);
  CHECK(GroupIntoSeries(both, GroupBy::kContent).size() == 1);
  // The same 48 ranks at 6 and at 12 a node (8 and 4 nodes): the spread warning names the difference.
  const std::string nodes = (dir.path / "nodes").string();
  std::filesystem::create_directories(nodes);
  WriteCase(dir, "nodes/aps_6ppn.txt", Report2025(48, "468.82", "218.00", 6));
  WriteCase(dir, "nodes/aps_12ppn.txt", Report2025(48, "867.22", "153.27", 12));
  IngestSummary summary;
  const std::vector<RunStats> spread = testing::IngestPath(nodes, &summary);
  CHECK(spread.size() == 2);
  REQUIRE(summary.warnings.size() == 1);
  CHECK(summary.warnings[0].find("ranks per node differs (12, 6)") != std::string::npos);
}

TEST_CASE("Intel APS 2020 report with aps-report --all: times in sec, the slowest rank's MPI time", "[ingest][aps]") {
  const RunStats run = testing::Only(testing::IngestPath(kAps + "/aps_filaments_48_all.txt"));
  CHECK(run.app == "filaments");
  CHECK(run.procs == 48);
  CHECK(run.nodes == 1);
  CHECK(run.wall_time_s == 195.0);
  CHECK(run.mpi_time_mean_s == 28.03);
  CHECK(run.mpi_time_max_s == 36.25);  // "| MPI Time per Rank:" MAX, not the imbalance block's
  CHECK(run.details.at("aps.mpi_imbalance_time_s") == "6.25");
  CHECK(run.details.at("aps.mpi_time.MPI_Send_s") == "11.65");
  CHECK(run.details.at("aps.mpi_time.MPI_Irecv_s") == "0.32");
  CHECK(run.details.count("aps.mpi_time.MPI_Interconnect_s") == 0);
  CHECK(run.details.at("aps.peak_memory_node") == "r129c01s04");
}

TEST_CASE("Intel APS reports that cannot be read: one line naming the file and the line", "[ingest][aps]") {
  testing::TempDir dir("qnm-aps", "cases");
  const std::string report = Report2025(48, "468.82", "218.00");
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "ranks.txt",
                      Replaced(report, "Number of ranks               : 48", "Number of ranks               : many")))
            .find("ranks.txt:5: APS 'Number of ranks' needs") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "unit.txt", Replaced(report, "468.82 s", "468.82 parsecs")))
            .find("unit.txt:16: APS 'Elapsed Time' needs a time and its unit (s, sec), got '468.82 parsecs'") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "na.txt", Replaced(report, "468.82 s", "N/A")))
            .find("na.txt:16: APS 'Elapsed Time' is N/A: the run has no time") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "long.txt", Report2025(48, "100.00", "218.00")))
            .find("long.txt:19: APS 'MPI Time' is longer than the 'Elapsed Time'") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "cut.txt", report.substr(0, report.find("  Elapsed Time:"))))
            .find("cut.txt:1: APS report without its 'Elapsed Time:' line") != std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "twice.txt", Replaced(report, "  SP GFLOPS:", "  MPI Time:     21.80 s\n  SP GFLOPS:")))
            .find("twice.txt:20: APS report gives 'MPI Time' twice, with two values (first at line 17: '21.80 s')") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "call.txt",
                                         Replaced(report, "MPI_Isend:                           50.44 s",
                                                  "MPI_Isend:                           50.44 x")))
            .find("call.txt:27: APS 'MPI_Isend' needs a time and its unit") != std::string::npos);
}
