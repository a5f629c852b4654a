// AMG outputs read into run records (tests/data/amg: real runs of LLNL/AMG made for the project,
// SOURCES.md there). The values below are copied from the files by hand.
#include "app_outputs/amg_output.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

using testing::Only;
using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kAmg = std::string(QNM_TEST_DATA_DIR) + "/amg";
const std::string kStrongClass = "problem 1, solver 1, Laplacian_27pt 40x40x40";

}  // namespace

TEST_CASE("AMG: the topology's processes, the sum of its phases, the global grid as the class", "[ingest][amg]") {
  // np4/amg.out: "(Nx, Ny, Nz) = (40, 40, 40)", "(Px, Py, Pz) = (2, 2, 1)" (lines 5-6); wall clock
  // times 0.137386 (Spatial Operator), 0.001523 (RHS and Initial Guess), 0.337029 (PCG Setup),
  // 0.437649 (PCG Solve); "Iterations = 20", "Final Relative Residual Norm = 3.327247e-09",
  // FOM_Setup 5.299679e+06, FOM_Solve 8.162457e+07, "Figure of Merit (FOM_1): 6.254335e+07".
  const RunStats four = Only(testing::IngestPath(kAmg + "/np4/amg.out"));
  CHECK(four.app == "amg");
  CHECK(four.procs == 4);
  CHECK(four.threads_per_proc == 1);  // not printed without -printstats
  CHECK(four.wall_time_s == 0.137386 + 0.001523 + 0.337029 + 0.437649);
  CHECK(four.details.at("amg_generate_matrix_s") == "0.137386");
  CHECK(four.details.at("amg_vector_setup_s") == "0.001523");
  CHECK(four.details.at("amg_setup_s") == "0.337029");
  CHECK(four.details.at("amg_solve_s") == "0.437649");
  CHECK(four.problem_class == kStrongClass);
  CHECK(four.iterations == 20);
  CHECK(four.details.at("amg_iterations") == "20");
  CHECK(four.details.at("amg_final_relative_residual") == "3.327247e-09");
  CHECK(four.details.at("amg_topology") == "2x2x1");
  CHECK(testing::DetailNumber(four, "amg_figure_of_merit") == 6.254335e+07);
  CHECK(testing::DetailNumber(four, "amg_fom_setup") == 5.299679e+06);
  CHECK(testing::DetailNumber(four, "amg_fom_solve") == 8.162457e+07);
  CHECK(four.verification == "SUCCESSFUL");  // below the driver's tolerance 1e-8
  CHECK(!Known(four.mpi_time_mean_s));       // AMG times no MPI call
  CHECK(four.sources.front().find("amg.out:1") != std::string::npos);
  // np1: the same global grid on (1, 1, 1), 0.240541 + 0.008196 + 0.262694 + 0.167760.
  const RunStats one = Only(testing::IngestPath(kAmg + "/np1/amg.out"));
  CHECK(one.procs == 1);
  CHECK(one.wall_time_s == 0.240541 + 0.008196 + 0.262694 + 0.167760);
  CHECK(one.problem_class == kStrongClass);
  // The folder: np1, np2, np4 one strong-scaling series; the weak-scaling pair (-n 20 20 20 on 1 and
  // 2 processes: global 20x20x20 and 40x20x20) two; problem 2 on weak-np2's grid another; and the
  // two AMG2023 runs of amg2023/.
  IngestSummary summary;
  const std::vector<RunStats> runs = testing::IngestPath(kAmg, &summary, /*strict=*/false);
  REQUIRE(runs.size() == 11);
  int series_of_strong = 0;
  for (const Series& series : GroupIntoSeries(runs)) {
    if (series.key.problem_class != kStrongClass) continue;
    ++series_of_strong;
    REQUIRE(series.groups.size() == 3);
    CHECK(series.groups[0].procs == 1);
    CHECK(series.groups[1].procs == 2);
    CHECK(series.groups[2].procs == 4);
  }
  CHECK(series_of_strong == 1);
  const RunStats weak1 = Only(testing::IngestPath(kAmg + "/weak-np1/amg.out"));
  const RunStats weak2 = Only(testing::IngestPath(kAmg + "/weak-np2/amg.out"));
  CHECK(weak1.problem_class == "problem 1, solver 1, Laplacian_27pt 20x20x20");
  CHECK(weak2.problem_class == "problem 1, solver 1, Laplacian_27pt 40x20x20");
}

