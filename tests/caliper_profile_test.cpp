// Caliper region profiles (caliper/caliper_profile.h, caliper/caliper_stream.h). Acceptance: the
// .cali files under tests/data/caliper read as Caliper's own Python reader reads them
// (caliperreader_reads.json, written by scripts/compare_caliper_reads_with_caliperreader.py): Thicket's
// LULESH campaign at 27..343 ranks, Caliper's and Hatchet's test profiles, and a test program run here
// under Caliper 2.15 at P = 1, 2, 4 with both profiling configurations (tests/data/caliper/SOURCES.md).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "caliper/caliper_profile.h"
#include "caliper/caliper_stream.h"
#include "ingest/ingest.h"
#include "tests/command_runner.h"
#include "tests/ingest_test_util.h"
#include "tests/temp_dir.h"
#include "util/input_error.h"

using qnm::testing::IngestErrorOf;
using qnm::testing::IngestPath;
using qnm::testing::SameAsPeer;

namespace {

const std::string kCaliper = std::string(QNM_TEST_DATA_DIR) + "/caliper";

bool Close(double a, double b) { return SameAsPeer({a}, nlohmann::json::array({b})); }

const qnm::CallSiteStats* Site(const qnm::RunStats& run, const std::string& routine) {
  for (const qnm::CallSiteStats& site : run.call_sites)
    if (site.mpi_function == routine) return &site;
  return nullptr;
}

// A record of every rank's times equals a peer's reading of it (caliperreader_reads.json,
// hatchet_json_reads.json): application and MPI time per rank, and per MPI routine its time per rank
// and its calls (none when the peer read no calls).
void CheckPerRankAsPeer(const qnm::RunStats& run, const nlohmann::json& peer) {
  CHECK(SameAsPeer(run.app_time_s_per_rank, peer["app_time_s_per_rank"]));
  CHECK(SameAsPeer(run.mpi_time_s_per_rank, peer["mpi_time_s_per_rank"]));
  CHECK(run.call_sites.size() == peer["time_s_per_routine"].size());
  for (const auto& [routine, per_rank] : peer["time_s_per_routine"].items()) {
    INFO(routine);
    const qnm::CallSiteStats* site = Site(run, routine);
    REQUIRE(site != nullptr);
    CHECK(SameAsPeer(site->time_s_per_rank, per_rank));
    if (peer.contains("calls_per_routine"))
      CHECK(SameAsPeer(site->calls_per_rank, peer["calls_per_routine"][routine]));
    else
      CHECK(site->calls_per_rank.empty());
  }
}

// The error of reading `text` as the .cali file "t.cali".
std::string ErrorOf(const std::string& text) {
  return qnm::testing::InputErrorOf([&] { qnm::ReadCaliperProfile(text, "t.cali"); });
}

// A two-rank runtime-profile stream in the shape Caliper 2.15 writes (ring-p2.cali, shortened).
const std::string kHeader =
    "__rec=node,id=21,attr=10,data=77,parent=1\n"
    "__rec=node,id=22,attr=8,data=mpi.rank,parent=21\n"
    "__rec=node,id=12,attr=10,data=64,parent=3\n"
    "__rec=node,id=14,attr=8,data=attribute.unit,parent=12\n"
    "__rec=node,id=32,attr=14,data=sec,parent=5\n"
    "__rec=node,id=34,attr=10,data=2113,parent=32\n"
    "__rec=node,id=35,attr=8,data=sum#sum#time.duration,parent=34\n"
    "__rec=node,id=39,attr=10,data=276,parent=3\n"
    "__rec=node,id=40,attr=8,data=region,parent=39\n"
    "__rec=node,id=41,attr=40,data=main\n"
    "__rec=node,id=51,attr=10,data=276,parent=3\n"
    "__rec=node,id=52,attr=8,data=mpi.function,parent=51\n"
    "__rec=node,id=53,attr=52,data=MPI_Allreduce,parent=41\n"
    "__rec=node,id=15,attr=10,data=1612,parent=1\n"
    "__rec=node,id=16,attr=8,data=mpi.world.size,parent=15\n";
const std::string kRows =
    "__rec=ctx,ref=41,attr=22=35,data=0=2.0\n"
    "__rec=ctx,ref=53,attr=22=35,data=0=0.5\n"
    "__rec=ctx,ref=41,attr=22=35,data=1=1.5\n"
    "__rec=ctx,ref=53,attr=22=35,data=1=1.0\n";
const std::string kGlobals =
    "__rec=node,id=20,attr=16,data=2\n"
    "__rec=globals,ref=20\n";

}  // namespace

