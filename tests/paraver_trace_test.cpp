// Paraver traces (paraver/paraver_trace.h, paraver_header.h, paraver_names.h). Acceptance: pypop's
// EPOCH traces at 1..16 ranks (Extrae, MareNostrum 4) read as BSC's modelfactors read them
// (tests/data/paraver/epoch/modelfactors.csv): the runtime, the useful computation (average,
// maximum, total) to the 0.01 us it prints, and the POP efficiencies to its 6 decimals; and as
// BSC's paramedir reads them (paramedir_reads.json): per rank the MPI time, per routine time and calls.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "paraver/extrae_files.h"
#include "paraver/paraver_header.h"
#include "paraver/paraver_names.h"
#include "paraver/paraver_trace.h"
#include "tests/command_runner.h"
#include "tests/ingest_test_util.h"
#include "tests/temp_dir.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

using qnm::testing::IngestErrorOf;
using qnm::testing::IngestPath;

namespace {

const std::string kEpoch = std::string(QNM_TEST_DATA_DIR) + "/paraver/epoch";

// modelfactors.csv: "<label>;<value at P=1>;...;<value at P=16>" per line.
std::map<std::string, std::vector<double>> ReadModelFactors() {
  std::ifstream in(kEpoch + "/modelfactors.csv");
  std::map<std::string, std::vector<double>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string_view> fields = qnm::SplitFields(line, ';');
    if (fields.size() < 2) continue;
    std::vector<double>& values = rows[std::string(fields[0])];
    for (std::size_t k = 1; k < fields.size(); ++k) values.push_back(*qnm::ParseDouble(fields[k]));
  }
  return rows;
}

double Detail(const qnm::RunStats& run, const std::string& key) {
  const auto it = run.details.find(key);
  REQUIRE(it != run.details.end());
  return *qnm::ParseDouble(it->second);
}

const qnm::CallSiteStats* Site(const qnm::RunStats& run, const std::string& routine) {
  for (const qnm::CallSiteStats& site : run.call_sites)
    if (site.mpi_function == routine) return &site;
  return nullptr;
}

// Equal value by value to 1e-12 relative.
bool Near(const std::vector<double>& ours, const std::vector<double>& expected) {
  return qnm::testing::SameAsPeer(ours, nlohmann::json(expected));
}

double Sum(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return sum;
}

// A trace of two tasks (one thread each) on one node of 2 CPUs, in ns, with `body` after the header.
std::string Trace(const std::string& body, const std::string& header_tail = "") {
  return "#Paraver (01/01/2024 at 10:00):1000_ns:1(2):1:2(1:1,1:1)" + header_tail + "\n" + body;
}

// The error of reading `text` as the trace "t.prv" (no .pcf or .row).
std::string ErrorOf(const std::string& text) {
  return qnm::testing::InputErrorOf([&] { qnm::ReadParaverTrace(text, "t.prv", {}); });
}

}  // namespace

