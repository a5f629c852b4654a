// CrayPat reports read into the run record (tests/data/craypat: pat_report reports of VASP and
// GROMACS on ARCHER and ARCHER2 from hpc-uk/archer-benchmarks, GPL-3.0, SOURCES.md there). The
// values below are copied from the files by hand. No licensed repository found holds a
// CrayPat-lite summary in a job's stdout or a tracing report whole, so those cases are texts the
// test writes in the layout perftools-lite 21.02 and pat_report print (docs/formats/craypat-report.md),
// with numbers of its own, and edited copies of the real reports (what each edit changes is said
// where it is made).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "profiles/craypat_report.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kData = std::string(QNM_TEST_DATA_DIR) + "/craypat/archer-benchmarks";
const std::string k128 = kData + "/CdTe_1nodes_128cores_1threads_16NCORE_2KPAR_202011071247.report";
const std::string k1024 = kData + "/CdTe_8nodes_1024cores_1threads_16NCORE_2KPAR_202011071114.report";
const std::string k768 = kData + "/CdTe_32nodes_768cores_1threads_8NCORE_2KPAR_202011111914.pat";
const std::string kGromacs = kData + "/mdrun_mpi+samp+21683-63s.out";

// A job's stdout under perftools-lite (lite-samples), laid out as perftools-lite 21.02 prints it:
// the start-up line, the program's output, the banner and the summary. The numbers are the test's.
std::string LiteStdout(const std::string& pes, const std::string& per_node, const std::string& avg_time) {
  return "CrayPat/X:  Version 21.02.0 Revision ee5549f05  01/13/21 04:13:58\n"
         "step 1 residual 1.0e-3\n"
         "step 2 residual 1.0e-6\n"
         "Runtime [s]:  9.5\n"
         "\n"
         "#################################################################\n"
         "#                                                               #\n"
         "#            CrayPat-lite Performance Statistics                #\n"
         "#                                                               #\n"
         "#################################################################\n"
         "\n"
         "CrayPat/X:  Version 21.02.0 Revision ee5549f05  01/13/21 04:13:58\n"
         "Experiment:                  lite  lite-samples\n"
         "Number of PEs (MPI ranks):   " + pes + "\n"
         "Numbers of PEs per Node:     " + per_node + "\n"
         "Numbers of Threads per PE:      2\n"
         "Number of Cores per Socket:    64\n"
         "Execution start time:  Tue Nov 23 15:18:45 2021\n"
         "System name and speed:  nid005001  2.250 GHz (nominal)\n"
         "AMD   Rome                 CPU  Family: 23  Model: 49  Stepping:  0\n"
         "Core Performance Boost:  All PEs have CPB capability\n"
         "\n"
         "Avg Process Time:      " + avg_time + " secs\n"
         "High Memory:         1,024.0 MiBytes     8.0 MiBytes per PE\n"
         "\n"
         "Table 1:  Profile by Function Group and Function (top 10 functions shown)\n"
         "\n"
         "  Samp% |  Samp |  Imb. |  Imb. | Group\n"
         "        |       |  Samp | Samp% |  Function\n"
         "        |       |       |       |   PE=HIDE\n"
         "\n"
         " 100.0% | 950.0 |    -- |    -- | Total\n"
         "|--------------------------------------------\n"
         "|  60.0% | 570.0 |    -- |    -- | USER\n"
         "||-------------------------------------------\n"
         "||  60.0% | 570.0 |  20.0 |  3.4% | solve_\n"
         "||===========================================\n"
         "|  25.0% | 237.5 |    -- |    -- | MPI\n"
         "||-------------------------------------------\n"
         "||  20.0% | 190.0 |  40.0 | 17.5% | MPI_Waitall\n"
         "||   5.0% |  47.5 |   9.0 | 16.0% | MPI_Allreduce\n"
         "||===========================================\n"
         "|  15.0% | 142.5 |    -- |    -- | ETC\n"
         "|============================================\n"
         "\n"
         "Program invocation:  ./heat+pat -n 4096 -steps 100\n"
         "\n"
         "================  End of CrayPat-lite output  ==========================\n";
}

