// CP2K outputs read into the run record (tests/data/cp2k: the UK HPC benchmark suite's H2O-64 and
// LiH-HFX runs with CP2K 6.1 and 7.1, the BioExcel QM/MM runs with CP2K 8.2 and 9.1; SOURCES.md
// there). The values below are copied from the files by hand.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "command_runner.h"
#include "app_outputs/cp2k_output.h"
#include "ingest/ingest.h"
#include "reader/series_identity.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::WriteCase;

const std::string kCp2k = std::string(QNM_TEST_DATA_DIR) + "/cp2k";
const std::string kH2o = kCp2k + "/h2o64-archer2";
const std::string kPlain = kH2o + "/H2O_bench-2nodes-256cores-4threads-run1.out";
const std::string kH2oClass = "H2O-64 MD 192 atoms 2560 basis functions 10 MD steps max_scf 50";

std::vector<RunStats> Read(const std::string& path, IngestSummary* summary = nullptr) {
  return testing::IngestPath(path, summary, /*strict=*/false);
}

}  // namespace

TEST_CASE("CP2K output: processes, threads, the CP2K timer, MPI time and process 0's messages", "[ingest][cp2k]") {
  // ARCHER2, CP2K 7.1: "Total number of message passing processes 64", "Number of threads for this
  // process 4"; the timing report's first row "CP2K  1  1.0  0.006  0.007  14.223  14.224".
  std::vector<RunStats> runs = Read(kPlain);
  REQUIRE(runs.size() == 1);
  const RunStats& run = runs[0];
  CHECK(run.app == "cp2k");
  CHECK(run.tool_version == "CP2K 7.1");
  CHECK(run.procs == 64);
  CHECK(run.threads_per_proc == 4);
  CHECK(run.nodes == 2);  // CP2K does not say; the run's name does
  CHECK(run.ranks_per_node == 32);
  CHECK(run.machine == "nid EPYC 7742");  // PROGRAM STARTED ON nid001123; CPU model name AMD EPYC 7742 ...
  CHECK(run.wall_time_s == 14.224);
  CHECK(run.app_time_max_s == 14.224);
  CHECK(run.app_time_mean_s == 14.223);
  CHECK(run.problem_class == kH2oClass);
  CHECK(run.iterations == 10);  // STEP NUMBER = 10
  CHECK(run.details.at("cp2k_input_file") == "H2O-64.inp");
  // The report goes down to 0.000 s: its 67 mp_ rows are the MPI time. Their SELF TIME AVERAGE
  // sums to 5.080 s, their MAXIMUM to 6.610 s (e.g. mp_waitall_1 1.066 / 1.378, mp_waitany 0.969 / 1.075).
  CHECK(run.details.at("cp2k_perf_mpi_wrapper_rows") == "67");
  CHECK(run.mpi_time_mean_s == Approx(5.080).margin(1e-9));
  CHECK(run.mpi_time_max_s == Approx(6.610).margin(1e-9));
  CHECK(run.compute_time_mean_s == Approx(14.223 - 5.080).margin(1e-9));
  REQUIRE(run.call_sites.size() == 67);
  CHECK(run.call_sites[0].source_location == "CP2K timing report: mp_waitall_1");
  CHECK(run.call_sites[0].mpi_function == "Waitall");
  CHECK(run.call_sites[0].total_time_s == Approx(1.066 * 64));
  // Process 0's counters. DBCSR: Bcast 29 x 12 B, Allreduce 12197 x 16, Alltoall 8655 x 21608,
  // ISend 73108 x 48826 (and Group 154, Wait 182880, IRecv 73108, Memory 75258: no messages);
  // CP2K: Bcast 3633 x 63214, Allreduce 9789 x 284, Sync 4, Alltoall 2093 x 810415, ISendRecv
  // 29988 x 8080, ISend 12384 x 82120 (and Group 4, Wait 45078, IRecv 12384).
  const double messages = 29 + 12197 + 8655 + 73108 + 3633 + 9789 + 4 + 2093 + 29988 + 12384;
  const double bytes = 29 * 12.0 + 12197 * 16.0 + 8655 * 21608.0 / 2 + 73108 * 48826.0 + 3633 * 63214.0 +
                       9789 * 284.0 + 2093 * 810415.0 / 2 + 29988 * 8080.0 + 12384 * 82120.0;
  CHECK(run.messages_per_rank == 151880);
  CHECK(run.messages_per_rank == messages);
  CHECK(run.bytes_sent_per_rank == Approx(bytes));
  CHECK(run.bytes_per_message == Approx(bytes / messages));
  CHECK(run.mpi_calls_per_rank == 540746);
  CHECK(run.details.at("cp2k_perf_dbcsr_MP_Wait_calls") == "182880");
  CHECK(run.derivations.at("messages_per_rank").find("process 0's") != std::string::npos);
  CHECK(run.derivations.at("mpi_time_mean_s").find("lower bound") != std::string::npos);
}

