// Runs that differ in a setting their program declared (reader/experiment_factors.h): a campaign of
// Caliper profiles of two problem sizes in one folder is two series, not repetitions; settings that
// do not recur at other process counts, or results, split nothing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "ingest/repetition_spread.h"
#include "reader/experiment_factors.h"
#include "reader/series_identity.h"
#include "tests/command_runner.h"
#include "tests/ingest_test_util.h"
#include "tables/statistics_table.h"
#include "tables/table_setting_columns.h"
#include "tests/temp_dir.h"

namespace qnm {
namespace {

const std::string kSizes = std::string(QNM_TEST_DATA_DIR) + "/caliper/sizes";

std::vector<Series> SeriesOf(const std::vector<std::string>& paths, IngestSummary* summary) {
  return GroupIntoSeries(IngestPaths(paths, IngestOptions{}, summary), GroupBy::kContent);
}

// (real input, name) of each file of `folder` whose name starts with `prefix`.
std::vector<std::pair<std::string, std::string>> FilesStartingWith(const std::string& folder, const std::string& prefix) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0) files.emplace_back(entry.path().string(), name);
  }
  return files;
}

// Each real input of `inputs` written into `dir` twice, as a_<name> and, changed by `edit`, as b_<name>:
// two campaigns that differ only there. Returns how many inputs.
int WriteTwoCampaigns(const testing::TempDir& dir, const std::vector<std::pair<std::string, std::string>>& inputs,
                      const std::function<std::string(const std::string&)>& edit) {
  for (const auto& [path, name] : inputs) {
    const std::string text = testing::ReadText(path);
    testing::WriteCase(dir, "a_" + name, text);
    testing::WriteCase(dir, "b_" + name, edit(text));
  }
  return static_cast<int>(inputs.size());
}

std::vector<int> ProcsOf(const Series& series) {
  std::vector<int> procs;
  for (const RunGroup& group : series.groups) {
    procs.push_back(group.procs);
    CHECK(group.runs.size() == 1);  // one run per point: nothing taken as a repetition
  }
  return procs;
}

RunStats Run(int procs, double time_s, std::map<std::string, std::string> details) {
  RunStats run;
  run.app = "solver";
  run.procs = procs;
  run.wall_time_s = time_s;
  run.details = std::move(details);
  return run;
}

}  // namespace

TEST_CASE("Caliper profiles of two problem sizes in one folder are two series, by Adiak's InputSize",
          "[ingest][series][caliper]") {
  IngestSummary summary;
  const std::vector<Series> series = SeriesOf({kSizes}, &summary);
  REQUIRE(series.size() == 2);
  CHECK(series[0].key.variant == "InputSize=1000000000");
  CHECK(series[1].key.variant == "InputSize=2000000000");
  for (const Series& one : series) {
    CHECK(one.key.app == "sizes");
    CHECK(ProcsOf(one) == std::vector<int>{1, 2, 4});
    CHECK(one.name.find("(InputSize=") != std::string::npos);
  }
  // The larger problem takes about twice as long at every process count (the loop is twice as long).
  for (std::size_t g = 0; g < 3; ++g)
    CHECK(series[1].groups[g].median_time_s / series[0].groups[g].median_time_s == Approx(2.0).epsilon(0.25));
  bool noted = false;
  for (const std::string& note : summary.notes)
    noted |= note.find("differ in adiak.InputSize") != std::string::npos && note.find("2 series") != std::string::npos;
  CHECK(noted);
  CHECK(summary.warnings.empty());  // no longer repetitions that spread 2x
  const std::vector<std::string> why = ExplainSeriesIdentity(series[0]);
  bool explained = false;
  for (const std::string& line : why)
    explained |= line.find("configuration InputSize=1000000000: settings that take several values") !=
                 std::string::npos;
  CHECK(explained);
}

TEST_CASE("the same profiles given one by one form the same two series", "[ingest][series][caliper]") {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(kSizes)) files.push_back(entry.path().string());
  IngestSummary summary;
  const std::vector<Series> series = SeriesOf(files, &summary);
  REQUIRE(series.size() == 2);
  CHECK(ProcsOf(series[0]) == std::vector<int>{1, 2, 4});
  CHECK(ProcsOf(series[1]) == std::vector<int>{1, 2, 4});
}