// A tracing report (pat_report of a "-g mpi" experiment), laid out as pat_report 20.x prints its
// header and its profile table, with numbers of the test's own.
const char kTracing[] =
    "CrayPat/X:  Version 22.06.0 Revision 4b4d9a8f5  05/27/22 02:37:44\n"
    "\n"
    "Number of PEs (MPI ranks):   64\n"
    "\n"
    "Numbers of PEs per Node:     32  PEs on each of  2  Nodes\n"
    "\n"
    "Numbers of Threads per PE:    1\n"
    "\n"
    "System name and speed:  nid002002  2.450 GHz (nominal)\n"
    "\n"
    "AMD   Milan                CPU  Family: 25  Model:  1  Stepping:  1\n"
    "\n"
    "Table 1:  Profile by Function Group and Function\n"
    "\n"
    "  Time% |      Time |     Imb. |  Imb. |   Calls | Group\n"
    "        |           |     Time | Time% |         |  Function\n"
    "        |           |          |       |         |   PE=HIDE\n"
    "\n"
    " 100.0% | 20.000000 |       -- |    -- | 5,200.0 | Total\n"
    "|---------------------------------------------------------------\n"
    "|  70.0% | 14.000000 | 0.500000 |  3.5% |     1.0 | USER\n"
    "||--------------------------------------------------------------\n"
    "||  70.0% | 14.000000 | 0.500000 |  3.5% |     1.0 | main\n"
    "||==============================================================\n"
    "|  25.0% |  5.000000 |       -- |    -- | 5,000.0 | MPI\n"
    "||--------------------------------------------------------------\n"
    "||  15.0% |  3.000000 | 1.000000 | 25.4% | 1,000.0 | MPI_Waitall\n"
    "||  10.0% |  2.000000 | 0.200000 |  9.2% | 4,000.0 | MPI_Isend\n"
    "||==============================================================\n"
    "|   5.0% |  1.000000 |       -- |    -- |   199.0 | MPI_SYNC\n"
    "||--------------------------------------------------------------\n"
    "||   5.0% |  1.000000 | 0.900000 | 90.0% |   199.0 | MPI_Allreduce(sync)\n"
    "|===============================================================\n"
    "\n"
    "Table 2:  Wall Clock Time, Memory High Water Mark\n"
    "\n"
    "  Process Time |   Process | PE=[mmm]\n"
    "               |     HiMem | \n"
    "               | (MiBytes) | \n"
    "\n"
    " 20.100000 |     100.0 | Total\n"
    "|-----------------------------------\n"
    "| 20.400000 |     110.0 | pe.0\n"
    "| 20.050000 |      99.0 | pe.31\n"
    "| 19.900000 |      98.0 | pe.63\n"
    "|===================================\n"
    "\n"
    "Program invocation:\n"
    "  /home/user/bin/stencil+pat big.in\n"
    "\n"
    "Exit Status:  0 for 64 PEs\n";

}  // namespace

