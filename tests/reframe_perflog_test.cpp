// ReFrame performance logs (job_records/reframe_perflog.cpp): a ReFrame campaign's perflogs/ folder read
// as it is. The acceptance test is the real campaign of ukri-excalibur/excalibur-tests (ReFrame 3,
// CSD3 and Alaska, 2020; tests/data/reframe/excalibur-tests/SOURCES.md): its runs must give every
// point of the curated excalibur series of the bench (../shared/data/scaling2, which its collectors
// read from the same logs) exactly. The layouts of ReFrame >= 4 (header line) and of 3.7 are
// tests/data/reframe/layouts, written after ReFrame's documentation.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "ingest/ingest.h"
#include "record/run_stats.h"
#include "tests/command_runner.h"
#include "util/input_error.h"

namespace {

const std::string kData = std::string(QNM_TEST_DATA_DIR) + "/reframe";

std::vector<qnm::RunStats> Read(const std::string& path, const std::string& metric = "",
                                qnm::IngestSummary* summary = nullptr) {
  qnm::IngestOptions options;
  options.selection.metric = metric;
  qnm::IngestSummary local;
  return qnm::IngestPaths({path}, options, summary ? summary : &local);
}

std::string ErrorOf(const std::string& path, const std::string& metric = "") {
  try {
    qnm::IngestOptions options;
    options.strict = true;
    options.selection.metric = metric;
    qnm::IngestSummary summary;
    qnm::IngestPaths({path}, options, &summary);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "accepted";
}

/// "excalibur-CASTEP-Al3x3-CSD3cclake-ib-icc19-impi19-ucx_rpn56_omp1" -> the ReFrame test name
/// without its size, "Castep_Al3x3_csd3_cclake_ib_icc19_impi19_ucx", and the partition.
std::pair<std::string, std::string> TestOfSeries(const std::string& series) {
  static const std::map<std::string, std::string> kApps = {
      {"CASTEP-Al3x3", "Castep_Al3x3"},
      {"GROMACS-HECBioSim-1400k-atoms", "Gromacs_HECBioSim_1400k_atoms"},
      {"GROMACS-HECBioSim-3000k-atoms", "Gromacs_HECBioSim_3000k_atoms"},
      {"OpenFOAM-motorBike", "Openfoam_Mbike"},
      {"WRF-CONUS-12km", "WRF_12km_run"},
      {"WRF-CONUS-2.5km", "WRF_2_5km_run"}};
  std::string body = series.substr(std::string("excalibur-").size());
  std::size_t machine = body.find("-CSD3cclake-");
  std::string partition = body.substr(machine + 5, body.find("_rpn") - machine - 5);  // cclake-ib-...
  std::string test = kApps.at(body.substr(0, machine)) + "_csd3_" + partition;
  for (char& c : test)
    if (c == '-') c = '_';
  return {test, "csd3:" + partition};
}

}  // namespace

TEST_CASE("excalibur-tests' ReFrame 3 perflogs give every curated point of the bench's excalibur series",
          "[ingest][reframe][acceptance]") {
  // The runs as the tool reads them, by (test, machine, P); OpenFOAM's curated metric is ExecutionTime
  // (the tool's own choice is ClockTime, the wall clock: a name that says "clock" ranks first).
  std::map<std::tuple<std::string, std::string, int>, std::vector<const qnm::RunStats*>> runs;
  std::vector<qnm::RunStats> automatic = Read(kData + "/excalibur-tests/csd3");
  std::vector<qnm::RunStats> execution = Read(kData + "/excalibur-tests/csd3", "ExecutionTime");
  for (const auto* set : {&automatic, &execution})
    for (const qnm::RunStats& run : *set) {
      bool openfoam = run.app.str().rfind("Openfoam", 0) == 0;
      if (openfoam != (set == &execution)) continue;
      runs[{run.app.str(), run.machine.str(), run.procs}].push_back(&run);
    }
  std::ifstream expected(kData + "/excalibur-expected.csv");
  std::string line;
  std::getline(expected, line);  // series,procs,time_s,metric,ranks_per_node,nodes,n_runs
  int points = 0, equal = 0;
  while (std::getline(expected, line)) {
    std::stringstream fields(line);
    std::string series, procs, time, metric, per_node, nodes, n_runs;
    for (std::string* field : {&series, &procs, &time, &metric, &per_node, &nodes, &n_runs})
      std::getline(fields, *field, ',');
    auto [test, machine] = TestOfSeries(series);
    INFO(series << " P=" << procs);
    const auto& found = runs[{test, machine, std::stoi(procs)}];
    REQUIRE(found.size() == static_cast<std::size_t>(std::stoi(n_runs)));
    double sum = 0, minimum = 1e300;
    for (const qnm::RunStats* run : found) {
      sum += run->wall_time_s;
      minimum = std::min(minimum, run->wall_time_s);
      CHECK(run->ranks_per_node == std::stoi(per_node));  // from the num_nodes tag: 56 per node on CSD3
      CHECK(run->nodes == std::stoi(nodes));
      CHECK(run->threads_per_proc == 1);
    }
    const double value = metric.size() > 4 && metric.substr(metric.size() - 4) == "_min" ? minimum : sum / found.size();
    CHECK(value == Approx(std::stod(time)).epsilon(1e-6));
    ++points;
    equal += std::abs(value - std::stod(time)) <= 1e-6 * std::stod(time);
  }
  CHECK(points == 80);
  CHECK(equal == 80);
}

TEST_CASE("a whole ReFrame campaign folder: one series per test and partition, the size out of the name",
          "[ingest][reframe]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = Read(kData + "/excalibur-tests", "", &summary);
  std::map<std::string, std::map<int, int>> series;  // test @ machine -> P -> runs
  for (const qnm::RunStats& run : runs) {
    ++series[run.app.str() + " @" + run.machine.str()][run.procs];
    CHECK(run.tool_version.str().rfind("ReFrame 3.", 0) == 0);
  }
  CHECK(runs.size() == 178);
  // CASTEP names its runs Castep_Al3x3_<partition>_<procs>_<ranks per node>; Alaska's CP2K
  // Cp2k_H2O_256_<nodes>, where the 256 (molecules) is P at 8 nodes and stays in the name.
  CHECK(series["Castep_Al3x3_csd3_cclake_ib_icc19_impi19_ucx @csd3:cclake-ib-icc19-impi19-ucx"].size() == 7);
  const auto& cp2k = series["Cp2k_H2O_256 @alaska:ib-gcc9-openmpi4-ucx"];
  CHECK(cp2k.size() == 5);
  CHECK(cp2k.count(256) == 1);
  CHECK(cp2k.count(512) == 1);
  CHECK(series["Openfoam_Mbike_csd3_cclake_ib_gcc9_ompi3_ucx @csd3:cclake-ib-gcc9-ompi3-ucx"].size() == 6);
  // The OSU latency log is no run time (a latency in us): named as skipped, not read.
  CHECK(summary.skipped.size() == 1);
  CHECK(summary.skipped.front().reason.find("no performance variable names a run time") != std::string::npos);
  // One reading line per variable, with its file count.
  bool counted = false;
  for (const std::string& reading : summary.readings)
    counted = counted || reading.find("files: ReFrame perflog: run time from performance variable 'total_time' [s]") !=
                             std::string::npos;
  CHECK(counted);
}

TEST_CASE("ReFrame >= 4 header logs: processes, ranks per node, threads, hosts and units from the fields",
          "[ingest][reframe]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = Read(kData + "/layouts/rfm4-default", "", &summary);
  REQUIRE(runs.size() == 4);  // the failed job (elapsed None) is left out, and said so
  bool noted = false;
  for (const std::string& note : summary.notes) noted = noted || note.find("1 of 5 ReFrame jobs") != std::string::npos;
  CHECK(noted);
  const qnm::RunStats& last = runs.back();
  CHECK(last.procs == 64);
  CHECK(last.ranks_per_node == 8);
  CHECK(last.nodes == 8);
  CHECK(last.hosts.size() == 8);
  CHECK(last.threads_per_proc == 2);  // env_vars OMP_NUM_THREADS
  CHECK(last.app.str() == "Heat3DTest");
  CHECK(last.machine.str() == "mycluster:compute");
  CHECK(last.variant.str() == "gnu");
  CHECK(last.wall_time_s == 63.1);
  CHECK(last.details.at("reframe_perf_gflops") == "334.0 Gflop/s");

  // excalibur-tests' own format: the display name's %tasks parameter leaves the series name, the unit is ms.
  runs = Read(kData + "/layouts/rfm4-excalibur");
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].app.str() == "SombreroBenchmark");
  CHECK(runs[0].machine.str() == "archer2:compute-node");
  CHECK(runs[0].wall_time_s == Approx(1.5));
  CHECK(runs[2].procs == 8);
  CHECK(runs[2].tool_version.str() == "ReFrame 4.3.2");

  // Parameters that are not the run's size stay in the series name: %n=2000 and %n=4000 are two problems,
  // %mpi=openmpi a configuration (not a process count: its value is no number).
  runs = Read(kData + "/layouts/rfm4-params");
  REQUIRE(runs.size() == 4);
  std::map<std::string, int> per_series;
  for (const qnm::RunStats& run : runs) ++per_series[run.app.str()];
  CHECK(per_series ==
        std::map<std::string, int>{{"Solver %n=2000 %mpi=openmpi", 2}, {"Solver %n=4000 %mpi=openmpi", 2}});

  // A comma-separated format without the test's name: the file's; minutes read as minutes.
  runs = Read(kData + "/layouts/rfm4-comma");
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].app.str() == "stream_scaling");
  CHECK(runs[0].machine.str() == "pseudo-cluster:compute");
  CHECK(runs[0].wall_time_s == Approx(150));
}