TEST_CASE("predict picks one of the problem sizes by its setting", "[cli][series][caliper]") {
  std::string out;
  REQUIRE(testing::RunCli("predict " + kSizes + " --series InputSize=2000000000 --procs 8", &out) == 0);
  CHECK(out.find("1 series") != std::string::npos);
  CHECK(out.find("sizes @") != std::string::npos);
  CHECK(out.find("(InputSize=2000000000)") != std::string::npos);
  CHECK(out.find("InputSize=1000000000") == std::string::npos);
}

TEST_CASE("mpiP reports of one program on two inputs are two series, by the Command line's arguments",
          "[ingest][series][mpip]") {
  // The four bitonic-sort reports (P = 8, 8, 16, 32), each also as if run on another input file.
  testing::TempDir dir("factors", "mpip");
  REQUIRE(WriteTwoCampaigns(dir, FilesStartingWith(std::string(QNM_TEST_DATA_DIR) + "/mpip", "bitonic__"),
                            [](const std::string& text) {
                              return testing::Replaced(text, "testcase/input4", "testcase/input9");
                            }) == 4);
  IngestSummary summary;
  const std::vector<Series> series = SeriesOf({dir.path.string()}, &summary);
  REQUIRE(series.size() == 2);
  CHECK(series[0].key.variant == "arguments=110590032 testcase/input4 output");
  CHECK(series[1].key.variant == "arguments=110590032 testcase/input9 output");
  for (const Series& one : series) CHECK(one.groups.size() == 3);  // P = 8 (twice), 16, 32
  // The reports as they are (one input): one series, nothing split.
  IngestSummary plain;
  const std::vector<Series> one = SeriesOf({std::string(QNM_TEST_DATA_DIR) + "/mpip/bitonic__8_8_profile.mpiP",
                                            std::string(QNM_TEST_DATA_DIR) + "/mpip/bitonic__16_16_profile.mpiP"},
                                           &plain);
  REQUIRE(one.size() == 1);
  CHECK(one[0].key.variant.empty());
}

TEST_CASE("NPB runs of one class with their iterations changed are two series, by the banner's Iterations",
          "[ingest][series][npb]") {
  // The per-run layout's NPB-MZ outputs (BT-MZ class C at 100 iterations, 1..16 processes), each also as if
  // run at 300 iterations (rapl-old-data's campaigns hold both, one folder each, round 29).
  testing::TempDir dir("factors", "npb");
  std::vector<std::pair<std::string, std::string>> outputs;  // each run folder's out.dat
  for (const auto& entry : std::filesystem::directory_iterator(std::string(QNM_TEST_DATA_DIR) + "/layouts/per-run"))
    outputs.emplace_back((entry.path() / "out.dat").string(), entry.path().filename().string() + ".out");
  REQUIRE(WriteTwoCampaigns(dir, outputs, [](const std::string& text) {  // the banner's and the summary's
            return testing::Replaced(testing::Replaced(text, "Iterations: 100 ", "Iterations: 300 "),
                                     "=                      100", "=                      300");
          }) == 10);
  IngestSummary summary;
  const std::vector<Series> series = SeriesOf({dir.path.string()}, &summary);
  std::map<std::string, int> by_iterations;
  for (const Series& one : series) {
    INFO(one.name);
    ++by_iterations[one.key.variant];
    for (const RunGroup& group : one.groups) CHECK(group.runs.size() == 1);  // nothing taken as a repetition
  }
  CHECK(by_iterations.size() == 2);
  CHECK(by_iterations["iterations=100"] == by_iterations["iterations=300"]);
  CHECK(by_iterations["iterations=100"] > 0);
  // The outputs as they are (one iteration count): no variant, nothing split.
  IngestSummary plain;
  for (const Series& one : SeriesOf({std::string(QNM_TEST_DATA_DIR) + "/layouts/per-run"}, &plain))
    CHECK(one.key.variant.empty());
}