TEST_CASE("Paraver: EPOCH traces read as BSC's modelfactors reads them", "[paraver][acceptance]") {
  const auto factors = ReadModelFactors();
  const std::vector<double>& procs = factors.at("Number of processes");
  REQUIRE(procs == std::vector<double>{1, 2, 4, 8, 16});
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = IngestPath(kEpoch, &summary, /*strict=*/false);
  REQUIRE(runs.size() == 5);  // the .pcf and .row files are the traces'; the CSV, deck and licence are no runs
  CHECK(summary.files_seen == 9);
  CHECK(summary.skipped.size() == 4);
  std::map<int, const qnm::RunStats*> by_procs;
  for (const qnm::RunStats& run : runs) by_procs[run.procs] = &run;
  const qnm::RunStats& one = *by_procs.at(1);
  for (std::size_t k = 0; k < procs.size(); ++k) {
    const qnm::RunStats& run = *by_procs.at(static_cast<int>(procs[k]));
    INFO("P = " << run.procs);
    // Microseconds printed to 0.01.
    auto same_us = [&](double seconds, const std::string& row) {
      return std::abs(seconds * 1e6 - factors.at(row)[k]) <= 0.0051;
    };
    CHECK(same_us(Detail(run, "pop_runtime_s"), "#Runtime (us)"));
    CHECK(same_us(Detail(run, "pop_useful_mean_s"), "#Useful duration (average)"));
    CHECK(same_us(Detail(run, "pop_useful_max_s"), "#Useful duration (maximum)"));
    CHECK(same_us(Detail(run, "pop_useful_sum_s"), "#Useful duration (total)"));
    // Percentages printed to 6 decimals.
    auto same_percent = [&](double fraction, const std::string& row) {
      return std::abs(fraction * 100 - factors.at(row)[k]) <= 5.1e-7;
    };
    const double parallel = Detail(run, "pop_parallel_efficiency");
    const double scalability = Detail(one, "pop_useful_sum_s") / Detail(run, "pop_useful_sum_s");
    CHECK(same_percent(parallel, "Parallel efficiency"));
    CHECK(same_percent(Detail(run, "pop_load_balance"), "Load balance"));
    CHECK(same_percent(Detail(run, "pop_communication_efficiency"), "Communication efficiency"));
    CHECK(same_percent(scalability, "Computation scalability"));
    CHECK(same_percent(parallel * scalability, "Global efficiency"));
    CHECK(std::abs(one.wall_time_s / run.wall_time_s - factors.at("Speedup")[k]) <= 5.1e-7);

    // The record: one node, the run as long as the trace, every rank as long as the run (no tracing
    // disabled), MPI time inside it, messages from the communication records.
    CHECK(run.app == "epoch");
    CHECK(run.threads_per_proc == 1);
    CHECK(run.nodes == 1);
    CHECK(run.ranks_per_node == run.procs);
    REQUIRE(run.hosts.size() == 1);
    CHECK(run.wall_time_s == Approx(Detail(run, "pop_runtime_s")).epsilon(1e-11));
    REQUIRE(run.app_time_s_per_rank.size() == static_cast<std::size_t>(run.procs));
    for (std::size_t r = 0; r < run.app_time_s_per_rank.size(); ++r) {
      CHECK(run.app_time_s_per_rank[r] == run.wall_time_s);
      CHECK(run.mpi_time_s_per_rank[r] > 0);
      CHECK(run.mpi_time_s_per_rank[r] < 0.1 * run.app_time_s_per_rank[r]);
      CHECK(run.p2p_calls_per_rank[r] > 0);
    }
    double site_time = 0;
    for (const qnm::CallSiteStats& site : run.call_sites) site_time += site.total_time_s;
    CHECK(std::abs(site_time - Sum(run.mpi_time_s_per_rank.vector())) <= 1e-9 * site_time);
    const qnm::CallSiteStats* allreduce = Site(run, "Allreduce");
    REQUIRE(allreduce != nullptr);
    CHECK(allreduce->activity == qnm::MpiActivity::kCollective);
    REQUIRE(Site(run, "Sendrecv") != nullptr);
    CHECK(Site(run, "Sendrecv")->activity == qnm::MpiActivity::kPointToPoint);
    CHECK(run.sources.size() == 3);  // the trace, its .pcf and its .row
  }
  CHECK(by_procs.at(16)->hosts == std::vector<std::string>{"s16r1b20"});
}

TEST_CASE("Paraver: EPOCH traces read as BSC's paramedir reads them", "[paraver][acceptance]") {
  // paramedir_reads.json: per rank the MPI time, per MPI routine its time and calls per rank, as
  // paraver-kernel's paramedir computes them (scripts/compare_paraver_reads_with_paramedir.py --write).
  std::ifstream in(std::string(QNM_TEST_DATA_DIR) + "/paraver/paramedir_reads.json");
  const nlohmann::json peers = nlohmann::json::parse(in);
  REQUIRE(peers.size() == 5);
  for (const auto& [file, peer] : peers.items()) {
    INFO(file);
    const std::vector<qnm::RunStats> runs = IngestPath(kEpoch + "/" + file);
    REQUIRE(runs.size() == 1);
    const qnm::RunStats& run = runs[0];
    CHECK(run.procs == peer["procs"].get<int>());
    CHECK(qnm::testing::SameAsPeer(run.mpi_time_s_per_rank, peer["mpi_time_s_per_rank"]));
    for (const qnm::CallSiteStats& site : run.call_sites) {
      INFO(site.mpi_function);
      if (!peer["time_s_per_routine"].contains(site.mpi_function)) {  // zero-duration calls: no burst there
        CHECK(Sum(site.time_s_per_rank) == 0);
        continue;
      }
      CHECK(qnm::testing::SameAsPeer(site.time_s_per_rank, peer["time_s_per_routine"][site.mpi_function]));
      CHECK(qnm::testing::SameAsPeer(site.calls_per_rank, peer["calls_per_routine"][site.mpi_function]));
    }
    for (const auto& [routine, times] : peer["time_s_per_routine"].items()) CHECK(Site(run, routine) != nullptr);
  }
}

