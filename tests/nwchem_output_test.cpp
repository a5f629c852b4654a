// NWChem outputs read into the run record (tests/data/nwchem: the QA outputs of nwchemgit/nwchem,
// ECL-2.0, SOURCES.md there). The values below are copied from the files by hand. The series is
// real: ch3f_trans_cosmo.out as the NWChem 6.3 QA suite wrote it on the developers' host arcen at
// 1 and 4 processes (same input, same nwchem and GA revisions), and a third time at 4 processes by an
// earlier build (another GA revision: another series). The unfinished, malformed and several-job
// cases are edited copies of the real cosmo_na.out, written to a temporary folder by the test (what
// each edit changes is said where it is made).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "app_outputs/nwchem_output.h"
#include "ingest/ingest.h"
#include "reader/series_identity.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kNwchem = std::string(QNM_TEST_DATA_DIR) + "/nwchem";
const std::string kCosmoNa = kNwchem + "/qa/cosmo_na.out";

RunStats OnlyRun(const std::string& path) {
  std::vector<RunStats> runs = testing::IngestPath(path);
  REQUIRE(runs.size() == 1);
  return runs[0];
}

}  // namespace

TEST_CASE("NWChem output: nproc, Total times, the class, the build, the host and GA statistics", "[ingest][nwchem]") {
  // NWChem 7.0.1 on 4 processes: "nproc = 4", " Total times  cpu:  0.4s  wall:  0.4s", one task
  // ("task scf energy" in the echoed input), Na+ in 6-31g* (19 functions).
  const RunStats run = OnlyRun(kCosmoNa);
  CHECK(run.app == "nwchem");
  CHECK(run.tool_version == "NWChem 7.0.1");
  CHECK(run.procs == 4);
  CHECK(run.threads_per_proc == 1);  // no OpenMP line
  CHECK(run.wall_time_s == 0.4);
  CHECK(run.app_time_mean_s == 0.4);
  CHECK(testing::DetailNumber(run, "nwchem_cpu_time_s") == 0.4);
  CHECK(run.details.at("nwchem_tasks") == "1");
  CHECK(run.details.at("nwchem_task_wall_s") == "0.3");
  CHECK(run.details.at("nwchem_input_tasks") == "scf energy");
  CHECK(run.details.at("nwchem_modules") == "NWChem SCF Module");
  // The echoed deck's digest ends the class.
  CHECK(run.problem_class == "cosmo_na scf energy 1 atoms 6-31g* 19 functions deck 7a053df1");
  CHECK(std::string(run.machine) == "we");  // the stem of WE41476
  // "nwchem branch = 7.0.0", "ga revision = 5.8.0"
  CHECK(run.variant == "nwchem7.0.1-branch7.0.0-ga5.8.0");
  CHECK(run.details.at("nwchem_branch") == "7.0.0");
  CHECK(run.details.at("nwchem_revision") == "nwchem_on_git-3012-g75ff49f32d");
  CHECK(run.details.at("setting.nwchem_scalapack") == "F");
  CHECK(run.hosts == std::vector<std::string>{"WE41476"});  // "hostname = WE41476"
  // "GA Statistics for process 0": calls 202 202 925 547 740 0 0 28; bytes total 7.29e+05 4.31e+05
  // 1.12e+05 0 0 2.24e+02; bytes remote 1.63e+04 1.65e+04 4.58e+03 0 0 0; 32208 bytes of GA memory.
  CHECK(testing::DetailNumber(run, "nwchem_ga0_calls_create") == 202);
  CHECK(testing::DetailNumber(run, "nwchem_ga0_calls_get") == 925);
  CHECK(testing::DetailNumber(run, "nwchem_ga0_calls_put") == 547);
  CHECK(testing::DetailNumber(run, "nwchem_ga0_calls_acc") == 740);
  CHECK(testing::DetailNumber(run, "nwchem_ga0_calls_read_inc") == 28);
  CHECK(testing::DetailNumber(run, "nwchem_ga0_bytes_get") == 7.29e+05);
  CHECK(testing::DetailNumber(run, "nwchem_ga0_bytes_read_inc") == 2.24e+02);
  CHECK(testing::DetailNumber(run, "nwchem_ga0_remote_bytes_put") == 1.65e+04);
  CHECK(testing::DetailNumber(run, "nwchem_ga0_max_memory_bytes") == 32208);
  CHECK(testing::DetailNumber(run, "nwchem_ma0_max_heap_bytes") == 1589880);
  CHECK(testing::DetailNumber(run, "nwchem_ma0_max_stack_bytes") == 22509416);
  // GA's one-sided traffic is not MPI: the record is runtime only.
  CHECK(run.mpi_time_mean_s != run.mpi_time_mean_s);
  CHECK(run.messages_per_rank != run.messages_per_rank);
  CHECK(LooksLikeNwchemOutput(ReadText(kCosmoNa)));
}

