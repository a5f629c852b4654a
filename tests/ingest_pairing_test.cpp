// Pairing and series on the NPB-MZ data set (tests/data/mpip/SOURCES.md):
// 60 mpiP reports + 60 NPB stdout files of BT-MZ, LU-MZ, SP-MZ class C.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "ingest/ingest.h"
#include "reader/file_name_info.h"

namespace {

const std::string kData = QNM_TEST_DATA_DIR;

std::vector<qnm::RunStats> TpatkiRuns(qnm::IngestSummary* summary) {
  std::vector<qnm::RunStats> runs = qnm::IngestPaths({kData + "/mpip"}, qnm::IngestOptions{}, summary);
  std::vector<qnm::RunStats> tpatki;
  for (qnm::RunStats& run : runs)
    if (run.data_set == "tpatki-npbmz") tpatki.push_back(std::move(run));
  return tpatki;
}

}  // namespace

TEST_CASE("NPB-MZ runs: 3 benchmarks x 4 thread counts = 12 series of 5 process counts", "[ingest][pairing]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = TpatkiRuns(&summary);
  CHECK(summary.files_seen == 152);  // 91 reports + 60 stdout + SOURCES.md
  CHECK(summary.files_read == 151);
  CHECK(summary.files_paired == 60);
  REQUIRE(runs.size() == 60);
  for (const qnm::RunStats& run : runs) {
    INFO(run.sources.front());
    REQUIRE(run.sources.size() == 2);  // the stdout and its report
    CHECK(run.sources[0].find("npb-stdout/") != std::string::npos);
    CHECK(run.sources[1].find(".mpiP") != std::string::npos);
    CHECK(run.app_time_s_per_rank.size() == static_cast<std::size_t>(run.procs));
    CHECK(qnm::Known(run.wall_time_s));
    CHECK(run.wall_time_s < run.app_time_max_s);  // AppTime also covers set-up and verification
    CHECK(run.machine == "cab");  // mpiP MPI Task Assignment host names cab183, ...
    CHECK(run.derivations.at("machine").find("mpiP MPI Task Assignment") == 0);
  }
  std::vector<qnm::Series> series = qnm::GroupIntoSeries(runs);
  REQUIRE(series.size() == 12);
  std::set<std::string> apps;
  std::set<int> threads;
  for (const qnm::Series& one : series) {
    INFO(one.name);
    apps.insert(one.key.app);
    threads.insert(one.key.threads_per_proc);
    CHECK(one.key.problem_class == "C");
    REQUIRE(one.groups.size() == 5);
    std::vector<int> procs;
    for (const qnm::RunGroup& group : one.groups) {
      procs.push_back(group.procs);
      CHECK(group.runs.size() == 1);
    }
    CHECK(procs == std::vector<int>{1, 2, 4, 8, 16});
  }
  CHECK(apps == std::set<std::string>{"bt-mz", "lu-mz", "sp-mz"});
  CHECK(threads == std::set<int>{4, 8, 12, 16});
}

TEST_CASE("thread counts agree with SOURCES.md: PID order 16, 12, 8, 4 threads", "[ingest][pairing]") {
  qnm::IngestSummary summary;
  std::map<std::pair<std::string, int>, std::map<long long, int>> threads_by_pid;
  for (const qnm::RunStats& run : TpatkiRuns(&summary)) {
    qnm::FileNameInfo name = qnm::ParseFileName(run.sources[1]);
    threads_by_pid[{run.app, run.procs}][name.mpip_pid] = run.threads_per_proc;
  }
  REQUIRE(threads_by_pid.size() == 15);
  for (const auto& [key, by_pid] : threads_by_pid) {
    std::vector<int> in_pid_order;
    for (const auto& [pid, threads] : by_pid) in_pid_order.push_back(threads);
    INFO(key.first << " P=" << key.second);
    CHECK(in_pid_order == std::vector<int>{16, 12, 8, 4});
  }
}

TEST_CASE("a paired run: NPB time and threads, mpiP per-rank data", "[ingest][pairing]") {
  qnm::IngestSummary summary;
  for (const qnm::RunStats& run : TpatkiRuns(&summary)) {
    if (run.sources[1].find("lu-mz.C.16.16.17493.1.mpiP") == std::string::npos) continue;
    CHECK(run.wall_time_s == 3.67);         // NPB "Time in seconds"
    CHECK(run.app_time_max_s == Approx(3.75));  // mpiP AppTime (docs/formats/mpip-format.md §4)
    CHECK(run.threads_per_proc == 8);
    CHECK(run.procs == 16);
    CHECK(run.tool_version == "mpiP 3.3.0");
    CHECK(run.allocation == "one-per-node");
    // The layout the report's host names give comes with the pairing, with its derivation.
    CHECK(run.nodes == 16);
    CHECK(run.ranks_per_node == 1);
    CHECK(run.derivations.count("nodes") == 1);
    CHECK(run.derivations.count("ranks_per_node") == 1);
    CHECK(run.p2p_calls_per_rank.size() == 16);
    CHECK(run.messages_per_rank > 0);
    CHECK(run.derivations.count("pairing") == 1);
    return;
  }
  FAIL("lu-mz.C.16.16.17493 not found");
}

