// IBM mpitrace profiles read into run records, alone and paired with the application's output
// beside them (tests/data/mpitrace: real profiles of CloverLeaf and TeaLeaf runs made for the
// project, SOURCES.md there). The values below are copied from the files by hand.
#include "profiles/mpitrace_profile.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "cube_builder.h"
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

const std::string kMpitrace = std::string(QNM_TEST_DATA_DIR) + "/mpitrace";


}  // namespace

TEST_CASE("mpitrace: every rank's MPI and elapsed time, the hosts, rank 0's messages", "[ingest][mpitrace]") {
  // Rank 0's file alone, in a folder named after the run ("clover-np4" of a 4-rank run -> "clover").
  testing::TempDir dir("qnm-mpitrace", "alone");
  fs::create_directories(dir.path / "clover-np4");
  fs::copy_file(kMpitrace + "/clover-np4/mpi_profile.3867.0", dir.path / "clover-np4" / "mpi_profile.3867.0");
  const RunStats run = Only(testing::IngestPath((dir.path / "clover-np4").string()));
  CHECK(run.app == "clover");
  CHECK(run.derivations.at("app").find("the profile's folder name") != std::string::npos);
  CHECK(run.procs == 4);
  CHECK(run.tool_version == "mpitrace");
  // "MPI timing summary for all ranks": comm(s) 1.57 1.82 1.79 1.86, elapsed(s) 4.19 each, host vm.
  REQUIRE(run.mpi_time_s_per_rank.size() == 4);
  CHECK(run.mpi_time_s_per_rank[1] == 1.82);
  CHECK(run.mpi_time_s_per_rank[3] == 1.86);
  CHECK(run.app_time_s_per_rank[2] == 4.19);
  CHECK(std::fabs(run.mpi_time_mean_s - (1.57 + 1.82 + 1.79 + 1.86) / 4) < 1e-12);
  CHECK(run.TotalTimeSeconds() == 4.19);  // no application timer: the longest elapsed time
  CHECK(run.hosts == std::vector<std::string>{"vm", "vm", "vm", "vm"});
  CHECK(run.nodes == 1);
  CHECK(run.ranks_per_node == 4);
  // Rank 0's routines: MPI_Isend 1046 x 25320.2 B, Barrier 9, Reduce 50 x 8 B, Allreduce 261 x 5.3 B.
  CHECK(run.messages_per_rank == 1046 + 9 + 50 + 261);
  CHECK(std::fabs(run.bytes_sent_per_rank - (1046 * 25320.2 + 50 * 8.0 + 261 * 5.3)) < 1e-6);
  CHECK(run.mpi_calls_per_rank == 1 + 1 + 1046 + 1046 + 1046 + 9 + 50 + 261);
  CHECK(run.details.at("mpitrace_rank0.MPI_Waitall") == "1046 calls, 0 B avg, 1.186 s");
  CHECK(run.details.at("mpitrace_window") == "MPI_Init() to MPI_Finalize()");
  CHECK(run.derivations.at("messages_per_rank").find("rank 0's") != std::string::npos);

  // One process: no messages to speak of; its time in MPI is 0.
  const RunStats one = Only(testing::IngestPath(kMpitrace + "/clover-np1/mpi_profile.3844.0"));
  CHECK(one.procs == 1);
  CHECK(one.mpi_time_s_per_rank == std::vector<double>{0.0});
  CHECK_FALSE(Known(one.messages_per_rank));
}