TEST_CASE("Caliper profiles read as Caliper's own reader reads them", "[ingest][caliper][acceptance]") {
  std::ifstream file(kCaliper + "/caliperreader_reads.json");
  REQUIRE(file);
  const nlohmann::json peers = nlohmann::json::parse(file);
  REQUIRE(peers.size() == 19);  // 13 profiles and the 6 of tests/data/caliper/sizes
  for (const auto& [name, peer] : peers.items()) {
    const std::string folder = name.substr(0, name.find('/'));
    const std::string path = kCaliper + "/" + (folder == "runtime-profile" || folder == "spot" ? "ring/" : "") + name;
    INFO(path);
    const std::vector<qnm::RunStats> runs = IngestPath(path);
    REQUIRE(runs.size() == 1);
    const qnm::RunStats& run = runs.front();
    CHECK(run.procs == peer["procs"].get<int>());
    if (peer.contains("app_time_mean_s")) {  // statistics over the ranks (spot)
      CHECK(Close(run.app_time_mean_s, peer["app_time_mean_s"].get<double>()));
      const nlohmann::json& routines = peer["total_time_s_per_routine"];
      if (!routines.empty()) CHECK(Close(run.mpi_time_mean_s, peer["mpi_time_mean_s"].get<double>()));
      CHECK(run.call_sites.size() == routines.size());
      for (const auto& [routine, total] : routines.items()) {
        const qnm::CallSiteStats* site = Site(run, routine);
        REQUIRE(site != nullptr);
        CHECK(Close(site->total_time_s, total.get<double>()));
        if (peer.contains("total_calls_per_routine"))  // the region counts of spot's region.count
          CHECK(site->total_calls == peer["total_calls_per_routine"][routine].get<double>());
        else
          CHECK(site->total_calls != site->total_calls);
      }
    } else {  // a time per rank (runtime-profile, or one process)
      CheckPerRankAsPeer(run, peer);
    }
  }
}

TEST_CASE("Thicket's LULESH campaign: a series of five runs with what Adiak says", "[ingest][caliper]") {
  std::vector<qnm::RunStats> runs = IngestPath(kCaliper + "/thicket-mpi-scaling");
  REQUIRE(runs.size() == 5);
  const std::vector<qnm::Series> series = qnm::GroupIntoSeries(runs);
  REQUIRE(series.size() == 1);
  CHECK(series[0].name == "lulesh2.0 @opal");
  std::vector<int> procs;
  for (const qnm::RunGroup& group : series[0].groups) procs.push_back(group.procs);
  CHECK(procs == std::vector<int>{27, 64, 125, 216, 343});
  const qnm::RunStats& run = series[0].groups[2].runs.front();  // 125 ranks on 4 nodes
  CHECK(run.nodes == 4);
  CHECK(run.ranks_per_node == 0);  // 125 does not divide into 4
  CHECK(run.tool_version == "Caliper 2.5.0");
  CHECK(run.problem_size == "30");
  CHECK(run.threads_per_proc == 1);
  // The slowest rank: the ranks' mean whole time (they end together), above main's max over the ranks (56.252457 s);
  // the top-level regions' maxima summed, main's and the small MPI regions' outside it, an upper bound kept aside.
  CHECK(run.app_time_max_s == Approx(56.2655535));
  CHECK(run.details.at("caliper.app_time_max_upper_s") == "56.296433");
  CHECK(run.app_time_max_s >= run.app_time_mean_s);
  CHECK(run.mpi_time_max_s != run.mpi_time_max_s);  // unknown: maxima of different ranks do not add
  const qnm::CallSiteStats* allreduce = Site(run, "Allreduce");
  REQUIRE(allreduce != nullptr);
  CHECK(allreduce->activity == qnm::MpiActivity::kCollective);
  CHECK(allreduce->total_time_s == Approx(1689.863544 + 0.084156));  // under TimeIncrement and at the top
  CHECK_FALSE(allreduce->ranks_complete);
  CHECK(run.derivations.at("app_time_mean_s").find("unit sec") != std::string::npos);
  // The program's own Adiak values (subcategory none) kept with the run; run information (user, launch
  // date) and host values (cluster) are not.
  CHECK(run.details.find("adiak.problem_size")->second == "30");
  CHECK(run.details.find("adiak.test")->second == "mpiscaling");
  CHECK(run.details.find("adiak.user") == run.details.end());
  CHECK(run.details.find("adiak.cluster") == run.details.end());
}