TEST_CASE("CrayPat report: VASP on ARCHER2, pat_report 20.09, sampling", "[ingest][craypat]") {
  // "Number of PEs (MPI ranks):   128", "Numbers of PEs per Node:     128", "System name and speed:
  // nid001003", "AMD Rome       CPU  Family: 23", Table 11 "Wall Clock Time, Memory High Water
  // Mark": Total 35,077.004644, pe.0 35,105.616925 (VASP's own OUTCAR beside it in the repository:
  // "Elapsed time (sec): 35105.502"), pe.40 35,076.186930; Table 1: "59.4% | 2,079,502.8 | MPI".
  std::vector<RunStats> runs = testing::IngestPath(k128);
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.app == "vasp_ncl");
  CHECK(run.tool_version == "CrayPat 20.09.0");
  CHECK(run.procs == 128);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.nodes == 1);
  CHECK(run.machine == "nid rome");
  CHECK(run.hosts == std::vector<std::string>{"nid001003"});
  CHECK(run.wall_time_s == Approx(35105.616925));
  CHECK(run.app_time_max_s == Approx(35105.616925));
  CHECK(run.app_time_mean_s == Approx(35077.004644));
  CHECK(run.mpi_time_mean_s == Approx(0.594 * 35077.004644));
  CHECK(run.details.at("craypat_experiment_kind") == "sampling");
  CHECK(run.details.at("craypat_experiment") == "samp_cs_time");
  CHECK(testing::DetailNumber(run, "craypat_process_time_min_s") == Approx(35076.186930));
  CHECK(testing::DetailNumber(run, "craypat_mpi_group_percent") == Approx(59.4));
  CHECK(run.details.at("craypat_mpi_group_imbalance") == "not printed (--)");
  CHECK(run.details.at("craypat_exit_status") == "0 for 128 PEs");
  REQUIRE(run.call_sites.size() == 2);
  CHECK(run.call_sites[0].mpi_function == "Allreduce");
  CHECK(run.call_sites[0].total_time_s == Approx(0.384 * 35077.004644 * 128));
  CHECK(run.call_sites[1].mpi_function == "Alltoallv");
  CHECK(!run.call_sites[0].ranks_complete);
  CHECK(!Known(run.messages_per_rank));
}

TEST_CASE("CrayPat report: ARCHER's pat_report 6.4.6 and GROMACS", "[ingest][craypat]") {
  // VASP on 768 PEs: "24  PEs on each of  32  Nodes", host "mom4" (the aprun launcher node),
  // "Intel ivybridge CPU", Table 7 "Avg of PE values" 4,231.805194, pe.0 4,349.106319, Table 1
  // "33.5% | 140,586.8 | MPI" and six MPI functions.
  std::vector<RunStats> runs = testing::IngestPath(k768);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].app == "vasp_ncl");
  CHECK(runs[0].tool_version == "CrayPat 6.4.6");
  CHECK(runs[0].procs == 768);
  CHECK(runs[0].nodes == 32);
  CHECK(runs[0].ranks_per_node == 24);
  CHECK(runs[0].machine == "mom");
  CHECK(runs[0].wall_time_s == Approx(4349.106319));
  CHECK(runs[0].app_time_mean_s == Approx(4231.805194));
  CHECK(runs[0].mpi_time_mean_s == Approx(0.335 * 4231.805194));
  REQUIRE(runs[0].call_sites.size() == 6);
  CHECK(runs[0].call_sites[2].mpi_function == "Alltoallv");  // "mpi_alltoallv", Fortran's lower case
  CHECK(runs[0].call_sites[5].mpi_function == "Barrier");

  // GROMACS 2018.3 on 24 PEs of one node: "Program invocation: mdrun_mpi+samp -s .../benchmark.tpr ...",
  // Table 7 pe.2 1,667.489744 (the slowest), "8.7% | 14,535.1 | MPI".
  runs = testing::IngestPath(kGromacs);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].app == "mdrun_mpi");
  CHECK(runs[0].procs == 24);
  CHECK(runs[0].nodes == 1);
  CHECK(runs[0].machine == "tdsmom");
  CHECK(runs[0].wall_time_s == Approx(1667.489744));
  CHECK(runs[0].mpi_time_mean_s == Approx(0.087 * 1667.487146));
  CHECK(runs[0].details.at("command.arguments").rfind("-s /work/z01/z01/fiona/", 0) == 0);
  REQUIRE(runs[0].call_sites.size() == 2);
  CHECK(runs[0].call_sites[0].mpi_function == "Waitall");
  CHECK(runs[0].call_sites[1].mpi_function == "Sendrecv");
}

