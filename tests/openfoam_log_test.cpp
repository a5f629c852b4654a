// OpenFOAM solver logs read into the run record (tests/data/openfoam: simpleFoam job outputs of
// stackhpc/hpc-tests, OpenFOAM 7 on two machines; foamRun logs of OpenFOAM 12 and dev (openfoam.org);
// SOURCES.md there). The values below are copied from the files by hand.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "command_runner.h"
#include "app_outputs/openfoam_log.h"
#include "ingest/ingest.h"
#include "reader/series_identity.h"
#include "textio/compressed_file.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

const std::string kData = std::string(QNM_TEST_DATA_DIR) + "/openfoam";
const std::string kAlaska = kData + "/stackhpc-alaska-ib";
const std::string kCsd3 = kData + "/stackhpc-csd3-cclake-ib";
const std::string kAlaska64 = kAlaska + "/rfm_Openfoam_Mbike_2_job.out.gz";
const std::string kFoundation12 = kData + "/shamim-sulaiman-foundation12/log.foamRun";
const std::string kFoundationDev = kData + "/felca25-foundation-dev/log.pimpleFoam";

// The unpacked text of a committed log.
std::string ReadLog(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return Unpack(bytes, path, 1LL << 30);
}

// The first `count` lines of `text`, each with its newline.
std::string FirstLines(const std::string& text, int count) {
  std::size_t at = 0;
  for (int n = 0; n < count; ++n) at = text.find('\n', at) + 1;
  return text.substr(0, at);
}

std::string WriteLog(const testing::TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = (dir.path / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

TEST_CASE("OpenFOAM log: procs, nodes from the Slaves list, the last ExecutionTime, the case", "[ingest][openfoam]") {
  // alaska, 64 processes: Host "openhpc-compute-2" and 63 Slaves, 31 on -2 and 32 on -3;
  // "ExecutionTime = 46.83 s  ClockTime = 47 s" at line 1969 after "Time = 100"; End at 1978.
  std::vector<RunStats> runs = testing::IngestPath(kAlaska64, nullptr, false);
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.app == "simpleFoam");
  CHECK(run.tool_version == "OpenFOAM 7");
  CHECK(run.procs == 64);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.nodes == 2);
  CHECK(run.ranks_per_node == 32);
  CHECK(run.machine == "openhpc-compute");
  CHECK(run.details.at("openfoam_processes_per_host") == "openhpc-compute-2:32 openhpc-compute-3:32");
  CHECK(run.wall_time_s == 46.83);
  CHECK(run.app_time_mean_s == 46.83);
  CHECK_FALSE(Known(run.mpi_time_mean_s));  // OpenFOAM times no communication
  CHECK(run.iterations == 100);
  CHECK(testing::DetailNumber(run, "openfoam_first_execution_time_s") == 1.39);
  CHECK(testing::DetailNumber(run, "openfoam_after_first_step_s") == Approx(45.44));
  CHECK(testing::DetailNumber(run, "openfoam_first_clock_time_s") == 1);
  CHECK(testing::DetailNumber(run, "openfoam_last_clock_time_s") == 47);
  CHECK(run.details.at("openfoam_first_time") == "1");
  CHECK(run.details.at("openfoam_last_time") == "100");
  CHECK(run.derivations.at("wall_time_s").find("line 1969") != std::string::npos);
  // "Case : .../Openfoam_Mbike_2": the 2 is the run's nodes, not its case.
  CHECK(run.problem_class == "Openfoam_Mbike 100 steps time 1..100");
  CHECK(run.variant == "openfoam-7");
  CHECK(run.details.at("setting.openfoam_linear_solvers") ==
        "Ux:smoothSolver Uy:smoothSolver Uz:smoothSolver k:smoothSolver omega:smoothSolver p:GAMG");
  CHECK(run.details.at("setting.openfoam_io") == "uncollated");
  CHECK(run.details.at("setting.openfoam_comms_type") == "nonBlocking");
}