TEST_CASE("a campaign of one problem (Thicket's LULESH at 27..343 ranks) is not split",
          "[ingest][series][caliper]") {
  IngestSummary summary;
  const std::vector<Series> series =
      SeriesOf({std::string(QNM_TEST_DATA_DIR) + "/caliper/thicket-mpi-scaling"}, &summary);
  REQUIRE(series.size() == 1);
  CHECK(series[0].key.variant.empty());
  CHECK(series[0].groups.size() == 5);
}

TEST_CASE("only declared settings that recur at other process counts split a series", "[ingest][series]") {
  // A launch tag unique to each run (no date, time or id word in its name) never recurs: not a factor.
  std::vector<RunStats> runs = {Run(1, 10, {{"adiak.tag", "a"}, {"adiak.size", "big"}}),
                                Run(1, 11, {{"adiak.tag", "b"}, {"adiak.size", "big"}}),
                                Run(2, 5, {{"adiak.tag", "c"}, {"adiak.size", "big"}}),
                                Run(2, 6, {{"adiak.tag", "d"}, {"adiak.size", "big"}})};
  CHECK(SplitByExperimentFactors(&runs).empty());
  for (const RunStats& run : runs) CHECK(run.variant.empty());
  // Results a reader keeps beside settings (not under a setting prefix) split nothing either.
  runs = {Run(1, 10, {{"mpi_share_percent", "1"}}), Run(1, 11, {{"mpi_share_percent", "2"}}),
          Run(2, 5, {{"mpi_share_percent", "1"}}), Run(2, 6, {{"mpi_share_percent", "2"}})};
  CHECK(SplitByExperimentFactors(&runs).empty());
  // A declared setting whose values differ at one P and each recur at another: two series. A run
  // without the setting is not told apart by it: it keeps its key.
  runs = {Run(1, 10, {{"adiak.size", "small"}}), Run(1, 20, {{"adiak.size", "large"}}),
          Run(2, 5, {{"adiak.size", "small"}}), Run(2, 10, {{"adiak.size", "large"}}),
          Run(4, 3, {{"adiak.other", "x"}})};
  const std::vector<std::string> notes = SplitByExperimentFactors(&runs);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("adiak.size") != std::string::npos);
  CHECK(runs[0].variant == "size=small");
  CHECK(runs[1].variant == "size=large");
  CHECK(runs[4].variant.empty());
  // A series a table names (its series column keys it alone) gains the factors in its name.
  runs = {Run(1, 10, {{"adiak.size", "small"}}), Run(1, 20, {{"adiak.size", "large"}}),
          Run(2, 5, {{"adiak.size", "small"}}), Run(2, 10, {{"adiak.size", "large"}})};
  for (RunStats& run : runs) run.series = "given";
  CHECK(SplitByExperimentFactors(&runs).size() == 1);
  CHECK(runs[0].series == "given (size=small)");
  CHECK(runs[1].series == "given (size=large)");
  CHECK(runs[1].variant.empty());
}