TEST_CASE("mpitrace: with every rank's file (SAVE_ALL_TASKS), each rank's messages", "[ingest][mpitrace]") {
  testing::TempDir dir("qnm-mpitrace", "all");
  fs::create_directories(dir.path / "run");
  for (int r = 0; r < 4; ++r)
    fs::copy_file(kMpitrace + "/clover-np4-all/mpi_profile.3928." + std::to_string(r),
                  dir.path / "run" / ("mpi_profile.3928." + std::to_string(r)));
  IngestSummary summary;
  const RunStats run = Only(testing::IngestPath((dir.path / "run").string(), &summary));
  CHECK(summary.files_read == 1);  // the other ranks' files are read through rank 0's
  REQUIRE(run.p2p_calls_per_rank.size() == 4);
  CHECK(run.p2p_calls_per_rank[3] == 1046);
  CHECK(run.collective_calls_per_rank[2] == 9 + 50 + 261);
  CHECK(run.derivations.at("p2p_calls_per_rank").find("each rank's file") != std::string::npos);
  CHECK(run.mpi_time_s_per_rank == std::vector<double>{1.64, 1.63, 1.78, 1.72});
  // A rank's file without rank 0's beside it: not a run, and said which file is.
  fs::remove(dir.path / "run" / "mpi_profile.3928.0");
  CHECK(testing::IngestErrorOf((dir.path / "run" / "mpi_profile.3928.2").string())
            .find("mpi_profile.3928.2:1: mpitrace profile of rank 2 of 4: the run's summary (every rank's times) is "
                  "in rank 0's file") != std::string::npos);
}

TEST_CASE("mpitrace beside the application's output: one record of the run", "[ingest][mpitrace]") {
  // clover.out (CloverLeaf's wall clock 3.8185720443725586 s, its mesh and deck) and mpitrace's
  // rank 0 file (every rank's MPI time) in one folder.
  IngestSummary summary;
  const RunStats run = Only(testing::IngestPath(kMpitrace + "/clover-np4", &summary));
  CHECK(summary.files_paired == 1);
  CHECK(run.app == "cloverleaf");
  CHECK(run.problem_class.str().rfind("960x960 cells, 87 steps, deck ", 0) == 0);
  CHECK(run.procs == 4);
  CHECK(run.wall_time_s == 3.8185720443725586);
  CHECK(run.mpi_time_s_per_rank[3] == 1.86);
  CHECK(run.messages_per_rank == 1366);
  CHECK(run.derivations.at("messages_per_rank").find("mpitrace rank 0's") != std::string::npos);
  CHECK(run.derivations.at("pairing").find("paired with the MPI profile in its folder (mpitrace") != std::string::npos);
  REQUIRE(run.sources.size() == 2);
  // The same for TeaLeaf, and a whole campaign: a series the queueing model fits (MPI time and messages).
  const std::vector<RunStats> tea = testing::IngestPath(kMpitrace, &summary, /*strict=*/false);
  CHECK(tea.size() == 7);
  CHECK(summary.files_paired == 7);
  for (const RunStats& r : tea) {
    CHECK((r.app == "cloverleaf" || r.app == "tealeaf"));
    CHECK(r.mpi_time_s_per_rank.size() == static_cast<std::size_t>(r.procs));
  }

  testing::TempDir dir("qnm-mpitrace", "pairs");
  // A folder of renamed outputs and profiles side by side: paired by their process counts.
  fs::create_directories(dir.path / "flat");
  fs::copy_file(kMpitrace + "/clover-np2/clover.out", dir.path / "flat" / "clover.2.out");
  fs::copy_file(kMpitrace + "/clover-np4/clover.out", dir.path / "flat" / "clover.4.out");
  fs::copy_file(kMpitrace + "/clover-np2/mpi_profile.3854.0", dir.path / "flat" / "mpi_profile.3854.0");
  fs::copy_file(kMpitrace + "/clover-np4/mpi_profile.3867.0", dir.path / "flat" / "mpi_profile.3867.0");
  const std::vector<RunStats> flat = testing::IngestPath((dir.path / "flat").string(), &summary);
  REQUIRE(flat.size() == 2);
  CHECK(summary.files_paired == 2);
  for (const RunStats& r : flat) CHECK(r.app == "cloverleaf");
  // An output and a profile of different runs in one folder: not paired, and said so.
  fs::create_directories(dir.path / "mixed");
  fs::copy_file(kMpitrace + "/clover-np2/clover.out", dir.path / "mixed" / "clover.out");
  fs::copy_file(kMpitrace + "/clover-np4/mpi_profile.3867.0", dir.path / "mixed" / "mpi_profile.3867.0");
  const std::vector<RunStats> mixed = testing::IngestPath((dir.path / "mixed").string(), &summary);
  CHECK(mixed.size() == 2);
  CHECK(testing::NotesOf(summary).find("mpi_profile.3867.0 (4 processes) and " + (dir.path / "mixed" / "clover.out").string() +
                            " (2) are in one folder but not of one run: not paired") != std::string::npos);
  // A tar of the run folder: the same record; the other ranks' files are not runs there either.
  std::vector<std::pair<std::string, std::string>> members;
  for (const char* file : {"clover.out", "mpi_profile.3867.0", "mpi_profile.3867.2", "mpi_profile.3867.3"})
    members.emplace_back(std::string("clover-np4/") + file, ReadText(kMpitrace + "/clover-np4/" + file));
  const RunStats packed =
      Only(testing::IngestPath(WriteCase(dir, "campaign.tar", testing::TarArchive(members)), &summary));
  CHECK(packed.app == "cloverleaf");
  CHECK(packed.mpi_time_s_per_rank == run.mpi_time_s_per_rank);
}

