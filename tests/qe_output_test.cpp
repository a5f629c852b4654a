// Quantum ESPRESSO outputs read into the run record (tests/data/qe: the QE repository's COUPLE tests
// of one input at 4, 6 and 8 processes with QE 5.1, its test-suite benchmarks with QE 6.1 to 7.5
// (pw.x and cp.x), QEF/benchmarks' CNT10POR8 reference with QE 4.1 on 800 processes; SOURCES.md
// there). The values below are copied from the files by hand.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "app_outputs/qe_output.h"
#include "ingest/ingest.h"
#include "reader/series_identity.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::ReadText;
using testing::WriteCase;

const std::string kQe = std::string(QNM_TEST_DATA_DIR) + "/qe";
const std::string kSuite = kQe + "/test-suite/benchmark.out.git.inp=";

std::vector<RunStats> Read(const std::string& path, IngestSummary* summary = nullptr) {
  return testing::IngestPath(path, summary, /*strict=*/false);
}

RunStats One(const std::string& path) {
  std::vector<RunStats> runs = testing::IngestPath(path);
  REQUIRE(runs.size() == 1);
  return runs[0];
}

}  // namespace

TEST_CASE("QE output: pw.x 7.5 on 4 MPI processes, its WALL clock and what the input holds", "[ingest][qe]") {
  // "Parallel version (MPI), running on 4 processors", "MPI processes distributed on 1 nodes",
  // "PWSCF        :      0.80s CPU      0.86s WALL".
  const RunStats run = One(kSuite + "metaGGA.in");
  CHECK(run.app == "qe-pw");
  CHECK(run.tool_version == "Quantum ESPRESSO 7.5");
  CHECK(run.variant == "qe7.5");
  CHECK(run.procs == 4);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.nodes == 1);
  CHECK(run.ranks_per_node == 4);
  CHECK(run.wall_time_s == 0.86);
  CHECK(run.app_time_mean_s == 0.86);
  CHECK_FALSE(Known(run.mpi_time_mean_s));
  CHECK(run.problem_class == "scf 10 atoms 11 states 1 k-points ecutwfc 30 Ry FFT 27x27x27");
  CHECK(run.details.at("qe_cpu_time_s") == "0.8");
  CHECK(run.details.at("qe_job_done") == "yes");
  CHECK(run.details.at("qe_time_electrons_s") == "0.59");  // electrons : 0.54s CPU 0.59s WALL (1 calls)
  CHECK(run.details.at("qe_calls_fftw") == "3426");
  CHECK(run.details.at("qe_time_h_psi:calbec_s") == "0");
  CHECK(run.details.at("qe_diagonalization") == "serial");
  CHECK(run.details.at("qe_available_memory_mib") == "2475");
  CHECK(run.details.at("setting.qe_npool") == "1");
}

TEST_CASE("QE output: MPI & OpenMP headers, a GPU build's ScaLAPACK group, a serial run, cp.x", "[ingest][qe]") {
  // 7.1: "running on 4 processor cores", "Number of MPI processes: 4", "Threads/MPI process: 1".
  const RunStats omp = One(kSuite + "uspp-k-restart-1.in.args=1");
  CHECK(omp.tool_version == "Quantum ESPRESSO 7.1");
  CHECK(omp.procs == 4);
  CHECK(omp.threads_per_proc == 1);
  CHECK(omp.wall_time_s == 28.15);
  CHECK(omp.details.at("qe_processor_cores") == "4");
  CHECK(omp.problem_class == "scf 2 atoms 8 states 12 k-points ecutwfc 20 Ry FFT 24x24x64");
  // 6.7GPU: "scalapack distributed-memory algorithm (size of sub-group:  2*  2 procs)".
  const RunStats gpu = One(kSuite + "scf-rmm-paro-k.in");
  CHECK(gpu.variant == "qe6.7GPU");
  CHECK(gpu.details.at("qe_diagonalization") == "scalapack 2*2");
  CHECK(gpu.wall_time_s == 0.39);
  // 6.1: "Serial version", "PWSCF        :     2.05s CPU         2.08s WALL".
  const RunStats serial = One(kSuite + "atom-lsda.in");
  CHECK(serial.procs == 1);
  CHECK(serial.wall_time_s == 2.08);
  CHECK(serial.problem_class == "scf 1 atoms 6 states 1 k-points ecutwfc 25 Ry FFT 45x45x45");
  // cp.x 7.3.1: "CP           :     51.37s CPU     53.53s WALL"; Job Title, 12 + 6 atoms of two species.
  const RunStats cp = One(kSuite + "sio2-us-pbe-cg.in");
  CHECK(cp.app == "qe-cp");
  CHECK(cp.tool_version == "Quantum ESPRESSO 7.3.1");
  CHECK(cp.procs == 4);
  CHECK(cp.wall_time_s == 53.53);
  CHECK(cp.problem_class == "'MD Simulation' 18 atoms 96 electrons 48 states ecutwfc 20 Ry 20 MD steps");
}