TEST_CASE("Paraver: ingest --show says what the header says, then the record", "[paraver][cli]") {
  std::string out;
  REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " ingest --show " + kEpoch +
                                       "/epoch_4proc.prv.gz --format csv 2>&1",
                                   &out) == 0);
  CHECK(out.find("Paraver trace " + kEpoch + "/epoch_4proc.prv.gz\n") == 0);
  CHECK_THAT(out, Catch::Contains("  written: 09/10/2019 at 16:08\n"));
  CHECK_THAT(out, Catch::Contains("  end time: 6082352213 ns (6.08235 s)\n"));
  CHECK_THAT(out, Catch::Contains("  resources: 1 node(s), CPUs per node: 4\n"));
  CHECK_THAT(out, Catch::Contains("  application 1: 4 task(s), 4 thread(s); threads:node of each task: 1:1 1:1 1:1 1:1\n"));
  CHECK_THAT(out, Catch::Contains("  communicator lines: 5\nrecords:\nseries,app,"));
}

TEST_CASE("Paraver: the EPOCH traces predict as one series", "[paraver]") {
  std::vector<qnm::RunStats> runs = IngestPath(kEpoch, nullptr, /*strict=*/false);
  std::vector<qnm::Series> series = qnm::GroupIntoSeries(runs);
  REQUIRE(series.size() == 1);
  CHECK(series[0].groups.size() == 5);
}

TEST_CASE("Paraver header: units, resources, applications, communicators", "[paraver]") {
  qnm::ParaverHeader ns = qnm::ParseParaverHeader("#Paraver (09/10/2019 at 16:08):6082352213_ns:1(4):1:4(1:1,1:1,1:1,1:1),5\n", "t.prv");
  CHECK(ns.date == "09/10/2019 at 16:08");
  CHECK(ns.end_time == 6082352213ULL);
  CHECK(ns.EndTimeSeconds() == Approx(6.082352213));
  CHECK(ns.cpus_per_node == std::vector<int>{4});
  REQUIRE(ns.applications.size() == 1);
  CHECK(ns.applications[0].size() == 4);
  CHECK(ns.communicators == 5);

  // No unit: microseconds; no resource model; two applications, hybrid tasks.
  qnm::ParaverHeader us = qnm::ParseParaverHeader("#Paraver (01/01/24 at 10:00):2500000:0:2:2(4:0,4:0):1(1:0)", "t.prv");
  CHECK(us.EndTimeSeconds() == Approx(2.5));
  CHECK(us.cpus_per_node.empty());
  REQUIRE(us.applications.size() == 2);
  CHECK(us.applications[0][1].threads == 4);
  CHECK(us.communicators == 0);
  CHECK(qnm::ParseParaverHeader("#Paraver (d):7_ms:2(8,8):1:2(1:1,1:2)", "t.prv").EndTimeSeconds() == Approx(0.007));
  CHECK(qnm::ParseParaverHeader("new format\n#Paraver (d):7:2(8,8):1:2(1:1,1:2)", "t.prv").header_lines == 2);
  CHECK(qnm::LooksLikeParaverTrace("new format\n#Paraver (d):7:0:1:1(1:0)"));
  CHECK_FALSE(qnm::LooksLikeParaverTrace("#Paraverx"));

  auto header_error = [](const std::string& line) {
    return qnm::testing::InputErrorOf([&] { qnm::ParseParaverHeader(line, "t.prv"); });
  };
  CHECK(header_error("#Paraver (d):10_xs:0:1:1(1:0)").find("unknown time unit '_xs'") != std::string::npos);
  CHECK(header_error("#Paraver (d):-5:0:1:1(1:0)").find("end time must be a non-negative integer") != std::string::npos);
  CHECK(header_error("#Paraver (d):5:1(4):1:2(1:1,1:2)").find("a task's node (1 to the header's node count)") != std::string::npos);
  CHECK(header_error("#Paraver (d):5:0:1:0(1:0)").find("an application's task count") != std::string::npos);
  CHECK(header_error("#Paraver (d):5:0:1:99999999999(1:0)").find("task count must be an integer") != std::string::npos);
  CHECK(header_error("#Paraver (d):5:0:1:2(1:0").find("missing ','") != std::string::npos);
  CHECK(header_error("#Paraver (d):5:0:1:1(1:0)x3").find("before the communicator count") != std::string::npos);
  CHECK(header_error("#Paraver d:5:0:1:1(1:0)").find("does not start with \"#Paraver (\"") != std::string::npos);
  CHECK(header_error("#Paraver (d):5:0:1:1(1:0)").empty());
}

