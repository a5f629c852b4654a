// Series identity from what the files say (reader/series_identity.h), the
// run-info files beside a run, host-name stems and counting a measurement read
// from several files once. Fixtures: tests/data/layouts/ (the LLNL cab NPB-MZ
// runs of tests/data/mpip re-arranged; see tests/data/layouts/SOURCES.md).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ingest/duplicate_runs.h"
#include "ingest/ingest.h"
#include "models/machine_profile.h"
#include "reader/host_names.h"
#include "reader/run_info_file.h"
#include "reader/series_identity.h"
#include "tests/command_runner.h"
#include "util/atomic_file.h"

namespace {

namespace fs = std::filesystem;
const std::string kData = QNM_TEST_DATA_DIR;
const std::string kLayouts = kData + "/layouts";
const std::string kDefaultSeries = std::string(QNM_SOURCE_DIR) + "/data/default-series";

std::vector<qnm::Series> SeriesOf(const std::vector<std::string>& paths, qnm::IngestSummary* summary,
                                  qnm::GroupBy group_by = qnm::GroupBy::kContent) {
  std::vector<qnm::RunStats> runs = qnm::IngestPaths(paths, qnm::IngestOptions{true, false}, summary);
  return qnm::GroupIntoSeries(std::move(runs), group_by);
}

// Series name -> (procs -> measured time): what a layout must reproduce.
std::map<std::string, std::map<int, double>> Shape(const std::vector<qnm::Series>& series) {
  std::map<std::string, std::map<int, double>> shape;
  for (const qnm::Series& one : series)
    for (const qnm::RunGroup& group : one.groups) shape[one.name][group.procs] = group.median_time_s;
  return shape;
}

std::vector<std::string> FilesUnder(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && !qnm::IsRunInfoFileName(entry.path().string()))
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string Cli(const std::string& arguments, int* status) {
  std::string out;
  *status = qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " " + arguments + " 2>/dev/null", &out);
  return out;
}

}  // namespace

TEST_CASE("host-name stems name the machine", "[ingest][identity]") {
  CHECK(qnm::HostStem("cab36") == "cab");
  CHECK(qnm::HostStem("cab1281") == "cab");
  CHECK(qnm::HostStem("graphene-12.nancy.grid5000.fr") == "graphene");
  CHECK(qnm::HostStem("nid00012") == "nid");
  CHECK(qnm::HostStem("login") == "login");
  CHECK(qnm::HostStem("zarate-4d.cnca") == "zarate");  // CeNAT node ids are hexadecimal
  CHECK(qnm::HostStem("c6gn-dy-c6gn16xlarge-2") == "c6gn-dy-c6gn16xlarge");
  CHECK(qnm::HostStem("1234").empty());
  // HPE Cray EX nodes named by their place (Aurora, Polaris): one stem for every node, on any rack.
  CHECK(qnm::HostStem("x4013c2s7b0n0") == qnm::kCrayExNodeStem);
  CHECK(qnm::HostStem("x3004c0s13b0n0.hsn.cm.polaris.alcf.anl.gov") == qnm::kCrayExNodeStem);
  CHECK(qnm::MachineFromHosts({"x4013c2s7b0n0", "x4118c5s1b0n0"}) == qnm::kCrayExNodeStem);
  CHECK(qnm::IsGenericNodeStem(qnm::kCrayExNodeStem));
  CHECK(qnm::HostStem("xeon12") == "xeon");
  CHECK(qnm::MachineFromHosts({"cab183", "cab194", "cab1281"}) == "cab");
  CHECK(qnm::MachineFromHosts({"graphene-1", "graphene-144"}) == "graphene");
  CHECK(qnm::MachineFromHosts({"cab5", "zin12"}) == "cab+zin");
  CHECK(qnm::MachineFromHosts({}).empty());
  // A Cray node name names no machine; the processor does (GROMACS's "Brand:", CP2K's "CPU model name").
  CHECK(qnm::IsGenericNodeStem("nid"));
  CHECK_FALSE(qnm::IsGenericNodeStem("cab"));
  CHECK(qnm::CpuModelName("Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz") == "Xeon E5-2697 v2");
  CHECK(qnm::CpuModelName("AMD EPYC 7742 64-Core Processor                ") == "EPYC 7742");
  CHECK(qnm::CpuModelName("Intel(R) Xeon(R) Gold 6142 CPU @ 2.60GHz") == "Xeon Gold 6142");
  CHECK(qnm::CpuModelName("Unknown CPU brand").empty());
  CHECK(qnm::CpuModelName("Intel(R) Xeon(R) Processor code named Sapphirerapids") == "Xeon Sapphirerapids");
  CHECK(qnm::CpuModelName("").empty());
  qnm::RunStats archer, archer2, cab;
  qnm::ApplyHosts({"nid04506"}, "test", &archer, "Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz");
  qnm::ApplyHosts({"nid006789"}, "test", &archer2, "AMD EPYC 7742 64-Core Processor");
  qnm::ApplyHosts({"cab36"}, "test", &cab, "Intel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz");
  CHECK(archer.machine == "nid Xeon E5-2697 v2");
  CHECK(archer2.machine == "nid EPYC 7742");
  CHECK(cab.machine == "cab");  // a stem that names its machine keeps it
  CHECK(archer2.derivations.at("machine").find("processor 'EPYC 7742'") != std::string::npos);
  CHECK(qnm::ExpandNodeList("cab[183,194-196]") ==
        std::vector<std::string>{"cab183", "cab194", "cab195", "cab196"});
  CHECK(qnm::ExpandNodeList("n[01-03]x,login") == std::vector<std::string>{"n01x", "n02x", "n03x", "login"});
}

