// HPCToolkit databases (hpctoolkit/hpctoolkit_database.h). Acceptance: Hatchet's
// own HPCToolkit test inputs (tests/data/hpctoolkit: cpi, 4 ranks; osu_allgather,
// 10 ranks x 2 threads) read as Hatchet reads them (hatchet_reads.json, written
// by scripts/compare_hpctoolkit_reads_with_hatchet.py). Damage: copies of them
// changed in a temporary folder.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hpctoolkit/hpctoolkit_database.h"
#include "ingest/ingest.h"
#include "tests/ingest_test_util.h"
#include "tests/temp_dir.h"
#include "textio/xml_text.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace fs = std::filesystem;
using qnm::testing::IngestErrorOf;
using qnm::testing::IngestPath;
using qnm::testing::SameAsPeer;

namespace {


const std::string kHpctoolkit = std::string(QNM_TEST_DATA_DIR) + "/hpctoolkit";


// A copy of database `name` in `dir`, for damage.
fs::path CopyOf(const fs::path& dir, const std::string& name) {
  fs::create_directories(dir);
  const fs::path copy = dir / name;
  fs::copy(kHpctoolkit + "/" + name, copy, fs::copy_options::recursive);
  return copy;
}

std::string MetricDbOfRank(const fs::path& database, int rank, int thread = 0) {
  for (const auto& entry : fs::directory_iterator(database)) {
    qnm::MetricDbName name;
    if (qnm::ParseMetricDbName(entry.path().string(), &name) && name.rank == rank && name.thread == thread)
      return entry.path().string();
  }
  return "";
}

}  // namespace

TEST_CASE("Hatchet's HPCToolkit databases read as Hatchet reads them", "[ingest][hpctoolkit][acceptance]") {
  std::ifstream file(kHpctoolkit + "/hatchet_reads.json");
  const nlohmann::json peer = nlohmann::json::parse(file);
  for (const auto& [database, threads, app] : {std::tuple{"hatchet-cpi-database", 1, "cpi"},
                                               std::tuple{"hatchet-allgather-database", 2, "osu_allgather"}}) {
    INFO(database);
    const std::vector<qnm::RunStats> runs = IngestPath(kHpctoolkit + "/" + database);
    REQUIRE(runs.size() == 1);
    const qnm::RunStats& run = runs.front();
    const nlohmann::json& expected = peer.at(database);
    CHECK(run.procs == expected.at("procs").get<int>());
    CHECK(SameAsPeer(run.app_time_s_per_rank, expected.at("app_time_s_per_rank")));
    CHECK(SameAsPeer(run.mpi_time_s_per_rank, expected.at("mpi_time_s_per_rank")));
    std::size_t matched = 0;
    for (const qnm::CallSiteStats& site : run.call_sites) {
      INFO(site.mpi_function);
      REQUIRE(expected.at("time_s_per_routine").contains(site.mpi_function));
      CHECK(SameAsPeer(site.time_s_per_rank, expected.at("time_s_per_routine").at(site.mpi_function)));
      CHECK(std::isnan(site.total_calls));  // sampled: no calls
      CHECK(site.calls_per_rank.empty());
      ++matched;
    }
    CHECK(matched == expected.at("time_s_per_routine").size());
    CHECK(run.threads_per_proc == threads);
    CHECK(run.app.str() == app);
    CHECK(run.nodes == 1);  // one host id in every file name
    CHECK(run.ranks_per_node == run.procs);
    CHECK(run.sources.front() == kHpctoolkit + "/" + database + "/experiment.xml");
  }
}

TEST_CASE("an HPCToolkit database folder is one run; its metric-db and src files are its own",
          "[ingest][hpctoolkit]") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = IngestPath(kHpctoolkit, &summary, false);
  CHECK(runs.size() == 3);  // and the format-4 database (hpctoolkit_v4_database_test.cpp)
  // "MB read" counts the metric-db files the reader opened: at least every thread-0 file and experiment.xml.
  double opened = 0;
  for (const std::string database : {"hatchet-cpi-database", "hatchet-allgather-database"})
    for (const auto& entry : fs::directory_iterator(kHpctoolkit + "/" + database)) {
      qnm::MetricDbName name;
      if (entry.path().filename() == "experiment.xml" ||
          (qnm::ParseMetricDbName(entry.path().string(), &name) && name.thread == 0))
        opened += static_cast<double>(entry.file_size());
    }
  CHECK(summary.bytes_read >= opened);
  for (const qnm::SkippedFile& skipped : summary.skipped) {
    INFO(skipped.path);
    CHECK(skipped.path.find(".metric-db") == std::string::npos);
    CHECK(skipped.path.find("/src/") == std::string::npos);
    CHECK(skipped.path.find(".db") == std::string::npos);
    CHECK(skipped.path.find("/metrics/") == std::string::npos);
    CHECK(skipped.path.find("FORMATS.md") == std::string::npos);
  }
}

