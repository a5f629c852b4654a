#pragma once
// AMG outputs (docs/formats/amg-output.md): LLNL's algebraic-multigrid proxy application (LLNL/AMG,
// the CORAL-2 successor of AMG2013, built on hypre's BoomerAMG) prints its run to standard output
// from rank 0: "Running with these driver parameters:", "solver ID = 1", the 27-point Laplacian's
// global grid "(Nx, Ny, Nz) = (40, 40, 40)" and processor topology "(Px, Py, Pz) = (2, 2, 1)", then
// every timed phase as hypre prints it (a heading between '=' rules, the timer's name and its
// "wall clock time = 0.240541 seconds", the maximum over the ranks): the matrix's generation, the
// vectors, and for problem 1 (AMG-PCG) the AMG setup and the PCG solve, for problem 2 (AMG-GMRES)
// the whole time-step loop. It ends with the iterations, the final relative residual norm and the
// Figure of Merit ("Figure of Merit (FOM_1): 1.792130e+08"). With -printstats it prints "Num MPI
// tasks = 2  Num OpenMP threads = 2". A job's log may hold several runs. AMG2023 (LLNL/AMG2023, on
// current hypre) prints the same banner with "Problem ID = N" instead of the solver, times hypre's
// initialisation too, runs problem 1 (27-point, AMG-GMRES) or 2 (7-point, AMG-PCG) as a setup and
// a solve, and ends with "Figure of Merit (FOM): ... 4.412989e+09". AMG times no MPI call: the
// records are runtime only.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One timed phase ("Spatial Operator:", "  wall clock time = 0.205656 seconds").
struct AmgPhase {
  std::string timer;  // the timer's name: "Spatial Operator", "PCG Setup", "GMRES Solve", ...
  double wall_s = 0;  // its wall clock time, the maximum over the ranks
  int line = 0;       // of its "wall clock time" line
};

/// One run of AMG in an output.
struct AmgRun {
  int line = 0;                   // its "Running with these driver parameters:" line, 1-based
  int solver_id = 0;              // "solver ID = N" (1: AMG-PCG, 3: AMG-GMRES)
  int problem_id = 0;             // AMG2023's "Problem ID = N" (1: 27-point AMG-GMRES, 2: 7-point AMG-PCG); 0: LLNL/AMG
  std::string stencil;            // AMG2023's "Laplacian_7pt:" / "Laplacian_27pt:" heading
  long long grid[3] = {0, 0, 0};  // "(Nx, Ny, Nz)": the global grid (-n per process x -P)
  int topology[3] = {0, 0, 0};    // "(Px, Py, Pz)": the processor topology
  int topology_line = 0;
  std::vector<AmgPhase> phases;           // in the order printed
  int stats_tasks = 0, threads = 0;       // -printstats' "Num MPI tasks = P  Num OpenMP threads = T" (0: not printed)
  long long iterations = -1;              // "Iterations = N" (problem 1), "Cum. No. of Iterations = N" (problem 2)
  long long time_steps = -1;              // "No. of Time Steps = N" (problem 2)
  std::string final_residual;             // "Final Relative Residual Norm = r", as printed
  double fom_setup = -1, fom_solve = -1;  // problem 1's "FOM_Setup: ...: f" and "FOM_Solve: ...: f"
  int problem = 0;                        // k of "Figure of Merit (FOM_k)": 1 or 2 (0: the run did not finish)
  double fom = -1;                        // its value
  int fom_line = 0;
  std::string error;  // "Error: Invalid number of processors or processor topology"
  int error_line = 0;
};

/// True when `text` looks like AMG's output (its banner with its global grid or its own timings).
bool LooksLikeAmgOutput(std::string_view text);

/// Every run of an output, finished or not; throws InputError naming `path` and the line when a
/// value AMG printed is malformed or a finished run contradicts itself, or the file holds no run.
std::vector<AmgRun> ParseAmgOutput(std::string_view text, const std::string& path);

/// The record of a finished run: procs Px x Py x Pz, threads when printed, the time the sum of its
/// timed phases (each phase a detail), the problem, solver and global grid as the class, the
/// iterations, final residual and Figure of Merit as details.
RunStats AmgRunToRunStats(const AmgRun& run, const std::string& path);

}  // namespace qnm
