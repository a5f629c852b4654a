// The CUBE4 profile reader on real Score-P profiles (1.4 big-endian, 2.0.2,
// 9.0-dev, the Cube 4.8 checksum bug), against Cube's own values, against the
// trace of the same run, and on the .cubex files our writer produces.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <numeric>

#include "cube/cube_profile.h"
#include "ingest/ingest.h"
#include "reader/experiment_name.h"
#include "trace/cube_writer.h"
#include "trace/otf2_reader.h"
#include "trace/trace_run_stats.h"
#include "trace/wait_states.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

using namespace qnm;
namespace fs = std::filesystem;

namespace {

std::string DataPath(const std::string& relative) { return std::string(QNM_TEST_DATA_DIR) + "/" + relative; }

RunStats ReadCube(const std::string& relative) {
  std::string path = DataPath(relative);
  return ReadCubeRunStats(ReadFile(path), path);
}

const CallSiteStats* FindSite(const RunStats& run, const std::string& function, const std::vector<double>& calls) {
  for (const CallSiteStats& site : run.call_sites)
    if (site.mpi_function == function && site.calls_per_rank == calls) return &site;
  return nullptr;
}

}  // namespace

TEST_CASE("cube: Score-P 9 profile gives Cube's own inclusive and exclusive values", "[ingest][cube]") {
  RunStats run = ReadCube("cube/time.p4.n2000.x1.r0/profile.cubex");
  REQUIRE(run.procs == 4);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.app == "bg_time");  // the program's root region
  CHECK(run.tool_version == "Score-P 9.0-dev");
  // The system tree puts each rank on its own node (node mpsd0023, mpsd0027, ...).
  CHECK(run.nodes == 4);
  CHECK(run.ranks_per_node == 1);
  CHECK(run.derivations.count("nodes") == 1);
  // Cube's inclusive time of the root per process (pyCubexR incl.csv, cube_dump).
  const std::vector<double> root = {0.853407463545, 0.843940924113, 0.842708688957, 0.844093740266};
  for (int r = 0; r < 4; ++r) CHECK(run.app_time_s_per_rank[r] == Approx(root[r]).epsilon(1e-11));
  // `time` is INCLUSIVE: its rows follow Cube's wide enumeration; a leaf's
  // exclusive time is its inclusive time (MPI_Init, one visit per rank).
  const CallSiteStats* init = FindSite(run, "Init", {1, 1, 1, 1});
  REQUIRE(init != nullptr);
  CHECK(init->source_location == "bg_time/main/MPI_Init");
  const std::vector<double> init_s = {0.460242220236, 0.450698522463, 0.449462885925, 0.450932123322};
  for (int r = 0; r < 4; ++r) CHECK(init->time_s_per_rank[r] == Approx(init_s[r]).epsilon(1e-11));
  // `visits` and `bytes_sent` are EXCLUSIVE: rows in depth-first order.
  const CallSiteStats* send = FindSite(run, "Send", {150, 0, 0, 0});
  REQUIRE(send != nullptr);
  CHECK(send->bytes_sent_per_rank[0] == 1200000);
  CHECK(std::stod(run.details.at("bytes_received_total")) > 0);
  // MPI time is the sum of the MPI call paths; compute is what is left.
  for (int r = 0; r < 4; ++r) {
    double sum = 0;
    for (const CallSiteStats& site : run.call_sites) sum += site.time_s_per_rank[r];
    CHECK(run.mpi_time_s_per_rank[r] == Approx(sum).epsilon(1e-12));
    CHECK(run.mpi_time_s_per_rank[r] < run.app_time_s_per_rank[r]);
  }
  CHECK(run.compute_time_mean_s > 0.3);
}

TEST_CASE("cube: big-endian Score-P 1.4 profile, PARALLEL root is not MPI", "[ingest][cube]") {
  RunStats run = ReadCube("cube/kripke.p8.d2.g32.r1/profile.cubex");
  REQUIRE(run.procs == 8);
  // BlueGene's system tree stops at a node card (class nodecard): no node, no layout.
  CHECK(run.nodes == 0);
  CHECK(run.ranks_per_node == 0);
  for (const CallSiteStats& site : run.call_sites) CHECK(site.source_location.rfind("MPI_", 0) != 0);
  for (const CallSiteStats& site : run.call_sites) CHECK(site.mpi_function != "PARALLEL");
  for (int r = 0; r < 8; ++r) {
    CHECK(run.app_time_s_per_rank[r] > 18.0);   // 18.6 s run: values are not byte-swapped garbage
    CHECK(run.app_time_s_per_rank[r] < 18.7);
    CHECK(run.mpi_time_s_per_rank[r] > 0);
    CHECK(run.mpi_time_s_per_rank[r] < run.app_time_s_per_rank[r]);
  }
  CHECK(run.messages_per_rank == Approx(12000));
  CHECK(run.bytes_per_message == Approx(18440));
}