TEST_CASE("info, host and env files beside a run", "[ingest][identity]") {
  std::string path = kLayouts + "/per-run/2012_07_06_13_43_45_760200592/info";
  qnm::RunInfoFile info = qnm::ParseRunInfoFile(qnm::ReadFile(path), path);
  CHECK(info.hosts == std::vector<std::string>{"cab183"});
  CHECK(info.hosts_from == "uname line");
  CHECK(info.threads_per_node == 16);
  CHECK(info.nodes == 4);
  CHECK(qnm::IsRunInfoFileName(path));
  CHECK_FALSE(qnm::IsRunInfoFileName(kLayouts + "/per-run/x/out.dat"));

  qnm::RunInfoFile hosts = qnm::ParseRunInfoFile("cab194\ncab275 slots=16\n", "host_info");
  CHECK(hosts.hosts == std::vector<std::string>{"cab194", "cab275"});
  qnm::RunInfoFile env = qnm::ParseRunInfoFile(
      "SLURM_NNODES=16\nHOSTNAME=cab183\nOMP_NUM_THREADS=12\nSHELL=/bin/bash\n", "env");
  CHECK(env.hosts == std::vector<std::string>{"cab183"});
  CHECK(env.threads_per_proc == 12);
  CHECK(env.nodes == 16);
  CHECK(qnm::ParseRunInfoFile("this is not about a run\n", "info").Empty());

  qnm::RunStats run;
  run.procs = 4;
  qnm::ApplyRunInfo(info, &run);
  CHECK(run.machine == "cab");
  CHECK(run.threads_per_proc == 16);  // 16 threads/node x 4 nodes / 4 processes
  CHECK(run.derivations.at("threads_per_proc").find("threads/node 16 x nodes 4") != std::string::npos);
}

TEST_CASE("a table's system text names its machine", "[ingest][identity]") {
  CHECK(qnm::MachineFromSystemText("LLNL cab (Sandy Bridge 16 cores/node / IB QDR);NPB3.3.1-MZ-MPI") == "LLNL cab");
  CHECK(qnm::MachineFromSystemText("Grid5000;NPB3.3-MPI LU;cluster=graphene;hosts=8") == "graphene");
  CHECK(qnm::MachineFromSystemText("single host ozmpc2") == "single host ozmpc2");
  CHECK(qnm::ConfigurationFromSystemText("Grid5000;NPB3.3-MPI LU;cluster=graphene;hosts=8;npb_version=3.3;"
                                         "verification=UNSUCCESSFUL") == "Grid5000;NPB3.3-MPI LU;npb_version=3.3");
  CHECK(qnm::ConfigurationFromSystemText("SeARCH node-type 662;net=GbE-TCP;gcc O3;iterations=10") ==
        "net=GbE-TCP;gcc O3");
}