TEST_CASE("runs of one series whose times spread are told apart by the program's Adiak values",
          "[ingest][caliper]") {
  // RAJAPerf's Base_Seq at two problem sizes, both on one process of quartz: one series at P = 1, whose
  // spread the ingest summary explains by the Adiak value that differs.
  qnm::testing::TempDir dir("qnm", "caliper-adiak");
  const std::string base = kCaliper + "/one-process/rajaperf-Base_Seq-default.cali";
  std::filesystem::copy_file(base, dir.path / "small.cali");
  std::ifstream in(base);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t at = text.find("data=1048576.000000");
  REQUIRE(at != std::string::npos);
  text.replace(at, 19, "data=2097152.000000");
  // The larger problem runs longer: the time outside any region (its min, max, avg and sum) doubled.
  for (std::size_t time = text.find("180.672254"); time != std::string::npos; time = text.find("180.672254"))
    text.replace(time, 10, "361.344508");
  std::ofstream(dir.path / "large.cali") << text;
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = IngestPath(dir.path.string(), &summary);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].details.find("adiak.variant")->second == "Base_Seq");
  std::string warnings;
  for (const std::string& warning : summary.warnings) warnings += warning;
  INFO(warnings);
  CHECK(warnings.find("2 repetitions at P=1") != std::string::npos);
  CHECK(warnings.find("adiak.ProblemSizeRunParam differs (1048576.000000, 2097152.000000)") != std::string::npos);
}