TEST_CASE("Paraver: a small trace's numbers, by hand", "[paraver]") {
  // Task 1: running 0..400, MPI_Send (50000001:1) 400..500, running to 1000; it sends 64 bytes.
  // Task 2: running 0..200, MPI_Recv 200..500 in state 3, an Allreduce (50000002:10) of 8 bytes
  // 600..700, and "tracing disabled" 900..1000.
  const std::string text = Trace(
      "c:1:1:2:1:2\n"
      "1:1:1:1:1:0:400:1\n"
      "2:1:1:1:1:400:50000001:1\n"
      "1:1:1:1:1:400:500:4\n"
      "2:1:1:1:1:500:50000001:0\n"
      "1:1:1:1:1:500:1000:1\n"
      "1:2:1:2:1:0:200:1\n"
      "2:2:1:2:1:200:50000001:2\n"
      "1:2:1:2:1:200:500:3\n"
      "2:2:1:2:1:500:50000001:0\n"
      "1:2:1:2:1:500:600:1\n"
      "# a comment line\n"
      "2:2:1:2:1:600:50000002:10:50100001:8\n"
      "1:2:1:2:1:600:700:13\n"
      "2:2:1:2:1:700:50000002:0\n"
      "1:2:1:2:1:700:900:1\n"
      "1:2:1:2:1:900:1000:14\n"
      "3:1:1:1:1:400:410:2:1:2:1:480:500:64:7\n",
      ",1");
  qnm::ParaverNames names;
  qnm::ParaverCompanions companions;
  companions.pcf_path = "t.pcf";
  companions.pcf_text =
      "STATES\n1    Running\n14    Tracing Disabled\n\nEVENT_TYPE\n9   50000001    MPI Point-to-point\n"
      "VALUES\n2   MPI_Recv\n1   MPI_Send\n0   Outside MPI\n\nEVENT_TYPE\n9   50000002    MPI Collective Comm\n"
      "VALUES\n10   MPI_Allreduce\n0   Outside MPI\n";
  companions.row_path = "t.row";
  companions.row_text = "LEVEL CPU SIZE 2\n1.n1\n2.n1\n\nLEVEL NODE SIZE 1\nnode17\n";
  qnm::RunStats run = qnm::ReadParaverTrace(text, "ring_2.prv", companions);
  CHECK(run.app == "ring");
  CHECK(run.procs == 2);
  CHECK(run.wall_time_s == Approx(1e-6));
  CHECK(run.hosts == std::vector<std::string>{"node17"});
  CHECK(Near(run.app_time_s_per_rank, {1000e-9, 900e-9}));
  CHECK(run.mpi_time_s_per_rank[0] == Approx(100e-9));
  CHECK(run.mpi_time_s_per_rank[1] == Approx(400e-9));
  CHECK(run.p2p_calls_per_rank.vector() == std::vector<double>{1, 0});
  CHECK(run.p2p_bytes_sent_per_rank.vector() == std::vector<double>{64, 0});
  CHECK(run.collective_calls_per_rank.vector() == std::vector<double>{0, 1});
  CHECK(run.collective_bytes_sent_per_rank.vector() == std::vector<double>{0, 8});
  REQUIRE(run.call_sites.size() == 3);
  CHECK(run.call_sites[0].mpi_function == "Send");
  CHECK(run.call_sites[1].mpi_function == "Recv");
  CHECK(run.call_sites[2].mpi_function == "Allreduce");
  CHECK(Near(run.call_sites[2].time_s_per_rank, {0, 100e-9}));
  // POP: useful 900 and 500 ns; runtime = the longest thread without tracing disabled = 1000 ns.
  CHECK(Detail(run, "pop_useful_max_s") == Approx(900e-9));
  CHECK(Detail(run, "pop_useful_mean_s") == Approx(700e-9));
  CHECK(Detail(run, "pop_load_balance") == Approx(700.0 / 900));
  CHECK(Detail(run, "pop_communication_efficiency") == Approx(0.9));
  CHECK(Detail(run, "pop_parallel_efficiency") == Approx(0.7));

  // Without the .pcf the routines are named by number and classified by their event type.
  qnm::RunStats bare = qnm::ReadParaverTrace(text, "ring_2.prv", {});
  CHECK(bare.call_sites[2].mpi_function == "call 10 of type 50000002");
  CHECK(bare.call_sites[2].activity == qnm::MpiActivity::kCollective);
  CHECK(bare.hosts.empty());
  CHECK(bare.nodes == 1);

  // Five ranks on two nodes of 4 CPUs, 3 + 2: three ranks per node, which 5 / 2 does not say.
  qnm::RunStats placed = qnm::ReadParaverTrace(
      "#Paraver (d):1000_ns:2(4,4):1:5(1:1,1:1,1:1,1:2,1:2)\n1:1:1:1:1:0:1000:1\n", "p.prv", {});
  CHECK(placed.nodes == 2);
  CHECK(placed.ranks_per_node == 3);
  // Two threads of one rank inside MPI at once (MPI_THREAD_MULTIPLE) for longer than the rank ran:
  // its MPI time is its runtime, and the derivation says so.
  qnm::RunStats threads = qnm::ReadParaverTrace(
      "#Paraver (d):1000_ns:1(2):1:1(2:1)\n2:1:1:1:1:0:50000001:1\n2:2:1:1:2:0:50000001:2\n"
      "2:1:1:1:1:900:50000001:0\n2:2:1:1:2:1000:50000001:0\n1:1:1:1:1:0:1000:4\n",
      "mt.prv", {});
  CHECK(threads.threads_per_proc == 2);
  CHECK(threads.mpi_time_s_per_rank[0] == Approx(1000e-9));
  CHECK(threads.call_sites[0].time_s_per_rank[0] + threads.call_sites[1].time_s_per_rank[0] == Approx(1900e-9));
  CHECK(threads.derivations.at("mpi_time_s_per_rank").find("on 1 rank(s) the threads' MPI calls overlap") !=
        std::string::npos);
  // A call open at the trace's end ends there; an end without a start (a cut trace) is counted.
  qnm::RunStats cut = qnm::ReadParaverTrace(
      Trace("2:1:1:1:1:100:50000001:0\n2:1:1:1:1:900:50000002:8\n1:1:1:1:1:0:1000:1\n"), "cut.prv", {});
  CHECK(cut.mpi_time_s_per_rank[0] == Approx(100e-9));
  CHECK(cut.details.at("paraver.mpi_calls_open_at_end") == "1");
  CHECK(cut.details.at("paraver.mpi_ends_without_start") == "1");
}