TEST_CASE("NWChem output: versions 5.1 to 7.3.1, OpenMP threads, ARMCI nodes, several tasks", "[ingest][nwchem]") {
  // NWChem 5.1 on 8 processes of 2 nodes: "ARMCI configured for 2 cluster nodes. Network protocol is
  // 'OpenIB Verbs API'.", "Total times  cpu:  470.9s  wall:  780.3s", one 780.1 s task.
  RunStats run = OnlyRun(kNwchem + "/qa/dntmc_h2o_nh3.out");
  CHECK(run.tool_version == "NWChem 5.1");
  CHECK(run.procs == 8);
  CHECK(run.nodes == 2);
  CHECK(run.ranks_per_node == 4);
  CHECK(run.wall_time_s == 780.3);
  CHECK(testing::DetailNumber(run, "nwchem_cpu_time_s") == 470.9);
  CHECK(run.details.at("nwchem_task_wall_s") == "780.1");
  CHECK(run.variant == "nwchem5.1-development-openib-verbs-api");
  CHECK(run.hosts == std::vector<std::string>{"node014"});
  // "input = h2o_nh3_hf_6_31_G.nw": no echoed deck, no module header ("Starting DNTMC Module" is not
  // one), no geometry or basis table before the subgroups' own outputs: the input's name alone.
  CHECK(run.problem_class == "h2o_nh3_hf_6_31_G");

  // NWChem 6.8 on 3 processes, "ga revision = N/A": no GA word.
  run = OnlyRun(kNwchem + "/qa/h2o.out");
  CHECK(run.tool_version == "NWChem 6.8");
  CHECK(run.procs == 3);
  CHECK(run.wall_time_s == 0.2);
  CHECK(run.variant == "nwchem6.8-development");
  CHECK(run.hosts == std::vector<std::string>{"lagrange"});

  // NWChem 7.2.1 with OpenMP: "NWChem w/ OpenMP: maximum threads =   16", 3 processes, 88.9 s,
  // a DFT job of 4 atoms and 52 functions ("No. of atoms : 4", "AO basis - number of functions: 52").
  run = OnlyRun(kNwchem + "/qa/H2COWat_VEMExc_CISHF.out.gz");
  CHECK(run.tool_version == "NWChem 7.2.1");
  CHECK(run.procs == 3);
  CHECK(run.threads_per_proc == 16);
  CHECK(run.wall_time_s == 88.9);
  CHECK(run.variant == "nwchem7.2.1-ga5.8.0");
  CHECK(run.problem_class.str().find(" 4 atoms ") != std::string::npos);
  CHECK(run.problem_class.str().find(" 52 functions") != std::string::npos);

  // NWChem 7.2.0, 2 processes: eight "task dft gradient" (a ninth commented out), eight Task times lines.
  run = OnlyRun(kNwchem + "/qa/adft_he2+.out.gz");
  CHECK(run.tool_version == "NWChem 7.2.0");
  CHECK(run.procs == 2);
  CHECK(run.threads_per_proc == 1);  // "NWChem w/ OpenMP: maximum threads =    1"
  CHECK(run.wall_time_s == 1.5);
  CHECK(run.details.at("nwchem_tasks") == "8");
  CHECK(run.details.at("nwchem_task_wall_s") == "0.2 0.1 0.1 0.2 0.1 0.1 0.2 0.1");
  CHECK(testing::DetailNumber(run, "nwchem_task_wall_sum_s") == Approx(1.1));
  CHECK(run.details.at("nwchem_input_tasks") == "dft gradient x8");
  CHECK(run.problem_class == "adft_he2+ dft gradient x8 2 atoms def2-svp 10 functions deck 41ae4458");
  CHECK(run.variant == "nwchem7.2.0-ga5.8.1");
  CHECK(run.details.count("nwchem_ga0_calls_get") == 0);  // 7.x prints no GA statistics

  // NWChem 7.3.1, 4 processes, a GW task then a BSE task: 34.7 s and 45.6 s of 80.7 s.
  run = OnlyRun(kNwchem + "/qa/bse_ethene.out.gz");
  CHECK(run.tool_version == "NWChem 7.3.1");
  CHECK(run.procs == 4);
  CHECK(run.wall_time_s == 80.7);
  CHECK(run.details.at("nwchem_task_wall_s") == "34.7 45.6");
  CHECK(run.variant == "nwchem7.3.1-ga5.9.2");
}