TEST_CASE("a table of two problem sizes without a series column is two series, by its size column",
          "[ingest][series][tables]") {
  // The six runs of tests/data/caliper/sizes as a user would tabulate them: size, procs, time.
  IngestSummary summary;
  const std::vector<Series> series =
      SeriesOf({std::string(QNM_TEST_DATA_DIR) + "/tables/sizes_two_problems.csv"}, &summary);
  REQUIRE(series.size() == 2);
  CHECK(series[0].name == "sizes_two_problems (size=1000000000)");
  CHECK(series[1].name == "sizes_two_problems (size=2000000000)");
  CHECK(ProcsOf(series[0]) == std::vector<int>{1, 2, 4});
  CHECK(series[1].groups[0].median_time_s == Approx(3.2911));
  bool noted = false;
  for (const std::string& note : summary.notes) noted |= note.find("differ in problem_size") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("a strong-scaling campaign whose problem size changes with P is one series", "[ingest][series]") {
  // One size per process count (LULESH's per-domain size scaled down as P grows): nothing differs
  // at one process count, nothing to split.
  std::vector<RunStats> runs = {Run(1, 10, {}), Run(8, 2, {}), Run(27, 1, {})};
  runs[0].problem_size = "90";
  runs[1].problem_size = "45";
  runs[2].problem_size = "30";
  CHECK(SplitByExperimentFactors(&runs).empty());
}

TEST_CASE("runs of one input at one process count on several node counts are layouts, not repetitions",
          "[ingest][series][nodes]") {
  // A node-population study (the UK benchmark suite's VASP 6.3.2 CdTe runs): 128 ranks on 1, 2 and
  // 4 nodes, 256 on 2 and 4: three layouts, 128, 64 and 32 ranks per node.
  auto on = [](int procs, int nodes, double time_s) {
    RunStats run = Run(procs, time_s, {});
    run.SetNodes(nodes, "test");
    return run;
  };
  std::vector<RunStats> runs = {on(64, 1, 8125), on(128, 1, 7433), on(128, 2, 4398), on(128, 4, 3893),
                                on(256, 2, 4200), on(256, 4, 2400), on(512, 4, 2300), on(512, 8, 1300)};
  const std::vector<std::string> notes = SplitByExperimentFactors(&runs);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("differ in ranks_per_node") != std::string::npos);
  CHECK(runs[1].variant == "rpn=128");
  CHECK(runs[2].variant == "rpn=64");
  CHECK(runs[3].variant == "rpn=32");
  CHECK(runs[6].variant == "rpn=128");
  // Full nodes at every P but the smallest (one layout per process count): one series, as it was.
  runs = {on(64, 1, 8125), on(128, 1, 7433), on(256, 2, 4200), on(512, 4, 2300)};
  CHECK(SplitByExperimentFactors(&runs).empty());
  for (const RunStats& run : runs) CHECK(run.variant.empty());
}

TEST_CASE("repetitions that spread, from several folders: the warning says so and how to keep them apart",
          "[ingest][series]") {
  // One build per folder, as benchmark campaigns keep them (ARCHER2_VASP642_AOCL-4.0_OFI/, …_UCX/).
  std::vector<RunStats> runs = {Run(64, 100, {}), Run(128, 50, {}), Run(128, 80, {}), Run(256, 25, {})};
  runs[0].sources = {"campaign/ofi/a.out"};
  runs[1].sources = {"campaign/ofi/b.out"};
  runs[2].sources = {"campaign/ucx/b.out"};
  runs[3].sources = {"campaign/ofi/c.out"};
  const std::vector<std::string> warnings = RepetitionSpreadWarnings(runs);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("2 repetitions at P=128") != std::string::npos);
  CHECK(warnings[0].find("they come from 2 folders (ofi/, ucx/): --group-by folder") != std::string::npos);
}

TEST_CASE("details that vary per run anyway are never settings", "[ingest][series]") {
  CHECK(IsRunSetting("adiak.InputSize"));
  CHECK_FALSE(IsRunSetting("adiak.launchdate"));
  CHECK_FALSE(IsRunSetting("adiak.figure_of_merit"));
  CHECK_FALSE(IsRunSetting("adiak.hostlist"));
  CHECK_FALSE(IsRunSetting("setting.elapsed_s"));
  CHECK_FALSE(IsRunSetting("adiak.peak_memory"));
  CHECK_FALSE(IsRunSetting("InputSize"));  // not declared through Adiak
}

}  // namespace qnm