TEST_CASE("Paraver: useful instructions and cycles, as POP's configurations ask paramedir for them", "[paraver]") {
  // "Useful" x "Next Evt Val" summed over bursts: each piece of a Running burst, cut at the counter's
  // readings, counts the reading that follows it. Task 1 runs 0..100 with no reading of its own, then
  // 200..300 with a reading inside (250: 7, which the first burst is owed too) and one at its end
  // (300: 5); the reading at 1000 follows no Running burst. Cycles are read at 300 only: both
  // bursts count them (the first burst's next reading). Task 2 runs with no counters.
  const std::string text = Trace(
      "1:1:1:1:1:0:100:1\n"
      "1:2:1:2:1:0:1000:1\n"
      "1:1:1:1:1:100:200:3\n"
      "1:1:1:1:1:200:300:1\n"
      "2:1:1:1:1:250:42000050:7\n"
      "2:1:1:1:1:300:42000050:5:42000059:20\n"
      "1:1:1:1:1:300:1000:3\n"
      "2:1:1:1:1:1000:42000050:11\n");
  const qnm::RunStats run = qnm::ReadParaverTrace(text, "t.prv", {});
  CHECK(Detail(run, "pop_useful_instructions") == 7 + 7 + 5);
  CHECK(Detail(run, "pop_useful_cycles") == 20 + 20);
  // Without counters, no such details; a negative count is damage.
  CHECK(qnm::ReadParaverTrace(Trace("1:1:1:1:1:0:1000:1\n1:2:1:2:1:0:1000:1\n"), "t.prv", {})
            .details.count("pop_useful_instructions") == 0);
  CHECK_THAT(ErrorOf(Trace("1:1:1:1:1:0:1000:1\n2:1:1:1:1:500:42000050:-3\n1:2:1:2:1:0:1000:1\n")),
             Catch::Contains("t.prv:3: Paraver event record: hardware counter 42000050 reads -3"));
}

