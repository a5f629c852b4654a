// TAU profiles (profiles/tau_profile.h). Acceptance: Hatchet's own TAU test input
// (tests/data/tau/hatchet-tau-cpi-mpi, 4 MPI ranks of cpi on NERSC's Cori) read
// as Hatchet reads it (tests/data/tau/hatchet_reads.json, written by
// scripts/compare_tau_reads_with_hatchet.py). Layouts and damage: files derived
// from it for this project (tests/data/tau/SOURCES.md).
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "profiles/tau_profile.h"
#include "tests/ingest_test_util.h"
#include "util/input_error.h"

using qnm::testing::IngestErrorOf;
using qnm::testing::IngestPath;

namespace {


const std::string kTau = std::string(QNM_TEST_DATA_DIR) + "/tau";


const qnm::CallSiteStats* Site(const qnm::RunStats& run, const std::string& routine) {
  for (const qnm::CallSiteStats& site : run.call_sites)
    if (site.mpi_function == routine) return &site;
  return nullptr;
}

}  // namespace

TEST_CASE("Hatchet's TAU test profiles read as Hatchet reads them", "[ingest][tau][acceptance]") {
  std::ifstream file(kTau + "/hatchet_reads.json");
  REQUIRE(file);
  const nlohmann::json peer = nlohmann::json::parse(file)["hatchet-tau-cpi-mpi"];
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = IngestPath(kTau + "/hatchet-tau-cpi-mpi", &summary);
  REQUIRE(runs.size() == 1);
  const qnm::RunStats& run = runs.front();
  CHECK(summary.files_seen == 1);  // profile.1..3.0.0 belong to profile.0.0.0, as an OTF2 trace's files
  REQUIRE(run.procs == peer["procs"].get<int>());
  for (int r = 0; r < run.procs; ++r) {
    CHECK(run.app_time_s_per_rank[r] == Approx(peer["app_time_s_per_rank"][r].get<double>()).epsilon(1e-12));
    CHECK(run.mpi_time_s_per_rank[r] == Approx(peer["mpi_time_s_per_rank"][r].get<double>()).epsilon(1e-12));
  }
  for (const auto& [routine, calls] : peer["calls_per_rank"].items()) {
    const qnm::CallSiteStats* site = Site(run, routine);
    REQUIRE(site != nullptr);
    for (int r = 0; r < run.procs; ++r) CHECK(site->calls_per_rank[r] == calls[r].get<double>());
  }
  CHECK(run.call_sites.size() == peer["calls_per_rank"].size());
  // What the files say besides: the program, TAU's version, the hosts (one Cori node), message sizes.
  CHECK(run.app == "cpi-mpi");
  CHECK(run.tool_version == "TAU 2.29-git");
  CHECK(run.hosts.size() == 4);
  CHECK(run.nodes == 1);
  CHECK(run.machine == "nid");
  CHECK(run.threads_per_proc == 1);
  CHECK(run.collective_calls_per_rank[0] == 2);        // Bcast + Reduce
  CHECK(run.collective_bytes_sent_per_rank[0] == 12);  // "Message size for broadcast" 4 B + "for reduce" 8 B
  CHECK(run.p2p_calls_per_rank[0] == 0);
  CHECK(run.app_time_max_s == Approx(0.055329));
}

TEST_CASE("TAU profile layouts: threads, several metrics, point-to-point messages", "[ingest][tau]") {
  std::vector<qnm::RunStats> runs = IngestPath(kTau + "/layouts/threads");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 2);
  CHECK(runs[0].threads_per_proc == 2);  // profile.<rank>.0.1 beside profile.<rank>.0.0

  // MULTI__TIME holds the run; another metric's folder is named as not a time.
  qnm::IngestSummary summary;
  runs = IngestPath(kTau + "/layouts/multi-metric", &summary, false);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 4);
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].reason.find("metric PAPI_TOT_CYC, not TIME") != std::string::npos);

  // 100 sends of 4096 B per rank: calls from the MPI_Send timer, bytes from the message-size event
  // (its context-event twin "... : .TAU application => MPI_Send()" is not counted again).
  runs = IngestPath(kTau + "/layouts/p2p");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].p2p_calls_per_rank[1] == 100);
  CHECK(runs[0].p2p_bytes_sent_per_rank[1] == 409600);
  CHECK(runs[0].messages_per_rank == Approx(102));  // 100 sends + Bcast + Reduce
  CHECK(runs[0].mpi_time_s_per_rank[1] == Approx(0.05491 + 0.004));
}

TEST_CASE("damaged TAU profiles: one line naming the file", "[ingest][tau][errors]") {
  CHECK(IngestErrorOf(kTau + "/layouts/bad/missing-rank").find("profile.1.0.0: missing") != std::string::npos);
  CHECK(IngestErrorOf(kTau + "/hatchet-tau-cpi-mpi/profile.2.0.0").find("give its folder") != std::string::npos);
  CHECK(IngestErrorOf(kTau + "/layouts/bad/truncated").find("profile.0.0.0:12: the profile names 23 timers") !=
        std::string::npos);
  CHECK_THROWS_WITH(qnm::ParseTauProfile("1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl\n"
                                         "\"main\" 1 0 -5 10 0 GROUP=\"TAU_DEFAULT\"\n",
                                         "p"),
                    Catch::Contains("p:3: '-5' is no non-negative number"));
  CHECK_THROWS_WITH(qnm::ParseTauProfile("1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl\n"
                                         "\"main\" 1 0 20 10 0 GROUP=\"TAU_DEFAULT\"\n",
                                         "p"),
                    Catch::Contains("exclusive time above inclusive time"));
  int node = -1, context = -1, thread = -1;
  CHECK(qnm::ParseTauProfileName("a/profile.12.0.3", &node, &context, &thread));
  CHECK((node == 12 && context == 0 && thread == 3));
  CHECK_FALSE(qnm::ParseTauProfileName("a/profile.12.0", &node, &context, &thread));
  CHECK_FALSE(qnm::ParseTauProfileName("a/profile.1.0.0.bak", &node, &context, &thread));
}

TEST_CASE("a TAU profile folder inside an archive of runs reads as on disk", "[ingest][tau][archive]") {
  const std::string archive = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/qnm-tau.tar";
  const std::string command = "tar --format=ustar -cf " + archive + " -C " + kTau + " hatchet-tau-cpi-mpi";
  REQUIRE(std::system(command.c_str()) == 0);
  const std::vector<qnm::RunStats> archived = IngestPath(archive);
  std::remove(archive.c_str());
  const std::vector<qnm::RunStats> plain = IngestPath(kTau + "/hatchet-tau-cpi-mpi");
  REQUIRE(archived.size() == 1);
  CHECK(archived[0].app_time_s_per_rank == plain[0].app_time_s_per_rank);
  CHECK(archived[0].mpi_time_s_per_rank == plain[0].mpi_time_s_per_rank);
  CHECK(archived[0].sources.front() == archive + "/hatchet-tau-cpi-mpi/profile.0.0.0");
}