TEST_CASE("mpitrace: damaged and older profiles", "[ingest][mpitrace]") {
  testing::TempDir dir("qnm-mpitrace", "cases");
  const std::string four = ReadText(kMpitrace + "/clover-np4/mpi_profile.3867.0");
  // A release without the summary of every rank: rank 0's own times stand for every rank's.
  const std::string older =
      four.substr(0, four.find("-----------------------------------------------------------------\n\nSummary"));
  const RunStats run = Only(testing::IngestPath(WriteCase(dir, "mpi_profile.1.0", older)));
  CHECK(run.mpi_time_s_per_rank.empty());
  CHECK(run.mpi_time_mean_s == 1.571);  // rank 0's "total communication time"
  CHECK(run.app_time_max_s == 4.193);   // rank 0's "total elapsed time"
  CHECK(run.derivations.at("mpi_time_mean_s") == "mpitrace rank 0's 'total communication time', as every rank's");
  // Its summary without the table of every rank: cut.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "mpi_profile.7.0", four.substr(0, four.find("MPI timing summary"))))
            .find("mpi_profile.7.0:55: mpitrace 'Summary for all tasks' (line 46) without its 'MPI timing summary for "
                  "all ranks': the file was cut") != std::string::npos);
  // Cut or damaged: one line naming the file and the line.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "mpi_profile.2.0", four.substr(0, four.find("total communication"))))
            .find("mpi_profile.2.0:") != std::string::npos);
  const std::string cut_rows = four.substr(0, four.find("     3   vm"));
  CHECK(testing::IngestErrorOf(WriteCase(dir, "mpi_profile.3.0", cut_rows))
            .find("mpi_profile.3.0:60: mpitrace 'MPI timing summary for all ranks' has 3 rows of the run's 4 ranks: "
                  "the file was cut") != std::string::npos);
  CHECK(
      testing::IngestErrorOf(WriteCase(dir, "mpi_profile.4.0", Replaced(four, "1.86        4.19", "9.86        4.19")))
          .find("mpi_profile.4.0:61: mpitrace rank 3 spent 9.86 s in MPI of its 4.19 s") != std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "mpi_profile.5.0", Replaced(four, "1046        25320.2", "1046        25x20.2")))
            .find("mpi_profile.5.0:8: mpitrace avg. bytes needs") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "mpi_profile.6.0", Replaced(four, "rank 0 of 4:", "rank 7 of 4:")))
            .find("mpi_profile.6.0:1: mpitrace 'Data for MPI rank 7 of 4': no such rank") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "mpi_profile.8.0", Replaced(four, "rank 0 of 4:", "rank 0 of 4e300:")))
            .find("mpi_profile.8.0:1: mpitrace 'Data for MPI rank R of N:' needs two whole numbers, got 'Data for MPI "
                  "rank 0 of 4e300:'") != std::string::npos);
  CHECK(LooksLikeMpitraceProfile(four));
  CHECK_FALSE(LooksLikeMpitraceProfile("Data for MPI rank 0 of 4:\n"));
}