TEST_CASE("Paraver: damaged traces are refused with their line", "[paraver]") {
  CHECK(ErrorOf(Trace("1:1:1:3:1:0:10:1\n")) == "t.prv:2: Paraver record: task 3, but the header has 2");
  CHECK(ErrorOf(Trace("1:1:1:1:2:0:10:1\n")) == "t.prv:2: Paraver record: thread 2 of task 1, which has 1");
  CHECK(ErrorOf(Trace("1:1:2:1:1:0:10:1\n")) == "t.prv:2: Paraver record: application 2, but the header has 1");
  CHECK(ErrorOf(Trace("1:1:1:1:1:0:2000:1\n")) ==
        "t.prv:2: Paraver record: time 2000 is past the trace's end time 1000");
  CHECK(ErrorOf(Trace("1:1:1:1:1:50:10:1\n")) == "t.prv:2: Paraver state record: ends (10) before it begins (50)");
  CHECK(ErrorOf(Trace("1:1:1:1:1:0:10\n")) == "t.prv:2: Paraver record: a state must be an integer, got ''");
  CHECK(ErrorOf(Trace("1:1:1:1:1:0:10:1:5\n")) == "t.prv:2: Paraver state record: more than 8 fields");
  CHECK(ErrorOf(Trace("2:1:1:1:1:5\n")) == "t.prv:2: Paraver event record: no type:value pair");
  CHECK(ErrorOf(Trace("2:1:1:1:1:5:50000001\n")) == "t.prv:2: Paraver event record: type 50000001 has no value");
  CHECK(ErrorOf(Trace("2:1:1:1:1:5:x:1\n")) == "t.prv:2: Paraver record: an event type must be an integer, got 'x'");
  CHECK(ErrorOf(Trace("2:1:1:1:1:5:50100001:-8\n")) == "t.prv:2: Paraver event record: a collective sends -8 bytes");
  CHECK(ErrorOf(Trace("2:1:1:1:1:5:50000001:1\n2:1:1:1:1:6:50000002:10\n")) ==
        "t.prv:3: Paraver event record: an MPI call (type 50000002, value 10) begins while the one begun on line 2 is open");
  CHECK(ErrorOf(Trace("2:1:1:1:1:5:50000001:1\n2:1:1:1:1:6:50000002:0\n")) ==
        "t.prv:3: Paraver event record: ends an MPI call of type 50000002 while the call of type 50000001 begun on "
        "line 2 is open");
  CHECK(ErrorOf(Trace("3:1:1:1:1:5:5:1:1:2:1:6:6:-1:0\n")) == "t.prv:2: Paraver communication record: a message of -1 bytes");
  CHECK(ErrorOf(Trace("3:1:1:1:1:5:5:1:1:3:1:6:6:1:0\n")) == "t.prv:2: Paraver record: task 3, but the header has 2");
  CHECK(ErrorOf(Trace("3:1:1:1:1:5:5:1:1:2:1:6:6:1:0:9\n")) ==
        "t.prv:2: Paraver communication record: more than 15 fields");
  CHECK(ErrorOf(Trace("7:1:1:1:1:5\n")) == "t.prv:2: Paraver record: unknown record type '7'");
  CHECK(ErrorOf(Trace("hello\n")) == "t.prv:2: Paraver record: 'hello' is no record (1:state, 2:event, 3:communication)");
  CHECK(ErrorOf(Trace("1:1:1:1:1:0:10:1\n", ",2") + "c:1\n").find(":2: Paraver trace: communicator line 1 of 2 does not start") !=
        std::string::npos);
  CHECK(ErrorOf(Trace("", ",2") + "c:1\nc:2\n").empty());
  CHECK(ErrorOf(Trace("", ",3") + "c:1\nc:2\n") ==
        "t.prv:4: Paraver trace: the header announces 3 communicator lines, but the file ends after 2");
  CHECK(ErrorOf("#Paraver (d):1000:0:2:1(1:0):1(1:0)\n") ==
        "t.prv:1: Paraver header: 2 applications in one trace; qnm-predict reads a trace of one (MPI) application");
  CHECK(ErrorOf("#Paraver (d):0:0:1:1(1:0)\n") == "t.prv:1: Paraver header: the trace's end time is 0");
  // Records out of time order, a repeated state, a trace cut short.
  CHECK(ErrorOf(Trace("2:1:1:1:1:500:50000001:1\n2:1:1:1:1:400:50000001:0\n1:1:1:1:1:0:1000:1\n")) ==
        "t.prv:3: Paraver event record: an MPI call ends at 400, before it began at 500 (line 2): records out of time "
        "order");
  CHECK(ErrorOf(Trace("1:1:1:1:1:0:600:1\n1:1:1:1:1:0:600:1\n")) ==
        "t.prv:3: Paraver state record: the states of task 1, thread 1 add up to more than the trace's end time "
        "(overlapping states: a record repeated?)");
  CHECK(ErrorOf(Trace("1:1:1:1:1:0:400:1\n1:2:1:2:1:0:500:1\n")) ==
        "t.prv:3: Paraver trace: the records stop at 500 (50.0% of the header's end time 1000): a truncated trace");
  CHECK(ErrorOf(Trace("1:1:1:1:1:0:400:1\n1:2:1:2:1:0:995:1\n")).empty());  // within 1% of the end
}