TEST_CASE("AMG: problem 2, -printstats with OpenMP threads, a job's log of several runs", "[ingest][amg]") {
  // gmres-np2/amg.out: "solver ID = 3", (40, 20, 20) on (2, 1, 1); wall clock 0.033025, 0.000185 and
  // the time-step loop's 0.685908 (GMRES Solve); "No. of Time Steps = 6", "Cum. No. of Iterations =
  // 208", "Final Relative Residual Norm = 4.564144e-16", "Figure of Merit (FOM_2): 1.342283e+08".
  const RunStats gmres = Only(testing::IngestPath(kAmg + "/gmres-np2/amg.out"));
  CHECK(gmres.procs == 2);
  CHECK(gmres.wall_time_s == 0.033025 + 0.000185 + 0.685908);
  CHECK(gmres.details.at("amg_time_steps_s") == "0.685908");
  CHECK(gmres.details.count("amg_solve_s") == 0);
  CHECK(gmres.problem_class == "problem 2, solver 3, Laplacian_27pt 40x20x20");
  CHECK(gmres.iterations == 208);
  CHECK(gmres.details.at("amg_time_steps") == "6");
  CHECK(testing::DetailNumber(gmres, "amg_figure_of_merit") == 1.342283e+08);
  CHECK(gmres.verification.empty());  // its last solves run a fixed number of steps: no verdict
  // stats-omp2-np2/amg.out (-printstats, OMP_NUM_THREADS=2): "Num MPI tasks = 2  Num OpenMP threads
  // = 2" (line 32) on (1, 2, 1); 0.030002 + 0.000297 + 0.036532 + 0.054664.
  const RunStats stats = Only(testing::IngestPath(kAmg + "/stats-omp2-np2/amg.out"));
  CHECK(stats.procs == 2);
  CHECK(stats.threads_per_proc == 2);
  CHECK(stats.wall_time_s == 0.030002 + 0.000297 + 0.036532 + 0.054664);
  CHECK(stats.problem_class == "problem 1, solver 1, Laplacian_27pt 20x40x20");
  // joblog/amg-job.log: three mpirun of one job; the second's -P 1 1 1 on 2 processes stopped AMG
  // ("Error: Invalid number of processors or processor topology", line 66), the others finished.
  IngestSummary summary;
  const std::vector<RunStats> job = testing::IngestPath(kAmg + "/joblog/amg-job.log", &summary);
  REQUIRE(job.size() == 2);
  CHECK(job[0].problem_class == "problem 1, solver 1, Laplacian_27pt 48x24x24");
  CHECK(job[0].wall_time_s == 0.124371 + 0.000424 + 0.258555 + 0.232473);
  CHECK(job[0].sources.front().find("amg-job.log:3") != std::string::npos);
  CHECK(job[1].problem_class == "problem 2, solver 3, Laplacian_27pt 24x48x24");
  CHECK(job[1].wall_time_s == 0.092640 + 0.000307 + 3.985481);
  CHECK(job[1].iterations == 211);
  CHECK(testing::NotesOf(summary).find("amg-job.log: 1 of its 3 AMG runs did not finish (the first at line 66: AMG "
                                       "stopped with 'Error: Invalid number of processors or processor topology')") !=
        std::string::npos);
}