TEST_CASE("Caliper's runtime-profile: every rank's time, MPI routines per rank", "[ingest][caliper]") {
  std::vector<qnm::RunStats> runs = IngestPath(kCaliper + "/ring/runtime-profile");
  REQUIRE(runs.size() == 3);
  const qnm::RunStats& run = runs.back().procs == 4 ? runs.back() : runs.front();
  REQUIRE(run.procs == 4);
  REQUIRE(run.app_time_s_per_rank.size() == 4);
  for (int r = 0; r < 4; ++r) {
    CHECK(run.app_time_s_per_rank[r] > run.mpi_time_s_per_rank[r]);
    CHECK(run.mpi_time_s_per_rank[r] > 0);
  }
  CHECK(run.tool_version == "Caliper 2.15.0-dev");
  for (const char* routine : {"Sendrecv", "Allreduce", "Barrier", "Comm_dup", "Finalize"})
    CHECK(Site(run, routine) != nullptr);
  // Calls from the region counts (region.count): 20 steps of Sendrecv and Allreduce, one Barrier.
  const qnm::CallSiteStats* sendrecv = Site(run, "Sendrecv");
  REQUIRE(sendrecv != nullptr);
  CHECK(sendrecv->calls_per_rank == std::vector<double>{20, 20, 20, 20});
  CHECK(sendrecv->total_calls == 80);
  CHECK(run.p2p_calls_per_rank == qnm::RankValues{20, 20, 20, 20});
  CHECK(run.collective_calls_per_rank == qnm::RankValues{21, 21, 21, 21});
  CHECK(run.messages_per_rank == 41);
  CHECK(run.app_time_max_s >= run.app_time_mean_s);
  // Spot's statistics over the ranks count the calls too (region.count is on by default): per rank the same.
  runs = IngestPath(kCaliper + "/ring/spot/ring-p4.cali");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].messages_per_rank == 41);
  REQUIRE(Site(runs[0], "Allreduce") != nullptr);
  CHECK(Site(runs[0], "Allreduce")->total_calls == 80);
  // Thicket's Caliper 2.5 spot profiles have no region counts: no calls, no messages.
  runs = IngestPath(kCaliper + "/thicket-mpi-scaling/27_cores.cali");
  CHECK(runs[0].messages_per_rank != runs[0].messages_per_rank);
  // One process without mpi.world.size, jobsize or mpi.rank: RAJAPerf's Base_Seq (Caliper 2.10).
  runs = IngestPath(kCaliper + "/one-process/rajaperf-Base_Seq-default.cali");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 1);
  CHECK(runs[0].call_sites.empty());
  // Hatchet's LULESH annotation profile (Caliper 2.2) gives its times no unit, and Caliper before 2.10
  // timed in microseconds or seconds as configured: refused, not guessed.
  CHECK(IngestErrorOf(kCaliper + "/one-process/lulesh-annotation-profile.cali")
            .find("sum#time.duration without a unit, from Caliper before 2.10") != std::string::npos);
}

TEST_CASE("the .cali format: escapes, lists and paths as caliperreader expands them", "[ingest][caliper]") {
  // A region name holding an escaped comma and '=' and a newline; an attribute met twice on a chain.
  const std::string text = kHeader +
                           "__rec=node,id=60,attr=40,data=solve\\, step\\=1\\nend,parent=41\n"
                           "__rec=ctx,ref=60,attr=22=35,data=0=3.0\n" + kGlobals.substr(0, kGlobals.find('\n') + 1) +
                           "__rec=globals,ref=20\n";
  qnm::CaliperStream stream;
  std::vector<qnm::CaliperRecord> records;
  stream.Read(text, "t.cali", [&](const qnm::CaliperRecord& record) { records.push_back(record); });
  REQUIRE(records.size() == 1);
  REQUIRE(records[0].path.size() == 2);
  CHECK(records[0].path[1].second == "solve, step=1\nend");
  const qnm::CaliperRecord::Value* region = records[0].FindValue("region");
  REQUIRE(region != nullptr);
  CHECK(region->values == std::vector<std::string>{"main", "solve, step=1\nend"});
  CHECK(*records[0].Find("mpi.rank") == "0");
  CHECK(records[0].line == 17);
  CHECK(*stream.globals().Find("mpi.world.size") == "2");
  const qnm::CaliperAttribute* duration = stream.FindAttribute("sum#sum#time.duration");
  REQUIRE(duration != nullptr);
  CHECK(duration->type == "double");
  CHECK_FALSE(duration->Nested());
  CHECK(stream.FindAttribute("region")->Nested());
  CHECK(stream.FindAttribute("mpi.world.size")->Global());

  const qnm::RunStats run = qnm::ReadCaliperProfile(kHeader + kRows + kGlobals, "t.cali");
  CHECK(run.procs == 2);
  CHECK(run.app_time_s_per_rank == qnm::RankValues{2.5, 2.5});
  CHECK(run.mpi_time_s_per_rank == qnm::RankValues{0.5, 1.0});
}