TEST_CASE("QE output: 4.1 on 800 processes, hours and minutes, task groups as a setting", "[ingest][qe]") {
  // "Number of processors in use:     800", "wavefunctions fft division:  fft/group =    2",
  // "PWSCF        :     2h 2m CPU time,        2h 9m wall time".
  const RunStats run = One(kQe + "/cnt10por8/REFERENCE_pw.out.gz");
  CHECK(run.tool_version == "Quantum ESPRESSO 4.1CVS");
  CHECK(run.procs == 800);
  CHECK(run.wall_time_s == 2 * 3600 + 9 * 60);
  CHECK(run.details.at("qe_cpu_time_s") == "7320");
  CHECK(run.details.at("setting.qe_ntg") == "2");
  CHECK(run.details.at("qe_diagonalization") == "distributed 14*14");
  CHECK(run.details.at("qe_job_done") == "no");
  CHECK(run.problem_class == "scf 1532 atoms 2616 states 1 k-points ecutwfc 25 Ry FFT 540x540x540");
}

TEST_CASE("QE output: the clock's forms (clocks_handler.f90)", "[ingest][qe]") {
  CHECK(QeClockSeconds("     45.67s ") == 45.67);
  CHECK(QeClockSeconds(" 12m34.56s ") == Approx(754.56));
  CHECK(QeClockSeconds(" 1m 3.45s") == Approx(63.45));
  CHECK(QeClockSeconds("     1h 2m ") == 3720);
  CHECK(QeClockSeconds(" 1d 2h 3m") == 86400 + 7200 + 180);
  CHECK_FALSE(QeClockSeconds(" **h 2m").has_value());
  CHECK_FALSE(QeClockSeconds(" 2m 1h").has_value());
  CHECK_FALSE(QeClockSeconds("").has_value());
}

TEST_CASE("QE outputs: one input at 4, 6 and 8 processes, with and without pools, is two series", "[ingest][qe]") {
  // COUPLE/tests: metal.pw at 8, 6, 4 processes (c-0, c-2, c-4) and again with -nk 2 (f-*,
  // "K-points division:     npool     =       2"): a -nk sweep at one P is not repetitions.
  std::vector<Series> series = GroupIntoSeries(Read(kQe + "/couple-metal"), GroupBy::kContent);
  REQUIRE(series.size() == 2);
  std::vector<std::vector<int>> procs;
  std::vector<std::vector<double>> times;
  for (const Series& s : series) {
    procs.emplace_back();
    times.emplace_back();
    for (const RunGroup& g : s.groups) {
      procs.back().push_back(g.procs);
      times.back().push_back(g.median_time_s);
    }
  }
  const std::vector<double> plain = {0.24, 0.40, 0.53}, pools = {0.17, 0.26, 0.51};
  CHECK(procs[0] == std::vector<int>{4, 6, 8});
  CHECK(procs[1] == std::vector<int>{4, 6, 8});
  CHECK(((times[0] == plain && times[1] == pools) || (times[0] == pools && times[1] == plain)));
  const RunStats f4 = One(kQe + "/couple-metal/metal.pw.f-4.ref");
  CHECK(f4.details.at("setting.qe_npool") == "2");
  CHECK(f4.details.at("qe_rg_processes") == "2");
  CHECK(f4.problem_class == "scf 1 atoms 6 states 10 k-points ecutwfc 15 Ry FFT 15x15x15");
}