TEST_CASE("metric-db file names: rank, thread and host id from the right", "[ingest][hpctoolkit]") {
  qnm::MetricDbName name;
  REQUIRE(qnm::ParseMetricDbName("db/1.osu_allgather-000007-001-a8c00471-152584-0.metric-db", &name));
  CHECK(name.rank == 7);
  CHECK(name.thread == 1);
  CHECK(name.host_id == "a8c00471");
  REQUIRE(qnm::ParseMetricDbName("1.my-app-v2-000012-000-7f0001-99-0.metric-db", &name));  // '-' in the program
  CHECK(name.rank == 12);
  CHECK(!qnm::ParseMetricDbName("1.cpi-000000-000-a8c00270-160443-0.metric", &name));
  CHECK(!qnm::ParseMetricDbName("cpi-0-0-a8-1-0.metric-db", &name));  // no "<n>."
  CHECK(!qnm::ParseMetricDbName("1.cpi-x-000-a8c00270-160443-0.metric-db", &name));
}

TEST_CASE("the outermost MPI frames of a tree, C and Fortran names", "[ingest][hpctoolkit]") {
  const std::string xml = R"xml(<?xml version="1.0"?>
<HPCToolkitExperiment version="2.2"><Header n="app"/>
<SecCallPathProfile i="0" n="app"><SecHeader>
  <MetricDBTable>
    <MetricDB i="0" n="REALTIME (sec) (I)" t="inclusive" db-id="1" db-num-metrics="3"/>
    <MetricDB i="1" n="CPUTIME (usec) (I)" t="inclusive" db-id="0" db-num-metrics="3"/>
  </MetricDBTable>
  <ProcedureTable>
    <Procedure i="1" n="main"/><Procedure i="2" n="MPI_Send"/><Procedure i="3" n="PMPI_Send"/>
    <Procedure i="4" n="mpi_allreduce__"/><Procedure i="5" n="MPIR_Barrier_impl"/><Procedure i="6" n="MPI_Comm_rank"/>
  </ProcedureTable>
</SecHeader><SecCallPathProfileData>
  <PF i="2" n="1"><C i="3"><PF i="4" n="2"><C i="5"><PF i="6" n="3"/></C></PF></C>
    <L i="7"><C i="8"><PF i="9" n="4"/></C></L>
    <C i="10"><PF i="11" n="5"/></C><C i="12"><Pr i="13" n="6"/></C></PF>
</SecCallPathProfileData></SecCallPathProfile></HPCToolkitExperiment>)xml";
  const qnm::HpctoolkitExperiment experiment = qnm::ParseHpctoolkitExperiment(xml, "synthetic.xml");
  CHECK(experiment.time_metric == "REALTIME (sec) (I)");  // wall clock before CPU time
  CHECK(experiment.time_column == 1);
  CHECK(experiment.seconds_per_unit == 1.0);
  CHECK(experiment.top_level == std::vector<int>{2});
  CHECK(experiment.max_node_id == 13);
  std::vector<std::pair<int, std::string>> frames;
  for (const auto& frame : experiment.mpi_frames) frames.emplace_back(frame.node, frame.routine);
  std::sort(frames.begin(), frames.end());
  // PMPI_Send under MPI_Send is not counted again; MPIR_ internals are no MPI frames.
  CHECK(frames == std::vector<std::pair<int, std::string>>{{4, "Send"}, {9, "Allreduce"}, {13, "Comm_rank"}});
}