TEST_CASE("NWChem output: jobs that stopped are refused with NWChem's reason and line", "[ingest][nwchem]") {
  // NWChem 6.8: errquit in the MCSCF after 2286.7 s: "detci: cannot create CI vector   0" between
  // dashed lines, then "For further details see manual section:" and GA's abort; no Total times.
  std::string error = testing::IngestErrorOf(kNwchem + "/qa/h2_7_sto6g_1.0au.out.gz");
  CHECK(error.find("h2_7_sto6g_1.0au.out.gz:3847") != std::string::npos);
  CHECK(error.find("'detci: cannot create CI vector 0'") != std::string::npos);
  // NWChem 6.5: libcint's assertion failed, then the Intel runtime's traceback and MPICH's BAD TERMINATION.
  error = testing::IngestErrorOf(kNwchem + "/qa/be_libcint.out");
  CHECK(error.find("be_libcint.out:433") != std::string::npos);
  CHECK(error.find("Assertion") != std::string::npos);

  testing::TempDir dir("qnm-nwchem", "stopped");
  const std::string text = ReadText(kCosmoNa);
  // Cut after its task: no Total times, no reason: the job's first line is named.
  error = testing::IngestErrorOf(WriteCase(dir, "cut.out", text.substr(0, text.find(" Total times"))));
  CHECK(error.find("cut.out:1") != std::string::npos);
  CHECK(error.find("'Total times'") != std::string::npos);
  // An MPI abort, not an errquit.
  const std::string aborted = text.substr(0, text.find(" Task  times")) +
                              "MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD\nwith errorcode -1.\n";
  error = testing::IngestErrorOf(WriteCase(dir, "aborted.out", aborted));
  CHECK(error.find("aborted.out:532") != std::string::npos);
  CHECK(error.find("MPI_ABORT was invoked on rank 2") != std::string::npos);
}

TEST_CASE("NWChem output: a damaged Total times, a missing nproc, overflowed fields", "[ingest][nwchem]") {
  testing::TempDir dir("qnm-nwchem", "damaged");
  const std::string text = ReadText(kCosmoNa);
  std::string error = testing::IngestErrorOf(
      WriteCase(dir, "total.out", Replaced(text, "wall:        0.4s", "wall:        0.x4s")));
  CHECK(error.find("total.out:623") != std::string::npos);
  CHECK(error.find("Total times") != std::string::npos);
  // Fortran prints stars when a time outgrows f11.1: refused, not read as zero.
  error = testing::IngestErrorOf(
      WriteCase(dir, "stars.out", Replaced(text, "wall:        0.4s", "wall:***********s")));
  CHECK(error.find("stars.out:623") != std::string::npos);
  // No nproc line in the Job information: the banner's line is named.
  error = testing::IngestErrorOf(
      WriteCase(dir, "noproc.out", Replaced(text, "    nproc           =        4\n", "")));
  CHECK(error.find("noproc.out:29") != std::string::npos);
  CHECK(error.find("process count") != std::string::npos);
  error = testing::IngestErrorOf(
      WriteCase(dir, "badproc.out", Replaced(text, "nproc           =        4", "nproc           = ********")));
  CHECK(error.find("badproc.out:76") != std::string::npos);
  // A GA statistics count that is not a number.
  error = testing::IngestErrorOf(WriteCase(dir, "ga.out", Replaced(text, "calls:  202", "calls:  2o2")));
  CHECK(error.find("ga.out:549") != std::string::npos);
  // Not NWChem at all.
  CHECK_FALSE(LooksLikeNwchemOutput("argument  1 = h2o.nw\n Total times  cpu: 1.0s wall: 1.0s\n"));
}

TEST_CASE("NWChem output: a job's stdout of several jobs, one of them cut", "[ingest][nwchem]") {
  testing::TempDir dir("qnm-nwchem", "jobs");
  const std::string text = ReadText(kCosmoNa);
  // The first job cut before its Total times, then the whole job again at 8 processes and 2.5 s.
  std::string second = Replaced(text, "nproc           =        4", "nproc           =        8");
  second = Replaced(second, "wall:        0.4s", "wall:        2.5s");
  const std::string cut = text.substr(0, text.find(" Total times"));
  IngestSummary summary;
  std::vector<RunStats> runs = testing::IngestPath(WriteCase(dir, "two.out", cut + second), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 8);
  CHECK(runs[0].wall_time_s == 2.5);
  bool said = false;
  for (const std::string& note : summary.notes)
    said |= note.find("1 of its 2 NWChem jobs did not finish") != std::string::npos &&
            note.find("the first at line 1:") != std::string::npos;
  CHECK(said);
  // Two finished jobs: two records.
  runs = testing::IngestPath(WriteCase(dir, "both.out", text + second));
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].procs == 4);
  CHECK(runs[1].procs == 8);
  const std::vector<NwchemJob> jobs = ParseNwchemOutput(text + second, "both.out");
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[1].line == jobs[0].total_line + 1);  // the second job's "argument  1 =" line
}