TEST_CASE("damaged Caliper profiles: one line naming the file and line", "[ingest][caliper][errors]") {
  const std::string good = kHeader + kRows + kGlobals;
  CHECK(ErrorOf(good).empty());
  CHECK(ErrorOf("").find("t.cali: a Caliper stream without snapshot records") != std::string::npos);
  CHECK(ErrorOf("__rec=node,id=12,attr=8,data=x\\").find("t.cali:1: the line ends in an escape") !=
        std::string::npos);
  CHECK(ErrorOf(kHeader + "id=3\n").find("t.cali:16: a line without '__rec='") != std::string::npos);
  CHECK(ErrorOf(kHeader + "__rec=node,id=41,attr=40,data=again\n").find("t.cali:16: node 41 is defined twice") !=
        std::string::npos);
  CHECK(ErrorOf(kHeader + "__rec=node,id=70,attr=40,data=x,parent=99\n").find("names parent 99") !=
        std::string::npos);
  CHECK(ErrorOf(kHeader + "__rec=node,id=70,attr=41,data=x\n").find("has attribute 41, which no earlier record defines as an attribute") !=
        std::string::npos);
  CHECK(ErrorOf(kHeader + "__rec=ctx,ref=77,attr=22=35,data=0=1\n").find("refers to node 77") != std::string::npos);
  CHECK(ErrorOf(kHeader + "__rec=ctx,ref=41,attr=22=35,data=0\n").find("lists 2 attributes and 1 values") !=
        std::string::npos);
  CHECK(ErrorOf(kHeader + "__rec=ctx,ref=41,attr=22=35,data=0=fast\n" + kGlobals)
            .find("t.cali:16: sum#sum#time.duration 'fast' is no number") != std::string::npos);
  CHECK(ErrorOf(kHeader + "__rec=ctx,ref=41,attr=22=35,data=0=-1\n" + kGlobals).find("t.cali:16:") !=
        std::string::npos);
  CHECK(ErrorOf(kHeader + "__rec=ctx,ref=41,attr=22=35,data=0=nan\n" + kGlobals).find("t.cali:16:") !=
        std::string::npos);
  CHECK(ErrorOf(kHeader + kRows + "__rec=node,id=20,attr=16,data=1\n__rec=globals,ref=20\n")
            .find("mpi.rank 1 in a run of 1 processes") != std::string::npos);
  // A damaged rank number costs a record, not a vector of its size.
  CHECK(ErrorOf(kHeader + kRows + "__rec=ctx,ref=41,attr=22=35,data=16777215=1.0\n" + kGlobals)
            .find("mpi.rank 16777215 in a run of 2 processes") != std::string::npos);
  CHECK(ErrorOf(kHeader + "__rec=ctx,ref=41,attr=22=35,data=16777216=1.0\n" + kGlobals)
            .find("mpi.rank '16777216' is no rank") != std::string::npos);
  CHECK(ErrorOf(kHeader + kRows.substr(0, kRows.find("data=1=")) + "__rec=node,id=20,attr=16,data=3\n" +
                "__rec=globals,ref=20\n")
            .find("no region times of rank 1") != std::string::npos);
  CHECK(ErrorOf(kHeader + "__rec=ctx,ref=41,attr=35,data=1\n" + kGlobals)
            .find("a profile of 2 processes with no mpi.rank") != std::string::npos);
  CHECK(ErrorOf(kHeader + "__rec=ctx,ref=41,attr=22,data=0\n" + kGlobals)
            .find("a Caliper profile without region times") != std::string::npos);
  CHECK(ErrorOf(kHeader + kRows + "__rec=node,id=20,attr=16,data=many\n__rec=globals,ref=20\n")
            .find("global mpi.world.size 'many' is no count") != std::string::npos);
  // An Adiak value the program names itself ("threads") that is no count is passed by, not an error.
  const qnm::RunStats threads = qnm::ReadCaliperProfile(
      kHeader + kRows + "__rec=node,id=17,attr=8,data=threads,parent=15\n__rec=node,id=20,attr=16,data=2\n" +
          "__rec=node,id=23,attr=17,data=auto,parent=20\n__rec=globals,ref=23\n",
      "t.cali");
  CHECK(threads.procs == 2);
  CHECK(threads.threads_per_proc == 1);
  // A time in furlongs, and statistics over the ranks whose average lies above their maximum.
  const std::string unit_header =
      "__rec=node,id=12,attr=10,data=64,parent=3\n"
      "__rec=node,id=14,attr=8,data=attribute.unit,parent=12\n"
      "__rec=node,id=30,attr=14,data=furlong,parent=5\n"
      "__rec=node,id=31,attr=10,data=65,parent=30\n"
      "__rec=node,id=32,attr=8,data=avg#inclusive#sum#time.duration,parent=31\n"
      "__rec=node,id=33,attr=8,data=max#inclusive#sum#time.duration,parent=31\n";
  CHECK(ErrorOf(unit_header + "__rec=ctx,attr=32=33,data=1=2\n").find("time unit 'furlong'") != std::string::npos);
  const std::string sec_header = unit_header.substr(0, unit_header.find("furlong")) + "sec" +
                                 unit_header.substr(unit_header.find("furlong") + 7);
  CHECK(ErrorOf(sec_header + "__rec=ctx,attr=32=33,data=3=2\n").find("t.cali:7: the average time") !=
        std::string::npos);
  CHECK(qnm::ReadCaliperProfile(sec_header + "__rec=ctx,attr=32=33,data=1=2\n", "t.cali").procs == 1);
  // Through ingest: the file named.
  CHECK(IngestErrorOf(kCaliper + "/thicket-mpi-scaling/none.cali").find("none.cali") != std::string::npos);
}