TEST_CASE("ReFrame 3.7 lines (unit after the reference) and the N_/MPI_/OMP_ naming of a run's layout",
          "[ingest][reframe]") {
  std::vector<qnm::RunStats> runs = Read(kData + "/layouts/rfm37");
  REQUIRE(runs.size() == 4);
  for (const qnm::RunStats& run : runs) {
    CHECK(run.app.str() == "MiniApp_small_app_1_0__abc123");
    CHECK(run.machine.str() == "cloud:arm");
    CHECK(run.nodes == 1);
  }
  std::map<int, double> total;
  for (const qnm::RunStats& run : runs) total[run.procs] += run.wall_time_s;
  CHECK(total.at(1) == Approx(120.5 + 121.3));
  CHECK(total.at(4) == Approx(31.9));
  // With N > 1, MPI_<m> may count processes in all or per node: refused, not guessed.
  CHECK(ErrorOf(kData + "/layouts/rfm37-two-nodes").find("N_2_MPI_4") != std::string::npos);
}

TEST_CASE("ReFrame 3 layout tags ranks_per_node= and cpus_per_task= are read", "[ingest][reframe]") {
  std::vector<qnm::RunStats> runs = Read(kData + "/layouts/rfm30-tags");
  REQUIRE(runs.size() == 3);
  for (const qnm::RunStats& run : runs) {
    CHECK(run.app.str() == "HybridStencil");
    CHECK(run.threads_per_proc == 4);  // cpus_per_task=4
    CHECK(run.ranks_per_node == 8);    // ranks_per_node=8
    CHECK(run.nodes == run.procs / 8);
    CHECK(run.derivations.at("ranks_per_node").find("ranks_per_node") != std::string::npos);
  }
}