TEST_CASE("one folder per run, a flat folder and a file list give the same series", "[ingest][identity]") {
  qnm::IngestSummary per_run_summary, flat_summary, list_summary;
  // (a) <timestamp>/{bt-mz.C.<P>.<pid>.1.mpiP, out.dat, info}
  auto per_run = SeriesOf({kLayouts + "/per-run"}, &per_run_summary);
  // (b) flat folders: the bundled th=16 runs (names carry a data-set prefix) and th=4 runs
  auto flat = SeriesOf({kDefaultSeries, kLayouts + "/flat"}, &flat_summary);
  // (c) the per-run files given one by one (the info files beside them are found)
  auto list = SeriesOf(FilesUnder(kLayouts + "/per-run"), &list_summary);

  REQUIRE(per_run.size() == 2);
  CHECK(per_run[0].name == "bt-mz.C th=4 @cab");
  CHECK(per_run[1].name == "bt-mz.C th=16 @cab");
  CHECK(Shape(per_run) == Shape(flat));
  CHECK(Shape(per_run) == Shape(list));
  CHECK(Shape(per_run).at("bt-mz.C th=4 @cab").at(16) == 7.28);
  CHECK(per_run_summary.runs == 10);
  CHECK(per_run_summary.files_beside_runs == 10);
  CHECK(per_run_summary.files_beside_used == 10);
  CHECK(per_run_summary.skipped.empty());
  CHECK(list_summary.files_beside_used == 10);
  for (const qnm::Series& one : per_run)
    for (const qnm::RunGroup& group : one.groups) {
      const qnm::RunStats& run = group.runs.front();
      CHECK(run.derivations.at("machine").find("mpiP MPI Task Assignment") == 0);
      CHECK(run.derivations.at("threads_per_proc") == "NPB-MZ 'Total threads' / 'Total processes'");
      CHECK(run.hosts.size() == static_cast<std::size_t>(run.procs));
    }
}

TEST_CASE("the three layouts predict the same", "[ingest][identity][cli]") {
  int status_a = 0, status_b = 0, status_c = 0;
  std::string options = " --procs 32,64 --format csv";
  std::string a = Cli("predict " + kLayouts + "/per-run" + options, &status_a);
  std::string b = Cli("predict " + kDefaultSeries + " " + kLayouts + "/flat" + options, &status_b);
  std::string files;
  for (const std::string& file : FilesUnder(kLayouts + "/per-run")) files += " " + file;
  std::string c = Cli("predict" + files + options, &status_c);
  CHECK(status_a == 0);
  CHECK(status_b == 0);
  CHECK(status_c == 0);
  CHECK(a.find("bt-mz.C th=16 @cab,64,") != std::string::npos);
  CHECK(a.find("bt-mz.C th=4 @cab,64,") != std::string::npos);
  CHECK(a == b);
  CHECK(a == c);
}

TEST_CASE("grouping by folder or file prefix only when asked", "[ingest][identity]") {
  qnm::IngestSummary summary;
  auto by_folder = SeriesOf({kLayouts + "/per-run"}, &summary, qnm::GroupBy::kFolder);
  CHECK(by_folder.size() == 10);  // one series per timestamp folder
  CHECK(by_folder.front().name == "bt-mz.C th=16 @cab in 2012_07_06_13_36_28_629332850");
  auto by_prefix = SeriesOf({kDefaultSeries, kLayouts + "/flat"}, &summary, qnm::GroupBy::kFilePrefix);
  std::set<std::string> names;
  for (const qnm::Series& one : by_prefix) names.insert(one.name);
  CHECK(names == std::set<std::string>{"bt-mz.C th=16 @cab in tpatki-npbmz", "bt-mz.C th=4 @cab"});
  qnm::GroupBy group_by;
  CHECK_FALSE(qnm::ParseGroupBy("timestamp", &group_by));
}

TEST_CASE("threads per process from the info file when the run has no NPB output", "[ingest][identity]") {
  qnm::IngestSummary summary;
  auto series = SeriesOf({kLayouts + "/info-only"}, &summary);
  REQUIRE(series.size() == 1);
  CHECK(series[0].name == "bt-mz.C th=12 @cab");  // threads/node 12 x nodes 2 / 2 processes
  std::vector<std::string> why = qnm::ExplainSeriesIdentity(series[0]);
  std::string text;
  for (const std::string& line : why) text += line + "\n";
  CHECK(text.find("threads/process 12: 'info' file beside the run (1 run; e.g. threads/node 12 x nodes 2") !=
        std::string::npos);
  CHECK(text.find("machine cab: mpiP MPI Task Assignment (1 run; e.g. cab183 cab194 -> cab)") !=
        std::string::npos);
  CHECK(text.find("app bt-mz: mpiP file name (1 run") != std::string::npos);
}