TEST_CASE("OpenFOAM log: CSD3, 56 processes per node, the layout words of the case dropped", "[ingest][openfoam]") {
  // 448 processes on cpu-p-288 .. cpu-p-295; "ExecutionTime = 5.82 s  ClockTime = 6 s"; first step 0.37 s.
  std::vector<RunStats> runs =
      testing::IngestPath(kCsd3 + "/rfm_Openfoam_Mbike_csd3_cclake_ib_gcc9_ompi3_ucx_448_56_job.out.gz", nullptr, false);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 448);
  CHECK(runs[0].nodes == 8);
  CHECK(runs[0].ranks_per_node == 56);
  CHECK(runs[0].machine == "cpu-p");
  CHECK(runs[0].wall_time_s == 5.82);
  CHECK(testing::DetailNumber(runs[0], "openfoam_first_execution_time_s") == 0.37);
  CHECK(testing::DetailNumber(runs[0], "openfoam_last_clock_time_s") == 6);
  CHECK(runs[0].problem_class == "Openfoam_Mbike_csd3_cclake_ib_gcc9_ompi3_ucx 100 steps time 1..100");
  CHECK(runs[0].derivations.at("problem_class").find("less the layout words 448,56") != std::string::npos);
}

TEST_CASE("a folder of OpenFOAM logs is a series per case and machine; predict fits it", "[ingest][openfoam][cli]") {
  std::vector<Series> series = GroupIntoSeries(testing::IngestPath(kData, nullptr, false), GroupBy::kContent);
  std::map<std::string, std::vector<int>> procs;
  std::map<std::string, std::vector<double>> times;
  for (const Series& s : series)
    for (const RunGroup& g : s.groups) {
      procs[s.name].push_back(g.procs);
      times[s.name].push_back(g.median_time_s);
    }
  REQUIRE(procs.size() == 3);  // and the OpenFOAM 12 log's series; the dev log is refused
  const std::string alaska = "simpleFoam.Openfoam_Mbike 100 steps time 1..100 @openhpc-compute (openfoam-7)";
  const std::string csd3 =
      "simpleFoam.Openfoam_Mbike_csd3_cclake_ib_gcc9_ompi3_ucx 100 steps time 1..100 @cpu-p (openfoam-7)";
  CHECK(procs.at(alaska) == std::vector<int>{32, 64, 128, 256});
  CHECK(times.at(alaska) == std::vector<double>{103.3, 46.83, 19.73, 11.85});
  CHECK(procs.at(csd3) == std::vector<int>{56, 112, 448, 896, 1792, 3136});
  CHECK(times.at(csd3) == std::vector<double>{32.78, 15.46, 5.82, 5.82, 12.08, 28.65});
  CHECK(times.at("functions.insituLeaching2D 85 steps time 1s..85s @localhost (openfoam-12-855365b951e0)") ==
        std::vector<double>{0.137573});
  std::string out;
  REQUIRE(testing::RunCli("predict " + kAlaska + " --procs 512", &out) == 0);
  CHECK(out.find("series " + alaska + ": runtime-only model on 4 process counts") != std::string::npos);
  CHECK(out.find("512    -") != std::string::npos);
}

TEST_CASE("OpenFOAM log: a cut or failed run is refused at its line", "[ingest][openfoam]") {
  const std::string text = ReadLog(kAlaska64);
  testing::TempDir dir("qnm-openfoam", "refused");
  // Cut before "Time = 50" (line 1043): the last step's ExecutionTime is at line 1034, no End.
  const std::string cut = WriteLog(dir, "log.simpleFoam", FirstLines(text, 1042));
  std::string error = testing::IngestErrorOf(cut);
  CHECK(error.find("log.simpleFoam:1034") != std::string::npos);
  CHECK(error.find("without its closing 'End'") != std::string::npos);
  CHECK(error.find("after 49 time steps") != std::string::npos);
  // OpenFOAM's own reason, quoted from its FATAL ERROR block.
  const std::string failed = WriteLog(dir, "failed.out",
                                      FirstLines(text, 1034) + "--> FOAM FATAL ERROR: \nMaximum number of iterations "
                                                               "exceeded\n\n    From function Foam::solve()\n    in file "
                                                               "x.C at line 42.\n\nFOAM parallel run exiting\n");
  error = testing::IngestErrorOf(failed);
  CHECK(error.find("failed.out:1035") != std::string::npos);
  CHECK(error.find("'FOAM FATAL ERROR: Maximum number of iterations exceeded'") != std::string::npos);
  // A utility's output alone (decomposePar: "Time = 0" without ExecutionTime, then End) is not a run.
  const std::string utility = WriteLog(dir, "log.decomposePar",
                                       "Build  : 7\nExec   : decomposePar\nnProcs : 1\n\nTime = 0\n\nEnd\n");
  error = testing::IngestErrorOf(utility);
  CHECK(error.find("log.decomposePar:1") != std::string::npos);
  CHECK(error.find("output of decomposePar without a solver's time steps") != std::string::npos);
  // A damaged time names its line.
  std::string damaged = FirstLines(text, 1978);
  damaged.replace(damaged.find("ExecutionTime = 46.83"), 21, "ExecutionTime = 4x.83");
  error = testing::IngestErrorOf(WriteLog(dir, "damaged.out", damaged));
  CHECK(error.find("damaged.out:1969") != std::string::npos);
  CHECK(error.find("'ExecutionTime' needs a non-negative number") != std::string::npos);
  CHECK(LooksLikeOpenfoamLog(text));
  CHECK_FALSE(LooksLikeOpenfoamLog(text.substr(text.find("Create time"))));
}