TEST_CASE("bad ReFrame logs: one line naming the file and line", "[ingest][reframe][errors]") {
  std::string error = ErrorOf(kData + "/layouts/bad/value.log");
  CHECK(error.find("bad/value.log:2:") != std::string::npos);
  CHECK(error.find("'12..6'") != std::string::npos);
  error = ErrorOf(kData + "/layouts/bad/fields.log");
  CHECK(error.find("bad/fields.log:3: 6 fields where the header has 7") != std::string::npos);
  // Two variables that could equally be the run time: the user chooses, the tool does not guess.
  error = ErrorOf(kData + "/layouts/bad/two-times.log");
  CHECK(error.find("several performance variables could be the run time (ClockTime [s], WallTime [s])") !=
        std::string::npos);
  std::vector<qnm::RunStats> runs = Read(kData + "/layouts/bad/two-times.log", "walltime");  // case and '_' aside
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].wall_time_s == 75.5);
  CHECK(runs[0].procs == 32);
  CHECK(ErrorOf(kData + "/layouts/bad/two-times.log", "cpu_time").find("no performance variable 'cpu_time'") !=
        std::string::npos);
  // A rate is no run time: the message lists what the log has.
  CHECK(ErrorOf(kData + "/excalibur-tests/csd3/cclake-ib-gcc9-ompi3-ucx/omb")
            .find("min_latency [us]") != std::string::npos);
}