TEST_CASE("NWChem QA outputs of one input at 1 and 4 processes are one series; another GA build another",
          "[ingest][nwchem][cli]") {
  // ch3f_trans_cosmo.nw, NWChem 6.3 on arcen: 48.7 s at 1 process, 15.0 s at 4 (nwchem revision 24582,
  // GA 10418), and 11.9 s at 4 processes by an earlier build (revision 24360, GA 10388).
  const std::string campaign = kNwchem + "/ch3f_trans_cosmo-6.3";
  std::vector<RunStats> runs = testing::IngestPath(campaign);
  REQUIRE(runs.size() == 3);
  std::vector<Series> series = GroupIntoSeries(runs, GroupBy::kContent);
  std::map<std::string, std::vector<std::pair<int, double>>> points;
  for (const Series& s : series)
    for (const RunGroup& g : s.groups) points[s.name].push_back({g.procs, g.median_time_s});
  const std::string cls = "nwchem.ch3f_trans_cosmo dft property 5 atoms 6-311G 35 functions deck df9a67f8 @arcen";
  REQUIRE(points.size() == 2);
  CHECK(points.at(cls + " (nwchem6.3-development-ga10418)") ==
        std::vector<std::pair<int, double>>{{1, 48.7}, {4, 15.0}});
  CHECK(points.at(cls + " (nwchem6.3-development-ga10388)") == std::vector<std::pair<int, double>>{{4, 11.9}});
  // GA's counters wrap: "bytes remote: ... -2.72e+05" (scatter) in two of the three is named, not kept.
  int negative = 0;
  for (const RunStats& run : runs)
    if (run.details.count("nwchem_ga0_negative")) {
      ++negative;
      CHECK(run.details.at("nwchem_ga0_negative") == "nwchem_ga0_remote_bytes_scatter");
      CHECK(run.details.count("nwchem_ga0_remote_bytes_scatter") == 0);
    }
  CHECK(negative == 2);
}

TEST_CASE("NWChem user outputs: one input name, three functionals, three problems", "[ingest][nwchem][cli]") {
  // AkimovLab's course (CC0), NWChem 7.2.1 on CCR's cluster: Lab2 on 3 processes, "task scf energy"
  // then two "task dplot", three Task times lines, 2.3 s.
  const RunStats lab2 = OnlyRun(kNwchem + "/akimovlab/Lab2/out");
  CHECK(lab2.procs == 3);
  CHECK(lab2.threads_per_proc == 1);
  CHECK(lab2.wall_time_s == 2.3);
  CHECK(lab2.details.at("nwchem_input_tasks") == "scf energy, dplot x2");
  CHECK(lab2.details.at("nwchem_task_wall_s") == "0.5 0 0");
  CHECK(lab2.hosts == std::vector<std::string>{"cpn-f13-36.core.ccr.buffalo.edu"});
  // Lab7: three inputs all named input.nw, 26 atoms and 122 functions each, on 11 processes; only
  // their functional differs (xc b3lyp, xc xpbe96 1.0 cpbe96 1.0, xc hfexch).
  std::vector<RunStats> runs;
  for (const char* lab : {"Lab7-b3lyp-cis", "Lab7-pbe-cis", "Lab7-hf-cis"})
    runs.push_back(OnlyRun(kNwchem + "/akimovlab/" + lab + "/out.gz"));
  std::map<std::string, double> time_by_class;
  for (const RunStats& run : runs) {
    CHECK(run.procs == 11);
    CHECK(run.problem_class.str().rfind("input tddft energy + dplot 26 atoms ", 0) == 0);
    CHECK(run.problem_class.str().find(" 122 functions deck ") != std::string::npos);
    time_by_class[run.problem_class] = run.wall_time_s;
  }
  CHECK(time_by_class.size() == 3);  // not one problem run three times at P = 11
  CHECK(runs[0].wall_time_s == 114.1);
  CHECK(runs[1].wall_time_s == 48.2);
  CHECK(runs[2].wall_time_s == 54.3);
}