TEST_CASE("cube: the Cube 4.8 tar-checksum bug is read as Cube reads it", "[ingest][cube]") {
  RunStats run = ReadCube("cube/bt-mz_sum.p2.r1/cube4.8_with_checksum_bug.cubex");
  CHECK(run.procs == 2);
  CHECK(run.threads_per_proc == 4);
  CHECK(run.app_time_max_s == Approx(62.08).margin(0.01));
  // Without the ustar magic the same bytes are not a tar archive at all.
  std::string bytes = ReadFile(DataPath("cube/bt-mz_sum.p2.r1/cube4.8_with_checksum_bug.cubex"));
  bytes.replace(257, 5, "xxxxx");
  CHECK_THROWS_AS(ReadCubeRunStats(bytes, "bad.cubex"), InputError);
}

TEST_CASE("cube: the trace and the profile of the same run agree (sstmacro)", "[ingest][cube][trace]") {
  RunStats profile = ReadCube("otf2/sstmacro-mpi-coverage-test/profile.cubex");
  RunStats trace = trace::ReadTraceRunStats(DataPath("otf2/sstmacro-mpi-coverage-test/traces.otf2"));
  REQUIRE(profile.procs == trace.procs);
  // Both system trees put the 10 ranks on 10 nodes (kn1.eth ... : class node).
  CHECK(profile.nodes == 10);
  CHECK(trace.nodes == 10);
  CHECK(trace.ranks_per_node == 1);
  CHECK(trace.derivations.count("ranks_per_node") == 1);
  REQUIRE(profile.call_sites.size() == trace.call_sites.size());
  std::map<std::string, const CallSiteStats*> by_path;
  for (const CallSiteStats& site : trace.call_sites) by_path[site.source_location] = &site;
  for (const CallSiteStats& site : profile.call_sites) {
    INFO(site.source_location);
    REQUIRE(by_path.count(site.source_location) == 1);
    const CallSiteStats& other = *by_path[site.source_location];
    CHECK(site.calls_per_rank == other.calls_per_rank);
    CHECK(site.bytes_sent_per_rank == other.bytes_sent_per_rank);
    // Score-P sums durations in seconds per visit; the trace subtracts tick
    // stamps: the two differ by rounding only (< 1 µs over a run).
    for (int r = 0; r < profile.procs; ++r) CHECK(site.time_s_per_rank[r] == Approx(other.time_s_per_rank[r]).margin(1e-6));
  }
  for (int r = 0; r < profile.procs; ++r) {
    CHECK(profile.mpi_time_s_per_rank[r] == Approx(trace.mpi_time_s_per_rank[r]).margin(1e-6));
    // The profile holds time inside regions; the trace spans first to last
    // event, so it adds the time outside any region (< 1 ms here).
    CHECK(profile.app_time_s_per_rank[r] <= trace.app_time_s_per_rank[r] + 1e-9);
    CHECK(trace.app_time_s_per_rank[r] - profile.app_time_s_per_rank[r] < 1e-3);
    CHECK(profile.p2p_calls_per_rank[r] == trace.p2p_calls_per_rank[r]);
    CHECK(profile.collective_calls_per_rank[r] == trace.collective_calls_per_rank[r]);
    CHECK(profile.p2p_bytes_sent_per_rank[r] == trace.p2p_bytes_sent_per_rank[r]);
    CHECK(profile.collective_bytes_sent_per_rank[r] == trace.collective_bytes_sent_per_rank[r]);
  }
}