TEST_CASE("CrayPat report: the ARCHER2 VASP runs at 128 and 1,024 PEs are one series", "[ingest][craypat]") {
  // The same input (CdTe, NCORE 16, KPAR 2) on 1 and 8 nodes: "Number of PEs (MPI ranks):   1,024",
  // "128  PEs on each of  8  Nodes", pe.0 5,179.288402 (VASP's OUTCAR: 5179.184), "62.2% | MPI".
  testing::TempDir dir("qnm-craypat", "series");
  WriteCase(dir, "CdTe_1nodes_128cores_1threads_16NCORE_2KPAR_202011071247.report", ReadText(k128));
  WriteCase(dir, "CdTe_8nodes_1024cores_1threads_16NCORE_2KPAR_202011071114.report", ReadText(k1024));
  std::vector<RunStats> runs = testing::IngestPath(dir.path.string());
  REQUIRE(runs.size() == 2);
  const RunStats& big = runs[0].procs == 1024 ? runs[0] : runs[1];
  CHECK(big.procs == 1024);
  CHECK(big.nodes == 8);
  CHECK(big.ranks_per_node == 128);
  CHECK(big.wall_time_s == Approx(5179.288402));
  CHECK(big.mpi_time_mean_s == Approx(0.622 * 5150.938241));
  CHECK(KeyOf(runs[0]).ToString() == KeyOf(runs[1]).ToString());
}

TEST_CASE("CrayPat-lite summary after the program's output in a job's stdout", "[ingest][craypat]") {
  testing::TempDir dir("qnm-craypat", "lite");
  // A megabyte of the program's own output before the summary: the sniffer looks past it.
  std::string output;
  while (output.size() < (1u << 20)) output += "iteration residual 1.234567e-05 dt 1.0e-3\n";
  const std::string text = LiteStdout("128", "64  PEs on each of  2  Nodes", "9.50");
  const std::string path = WriteCase(dir, "slurm-1234.out", output + text);
  std::vector<RunStats> runs = testing::IngestPath(path);
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.app == "heat");
  CHECK(run.procs == 128);
  CHECK(run.nodes == 2);
  CHECK(run.threads_per_proc == 2);
  CHECK(run.machine == "nid rome");
  CHECK(run.wall_time_s == Approx(9.5));  // no slowest PE: the average, said so
  CHECK(run.derivations.at("wall_time_s").find("average PE") != std::string::npos);
  CHECK(run.mpi_time_mean_s == Approx(0.25 * 9.5));
  CHECK(run.details.at("craypat_summary") == "perftools-lite");
  CHECK(run.details.at("craypat_experiment") == "lite  lite-samples");
  CHECK(run.details.at("command.arguments") == "-n 4096 -steps 100");
  REQUIRE(run.call_sites.size() == 2);
  CHECK(run.call_sites[0].mpi_function == "Waitall");
  CHECK(run.call_sites[0].total_time_s == Approx(0.20 * 9.5 * 128));

  // The lite summary of the same program at 256 PEs, its table titled as perftools 23.12 titles it
  // ("Table 1:  Sample Profile by Function"): one series with the first.
  WriteCase(dir, "slurm-1235.out",
            Replaced(LiteStdout("256", "64  PEs on each of  4  Nodes", "5.10"),
                     "Table 1:  Profile by Function Group and Function (top 10 functions shown)",
                     "Table 1:  Sample Profile by Function"));
  runs = testing::IngestPath(dir.path.string());
  REQUIRE(runs.size() == 2);
  CHECK(KeyOf(runs[0]).ToString() == KeyOf(runs[1]).ToString());
  const RunStats& wide = runs[0].procs == 256 ? runs[0] : runs[1];
  CHECK(wide.procs == 256);
  CHECK(wide.mpi_time_mean_s == Approx(0.25 * 5.1));
}

TEST_CASE("CrayPat tracing report: MPI and MPI_SYNC seconds, calls", "[ingest][craypat]") {
  testing::TempDir dir("qnm-craypat", "trace");
  const std::string path = WriteCase(dir, "stencil.rpt", kTracing);
  std::vector<RunStats> runs = testing::IngestPath(path);
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.app == "stencil");
  CHECK(run.procs == 64);
  CHECK(run.nodes == 2);
  CHECK(run.machine == "nid milan");
  CHECK(run.wall_time_s == Approx(20.4));
  CHECK(run.app_time_mean_s == Approx(20.1));
  CHECK(run.mpi_time_mean_s == Approx(6.0));  // MPI 5 s + MPI_SYNC 1 s
  CHECK(testing::DetailNumber(run, "craypat_mpi_sync_group_s") == Approx(1.0));
  CHECK(run.mpi_calls_per_rank == Approx(5199.0));
  CHECK(run.details.at("craypat_experiment_kind") == "tracing");
  REQUIRE(run.call_sites.size() == 3);
  CHECK(run.call_sites[1].mpi_function == "Isend");
  CHECK(run.call_sites[1].total_calls == Approx(4000.0 * 64));
  CHECK(run.call_sites[1].total_time_s == Approx(2.0 * 64));
  CHECK(run.call_sites[2].mpi_function == "Allreduce");
  CHECK(run.call_sites[2].source_location.find("MPI_SYNC") != std::string::npos);
}