TEST_CASE("AMG: unfinished and damaged outputs", "[ingest][amg]") {
  testing::TempDir dir("qnm-amg", "cases");
  const std::string out = ReadText(kAmg + "/np4/amg.out");
  // Killed during the solve, and cut just before its Figure of Merit: no finished run.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "killed.out", out.substr(0, out.find("PCG Solve:"))))
            .find("killed.out:1: AMG run without its 'Figure of Merit' line: it did not finish") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "cut.out", out.substr(0, out.find("Figure of Merit"))))
            .find("cut.out:1: AMG run without its 'Figure of Merit' line") != std::string::npos);
  // Numbers that do not parse: the file, the line and the value.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "time.out", Replaced(out, "0.437649 seconds", "0.43x649 seconds")))
            .find("time.out:44: AMG 'wall clock time' needs a non-negative number, got '0.43x649'") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "neg.out", Replaced(out, "0.337029 seconds", "-0.337029 seconds")))
            .find("neg.out:32: AMG 'wall clock time' needs a non-negative number, got '-0.337029'") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "grid.out", Replaced(out, "(Px, Py, Pz) = (2, 2, 1)", "(Px, Py, Pz) = (2, 2)")))
            .find("grid.out:6: AMG '(Px, Py, Pz)' needs three numbers in parentheses, got '(2, 2)'") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "iters.out", Replaced(out, "Iterations = 20", "Iterations = twenty")))
            .find("iters.out:50: AMG 'Iterations' needs a whole number from 0 to") != std::string::npos);
  // A finished run that contradicts itself.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "timer.out", Replaced(out, "PCG Solve:", "PCG Resolve:")))
            .find("timer.out:44: AMG wall clock time of timer 'PCG Resolve', not one of its driver's phases") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "fom.out", Replaced(out, "(FOM_1)", "(FOM_2)")))
            .find("fom.out:32: AMG 'PCG Setup' time in a problem 2 run (FOM_2)") != std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "split.out", Replaced(out, "(Nx, Ny, Nz) = (40, 40, 40)", "(Nx, Ny, Nz) = (40, 41, 40)")))
            .find("split.out:6: AMG global grid (Nx, Ny, Nz) is not a multiple of (Px, Py, Pz)") != std::string::npos);
  const std::string stats = ReadText(kAmg + "/stats-omp2-np2/amg.out");
  CHECK(testing::IngestErrorOf(WriteCase(dir, "tasks.out", Replaced(stats, "Num MPI tasks = 2", "Num MPI tasks = 4")))
            .find("tasks.out:6: AMG processor topology of 2 processes, its statistics say 'Num MPI tasks = 4'") !=
        std::string::npos);
  // AMG2023's Figure of Merit line in a run whose banner names no problem.
  CHECK(testing::IngestErrorOf(WriteCase(dir, "a2023.out",
                                         Replaced(out, "Figure of Merit (FOM_1): ", "Figure of Merit (FOM): x ")))
            .find("AMG2023 'Figure of Merit (FOM):' in a run whose banner names no 'Problem ID'") !=
        std::string::npos);
  // A residual above the driver's tolerance: PCG stopped at its iteration limit.
  const RunStats unconverged = Only(
      testing::IngestPath(WriteCase(dir, "limit.out", Replaced(out, "Norm = 3.327247e-09", "Norm = 3.327247e-05"))));
  CHECK(unconverged.verification == "UNSUCCESSFUL");
  // Sniffing: AMG's banner with its global grid; hypre's ij driver prints the banner with the local
  // "(nx, ny, nz)", and CoMD is not AMG.
  CHECK(LooksLikeAmgOutput(out));
  CHECK_FALSE(LooksLikeAmgOutput(
      "Running with these driver parameters:\n  solver ID    = 0\n\n  Laplacian_27pt:\n    (nx, ny, nz) = (10, 10, "
      "10)\n"));
  CHECK_FALSE(LooksLikeAmgOutput(ReadText(std::string(QNM_TEST_DATA_DIR) + "/comd/np1/comd.out")));
}

TEST_CASE("AMG2023: real cloud runs of its two problems (converged-computing's study)", "[ingest][amg]") {
  // amg2023/aws-parallel-cluster-cpu-size256: "Problem ID = 2", "Laplacian_7pt:", "(Nx, Ny, Nz) =
  // (8192, 4096, 2048)", "(Px, Py, Pz) = (32, 16, 16)"; wall clock times 0.000042 (Hypre init),
  // 2.769589 (Spatial Operator), 0.139367 (RHS and Initial Guess), 35.064247 (PCG Setup), 50.963218
  // (PCG Solve); "Iterations = 35"; "Figure of Merit (FOM): ... 4.412989e+09".
  const RunStats pcg = Only(testing::IngestPath(kAmg + "/amg2023/aws-parallel-cluster-cpu-size256/amg-256n-4-iter-4.out"));
  CHECK(pcg.app == "amg2023");
  CHECK(pcg.procs == 8192);
  CHECK(pcg.wall_time_s == 0.000042 + 2.769589 + 0.139367 + 35.064247 + 50.963218);
  CHECK(pcg.problem_class == "problem 2, Laplacian_7pt 8192x4096x2048");
  CHECK(pcg.iterations == 35);
  CHECK(pcg.details.at("amg_hypre_init_s") == "4.2e-05");
  CHECK(pcg.details.at("amg_setup_s") == "35.064247");
  CHECK(pcg.details.at("amg_solve_s") == "50.963218");
  CHECK(pcg.details.at("amg_figure_of_merit") == "4412989000");
  CHECK(pcg.verification.empty());  // AMG2023's tolerances differ by problem: no verdict drawn
  // amg2023/aws-eks-cpu-problem1: "Problem ID = 1", the 27-point problem with AMG-GMRES on 4 x 2 x 1.
  const RunStats gmres = Only(testing::IngestPath(kAmg + "/amg2023/aws-eks-cpu-problem1/_amg2023-2-iter-1-test.out"));
  CHECK(gmres.procs == 8);
  CHECK(gmres.wall_time_s == 0.674006 + 0.615471 + 0.012315 + 0.333613 + 0.313069);
  CHECK(gmres.problem_class == "problem 1, Laplacian_27pt 256x256x128");
  CHECK(gmres.details.at("amg_setup_s") == "0.333613");
  CHECK(gmres.details.at("amg_solve_s") == "0.313069");  // one GMRES solve, not LLNL/AMG's time steps
  CHECK(gmres.details.count("amg_time_steps_s") == 0);
}