TEST_CASE("Paraver configuration and row files", "[paraver]") {
  qnm::ParaverNames names;
  // Values after several EVENT_TYPE lines name every type of the block (Extrae's caller levels).
  qnm::ParseParaverPcf("DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS  NANOSEC\n\nEVENT_TYPE\n"
                       "0    70000001    Caller at level 1\n0    70000002    Caller at level 2\nVALUES\n0   End\n"
                       "3 main\n\nSTATES_COLOR\n0    {117,195,255}\n\nSTATES\n1    Running\n",
                       "t.pcf", &names);
  CHECK(names.ValueName(70000001, 3) == "main");
  CHECK(names.ValueName(70000002, 3) == "main");
  CHECK(names.ValueName(70000002, 4).empty());
  CHECK(names.states.at(1) == "Running");
  CHECK(qnm::testing::InputErrorOf([&] { qnm::ParseParaverPcf("EVENT_TYPE\n9 5x000001 MPI\n", "t.pcf", &names); }) ==
        "t.pcf:2: Paraver configuration: '5x000001 MPI' does not start with a number");
  qnm::ParseParaverRow("LEVEL NODE SIZE 2\nhostA\nhostB\n\nLEVEL THREAD SIZE 1\nTHREAD 1.1.1\n", "t.row", &names);
  CHECK(names.node_names == std::vector<std::string>{"hostA", "hostB"});
  CHECK(qnm::testing::InputErrorOf([&] { qnm::ParseParaverRow("LEVEL NODE SIZE 3\nhostA\n", "t.row", &names); }) ==
        "t.row:1: Paraver row file: LEVEL NODE names 3 rows, but the file ends before them");
}

TEST_CASE("Paraver: the .pcf and .row beside a trace belong to it", "[paraver]") {
  qnm::testing::TempDir dir("qnm", "paraver-parts");
  const std::string stem = (dir.path / "run_2").string();
  std::ofstream(stem + ".pcf") << "STATES\n1 Running\n";
  std::ofstream(stem + ".row") << "LEVEL NODE SIZE 1\nn1\n";
  CHECK_FALSE(qnm::IsPartOfParaverTrace(stem + ".pcf"));  // no trace beside them (yet)
  std::ofstream(stem + ".prv") << "#Paraver (d):1000000_ns:1(2):1:2(1:1,1:1)\n1:1:1:1:1:0:1000000:1\n"
                                  "1:2:1:2:1:0:1000000:1\n";
  CHECK(qnm::IsPartOfParaverTrace(stem + ".pcf"));
  CHECK(qnm::IsPartOfParaverTrace(stem + ".row"));
  CHECK_FALSE(qnm::IsPartOfParaverTrace(stem + ".prv"));
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = IngestPath(dir.path.string(), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].app == "run");
  CHECK(runs[0].hosts == std::vector<std::string>{"n1"});
  CHECK(IngestErrorOf(dir.path.string()).empty());

  // Extrae's default TRACE.prv is named after its folder, without the process count.
  std::filesystem::create_directories(dir.path / "lulesh-p2");
  std::filesystem::copy_file(stem + ".prv", dir.path / "lulesh-p2" / "TRACE.prv");
  std::vector<qnm::RunStats> named = IngestPath((dir.path / "lulesh-p2").string());
  REQUIRE(named.size() == 1);
  CHECK(named[0].app == "lulesh");
}