TEST_CASE("cube: a .cubex our writer produces reads back with the analysis' values", "[ingest][cube][trace]") {
  for (const char* tag : {"sstmacro-mpi-coverage-test", "synthetic-patterns-4rank"}) {
    INFO(tag);
    trace::Trace trace = trace::ReadOtf2Trace(DataPath(std::string("otf2/") + tag + "/traces.otf2"));
    trace::WaitStateResult analysis = trace::AnalyzeWaitStates(trace);
    RunStats expected = trace::RunStatsFromTrace(trace, analysis);
    std::string cubex = trace::CubeReport(trace, analysis);
    RunStats read = ReadCubeRunStats(cubex, std::string(tag) + ".cubex");
    // The cube has one root (issue 18): where the trace's call tree has
    // several top-level paths or time outside every region, the writer adds
    // one above them, and the cube's call paths start with it (as Score-P's do).
    CubeProfile profile = ParseCubeProfile(cubex, std::string(tag) + ".cubex");
    std::string added_root;
    if (profile.call_nodes.size() == trace.call_paths.size() + 1)
      added_root = profile.regions[profile.call_nodes[0].region].name + "/";
    REQUIRE(read.procs == expected.procs);
    REQUIRE(read.call_sites.size() == expected.call_sites.size());
    for (std::size_t s = 0; s < read.call_sites.size(); ++s) {
      CHECK(read.call_sites[s].source_location == added_root + expected.call_sites[s].source_location);
      CHECK(read.call_sites[s].calls_per_rank == expected.call_sites[s].calls_per_rank);
      for (int r = 0; r < read.procs; ++r)
        CHECK(read.call_sites[s].time_s_per_rank[r] == Approx(expected.call_sites[s].time_s_per_rank[r]).margin(1e-12));
    }
    for (int r = 0; r < read.procs; ++r)
      CHECK(read.mpi_time_s_per_rank[r] == Approx(expected.mpi_time_s_per_rank[r]).margin(1e-12));
  }
}

TEST_CASE("cube: Extra-P cube-set and Score-P experiment folder names", "[ingest][cube]") {
  ExperimentName name;
  REQUIRE(ParseExperimentName("fastest.p16.size131072.r1", &name));
  CHECK(name.app == "fastest");
  CHECK(name.procs == 16);
  CHECK(name.parameters == "size131072");
  CHECK(name.repetition == 1);
  REQUIRE(ParseExperimentName("bt-mz_sum.p2.r1", &name));
  CHECK(name.app == "bt-mz_sum");
  REQUIRE(ParseExperimentName("scorep-20260101_1200_42", &name));
  CHECK(name.scorep);
  CHECK_FALSE(ParseExperimentName("results", &name));
  CHECK_FALSE(ParseExperimentName("lu.C.x", &name));  // no p<procs>: not a cube set

  // Two Score-P experiments at 32 and 64 processes in one folder: one series.
  fs::path root = fs::temp_directory_path() / "qnm-cube-series-test";
  fs::remove_all(root);
  int index = 0;
  for (const char* tag : {"tracer-stencil4d-32", "tracer-stencil4d-64"}) {
    trace::Trace trace = trace::ReadOtf2Trace(DataPath(std::string("otf2/") + tag + "/traces.otf2"));
    fs::path folder = root / ("scorep-20260101_1200_" + std::to_string(++index));
    fs::create_directories(folder);
    WriteFileAtomically((folder / "profile.cubex").string(), trace::CubeReport(trace, trace::AnalyzeWaitStates(trace)));
  }
  IngestSummary summary;
  std::vector<Series> series = GroupIntoSeries(IngestPaths({root.string()}, IngestOptions{true, false}, &summary));
  fs::remove_all(root);
  REQUIRE(series.size() == 1);
  REQUIRE(series[0].groups.size() == 2);
  CHECK(series[0].groups[0].procs == 32);
  CHECK(series[0].groups[1].procs == 64);
}

TEST_CASE("cube: truncated and bit-flipped profiles fail with one line naming the file", "[ingest][cube][robustness]") {
  for (const char* relative : {"cube/time.p4.n2000.x1.r0/profile.cubex", "cube/kripke.p8.d2.g32.r1/profile.cubex",
                               "cube/bt-mz_sum.p2.r1/cube4.8_with_checksum_bug.cubex"}) {
    const std::string original = ReadFile(DataPath(relative));
    auto check = [&](const std::string& bytes, const std::string& what) {
      INFO(relative << " " << what);
      try {
        RunStats run = ReadCubeRunStats(bytes, "corrupt.cubex");
        for (double t : run.app_time_s_per_rank) CHECK((std::isfinite(t) && t >= 0));
      } catch (const InputError& error) {
        std::string message = error.what();
        CHECK(message.rfind("corrupt.cubex: ", 0) == 0);
        CHECK(message.find('\n') == std::string::npos);
      }
    };
    for (std::size_t cut = 0; cut < original.size(); cut += original.size() / 40 + 1)
      check(original.substr(0, cut), "cut at " + std::to_string(cut));
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (int flip = 0; flip < 60; ++flip) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      std::string bytes = original;
      std::size_t at = static_cast<std::size_t>(state >> 33) % bytes.size();
      bytes[at] = static_cast<char>(bytes[at] ^ (1 << (state & 7)));
      check(bytes, "bit flip at " + std::to_string(at));
    }
  }
}