TEST_CASE("CrayPat: runs that did not finish and malformed reports are refused", "[ingest][craypat]") {
  testing::TempDir dir("qnm-craypat", "bad");
  // The program crashed: only the start-up line perftools-lite prints, then the program's output.
  const std::string crashed = WriteCase(dir, "crashed.out",
                                        "CrayPat/X:  Version 23.12.0 Revision 67ffc52e7 sles15.4_x86_64  11/13/23\n"
                                        "step 1\nSegmentation fault\n"
                                        "#            CrayPat-lite Performance Statistics                #\n");
  CHECK(testing::IngestErrorOf(crashed).find("banner without its report") != std::string::npos);
  const std::string started = WriteCase(dir, "started.out",
                                        "CrayPat/X:  Version 23.12.0 Revision 67ffc52e7\nstep 1\nstep 2\n");
  CHECK(testing::InputErrorOf([&] { ParseCrayPatReports(ReadText(started), started); })
            .find("did not reach its end") != std::string::npos);

  // The real 128-PE report cut after its header: no tables.
  const std::string text = ReadText(k128);
  const std::string cut = WriteCase(dir, "cut.report", text.substr(0, text.find("Notes for table 1:")));
  CHECK(testing::IngestErrorOf(cut).find("without its tables") != std::string::npos);

  // A run whose PEs exited with a failure.
  const std::string failed = WriteCase(dir, "failed.report", Replaced(text, "Exit Status:  0 for 128 PEs",
                                                                       "Exit Status:  1 for 128 PEs"));
  CHECK(testing::IngestErrorOf(failed).find("failed") != std::string::npos);

  // A profile row with a column missing, and a negative cell: the file and the line.
  const std::string short_row = WriteCase(
      dir, "short.report", Replaced(text, "|  59.4% | 2,079,502.8 |        -- |    -- | MPI", "|  59.4% | MPI"));
  CHECK(testing::IngestErrorOf(short_row).find(":39:") != std::string::npos);
  const std::string negative = WriteCase(
      dir, "negative.report", Replaced(text, "||  38.4% | 1,344,287.7 |", "||  -38.4% | 1,344,287.7 |"));
  CHECK(testing::IngestErrorOf(negative).find("non-negative") != std::string::npos);
  const std::string pes = WriteCase(dir, "pes.report", Replaced(text, "Number of PEs (MPI ranks):   128",
                                                                "Number of PEs (MPI ranks):   many"));
  CHECK(testing::IngestErrorOf(pes).find("Number of PEs") != std::string::npos);
}

TEST_CASE("CrayPat: two reports in one stdout, the second cut, read as one run and a note", "[ingest][craypat]") {
  testing::TempDir dir("qnm-craypat", "two");
  std::string second = LiteStdout("64", "64", "3.0");
  second = second.substr(0, second.find("Avg Process Time:"));
  const std::string path = WriteCase(dir, "job.out", LiteStdout("128", "128", "2.0") + second);
  IngestSummary summary;
  std::vector<RunStats> runs = testing::IngestPath(path, &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 128);
  const std::vector<CrayPatReport> reports = ParseCrayPatReports(ReadText(path), path);
  REQUIRE(reports.size() == 2);
  int line = 0;
  CHECK(CrayPatReportUnfinished(reports[1], &line).find("without its tables") != std::string::npos);
}