namespace qnm {

TEST_CASE("a command line's arguments are the words after the program", "[ingest][series]") {
  RunStats run;
  SetCommandArguments("  /usr/bin/lulesh2.0   -s 30 -i  100 ", &run);  // as mpiP and TAU keep it
  REQUIRE(run.details.count(kCommandArgumentsSetting) == 1);
  CHECK(run.details.at(kCommandArgumentsSetting) == "-s 30 -i 100");
  CHECK(run.details.at(kProgramFolderSetting) == "usr/bin");
  RunStats bare;
  SetCommandArguments("./cpi-mpi", &bare);  // TAU's Hatchet test run: no arguments, no setting
  CHECK(bare.details.empty());  // a relative path names no install tree either
  // rapl-old-data's mpiP commands: the run's folder, then ../../../bin; "." and ".." resolved.
  RunStats npb;
  SetCommandArguments("/g/g90/patki1/local/src/bmarks/NAS-MZ/BT-MZ/mpip/2012_07_11_16_59_26_188610342/../../../bin/bt-mz.C.16",
                      &npb);
  CHECK(npb.details.at(kProgramFolderSetting) == "NAS-MZ/bin");
  CHECK(npb.details.count(kCommandArgumentsSetting) == 0);
  RunStats root;
  SetCommandArguments("/a.out 3", &root);  // a binary at the root: no folder
  CHECK(root.details.count(kProgramFolderSetting) == 0);
}

TEST_CASE("mpiP reports of one code built in two install trees are two series, by the Command's folder",
          "[ingest][series][mpip]") {
  // tests/data/mpip's NPB-MZ reports of 16 threads (P = 1..16, NPB3.3.1-MZ's tree), each also as if its
  // binary were another build's (rapl-old-data's icc campaign lives in bmarks/NAS-MZ/bin, round 29).
  testing::TempDir dir("factors", "trees");
  REQUIRE(WriteTwoCampaigns(dir, FilesStartingWith(std::string(QNM_TEST_DATA_DIR) + "/mpip", "tpatki-npbmz__bt-mz.C."),
                            [](const std::string& text) {
                              return testing::Replaced(text, "/local/src/NPB3.3.1-MZ/NPB3.3-MZ-MPI/BT-MZ/",
                                                       "/local/src/bmarks/NAS-MZ/BT-MZ/");
                            }) == 20);  // P = 1..16 x 16, 12, 8 and 4 threads
  IngestSummary summary;
  const std::vector<Series> series = SeriesOf({dir.path.string()}, &summary);
  // The reports alone do not give the threads (NPB's output does): each tree's 20 runs are one series of
  // 4 runs per P. What matters here: the trees are not each other's repetitions.
  std::map<std::string, int> by_folder;
  for (const Series& one : series) {
    INFO(one.name);
    ++by_folder[one.key.variant];
    CHECK(one.groups.size() == 5);
    for (const RunGroup& group : one.groups) CHECK(group.runs.size() == 4);
  }
  CHECK(by_folder == std::map<std::string, int>{{"program_folder=NAS-MZ/bin", 1}, {"program_folder=NPB3.3-MZ-MPI/bin", 1}});
  // The reports as they are (one tree): no variant.
  IngestSummary plain;
  for (const Series& one : SeriesOf({std::string(QNM_TEST_DATA_DIR) + "/mpip"}, &plain)) CHECK(one.key.variant.empty());
}

TEST_CASE("a study's own table of two grids, its columns named its way, is two series by its problem columns",
          "[ingest][series][tables]") {
  // The six runs of tests/data/caliper/sizes in the layout of a PETSc study's results table (scale,
  // unknowns, ppn, mpi_ranks, unknowns_per_core, runtime_seconds, status, source_file): `scale` and
  // `unknowns` name the problem and split alike (one factor, shown by the first); `unknowns_per_core`
  // follows P (5e8 recurs on the weak-scaling diagonal: small at P = 2, large at P = 4) and splits nothing.
  IngestSummary summary;
  const std::vector<Series> series =
      SeriesOf({std::string(QNM_TEST_DATA_DIR) + "/tables/grids_study_layout.csv"}, &summary);
  REQUIRE(series.size() == 2);
  CHECK(series[0].name == "grids_study_layout (scale=large)");
  CHECK(series[1].name == "grids_study_layout (scale=small)");
  for (const Series& one : series) CHECK(ProcsOf(one) == std::vector<int>{1, 2, 4});
  CHECK(series[0].groups[0].median_time_s == Approx(3.2911));
  CHECK(series[1].groups[2].median_time_s == Approx(0.8717));
  CHECK(series[1].groups[0].runs[0].details.at("setting.unknowns") == "1000000000");
  std::string read_as_settings, ignored, split;
  std::vector<std::string> lines = summary.readings;
  lines.insert(lines.end(), summary.notes.begin(), summary.notes.end());
  for (const std::string& note : lines) {
    if (note.find("read as the problem's settings") != std::string::npos) read_as_settings = note;
    if (note.find("ignored (not a record field") != std::string::npos) ignored = note;
    if (note.find("kept apart as 2 series") != std::string::npos) split = note;
  }
  CHECK(read_as_settings.find("'scale', 'unknowns' read as") != std::string::npos);
  CHECK(ignored.find("'total_cores', 'unknowns_per_core', 'memory_mb', 'status' ignored") != std::string::npos);
  CHECK(split.find("differ in setting.scale (") != std::string::npos);
}

TEST_CASE("a library benchmark's table of several operations per process count is one series per operation",
          "[ingest][series][tables]") {
  // The layout of a distributed-array library's strong-scaling table (round 42's held-out mpids source:
  // "Type","Op","Num_Proc","Size","Time", every operation timed at every P, repeated): before, the
  // operations at one P were read as repetitions of one series (and Num_Proc was no name of procs).
  testing::TempDir dir("factors", "ops");
  const std::string path = (dir.path / "mpi_np_strong.csv").string();
  {
    std::ofstream out(path);
    out << "\"Type\",\"Op\",\"Num_Proc\",\"Size\",\"Time\"\n";
    for (int rep = 0; rep < 2; ++rep)
      for (int p : {1, 2, 4})
        out << "mpi_np,add," << p << ",33554432," << 0.14 / p + 0.001 * rep << "\n"
            << "mpi_np,collect_data," << p << ",33554432," << 0.5 + 0.1 * p + 0.001 * rep << "\n";
  }
  IngestSummary summary;
  const std::vector<Series> series = SeriesOf({path}, &summary);
  REQUIRE(series.size() == 2);
  CHECK(series[0].name == "mpi_np_strong (op=add)");
  CHECK(series[1].name == "mpi_np_strong (op=collect_data)");
  for (const Series& one : series) {
    REQUIRE(one.groups.size() == 3);
    for (std::size_t k = 0; k < 3; ++k) {
      CHECK(one.groups[k].procs == 1 << k);
      CHECK(one.groups[k].runs.size() == 2);  // the two repetitions, not the other operation
    }
  }
  CHECK(series[0].groups[2].median_time_s == Approx(0.0355));
  CHECK(series[1].groups[2].median_time_s == Approx(0.9005));
  // --series names one operation, by a part of its value or the whole split name: the table's rows are not
  // dropped by their unsplit name 'mpi_np_strong' as the file is read (before: "no runs found").
  for (const std::string filter : {"collect_", "op=collect_data", "mpi_np_strong (op=collect_data)"}) {
    std::string out;
    INFO(filter);
    REQUIRE(testing::RunCli("predict " + path + " --series '" + filter + "' --procs 8", &out) == 0);
    CHECK(out.find("series mpi_np_strong (op=collect_data):") != std::string::npos);
    CHECK(out.find("op=add") == std::string::npos);
  }
}

TEST_CASE("a problem column that is empty in every row is as good as absent", "[ingest][series][tables]") {
  std::vector<std::string> notes, readings;
  const std::vector<RunStats> runs = ReadStatisticsCsv(
      "grid,matrix_type,procs,time\na,,1,2\nb,,1,4\na,,2,1\nb,,2,2\n", "study.csv", &notes, nullptr, &readings);
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].details.count("setting.matrix_type") == 0);
  CHECK(runs[1].details.at("setting.grid") == "b");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == "study.csv: column 'matrix_type' ignored (not a record field; docs/statistics-table.md lists them)");
  bool read_grid = false;
  for (const std::string& line : readings) read_grid |= line.find("column 'grid' read as the problem's settings") != std::string::npos;
  CHECK(read_grid);
}