TEST_CASE("Paraver: traces in a tar or zip archive read with their .pcf and .row", "[paraver][archive]") {
  qnm::testing::TempDir dir("qnm", "paraver-archive");
  const std::string folder = dir.path.string();
  const std::string command = "cd " + kEpoch + " && tar -czf " + folder + "/epoch.tar.gz epoch_2proc.* epoch_4proc.* && zip -q " +
                              folder + "/epoch.zip epoch_2proc.prv.gz epoch_2proc.pcf epoch_2proc.row";
  REQUIRE(std::system(command.c_str()) == 0);
  std::vector<qnm::RunStats> on_disk = IngestPath(kEpoch, nullptr, /*strict=*/false);
  std::vector<qnm::RunStats> packed = IngestPath(folder + "/epoch.tar.gz");
  REQUIRE(packed.size() == 2);
  for (const qnm::RunStats& run : packed) {
    INFO(run.procs);
    const qnm::RunStats* same = nullptr;
    for (const qnm::RunStats& disk : on_disk)
      if (disk.procs == run.procs) same = &disk;
    REQUIRE(same != nullptr);
    CHECK(run.wall_time_s == same->wall_time_s);
    CHECK(run.mpi_time_s_per_rank.vector() == same->mpi_time_s_per_rank.vector());
    CHECK(run.hosts == same->hosts);  // from the .row, unpacked beside the trace
    CHECK(run.call_sites.front().mpi_function == same->call_sites.front().mpi_function);  // from the .pcf
    REQUIRE(run.sources.size() == 3);
    CHECK(run.sources[1].rfind(folder + "/epoch.tar.gz/", 0) == 0);  // named as the member, not the unpacked copy
  }
  // A damaged compressed trace in the archive is skipped with its member's name; the others are read.
  const std::string damaged = "mkdir -p " + folder + "/bad && cd " + folder + "/bad && cp " + kEpoch +
                              "/epoch_1proc.* . && head -c 50000 " + kEpoch + "/epoch_2proc.prv.gz > epoch_2proc.prv.gz && "
                              "cp " + kEpoch + "/epoch_2proc.pcf . && tar -cf ../bad.tar *";
  REQUIRE(std::system(damaged.c_str()) == 0);
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> some = IngestPath(folder + "/bad.tar", &summary, /*strict=*/false);
  REQUIRE(some.size() == 1);
  CHECK(some[0].procs == 1);
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].path == folder + "/bad.tar/epoch_2proc.prv.gz");
  std::vector<qnm::RunStats> zipped = IngestPath(folder + "/epoch.zip");
  REQUIRE(zipped.size() == 1);
  CHECK(zipped[0].procs == 2);
  CHECK(zipped[0].hosts.size() == 1);
}

TEST_CASE("Paraver: Extrae's intermediate files belong to the merged trace, or say to merge them", "[paraver]") {
  namespace fs = std::filesystem;
  qnm::testing::TempDir dir("qnm", "extrae-run");
  const fs::path run = dir.path / "lulesh-p4";
  fs::create_directories(run / "set-0");
  const std::string thread0 = "TRACE@s01r1b02.0000012345000000000000", thread1 = "TRACE@s01r1b02.0000012345000001000000";
  std::ofstream(run / "TRACE.mpits") << (run / "set-0" / (thread0 + ".mpit")).string() << " named\n--\n";
  std::ofstream(run / "TRACE.sym") << "B 0 \"main\" \"main.c\"\n";
  std::ofstream(run / "set-0" / (thread0 + ".mpit")) << std::string(3000, '\x01');
  std::ofstream(run / "set-0" / (thread1 + ".mpit")) << std::string(3000, '\x02');
  std::ofstream(run / "set-0" / (thread0 + ".sym")) << "B 0 \"main\"\n";

  // By name: the list, and the per-thread files Extrae names app@host.<22 digits>.<ext>.
  CHECK(qnm::IsExtraeIntermediateFile((run / "TRACE.mpits").string()));
  CHECK(qnm::IsExtraeIntermediateFile((run / "set-0" / (thread1 + ".mpit")).string()));
  CHECK_FALSE(qnm::IsExtraeIntermediateFile((run / "TRACE.sym").string()));  // a .sym of its own is anybody's
  CHECK_FALSE(qnm::IsExtraeIntermediateFile((run / "set-0" / "TRACE@host.12.mpit").string()));  // not 22 digits
  CHECK_FALSE(qnm::IsExtraeIntermediateFile((run / "notes.mpit.txt").string()));

  // Not merged: the run is said once, by its list, with what to do; the per-thread files and the
  // run's symbols go with the list.
  qnm::IngestSummary summary;
  CHECK(IngestPath(dir.path.string(), &summary, /*strict=*/false).empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].path == (run / "TRACE.mpits").string());
  CHECK_THAT(summary.skipped[0].reason, Catch::Contains("mpi2prv -f TRACE.mpits -o TRACE.prv"));

  // Per-thread files without their list (a copied set-0/) are each said to be such a file, whatever their size.
  qnm::IngestSummary loose;
  CHECK(IngestPath((run / "set-0").string(), &loose, /*strict=*/false).empty());
  REQUIRE(loose.skipped.size() == 3);
  for (const qnm::SkippedFile& file : loose.skipped) CHECK_THAT(file.reason, Catch::Contains("an Extrae intermediate trace file"));

  // Merged: the trace is read, and nothing else is said.
  fs::copy_file(kEpoch + "/epoch_4proc.prv.gz", run / "lulesh.prv.gz");
  qnm::IngestSummary merged;
  const std::vector<qnm::RunStats> runs = IngestPath(dir.path.string(), &merged);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 4);
  CHECK(merged.skipped.empty());
}