TEST_CASE("CP2K output: 6.1 in a PBS job's stdout; 9.1 at the default timing threshold", "[ingest][cp2k]") {
  // ARCHER, CP2K 6.1: 512 processes x 6 threads, "CP2K  1  1.0  0.177  0.386  333.305  333.306",
  // after the job's own banner lines.
  std::vector<RunStats> lih = Read(kCp2k + "/lih-hfx-archer/CP2K_128.o5605409.gz");
  REQUIRE(lih.size() == 1);
  CHECK(lih[0].tool_version == "CP2K 6.1");
  CHECK(lih[0].procs == 512);
  CHECK(lih[0].threads_per_proc == 6);
  CHECK(lih[0].wall_time_s == 333.306);
  CHECK(lih[0].mpi_time_mean_s == Approx(16.522).margin(1e-9));
  CHECK(lih[0].problem_class == "LiH_bulk_3 ENERGY 216 atoms 8100 basis functions max_scf 20");
  // Cirrus, CP2K 9.1: 4 x 10 threads, "CP2K 1 1.0 0.634 0.641 149.663 149.667"; the report stops at
  // 3.012 s (2% of the run), so the mp_ rows under it are missing: no MPI time, the messages stay.
  std::vector<RunStats> clc = Read(kCp2k + "/clc-cirrus/CirrusCPU-SCF_ClC-253_1nodes-40cpn-10th.log.gz");
  REQUIRE(clc.size() == 1);
  CHECK(clc[0].tool_version == "CP2K 9.1");
  CHECK(clc[0].procs == 4);
  CHECK(clc[0].threads_per_proc == 10);
  CHECK(clc[0].wall_time_s == 149.667);
  CHECK_FALSE(Known(clc[0].mpi_time_mean_s));
  CHECK_FALSE(Known(clc[0].compute_time_mean_s));
  CHECK(clc[0].call_sites.empty());
  CHECK(clc[0].details.at("cp2k_perf_timing_cutoff_s") == "3.012");
  CHECK(clc[0].derivations.at("mpi_time_mean_s").find("not read") != std::string::npos);
  CHECK(clc[0].messages_per_rank > 0);
}

TEST_CASE("CP2K outputs: a folder of one input at four process counts is one series", "[ingest][cp2k]") {
  std::vector<Series> series = GroupIntoSeries(Read(kH2o), GroupBy::kContent);
  REQUIRE(series.size() == 1);
  std::vector<int> procs;
  std::vector<double> times;
  for (const RunGroup& g : series[0].groups) {
    procs.push_back(g.procs);
    times.push_back(g.median_time_s);
  }
  CHECK(procs == std::vector<int>{32, 64, 96, 128});
  CHECK(times == std::vector<double>{25.439, 14.224, 19.412, 16.842});
  CHECK(series[0].key.problem_class == kH2oClass);
  CHECK(series[0].key.threads_per_proc == 4);
  // The QM/MM input (CP2K 8.2) is another series, of its own version.
  std::vector<Series> both = GroupIntoSeries(Read(kCp2k), GroupBy::kContent);
  std::map<std::string, std::vector<int>> by_class;
  for (const Series& s : both)
    for (const RunGroup& g : s.groups) by_class[s.key.problem_class + " " + s.key.variant].push_back(g.procs);
  CHECK(by_class.at("MQAE-BLYP MD 34 atoms 314 basis functions 1 MD steps max_scf 300 cp2k8.2") ==
        std::vector<int>{32, 64, 128, 256});
  // One input, one version, a CPU and a CUDA build ("cp2kflags: ... dbcs" / "r_acc mkl grid_cuda",
  // wrapped inside a word): two series, not two repetitions.
  const std::string clc = "ClC-253 ENERGY 253 atoms 2313 basis functions max_scf 10 ";
  CHECK(by_class.at(clc + "cp2k9.1") == std::vector<int>{4});
  CHECK(by_class.at(clc + "cp2k9.1-dbcsr_acc-grid_cuda") == std::vector<int>{4});
}