TEST_CASE("the same study as a JSON table splits the same way", "[ingest][series][tables]") {
  testing::TempDir dir("factors", "json_grids");
  std::ofstream(dir.path / "grids.json")
      << R"([{"scale": "small", "unknowns": 1000000000, "mpi_ranks": 1, "runtime_seconds": 1.6398, "status": "ok"},
  {"scale": "large", "unknowns": 2000000000, "mpi_ranks": 1, "runtime_seconds": 3.2911, "status": "ok"},
  {"scale": "small", "unknowns": 1000000000, "mpi_ranks": 2, "runtime_seconds": 0.8250, "status": "ok"},
  {"scale": "large", "unknowns": 2000000000, "mpi_ranks": 2, "runtime_seconds": 1.6546, "status": "ok"}])";
  IngestSummary summary;
  const std::vector<Series> series = SeriesOf({(dir.path / "grids.json").string()}, &summary);
  REQUIRE(series.size() == 2);
  CHECK(series[0].name == "grids (scale=large)");
  CHECK(series[1].groups[1].median_time_s == Approx(0.8250));
  CHECK(series[0].groups[0].runs[0].details.at("setting.unknowns") == "2000000000");
}

TEST_CASE("only names that say the problem are read as its settings", "[tables][series]") {
  for (const char* name : {"scale", "Grid size", "grid", "mesh-size", "problem_size", "N", "nx", "unknowns", "dofs",
                           "natoms", "input", "case", "dataset", "resolution", "box_size", "Op", "operation",
                           "kernel", "algorithm", "graph"}) {
    INFO(name);
    CHECK(IsProblemSettingColumn(name));
  }
  for (const char* name : {"unknowns_per_core", "atoms_per_rank", "dofs per node", "message_size", "msg_size",
                           "buffer_size", "memory_mb", "status", "job_id", "total_cores", "size", "time_s", "n_runs",
                           "iterations", "setup_time", "wall time"}) {
    INFO(name);
    CHECK_FALSE(IsProblemSettingColumn(name));
  }
  CHECK(ProblemSettingKey("Grid size") == "setting.grid_size");
}