TEST_CASE("a campaign of Caliper profiles inside an archive reads as on disk", "[ingest][caliper][archive]") {
  const std::string archive = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/qnm-cali.tgz";
  const std::string command = "tar -czf " + archive + " -C " + kCaliper + " thicket-mpi-scaling";
  REQUIRE(std::system(command.c_str()) == 0);
  const std::vector<qnm::RunStats> archived = IngestPath(archive);
  std::remove(archive.c_str());
  const std::vector<qnm::RunStats> plain = IngestPath(kCaliper + "/thicket-mpi-scaling");
  REQUIRE(archived.size() == plain.size());
  for (std::size_t k = 0; k < plain.size(); ++k) {
    CHECK(archived[k].procs == plain[k].procs);
    CHECK(archived[k].app_time_mean_s == plain[k].app_time_mean_s);
  }
}

TEST_CASE("Caliper's json-split: read as Hatchet reads it, and as the .cali it was converted from",
          "[ingest][caliper][acceptance]") {
  // The test program under runtime-profile with output.format=json-split (Caliper 2.15), read as Hatchet's
  // GraphFrame.from_caliper reads it (hatchet_json_reads.json, scripts/compare_caliper_json_reads_with_hatchet.py).
  std::ifstream file(kCaliper + "/hatchet_json_reads.json");
  REQUIRE(file);
  const nlohmann::json peers = nlohmann::json::parse(file);
  REQUIRE(peers.size() == 3);
  for (const auto& [name, peer] : peers.items()) {
    INFO(name);
    const std::vector<qnm::RunStats> runs = IngestPath(kCaliper + "/ring/json-split/" + name);
    REQUIRE(runs.size() == 1);
    const qnm::RunStats& run = runs.front();
    CHECK(run.procs == peer["procs"].get<int>());
    REQUIRE(peer.contains("calls_per_routine"));
    CheckPerRankAsPeer(run, peer);
    CHECK(run.messages_per_rank == 41);  // 20 Sendrecv, 20 Allreduce, 1 Barrier per rank
  }
  // Thicket's 27-rank spot profile converted by Caliper's cali-query ("select * format json-split"): the same run
  // as the .cali, value for value.
  const qnm::RunStats json = IngestPath(kCaliper + "/json-split/thicket-27_cores.json").front();
  const qnm::RunStats cali = IngestPath(kCaliper + "/thicket-mpi-scaling/27_cores.cali").front();
  CHECK(json.procs == cali.procs);
  CHECK(json.app_time_mean_s == cali.app_time_mean_s);
  CHECK(json.app_time_max_s == cali.app_time_max_s);
  CHECK(json.mpi_time_mean_s == cali.mpi_time_mean_s);
  CHECK(json.app.str() == cali.app.str());
  CHECK(json.nodes == cali.nodes);
  REQUIRE(json.call_sites.size() == cali.call_sites.size());
  for (std::size_t k = 0; k < cali.call_sites.size(); ++k) {
    CHECK(json.call_sites[k].mpi_function == cali.call_sites[k].mpi_function);
    CHECK(json.call_sites[k].total_time_s == cali.call_sites[k].total_time_s);
  }
}

