// OTF2 traces enter through the same IngestPaths() as mpiP and NPB files: the
// anchor `traces.otf2` is one run; its event folder and definitions are not
// files of their own (tests/data/otf2/SOURCES.md lists the seven traces).
// Score-P's profile.cubex beside the sstmacro trace is a run of its own.
#include <catch2/catch.hpp>

#include <map>

#include "ingest/ingest.h"

TEST_CASE("ingest reads every OTF2 anchor as one run and skips the archive's own files", "[ingest][otf2]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs =
      qnm::IngestPaths({std::string(QNM_TEST_DATA_DIR) + "/otf2"}, qnm::IngestOptions{}, &summary);
  REQUIRE(runs.size() == 8);  // 7 traces + 1 CUBE4 profile
  CHECK(summary.files_read == 8);
  // SOURCES.md, 2 MANIFEST.md, 5 scorep.cfg, expected_patterns.json.
  CHECK(summary.skipped.size() == 9);
  for (const qnm::SkippedFile& skipped : summary.skipped) {
    CHECK(skipped.path.find("/traces/") == std::string::npos);
    CHECK(skipped.path.find("traces.def") == std::string::npos);
  }
  std::map<std::string, int> procs_by_trace;
  for (const qnm::RunStats& run : runs) {
    REQUIRE(run.sources.size() >= 1);
    std::string dir = run.sources.front();
    dir = dir.substr(0, dir.rfind('/'));
    procs_by_trace[dir.substr(dir.rfind('/') + 1)] = run.procs;
    CHECK(run.app_time_s_per_rank.size() == static_cast<std::size_t>(run.procs));
    CHECK(run.mpi_time_mean_s > 0);
    // The sstmacro profile has no user regions: its MPI time is its app time, up to rounding.
    CHECK(run.mpi_time_mean_s <= run.app_time_mean_s * (1 + 1e-12));
  }
  CHECK(procs_by_trace["pipit-ping-pong-otf2"] == 2);
  CHECK(procs_by_trace["pipit-ping-pong-otf2-papi"] == 2);
  CHECK(procs_by_trace["sstelements-emberotf2-test"] == 4);
  CHECK(procs_by_trace["sstmacro-mpi-coverage-test"] == 10);
  CHECK(procs_by_trace["synthetic-patterns-4rank"] == 4);
  CHECK(procs_by_trace["tracer-stencil4d-32"] == 32);
  CHECK(procs_by_trace["tracer-stencil4d-64"] == 64);
}

TEST_CASE("a trace and an mpiP report give records of the same shape", "[ingest][otf2]") {
  std::string data = QNM_TEST_DATA_DIR;
  std::vector<qnm::RunStats> runs = qnm::IngestPaths(
      {data + "/otf2/pipit-ping-pong-otf2/traces.otf2"}, qnm::IngestOptions{}, nullptr);
  REQUIRE(runs.size() == 1);
  const qnm::RunStats& run = runs.front();
  CHECK(run.procs == 2);
  // 8 message sizes from 16 KiB to 2 MiB, one blocking send each way (SOURCES.md).
  REQUIRE(run.p2p_calls_per_rank.size() == 2);
  CHECK(run.p2p_calls_per_rank[0] == 8);
  CHECK(run.p2p_bytes_sent_per_rank[0] == Approx(16384.0 * (1 + 2 + 4 + 8 + 16 + 32 + 64 + 128)));
  CHECK(run.messages_per_rank > 0);
  CHECK(!run.call_sites.empty());
}