TEST_CASE("an index table naming each run's file counts each run once", "[ingest][identity][duplicates]") {
  // index-table/runs.csv lists the 10 runs of per-run/ under the names users give such columns
  // ('time', 'file'): read together, each row is the run read from the file it names.
  qnm::IngestSummary summary;
  auto together = SeriesOf({kLayouts + "/per-run", kLayouts + "/index-table"}, &summary);
  qnm::IngestSummary alone_summary;
  auto alone = SeriesOf({kLayouts + "/per-run"}, &alone_summary);
  REQUIRE(together.size() == alone.size());
  REQUIRE(together.size() == 2);
  for (std::size_t s = 0; s < together.size(); ++s) {
    CHECK(together[s].name == alone[s].name);
    REQUIRE(together[s].groups.size() == 5);
    for (const qnm::RunGroup& group : together[s].groups) {
      REQUIRE(group.runs.size() == 1);
      const qnm::RunStats& run = group.runs.front();
      CHECK(std::any_of(run.sources.begin(), run.sources.end(),
                        [](const std::string& source) { return source.find("runs.csv:") != std::string::npos; }));
    }
  }
  CHECK(summary.duplicates.citations == 10);
  CHECK(summary.duplicates.Note() ==
        "10 duplicate measurements of the same runs counted once (10 table rows citing a file read; files runs.csv)");
  bool read_as_source = false;
  for (const std::string& note : summary.readings)
    read_as_source = read_as_source || note.find("'file' read as source") != std::string::npos;
  CHECK(read_as_source);
  // The table alone is the data: its rows are the runs.
  auto table = SeriesOf({kLayouts + "/index-table/runs.csv"}, &summary);
  std::size_t rows = 0;
  for (const qnm::Series& one : table)
    for (const qnm::RunGroup& group : one.groups) rows += group.runs.size();
  CHECK(rows == 10);
  CHECK(summary.duplicates.citations == 0);
}

TEST_CASE("logs and the tables describing them count each run once", "[ingest][identity][duplicates]") {
  qnm::IngestSummary summary;
  auto series = SeriesOf({kLayouts + "/logs-and-tables"}, &summary);
  REQUIRE(series.size() == 1);
  CHECK(series[0].name == "bt-mz.C th=16 @LLNL cab (mpip)");
  REQUIRE(series[0].groups.size() == 5);
  for (const qnm::RunGroup& group : series[0].groups) {
    REQUIRE(group.runs.size() == 1);
    const qnm::RunStats& run = group.runs.front();
    CHECK(run.sources.size() == 3);  // the log, its npb_runs.csv row, its summary row
    CHECK(run.derivations.at("machine").find("describes this run") != std::string::npos);
  }
  CHECK(summary.duplicates.citations == 5);
  CHECK(summary.duplicates.summaries == 5);
  CHECK(summary.duplicates.copies == 0);
  CHECK(summary.duplicates.Note() ==
        "10 duplicate measurements of the same runs counted once (5 table rows citing a file read, 5 summary "
        "rows of runs read; files npb_runs.csv, npb_series_median.csv)");
  // The tables alone: the summary rows still fold into the rows they summarise.
  auto tables = SeriesOf({kLayouts + "/logs-and-tables/npb_runs.csv",
                          kLayouts + "/logs-and-tables/npb_series_median.csv"}, &summary);
  REQUIRE(tables.size() == 1);
  CHECK(summary.duplicates.summaries == 5);
}

TEST_CASE("the same run read from two folders is counted once", "[ingest][identity][duplicates]") {
  qnm::IngestSummary summary;
  auto series = SeriesOf({kDefaultSeries, kLayouts + "/per-run"}, &summary);
  REQUIRE(series.size() == 2);
  CHECK(summary.duplicates.copies == 5);  // the bundled th=16 runs are in per-run/ too
  for (const qnm::RunGroup& group : series[0].groups) CHECK(group.runs.size() == 1);
  // Equal numbers from two files are two runs (issue 18: never merge by equal
  // numbers); the same origin (file bytes and place) read twice is one.
  qnm::RunStats a, b;
  a.app = b.app = "lu";
  a.procs = b.procs = 8;
  a.wall_time_s = b.wall_time_s = 12.17;
  a.mops_total = b.mops_total = 9803.35;
  a.sources = {"a.out"};
  b.sources = {"b.out"};
  a.origin = "0123:100#0";
  b.origin = "4567:100#0";
  qnm::DuplicateSummary dup;
  CHECK(qnm::CountMeasurementsOnce({a, b}, &dup).size() == 2);
  b.origin = a.origin;  // the same bytes: in another folder a copy, beside it a repetition
  b.sources = {"copy/a.out"};
  CHECK(qnm::CountMeasurementsOnce({a, b}, &dup).size() == 1);
  CHECK(dup.copies == 1);
  b.sources = {"b.out"};
  CHECK(qnm::CountMeasurementsOnce({a, b}, &dup).size() == 2);
  CHECK(qnm::SameTimeWithinPrintPrecision(10.82, 10.824));
  CHECK_FALSE(qnm::SameTimeWithinPrintPrecision(111.37, 111.38));
}