TEST_CASE("QE output: refusals name the file and the line", "[ingest][qe]") {
  testing::TempDir dir("qnm-qe", "refused");
  const std::string text = ReadText(kSuite + "metaGGA.in");
  // Cut in its timing report: no closing clock.
  const std::string cut = WriteCase(dir, "cut.out", text.substr(0, text.find("     PWSCF        :")));
  std::string why = testing::IngestErrorOf(cut);
  CHECK(why.find("cut.out:") != std::string::npos);
  CHECK(why.find("did not finish") != std::string::npos);
  // A header without a process count.
  std::string no_procs = text;
  no_procs.replace(no_procs.find("Parallel version (MPI), running on     4 processors"), 51, "Parallel version (MPI)");
  why = testing::IngestErrorOf(WriteCase(dir, "noprocs.out", no_procs));
  CHECK(why.find("noprocs.out:13:") != std::string::npos);
  CHECK(why.find("without a process count") != std::string::npos);
  // A malformed WALL time on the closing clock.
  std::string bad = text;
  bad.replace(bad.find("0.86s WALL"), 10, "0.8x6 WALL");
  why = testing::IngestErrorOf(WriteCase(dir, "bad.out", bad));
  CHECK(why.find("bad.out:376:") != std::string::npos);
  // An error box: QE's own message.
  std::string error = text.substr(0, text.find("     Self-consistent Calculation")) +
                      " %%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%\n"
                      "     Error in routine cdiaghg (11):\n     problems computing cholesky\n";
  why = testing::IngestErrorOf(WriteCase(dir, "error.out", error));
  CHECK(why.find("Error in routine cdiaghg (11): problems computing cholesky") != std::string::npos);
}

TEST_CASE("QE output: a WALL clock of whole minutes to the second from the run's start and end", "[ingest][qe]") {
  // Set S's Quantum ESPRESSO runs of over an hour print "1h35m WALL"; their banner's start and their end line give
  // the seconds. metal.pw.c-0.ref (starts on 27Sep2013 at 11:51:41), its clock made an hour long.
  std::string text = ReadText(kQe + "/couple-metal/metal.pw.c-0.ref");
  const std::size_t clock = text.find("0.53s WALL");
  REQUIRE(clock != std::string::npos);
  text.replace(clock, 10, "1h 0m WALL");
  const std::size_t end = text.find("11:51:42  27Sep2013");
  REQUIRE(end != std::string::npos);
  std::string agreeing = text;
  agreeing.replace(end, 8, "12:51:47");
  std::vector<QeRun> runs = ParseQeOutput(agreeing, "metal.out");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].wall_whole_minutes);
  RunStats run = QeRunToRunStats(runs[0], "metal.out");
  CHECK(run.wall_time_s == 3606);
  CHECK(run.derivations.at("wall_time_s").find("to the second") != std::string::npos);
  // Stamps that disagree with the clock by more than a minute (a clock of the day set back): the clock is kept.
  std::string disagreeing = text;
  disagreeing.replace(end, 8, "14:00:00");
  runs = ParseQeOutput(disagreeing, "metal.out");
  CHECK(QeRunToRunStats(runs[0], "metal.out").wall_time_s == 3600);
  // A clock with seconds is the clock, whatever the stamps say.
  runs = ParseQeOutput(ReadText(kQe + "/couple-metal/metal.pw.c-0.ref"), "metal.out");
  CHECK_FALSE(runs[0].wall_whole_minutes);
  CHECK(QeRunToRunStats(runs[0], "metal.out").wall_time_s == 0.53);
}