TEST_CASE("OpenFOAM log: openfoam.com's Hosts lines and a one-line Slaves list", "[ingest][openfoam]") {
  // The alaska log's banner with its Slaves block replaced by the "(host count)" lines openfoam.com
  // prints (argList.C, printHostsSubscription), the ranks split unevenly over the two hosts.
  const std::string text = ReadLog(kAlaska64);
  const std::size_t from = text.find("Slaves : \n");
  const std::size_t to = text.find(")\n", from) + 2;
  REQUIRE(from != std::string::npos);
  std::string hosts = text;
  hosts.replace(from, to - from, "Hosts  :\n(\n    (openhpc-compute-2 40)\n    (openhpc-compute-3 24)\n)\n");
  testing::TempDir dir("qnm-openfoam", "hosts");
  std::vector<RunStats> runs = testing::IngestPath(WriteLog(dir, "log.simpleFoam", hosts), nullptr, false);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 64);
  CHECK(runs[0].nodes == 2);
  CHECK(runs[0].ranks_per_node == 0);  // 40 and 24: no one number per node
  CHECK(runs[0].details.at("openfoam_processes_per_host") == "openhpc-compute-2:40 openhpc-compute-3:24");
  // Counts that do not add up to nProcs are refused at the Hosts line (22).
  std::string wrong = text;
  wrong.replace(from, to - from, "Hosts  :\n(\n    (openhpc-compute-2 40)\n)\n");
  const std::string error = testing::IngestErrorOf(WriteLog(dir, "wrong.out", wrong));
  CHECK(error.find("wrong.out:22") != std::string::npos);
  CHECK(error.find("'Hosts' counts 40 processes, 'nProcs' says 64") != std::string::npos);
  // OpenFOAM dev (2015) prints a short list on one line: 'Slaves : 1("example.com.25162")'.
  std::string two = text;
  two.replace(text.find("nProcs : 64"), 11, "nProcs : 2");
  two.replace(two.find("Slaves : \n"), two.find(")\n", two.find("Slaves : \n")) + 2 - two.find("Slaves : \n"),
              "Slaves : 1(\"openhpc-compute-3.29493\")\n");
  runs = testing::IngestPath(WriteLog(dir, "two.out", two), nullptr, false);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 2);
  CHECK(runs[0].nodes == 2);
  CHECK(runs[0].ranks_per_node == 1);
}

TEST_CASE("OpenFOAM 12 log: foamRun's solver module is the application", "[ingest][openfoam]") {
  // "Version:  12", "Build  : 12-855365b951e0", "Exec   : foamRun -solver functions", "Host   :
  // \"localhost.localdomain\"", "nProcs : 1", "Case   : .../run/insituLeaching2D"; 85 steps "Time = 1s"
  // .. "Time = 85s"; the last "ExecutionTime = 0.137573 s  ClockTime = 2 s" at line 737; End at 743.
  std::vector<RunStats> runs = testing::IngestPath(kFoundation12, nullptr, false);
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.app == "functions");
  CHECK(run.details.at("openfoam_program") == "foamRun");
  CHECK(run.derivations.at("app").find("-solver NAME") != std::string::npos);
  CHECK(run.tool_version == "OpenFOAM 12");
  CHECK(run.variant == "openfoam-12-855365b951e0");
  CHECK(run.procs == 1);
  CHECK(run.nodes == 1);
  CHECK(run.machine == "localhost");
  CHECK(run.wall_time_s == 0.137573);
  CHECK(testing::DetailNumber(run, "openfoam_last_clock_time_s") == 2);
  CHECK(run.derivations.at("wall_time_s").find("line 737") != std::string::npos);
  CHECK(run.iterations == 85);
  CHECK(run.problem_class == "insituLeaching2D 85 steps time 1s..85s");

  // Without "-solver", foamRun names its module in "Selecting solver functions" (line 30), and a
  // Windows build's program ends in ".exe".
  const std::string text = ReadLog(kFoundation12);
  std::string bare = text;
  bare.replace(bare.find("Exec   : foamRun -solver functions"), 34, "Exec   : C:/OpenFOAM-12/bin/foamRun.exe");
  testing::TempDir dir("qnm-openfoam", "foamrun");
  runs = testing::IngestPath(WriteLog(dir, "log.foamRun", bare), nullptr, false);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].app == "functions");
  CHECK(runs[0].details.at("openfoam_program") == "foamRun");
  CHECK(runs[0].derivations.at("app").find("'Selecting solver NAME'") != std::string::npos);
}