TEST_CASE("table rows citing one file fold into few records with a short source list",
          "[ingest][identity][duplicates]") {
  // A table exported from a ReFrame perflog cites the log in every row: 20,000 rows of 5 runs
  // repeated. Each row is the earlier row of its time's measurement; the kept record names the
  // table once, not 4,000 rows (that list, grown row by row, made 222,000 rows take 8 minutes).
  std::vector<qnm::RunStats> rows;
  for (int r = 0; r < 20000; ++r) {
    qnm::RunStats row;
    row.app = "HeatScaling";
    row.procs = 1 << (r % 5);
    row.wall_time_s = 240.0 / row.procs + 1.5;
    row.derivations["wall_time_s"] = "statistics table column time_s";
    row.sources = {"runs.csv:" + std::to_string(r + 2), "perflogs/HeatScaling.log"};
    row.origin = "abcd:1#" + std::to_string(r);
    rows.push_back(row);
  }
  qnm::DuplicateSummary dup;
  std::vector<qnm::RunStats> kept = qnm::CountMeasurementsOnce(rows, &dup);
  REQUIRE(kept.size() == 5);
  CHECK(dup.citations == 19995);
  for (const qnm::RunStats& run : kept) CHECK(run.sources.size() == 2);  // its row and the log it cites
  // Rows of other times citing the same file are other runs.
  rows.resize(2);
  rows[1].procs = rows[0].procs;
  rows[1].wall_time_s = rows[0].wall_time_s + 0.02;
  CHECK(qnm::CountMeasurementsOnce(rows, &dup).size() == 2);
}

TEST_CASE("machine profiles match by host pattern, not by file names", "[ingest][identity][machine]") {
  qnm::IngestSummary summary;
  auto series = SeriesOf({kDefaultSeries}, &summary);
  REQUIRE(series.size() == 1);  // the bundled default series is one series
  CHECK(series[0].name == "bt-mz.C th=16 @cab");
  qnm::MachineProfile profile;
  std::string why;
  REQUIRE(qnm::FindProfileForSeries(series[0], &profile, &why));
  CHECK(profile.name == "llnl-cab");
  CHECK(why.find("its host pattern ^cab[0-9]+$ matches the runs' 16 host names") == 0);
  CHECK(qnm::ProfileMatchesHosts(profile, {"cab183", "cab1281"}));
  CHECK_FALSE(qnm::ProfileMatchesHosts(profile, {"cab183", "zin12"}));
  CHECK_FALSE(qnm::FindProfileForMachine("tpatki-npbmz", &profile));  // a data-set tag names no machine
}

TEST_CASE("ingest --series says why runs were grouped", "[ingest][identity][cli]") {
  int status = 0;
  std::string out = Cli("ingest --series " + kLayouts + "/per-run", &status);
  CHECK(status == 0);
  CHECK(out.find("2 series (grouped by content); identity keys and where each came from:") != std::string::npos);
  CHECK(out.find("  machine cab: mpiP MPI Task Assignment (5 runs; e.g. cab183 -> cab)") != std::string::npos);
  CHECK(out.find("  threads/process 4: NPB-MZ 'Total threads' / 'Total processes' (5 runs)") != std::string::npos);
  std::string folders = Cli("ingest --series --group-by folder " + kLayouts + "/per-run", &status);
  CHECK(status == 0);
  CHECK(folders.find("10 series (grouped by folder)") != std::string::npos);
}

TEST_CASE("an info file's node count gives nodes and ranks per node; the run's own hosts win",
          "[ingest][identity][nodes]") {
  qnm::RunInfoFile info;
  info.path = "/runs/a/info";
  info.nodes = 4;
  qnm::RunStats run;
  run.procs = 8;
  qnm::ApplyRunInfo(info, &run);
  CHECK(run.nodes == 4);
  CHECK(run.ranks_per_node == 2);
  CHECK(run.derivations.at("nodes").find("info") != std::string::npos);
  qnm::RunStats own;  // nodes already known from the mpiP task assignment
  own.procs = 8;
  own.nodes = 8;
  own.ranks_per_node = 1;
  qnm::ApplyRunInfo(info, &own);
  CHECK(own.nodes == 8);
  CHECK(own.ranks_per_node == 1);
}