TEST_CASE("a rate or a time per unit of work named with --metric scales as the run time",
          "[ingest][reframe]") {
  // GROMACS logs ns/day and hour/ns beside its wall time wall_t [s]; every run simulates the same
  // ns, so seconds per ns (86400 / ns_per_day, 3600 x hour_per_ns) follow wall_t from P = 56 to 3136.
  const std::string gromacs = kData + "/excalibur-tests/csd3/cclake-ib-gcc9-ompi3-ucx/gromacs";
  std::map<std::pair<std::string, std::string>, double> wall;  // (test, job id) -> wall_t
  for (const qnm::RunStats& run : Read(gromacs))
    wall[{run.app.str(), run.details.at("reframe_jobid")}] = run.wall_time_s;
  REQUIRE(wall.size() == 38);
  for (const char* metric : {"ns_per_day", "hour_per_ns"}) {
    std::vector<qnm::RunStats> runs = Read(gromacs, metric);
    REQUIRE(runs.size() == 38);
    std::map<std::string, std::pair<double, double>> range;  // test -> lowest, highest ratio to wall_t
    for (const qnm::RunStats& run : runs) {
      const double ratio = run.wall_time_s / wall.at({run.app.str(), run.details.at("reframe_jobid")});
      auto [it, added] = range.emplace(run.app.str(), std::make_pair(ratio, ratio));
      it->second = {std::min(it->second.first, ratio), std::max(it->second.second, ratio)};
    }
    CHECK(range.size() == 3);  // 61k, 1400k and 3000k atoms: each its own simulated time per run
    for (const auto& [test, low_high] : range) {
      INFO(metric << " " << test);
      CHECK(low_high.second / low_high.first < 1.03);  // rates are logged to 3-5 digits
      CHECK(low_high.first > 5);  // the ratio is 1 / (ns simulated per run): short runs
    }
  }
}