// Issue 19: the record keeps only the call-tree roots and the MPI call paths,
// decoded value by value; it must give the very record the dense tables give.
TEST_CASE("cube: the record's rows alone give the same record as every call path", "[ingest][cube][memory]") {
  int profiles = 0;
  for (const auto& entry : fs::recursive_directory_iterator(DataPath("cube"))) {
    if (entry.path().extension() != ".cubex") continue;
    const std::string path = entry.path().string();
    const std::string bytes = ReadFile(path);
    CubeProfile dense, kept;
    try {
      dense = ParseCubeProfile(bytes, path, CubeValues::kEveryCallPath);
    } catch (const InputError&) {
      CHECK_THROWS_AS(ParseCubeProfile(bytes, path, CubeValues::kRecordRows), InputError);
      continue;
    }
    kept = ParseCubeProfile(bytes, path, CubeValues::kRecordRows);
    INFO(path);
    ++profiles;
    // Fewer rows held: the roots and MPI call paths only.
    CHECK(kept.exclusive_time.size() <= dense.exclusive_time.size());
    const RunStats a = CubeProfileToRunStats(dense), b = CubeProfileToRunStats(kept);
    REQUIRE(a.procs == b.procs);
    REQUIRE(a.app_time_s_per_rank.size() == b.app_time_s_per_rank.size());
    for (std::size_t r = 0; r < a.app_time_s_per_rank.size(); ++r) {
      CHECK(b.app_time_s_per_rank[r] == Approx(a.app_time_s_per_rank[r]).epsilon(1e-12).margin(1e-12));
      CHECK(b.mpi_time_s_per_rank[r] == Approx(a.mpi_time_s_per_rank[r]).epsilon(1e-9).margin(1e-9));
    }
    CHECK(a.p2p_calls_per_rank == b.p2p_calls_per_rank);
    CHECK(a.collective_bytes_sent_per_rank.size() == b.collective_bytes_sent_per_rank.size());
    REQUIRE(a.call_sites.size() == b.call_sites.size());
    for (std::size_t s = 0; s < a.call_sites.size(); ++s) {
      CHECK(a.call_sites[s].source_location == b.call_sites[s].source_location);
      CHECK(b.call_sites[s].total_time_s == Approx(a.call_sites[s].total_time_s).epsilon(1e-9).margin(1e-9));
      CHECK(a.call_sites[s].calls_per_rank == b.call_sites[s].calls_per_rank);
    }
  }
  CHECK(profiles >= 3);  // Score-P 9, big-endian 1.4, the checksum-bug cube
}

TEST_CASE("cube: a table declared beyond 2^24 values is read for the rows the record needs", "[ingest][cube][memory]") {
  // 861 call paths x 20,000 locations = 17,220,000 values declared; the index
  // lists the root and two MPI call paths (tests/data/cube-large/README.md).
  const std::string path = DataPath("cube-large/declared-17m-values.cubex");
  const std::string bytes = ReadFile(path);
  try {
    ParseCubeProfile(bytes, path, CubeValues::kEveryCallPath);
    FAIL("the dense tables of every call path should be refused");
  } catch (const InputError& error) {
    CHECK(std::string(error.what()).find("more than the 16777216 this reader holds") != std::string::npos);
  }
  const CubeProfile kept = ParseCubeProfile(bytes, path, CubeValues::kRecordRows);
  CHECK(kept.exclusive_time.size() == 3u * 20000u);
  const RunStats run = ReadCubeRunStats(bytes, path);
  CHECK(run.procs == 20000);
  CHECK(run.app_time_mean_s == Approx(10.0));
  CHECK(run.mpi_time_mean_s == Approx(0.02));  // MPI_Send and MPI_Allreduce, 0.01 s each
  REQUIRE(run.call_sites.size() == 2);
  CHECK(run.call_sites[0].mpi_function == "Send");
  CHECK(run.call_sites[0].total_calls == Approx(9.0 * 20000));
  CHECK(run.call_sites[1].mpi_function == "Allreduce");
}