TEST_CASE("factors that split the runs alike count once, by the first", "[ingest][series]") {
  std::vector<RunStats> runs = {Run(1, 10, {{"setting.grid", "a"}, {"setting.n", "100"}}),
                                Run(1, 40, {{"setting.grid", "b"}, {"setting.n", "200"}}),
                                Run(2, 5, {{"setting.grid", "a"}, {"setting.n", "100"}}),
                                Run(2, 20, {{"setting.grid", "b"}, {"setting.n", "200"}})};
  for (RunStats& run : runs) run.series = "t";
  const std::vector<std::string> notes = SplitByExperimentFactors(&runs);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("differ in setting.grid (") != std::string::npos);
  CHECK(runs[0].series == "t (grid=a)");
  CHECK(runs[3].series == "t (grid=b)");
  // Not alike (n splits grid a in two): both count.
  std::vector<RunStats> three;
  for (int procs : {1, 2})
    for (const char* n : {"100", "150"}) three.push_back(Run(procs, 10.0 / procs, {{"setting.grid", "a"}, {"setting.n", n}}));
  for (int procs : {1, 2}) three.push_back(Run(procs, 40.0 / procs, {{"setting.grid", "b"}, {"setting.n", "200"}}));
  for (RunStats& run : three) run.series = "t";
  REQUIRE(SplitByExperimentFactors(&three).size() == 1);
  CHECK(three[0].series == "t (grid=a n=100)");
  CHECK(three[1].series == "t (grid=a n=150)");
  CHECK(three[4].series == "t (grid=b n=200)");
}

TEST_CASE("one table series name at several thread counts prints each series' threads", "[series]") {
  std::vector<RunStats> runs = {Run(1, 10, {}), Run(2, 5, {}), Run(1, 6, {}), Run(2, 3, {})};
  for (RunStats& run : runs) run.series = "sweep";
  runs[2].threads_per_proc = runs[3].threads_per_proc = 2;
  const std::vector<Series> series = GroupIntoSeries(runs);
  REQUIRE(series.size() == 2);
  CHECK(series[0].name == "sweep th=1");
  CHECK(series[1].name == "sweep th=2");
  // One thread count: the name as it is.
  runs.resize(2);
  CHECK(GroupIntoSeries(runs)[0].name == "sweep");
}

}  // namespace qnm