TEST_CASE("ReFrame 4.6.4's own perflog and JSON run report of one campaign: the same ten runs, counted once",
          "[ingest][reframe][acceptance]") {
  // tests/data/reframe/reframe-4.6.4: written by ReFrame 4.6.4 itself (generate-reframe-4.6.4.sh):
  // heat_test.py at tasks = 1..32, 4 tasks per node, 2 CPUs per task, --repeat 2; P = 32 fails.
  const std::string folder = kData + "/reframe-4.6.4";
  std::vector<qnm::RunStats> logged = Read(folder + "/perflogs");
  qnm::IngestSummary report_summary;
  std::vector<qnm::RunStats> reported = Read(folder + "/run-report.json", "", &report_summary);
  REQUIRE(logged.size() == 10);  // the failed P = 32 cases are not in the perflog at all
  REQUIRE(reported.size() == 10);
  bool noted = false;  // ... and in the report they are, without a value: left out and said so
  for (const std::string& note : report_summary.notes)
    noted = noted || note.find("2 of 12 ReFrame jobs") != std::string::npos;
  CHECK(noted);
  const std::map<int, double> expected = {{1, 241.5}, {2, 121.7}, {4, 61.9}, {8, 32.1}, {16, 17.3}};
  for (const auto* runs : {&logged, &reported})
    for (const qnm::RunStats& run : *runs) {
      INFO(run.origin);
      CHECK(run.app.str() == "HeatScaling");  // %tasks and the implicit %$repeat_no left the name
      CHECK(run.machine.str() == "generic:default");
      CHECK(run.variant.str() == "builtin");
      CHECK(run.threads_per_proc == 2);
      CHECK(run.ranks_per_node == std::min(run.procs, 4));
      CHECK(run.nodes == (run.procs + 3) / 4);
      REQUIRE(expected.count(run.procs) == 1);
      CHECK(run.wall_time_s == expected.at(run.procs));
      // The report says its version; the default perflog format has no version column.
      CHECK(run.tool_version.str() == (runs == &reported ? "ReFrame 4.6.4" : "ReFrame >= 4"));
      CHECK(run.origin.rfind(qnm::kMeasurementOrigin, 0) == 0);  // the ReFrame job, whichever file
    }
  // The folder as a whole: perflog and report hold the same jobs, so each run counts once.
  qnm::IngestSummary both_summary;
  std::vector<qnm::RunStats> both = Read(folder, "", &both_summary);
  CHECK(both.size() == 10);
  bool once = false;
  for (const std::string& note : both_summary.notes)
    once = once || note.find("10 duplicate measurements of the same runs counted once") != std::string::npos;
  CHECK(once);
  // perflog_compat: ReFrame 3's one line per variable under a header line, ReFrame 4's check_info
  // ("HeatScaling %tasks=4 /f45d1545 @lab:cpu+builtin"); its run at tasks = 1..16 once.
  std::vector<qnm::RunStats> compat = Read(kData + "/reframe-4.6.4-compat/perflogs");
  REQUIRE(compat.size() == 5);
  for (const qnm::RunStats& run : compat) {
    CHECK(run.app.str() == "HeatScaling");
    CHECK(run.machine.str() == "lab:cpu");
    CHECK(run.variant.str() == "builtin");
    CHECK(run.tool_version.str() == "ReFrame 4.6.4");
    REQUIRE(expected.count(run.procs) == 1);
    CHECK(run.wall_time_s == expected.at(run.procs));
    CHECK(run.details.at("reframe_perf_rate").find("steps/s") != std::string::npos);
  }
  // A damaged report: one line naming the file (and the line where JSON says it).
  CHECK(ErrorOf(kData + "/layouts/bad/report.json").find("bad/report.json:") != std::string::npos);
}

TEST_CASE("predict from a ReFrame campaign folder: what was read, the layout, a prediction at 112 nodes",
          "[ingest][reframe][cli]") {
  std::string out;
  const int status = qnm::testing::RunCommand(
      std::string(QNM_CLI_PATH) + " predict " + kData +
          "/excalibur-tests/csd3/cclake-ib-icc19-impi19-ucx/castep --series Castep_Al3x3 --procs 6272 2>&1",
      &out);
  REQUIRE(status == 0);
  CHECK(out.find("8 files: ReFrame perflog: run time from performance variable 'total_time' [s]") != std::string::npos);
  CHECK(out.find("56 ranks per node (the runs' layout)") != std::string::npos);
  std::istringstream lines(out);
  std::string line;
  bool predicted = false;
  while (std::getline(lines, line))
    if (line.rfind("6272 ", 0) == 0) {
      std::istringstream fields(line.substr(5));
      std::string measured;
      double total = 0;
      fields >> measured >> total;
      CHECK(measured == "-");
      CHECK(total > 100);   // CASTEP Al3x3 flattens near 200-300 s beyond 448 ranks on CSD3
      CHECK(total < 2000);
      predicted = true;
    }
  CHECK(predicted);
}