TEST_CASE("damaged or unreadable json-split: one line naming the file", "[ingest][caliper][errors]") {
  // Hatchet's JSON test profiles: LULESH's times have no unit (Caliper before 2.10: microseconds here), cpi's
  // records are sampled call paths, not regions.
  CHECK(IngestErrorOf(kCaliper + "/json-split/hatchet-lulesh-annotation-profile.json")
            .find("without a unit, from Caliper before 2.10") != std::string::npos);
  CHECK(IngestErrorOf(kCaliper + "/json-split/hatchet-cpi-callpath-profile.json")
            .find("json-split without a \"path\" column") != std::string::npos);
  auto json_error = [](const std::string& text) {
    return qnm::testing::InputErrorOf([&] { qnm::ReadCaliperJsonSplit(text, "t.json"); });
  };
  const std::string columns =
      R"("columns": ["mpi.rank", "time", "path"], "column_metadata": [{"is_value": true}, )"
      R"({"is_value": true, "attribute.unit": "sec"}, {"is_value": false}], )"
      R"("nodes": [{"label": "main", "column": "path"}, {"label": "MPI_Barrier", "column": "path", "parent": 0}], )"
      R"("mpi.world.size": "2")";
  auto with_rows = [&](const std::string& rows) { return "{\"data\": [" + rows + "], " + columns + "}"; };
  const qnm::RunStats good = qnm::ReadCaliperJsonSplit(with_rows("[0, 2.0, 0], [0, 0.5, 1], [1, 1.5, 0], [1, 1.0, 1]"), "t.json");
  CHECK(good.procs == 2);
  CHECK(good.app_time_s_per_rank == qnm::RankValues{2.5, 2.5});
  CHECK(good.mpi_time_s_per_rank == qnm::RankValues{0.5, 1.0});
  CHECK(qnm::LooksLikeCaliperJsonSplit(with_rows("[0, 2.0, 0]")));
  CHECK_FALSE(qnm::LooksLikeCaliperJsonSplit(R"([{"series": "a", "procs": 2, "time_s": 1}])"));
  CHECK(json_error("{\"data\": [1, 2").find("t.json:1: invalid JSON") != std::string::npos);
  // A number beyond a double is nlohmann's out_of_range, not a parse error (the fuzzer's first finding).
  CHECK(json_error(with_rows("[0, 0.05E0666, 0]")).find("t.json: invalid JSON: number overflow") != std::string::npos);
  CHECK(json_error(with_rows("[0, 2.0]")).find("data row 1: not 3 values") != std::string::npos);
  CHECK(json_error(with_rows("[0, 2.0, 0], [1, \"fast\", 0]")).find("data row 2: time holds \"fast\", no number") !=
        std::string::npos);
  CHECK(json_error(with_rows("[0, -2.0, 0]")).find("data row 1: sum#sum#time.duration -2") != std::string::npos);
  CHECK(json_error(with_rows("[0.5, 2.0, 0]")).find("data row 1: mpi.rank 0.5 is no rank") != std::string::npos);
  CHECK(json_error(with_rows("[0, 2.0, 7]")).find("data row 1: path 7 is no node") != std::string::npos);
  CHECK(json_error(with_rows("[0, 2.0, 0], [0, 1.0, 1]")).find("no region times of rank 1") != std::string::npos);
  std::string loop = with_rows("[0, 2.0, 0]");
  loop.replace(loop.find("\"column\": \"path\"}"), 17, "\"column\": \"path\", \"parent\": 1}");
  CHECK(json_error(loop).find("its own ancestor") != std::string::npos);
}