TEST_CASE("OpenFOAM: solvers that stopped before a timed step are unfinished runs, not utilities", "[ingest][openfoam]") {
  // OpenFOAM dev, "Exec   : foamRun -solver incompressibleFluid -parallel", "nProcs : 4" and three
  // Slaves on host 2b237630cb0d; the log stops inside its first step ("Time = 1e-05s", line 122).
  const std::vector<OpenfoamExecution> executions = ParseOpenfoamLog(ReadLog(kFoundationDev), kFoundationDev);
  REQUIRE(executions.size() == 1);
  CHECK(executions[0].version == "dev");
  CHECK(executions[0].program == "foamRun");
  CHECK(executions[0].solver_module == "incompressibleFluid");
  CHECK(executions[0].nprocs == 4);
  CHECK(executions[0].slave_hosts == std::vector<std::string>(3, "2b237630cb0d"));
  std::string error = testing::IngestErrorOf(kFoundationDev);
  CHECK(error.find("log.pimpleFoam:122") != std::string::npos);
  CHECK(error.find("OpenFOAM foamRun (incompressibleFluid) log without its closing 'End'") != std::string::npos);
  CHECK(error.find("in its first time step") != std::string::npos);

  const std::string text = ReadLog(kFoundation12);
  testing::TempDir dir("qnm-openfoam", "stopped");
  // Cut after the banner and "Create time" (line 22): before any step.
  error = testing::IngestErrorOf(WriteLog(dir, "log.cut", FirstLines(text, 22)));
  CHECK(error.find("log.cut:22") != std::string::npos);
  CHECK(error.find("before its first time step") != std::string::npos);
  // OpenFOAM's floating-point trap prints the stack: the run stopped there.
  error = testing::IngestErrorOf(WriteLog(dir, "log.fpe", FirstLines(text, 50) + "#0  Foam::error::printStack(Foam::Ostream&) at ??:?\n"
                                                                       "#1  Foam::sigFpe::sigHandler(int) at ??:?\n"));
  CHECK(error.find("log.fpe:52") != std::string::npos);
  CHECK(error.find("'floating point exception (Foam::sigFpe)'") != std::string::npos);
  // MPI's abort after a rank's failure.
  error = testing::IngestErrorOf(WriteLog(dir, "log.abort", FirstLines(text, 40) +
                                                                "MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD\n"));
  CHECK(error.find("log.abort:41") != std::string::npos);
  CHECK(error.find("'MPI_ABORT was invoked on rank 2") != std::string::npos);
}

TEST_CASE("OpenFOAM: openfoam.com's Pstream line gives the nodes when the hosts are blanked", "[ingest][openfoam]") {
  // The alaska log's banner as openfoam.com v2412 prints it: its Hosts blanked ("(*****)") and the
  // Pstream line "node communication : off [type=host] (64 ranks, 2 nodes)".
  const std::string text = ReadLog(kAlaska64);
  const std::size_t from = text.find("Slaves : \n");
  const std::size_t to = text.find(")\n", from) + 2;
  std::string com = text;
  com.replace(from, to - from,
              "Hosts  :\n(\n    (*****)\n)\nPstream initialized with:\n    node communication : off [type=host] "
              "(64 ranks, 2 nodes)\n");
  testing::TempDir dir("qnm-openfoam", "pstream");
  std::vector<RunStats> runs = testing::IngestPath(WriteLog(dir, "log.simpleFoam", com), nullptr, false);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 64);
  CHECK(runs[0].nodes == 2);
  CHECK(runs[0].machine == "openhpc-compute");  // the master's Host
  CHECK(runs[0].derivations.at("nodes").find("Pstream line") != std::string::npos);
  // A rank count that is not nProcs is refused at the Pstream line (27).
  std::string wrong = com;
  wrong.replace(wrong.find("(64 ranks"), 9, "(32 ranks");
  const std::string error = testing::IngestErrorOf(WriteLog(dir, "wrong.out", wrong));
  CHECK(error.find("wrong.out:27") != std::string::npos);
  CHECK(error.find("the Pstream line counts 32 ranks, the banner 64 processes") != std::string::npos);
}