TEST_CASE("CP2K output: a killed run and an aborted run are refused naming file and line", "[ingest][cp2k]") {
  // Killed in its first SCF step: 929 lines, no timing report.
  std::string error = testing::IngestErrorOf(kCp2k + "/refused/HFX_bench-1nodes-128cores-1threads-run1.out.gz");
  CHECK(error.find("HFX_bench-1nodes-128cores-1threads-run1.out.gz:929") != std::string::npos);
  CHECK(error.find("without its timing report") != std::string::npos);
  // CP2K's abort box at line 396: "CPASSERT failed", pw_env/cp_spline_utils.F:210.
  error = testing::IngestErrorOf(kCp2k + "/refused/archer2CPU-6steps_MQAE_2nodes-256tasks-1th-run1.log.gz");
  CHECK(error.find("archer2CPU-6steps_MQAE_2nodes-256tasks-1th-run1.log.gz:396") != std::string::npos);
  CHECK(error.find("'CPASSERT failed (at pw_env/cp_spline_utils.F:210)'") != std::string::npos);
  // Read as a folder, both are named and counted, the rest read.
  IngestSummary summary;
  std::vector<RunStats> runs = Read(kCp2k, &summary);
  CHECK(runs.size() == 11);
}

TEST_CASE("CP2K output: cut anywhere, refused with its line; a damaged time names its line", "[ingest][cp2k]") {
  const std::string text = ReadText(kPlain);
  testing::TempDir dir("qnm-cp2k", "cut");
  // Cut before the report (line 1000), inside it (line 1200) and after it, before PROGRAM ENDED AT (1575).
  std::vector<std::size_t> ends;
  std::size_t at = 0;
  for (int line = 1; line <= 1575 && at != std::string::npos; ++line) {
    at = text.find('\n', at) + 1;
    if (line == 1000 || line == 1200 || line == 1575) ends.push_back(at);
  }
  REQUIRE(ends.size() == 3);
  const std::string before = testing::IngestErrorOf(WriteCase(dir, "before.out", text.substr(0, ends[0])));
  CHECK(before.find("before.out:999") != std::string::npos);  // its last line with text (1000 is empty)
  CHECK(before.find("without its timing report") != std::string::npos);
  const std::string inside = testing::IngestErrorOf(WriteCase(dir, "inside.out", text.substr(0, ends[1])));
  CHECK(inside.find("inside.out:1098") != std::string::npos);
  CHECK(inside.find("cut short") != std::string::npos);
  const std::string after = testing::IngestErrorOf(WriteCase(dir, "after.out", text.substr(0, ends[2])));
  CHECK(after.find("after.out:1098") != std::string::npos);
  CHECK(after.find("PROGRAM ENDED AT") != std::string::npos);
  // The CP2K row's TOTAL TIME MAXIMUM damaged: its line.
  std::string damaged = text;
  const std::size_t row = damaged.find("14.223   14.224");
  REQUIRE(row != std::string::npos);
  damaged.replace(row + 9, 6, "14.2x4");
  const std::string error = testing::IngestErrorOf(WriteCase(dir, "damaged.out", damaged));
  CHECK(error.find("damaged.out:1103") != std::string::npos);
  CHECK(error.find("TOTAL TIME MAXIMUM") != std::string::npos);
  CHECK(LooksLikeCp2kOutput(text));
  CHECK_FALSE(LooksLikeCp2kOutput(text.substr(text.find("GLOBAL| Force Environment"))));
}

TEST_CASE("predict fits the H2O-64 series with the queueing model, the QM/MM one runtime-only", "[ingest][cp2k][cli]") {
  // H2O-64: the timing report is complete, so MPI time, messages and bytes feed the queueing model.
  std::string out;
  REQUIRE(testing::RunCli("predict " + kH2o + " --procs 256", &out) == 0);
  CHECK(out.find("series cp2k." + kH2oClass + " th=4 @nid EPYC 7742 (cp2k7.1): queueing model on 4 process counts") !=
        std::string::npos);
  CHECK(out.find("\n256    -  ") != std::string::npos);
  // MQAE: the report stops at CP2K's default 2% threshold, no MPI time: the runtime-only model.
  REQUIRE(testing::RunCli("predict " + kCp2k + "/mqae-archer2 --procs 512", &out) == 0);
  CHECK(out.find("series cp2k.MQAE-BLYP MD 34 atoms 314 basis functions 1 MD steps max_scf 300 @nid EPYC 7742 (cp2k8.2): "
                 "runtime-only model on 4 process counts") != std::string::npos);
}