TEST_CASE("copies of one stdout in another data set fold into the same run", "[ingest][pairing]") {
  // llnl-cab_*.mpip.out are the same out.dat files as npb-stdout/ (SOURCES.md);
  // each names its report, so it joins that run instead of adding a duplicate.
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = qnm::IngestPaths(
      {kData + "/mpip", kData + "/npb/llnl-cab_bt-mz.C.np4.th16.mpip.out"}, qnm::IngestOptions{}, &summary);
  CHECK(summary.files_paired == 61);
  int with_three = 0;
  for (const qnm::RunStats& run : runs) with_three += run.sources.size() == 3;
  CHECK(with_three == 1);
}

TEST_CASE("file names give data set, app, class, procs, threads and variant", "[ingest][pairing]") {
  qnm::FileNameInfo info = qnm::ParseFileName("x/tpatki-npbmz__bt-mz.C.4.4.30707.1.mpiP");
  CHECK(info.data_set == "tpatki-npbmz");
  CHECK(info.mpip_app == "bt-mz.C.4");
  CHECK(info.mpip_pid == 30707);
  CHECK(info.procs == 4);
  info = qnm::ParseFileName("pi4-ntua_cg-C-16-4.out");
  CHECK(info.data_set == "pi4-ntua");
  CHECK(info.app == "cg");
  CHECK(info.procs == 16);
  CHECK(info.nodes == 4);
  CHECK(info.Variant() == "ppn4");
  info = qnm::ParseFileName("llnl-cab_sp-mz.C.np8.th64.mpip.out");
  CHECK(info.app == "sp-mz");
  CHECK(info.procs == 8);
  CHECK(info.threads_total == 64);
  CHECK(info.Variant() == "mpip");
  info = qnm::ParseFileName("uminho-search_mpi_662_ep.A_eth_O3_8.out");
  CHECK(info.Variant() == "mpi-662-eth-O3");
  CHECK(info.procs == 8);
  info = qnm::ParseFileName("st-g5k_lu.C.32.td.III.out");
  CHECK(info.repetition == "III");
  CHECK(info.Variant() == "td");
}

TEST_CASE("repeats are summarised by median, min and max", "[ingest][pairing]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs;
  for (const char* rep : {"I", "II", "III", "IV", "V"})
    for (qnm::RunStats& run : qnm::IngestPaths({kData + "/npb/st-g5k_lu.A.4.td." + std::string(rep) + ".out"},
                                               qnm::IngestOptions{true, false}, &summary))
      runs.push_back(std::move(run));
  std::vector<qnm::Series> series = qnm::GroupIntoSeries(runs);
  REQUIRE(series.size() == 1);
  REQUIRE(series[0].groups.size() == 1);
  const qnm::RunGroup& group = series[0].groups[0];
  CHECK(group.runs.size() == 5);
  CHECK(group.median_time_s == 17.44);  // banners: 17.42 17.44 17.44 17.44 17.46
  CHECK(group.min_time_s == 17.42);
  CHECK(group.max_time_s == 17.46);
}

TEST_CASE("an application's output and the mpiP report of the same run in one folder: one record",
          "[ingest][pairing]") {
  // tests/data/cloverleaf-mpip: CloverLeaf's clover.out and its run's mpiP report (the program
  // clover_leaf, which no NPB stdout names), one folder per run.
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs =
      qnm::IngestPaths({kData + "/cloverleaf-mpip"}, qnm::IngestOptions{}, &summary);
  REQUIRE(runs.size() == 2);
  CHECK(summary.files_paired == 2);
  for (const qnm::RunStats& run : runs) {
    CHECK(run.app == "cloverleaf");  // the output's identity, not mpiP's program name
    CHECK(run.problem_class.str().rfind("960x960 cells, 87 steps, deck ", 0) == 0);
    CHECK(run.mpi_time_s_per_rank.size() == static_cast<std::size_t>(run.procs));
    CHECK(run.tool_version == "mpiP 3.5.0");
    CHECK(run.derivations.at("pairing").find("(mpiP 3.5.0, the same process count)") != std::string::npos);
  }
  // clover-np4: "Wall clock 4.4748899936676025" after "Clover is finishing"; mpiP's MPI Time table,
  // task 3: AppTime 4.88, MPITime 2.06.
  const qnm::RunStats& four = runs[1].procs == 4 ? runs[1] : runs[0];
  CHECK(four.wall_time_s == 4.4748899936676025);
  CHECK(four.mpi_time_s_per_rank[3] == 2.06);
  CHECK(four.app_time_s_per_rank[3] == 4.88);
}
