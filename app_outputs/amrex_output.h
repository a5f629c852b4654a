#pragma once
// Outputs of programs built on AMReX (docs/formats/amrex-output.md): the block-structured AMR
// framework of WarpX, Nyx, Castro, MAESTROeX, Pele, AMR-Wind, ERF, MFIX-Exa and many more. Whatever
// the program, AMReX prints at start-up how it was initialised
//   Initializing AMReX (25.10)...            (AMReX 22 and later)
//   MPI initialized with 72 MPI processes
//   OMP initialized with 8 OMP threads       (OpenMP builds)
//   AMReX (25.10) initialized
// and, in a build with TINY_PROFILE, at finalisation the time each process spent from
// initialisation to finalisation (four significant digits, amrex::Print().SetPrecision(4)):
//   TinyProfiler total time across processes [min...avg...max]: 251 ... 251.1 ... 251.1
// Many programs also print their own "Run time = <s>" (the AMReX tutorials' and Castro's
// convention). A job's output holding several runs (appended reruns) gives one record each.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One run of an AMReX program in an output.
struct AmrexRun {
  int line = 0;              // its first line ("Initializing AMReX" or "MPI initialized with")
  std::string version;       // "25.10", from "AMReX (25.10) initialized"
  int initialized_line = 0;  // "AMReX (...) initialized"
  int mpi_processes = 0;     // "MPI initialized with N MPI processes"; 0: not said (a build without MPI)
  int mpi_line = 0;
  int omp_threads = 0;       // "OMP initialized with N OMP threads"
  int gpu_devices = 0;       // "CUDA/HIP/SYCL initialized with N devices"
  std::string gpu_backend;   // "CUDA", "HIP", "SYCL"
  double total_min_s = -1, total_avg_s = -1, total_max_s = -1;  // TinyProfiler's total time across processes
  int total_line = 0;
  double run_time_s = -1;  // the program's own "Run time = "
  int run_time_line = 0;
  bool finalized = false;  // "AMReX (...) finalized"
};

/// True when `text` is an AMReX program's output: AMReX's initialisation lines (the MPI one among them).
bool LooksLikeAmrexOutput(std::string_view text);

/// Every run of an output; throws InputError naming `path` and the line of a malformed value, or
/// when no run is in it.
std::vector<AmrexRun> ParseAmrexOutput(std::string_view text, const std::string& path);

/// Why a run gives no record ("" when it does): no time printed (it did not finish, or its build has
/// no TinyProfiler and the program prints no run time); `line` gets the run's line.
std::string AmrexRunUnfinished(const AmrexRun& run, int* line);

/// The record of a finished run: MPI processes, OpenMP threads, the run's time (TinyProfiler's
/// slowest process, else the program's "Run time"), the program named by the file or its folder.
RunStats AmrexRunToRunStats(const AmrexRun& run, const std::string& path);

}  // namespace qnm