TEST_CASE("a damaged HPCToolkit database is one line naming the file", "[ingest][hpctoolkit]") {
  qnm::testing::TempDir dir("qnm", "hpctoolkit-damage");
  const fs::path cut = CopyOf(dir.path, "hatchet-cpi-database");
  const std::string rank1 = MetricDbOfRank(cut, 1);
  const std::string bytes = qnm::ReadFile(rank1);
  qnm::WriteFileAtomically(rank1, bytes.substr(0, bytes.size() - 8));
  CHECK_THAT(IngestErrorOf(cut.string()), Catch::Contains(rank1) && Catch::Contains("(cut short)"));

  std::string nan = bytes;
  // Node 2 (the top-level <program root>), column 0 (the inclusive CPU time): a NaN.
  for (int k = 0; k < 8; ++k) nan[32 + 2 * 8 + k] = static_cast<char>(k == 0 ? 0x7f : k == 1 ? 0xf8 : 0);
  qnm::WriteFileAtomically(rank1, nan);
  CHECK_THAT(IngestErrorOf(cut.string()), Catch::Contains(rank1) && Catch::Contains("not a time"));

  std::string little = bytes;
  little[23] = 'l';
  qnm::WriteFileAtomically(rank1, little);
  CHECK_THAT(IngestErrorOf(cut.string()), Catch::Contains("endianness 'l'"));

  fs::remove(rank1);
  CHECK_THAT(IngestErrorOf(cut.string()), Catch::Contains("no metric-db of rank 1, thread 0"));

  const fs::path renamed = CopyOf(dir.path, "hatchet-allgather-database");
  std::string xml = qnm::ReadFile((renamed / "experiment.xml").string());
  const std::string time = "n=\"CPUTIME (usec) (I)\"";
  xml.replace(xml.find(time), time.size(), "n=\"CYCLES (I)\"");
  qnm::WriteFileAtomically((renamed / "experiment.xml").string(), xml);
  CHECK_THAT(IngestErrorOf(renamed.string()),
             Catch::Contains("experiment.xml") && Catch::Contains("no inclusive time metric"));

  // A thread's file whose values are not read is still checked: header and size.
  const fs::path threads = CopyOf(dir.path / "threads", "hatchet-allgather-database");
  const std::string helper = MetricDbOfRank(threads, 3, 1);
  const std::string helper_bytes = qnm::ReadFile(helper);
  qnm::WriteFileAtomically(helper, helper_bytes.substr(0, helper_bytes.size() / 2));
  CHECK_THAT(IngestErrorOf(threads.string()), Catch::Contains(helper) && Catch::Contains("(cut short)"));

  // More elements than a tree is built of: refused before parsing, not 4 GB of pugixml nodes.
  const fs::path huge = dir.path / "huge";
  fs::create_directories(huge);
  std::string elements = "<?xml version=\"1.0\"?>\n<HPCToolkitExperiment version=\"2.0\">";
  for (std::size_t k = 0; k < qnm::kXmlMaxElements; ++k) elements += "<a/>";
  qnm::WriteFileAtomically((huge / "experiment.xml").string(), elements + "</HPCToolkitExperiment>\n");
  CHECK_THAT(IngestErrorOf(huge.string()),
             Catch::Contains("experiment.xml: holds 8000003 XML elements, more than the 8000000"));

  const fs::path empty = dir.path / "no-metric-db";
  fs::create_directories(empty);
  fs::copy_file(kHpctoolkit + "/hatchet-cpi-database/experiment.xml", empty / "experiment.xml");
  CHECK_THAT(IngestErrorOf(empty.string()), Catch::Contains("no *.metric-db beside it"));
  for (const std::string& message : {IngestErrorOf(cut.string()), IngestErrorOf(renamed.string()), IngestErrorOf(empty.string())})
    CHECK(message.find('\n') == std::string::npos);
}

TEST_CASE("an HPCToolkit database inside a tar.gz reads as on disk, named as its member", "[ingest][hpctoolkit][archive]") {
  qnm::testing::TempDir dir("qnm", "hpctoolkit-archive");
  const std::string archive = (dir.path / "databases.tar.gz").string();
  const std::string command = "tar --format=ustar -czf " + archive + " -C " + kHpctoolkit +
                              " hatchet-cpi-database hatchet-allgather-database";
  REQUIRE(std::system(command.c_str()) == 0);
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> archived = IngestPath(archive, &summary);
  const std::vector<qnm::RunStats> plain = qnm::IngestPaths(
      {kHpctoolkit + "/hatchet-cpi-database", kHpctoolkit + "/hatchet-allgather-database"}, qnm::IngestOptions(), nullptr);
  REQUIRE(archived.size() == 2);
  REQUIRE(plain.size() == 2);
  for (const qnm::RunStats& run : archived) {
    const qnm::RunStats& twin = plain[0].procs == run.procs ? plain[0] : plain[1];
    CHECK(run.app_time_s_per_rank == twin.app_time_s_per_rank);
    CHECK(run.mpi_time_s_per_rank == twin.mpi_time_s_per_rank);
    CHECK(run.sources.front().rfind(archive + "/hatchet-", 0) == 0);
  }
  CHECK(summary.skipped.empty());  // the src/ copies and the metric-db files are the databases' own
}

TEST_CASE("two HPCToolkit runs that share an experiment.xml are two measurements", "[ingest][hpctoolkit]") {
  qnm::testing::TempDir dir("qnm", "hpctoolkit-repeats");
  const fs::path first = CopyOf(dir.path, "hatchet-cpi-database");
  fs::create_directories(dir.path / "again");
  const fs::path second = CopyOf(dir.path / "again", "hatchet-cpi-database");
  const std::string rank0 = MetricDbOfRank(second, 0);
  std::string bytes = qnm::ReadFile(rank0);
  bytes[32 + 2 * 8 + 7] ^= 0x01;  // node 2's time, its last mantissa bit
  qnm::WriteFileAtomically(rank0, bytes);
  CHECK(IngestPath(dir.path.string(), nullptr, false).size() == 2);
  fs::remove_all(second);
  fs::copy(first, second, fs::copy_options::recursive);  // a true copy: one measurement
  CHECK(IngestPath(dir.path.string(), nullptr, false).size() == 1);
}