TEST_CASE("without message sizes the estimated latency is said to hold the transfer too", "[caliper][cli][model]") {
  // Caliper's spot profiles count MPI calls but give no message sizes: the network estimated from
  // the series cannot tell latency from transfer, and the note says so (models/decomposition.cpp).
  std::string out;
  REQUIRE(qnm::testing::RunCli("predict " + kCaliper + "/ring/spot --procs 8", &out) == 0);
  CHECK(out.find("(the whole time per message, transfer included: the runs give no message sizes)") !=
        std::string::npos);
  // mpiP reports give the sizes: the estimate separates latency and bandwidth and says nothing of it.
  REQUIRE(qnm::testing::RunCli("predict " + std::string(QNM_TEST_DATA_DIR) + "/mpip --procs 64", &out) == 0);
  CHECK(out.find("no machine profile: latency") != std::string::npos);
  CHECK(out.find("transfer included") == std::string::npos);
}

TEST_CASE("Caliper spot: a rank that waits outside main for the slowest one is not added to it", "[ingest][caliper]") {
  // Two ranks (a student's sample sort on TAMU's Grace has this shape): main takes 10 s on the slowest rank and 4 s
  // on the other, which then waits 6 s in Caliper's flush collective (a top-level MPI_Comm_dup, outside main). Both
  // end together, after 10 s; the maxima of main and MPI_Comm_dup come from different ranks and do not add.
  const std::string spot =
      "__rec=node,id=12,attr=10,data=64,parent=3\n"
      "__rec=node,id=14,attr=8,data=attribute.unit,parent=12\n"
      "__rec=node,id=62,attr=14,data=sec,parent=5\n"
      "__rec=node,id=64,attr=10,data=65,parent=62\n"
      "__rec=node,id=65,attr=8,data=min#inclusive#sum#time.duration,parent=64\n"
      "__rec=node,id=68,attr=8,data=max#inclusive#sum#time.duration,parent=64\n"
      "__rec=node,id=71,attr=8,data=avg#inclusive#sum#time.duration,parent=64\n"
      "__rec=node,id=78,attr=8,data=sum#inclusive#sum#time.duration,parent=64\n"
      "__rec=node,id=39,attr=10,data=276,parent=3\n"
      "__rec=node,id=40,attr=8,data=region,parent=39\n"
      "__rec=node,id=41,attr=40,data=main\n"
      "__rec=node,id=51,attr=10,data=276,parent=3\n"
      "__rec=node,id=52,attr=8,data=mpi.function,parent=51\n"
      "__rec=node,id=59,attr=52,data=MPI_Comm_dup\n"
      "__rec=node,id=15,attr=10,data=1612,parent=1\n"
      "__rec=node,id=16,attr=8,data=mpi.world.size,parent=15\n"
      "__rec=node,id=20,attr=16,data=2\n"
      "__rec=globals,ref=20\n"
      "__rec=ctx,ref=41,attr=65=68=71=78,data=4.0=10.0=7.0=14.0\n"
      "__rec=ctx,ref=59,attr=65=68=71=78,data=0.0=6.0=3.0=6.0\n";
  const qnm::RunStats run = qnm::ReadCaliperProfile(spot, "t.cali");
  CHECK(run.procs == 2);
  CHECK(run.app_time_mean_s == Approx(10.0));
  CHECK(run.app_time_max_s == Approx(10.0));  // not 10 + 6
  CHECK(run.details.at("caliper.app_time_max_upper_s") == "16");
  CHECK(run.TotalTimeSeconds() == Approx(10.0));
}
