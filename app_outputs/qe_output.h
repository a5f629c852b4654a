#pragma once
// Quantum ESPRESSO's standard output: pw.x (and cp.x, and the suite's other programs, whose banner
// and closing clock are the same), kept as `*.out` or a batch job's stdout
// (docs/formats/qe-output.md). A run opens with "Program PWSCF v.7.2 starts on ...", its parallel
// environment ("Parallel version (MPI), running on 4 processors", or "(MPI & OpenMP), running on
// 8 processor cores" with "Number of MPI processes: 4" and "Threads/MPI process: 2"; "MPI processes
// distributed on 1 nodes"), the distribution the run was given ("K-points division: npool = 2",
// "R & G space division: proc/nbgrp/npool/nimage = 2", "wavefunctions fft division"), what the
// input holds ("number of atoms/cell = 10", "number of Kohn-Sham states= 11", "kinetic-energy
// cutoff = 30.0000 Ry", "number of k points= 1", "FFT dimensions: ( 27, 27, 27)"), and, when it
// finishes, the timing report (one "name : 0.54s CPU 0.59s WALL ( 1 calls)" row per clock) and
// the program's own clock ("PWSCF : 0.80s CPU 0.86s WALL"), then "JOB DONE.". Read as printed
// by QE 4.1 to 7.5 (UtilXlib/clocks_handler.f90, Modules/environment.f90). QE times no MPI call
// as such: the records are runtime only.
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One row of the timing report: process 0's clock (print_this_clock; nothing reduces it).
struct QeTimingRow {
  int line = 0;
  std::string name;                          // "electrons", "h_psi:calbec", "fft_scatter"
  double cpu_s = kUnknown, wall_s = kUnknown;
  bool wall_whole_minutes = false;  // the WALL time printed without seconds ("1h35m", runs of an hour or more)
  // The banner's "starts on 28Apr2017 at 10:59:54" and "This run was terminated on:  12:34:58  28Apr2017", in
  // seconds of one clock (unknown when not printed).
  double started_s = kUnknown, terminated_s = kUnknown;  // unknown when the F9.2 field overflowed
  long long calls = -1;                      // -1 when the I8 field overflowed
};

/// One run of a QE program in an output.
struct QeRun {
  int line = 0;                 // of its "Program X v.V starts" line, 1-based
  std::string program;          // "PWSCF", "CP"
  std::string version;          // "7.2", "6.7GPU", "4.1CVS"
  int environment_line = 0;     // "Parallel version ..." / "Serial version"; 0 = none read
  bool serial = false;          // "Serial version" / "Serial multi-threaded version"
  int processes = 0;            // MPI processes; 0 = not printed
  int cores = 0;                // "running on N processor cores" (processes x threads)
  int threads = 0;              // "Threads/MPI process: T"; 0 = not printed
  int nodes = 0;                // "MPI processes distributed on N nodes"
  int images = 1, pools = 1, band_groups = 1, task_groups = 1, yfft = 1, fft_bands = 1;
  int rg_processes = 0;         // "R & G space division: proc/nbgrp/npool/nimage = N"
  std::string diagonalization;  // "serial", "scalapack 2*2", "ELPA 4*4", as printed
  bool gpu = false;             // "GPU acceleration is ACTIVE"
  double memory_mib = kUnknown; // "N MiB available memory on the printing compute node"
  std::string title;            // the line under "Title:"
  std::string calculation;      // "scf", "relax", "md", "bands" (from the headings it prints)
  long long atoms = 0, states = 0, kpoints = 0, electrons = 0, md_steps = -1;
  std::string cutoff_ry;        // "30" (%g of the kinetic-energy cutoff)
  std::string fft_dimensions;   // "27x27x27" (the dense grid)
  std::vector<QeTimingRow> timing;
  int total_line = 0;           // the program's clock; 0 = the run did not finish
  double cpu_s = kUnknown, wall_s = kUnknown;
  bool wall_whole_minutes = false;  // the WALL time printed without seconds ("1h35m", runs of an hour or more)
  // The banner's "starts on 28Apr2017 at 10:59:54" and "This run was terminated on:  12:34:58  28Apr2017", in
  // seconds of one clock (unknown when not printed).
  double started_s = kUnknown, terminated_s = kUnknown;
  bool job_done = false;        // "JOB DONE." after it
  int error_line = 0;           // "Error in routine ..." (QE's error box)
  std::string error_message;
  int last_line = 0;
};

/// True when one of the first lines of `text` is QE's banner "Program NAME v.VERSION starts".
bool LooksLikeQeOutput(std::string_view text);

/// Every run of an output, finished or not; throws InputError naming `path` and the line when a
/// count or a time is malformed, or the file holds no banner.
std::vector<QeRun> ParseQeOutput(std::string_view text, const std::string& path);

/// Why a run cannot be read (no process count, an error, no closing clock), or empty when it can.
/// `line` receives the line to name.
std::string QeRunUnfinished(const QeRun& run, int* line);

/// "1h 2m" / "12m34.56s" / " 45.67s" / "1d 2h 3m" (clocks_handler.f90) in seconds; nullopt when
/// the text is none of these.
std::optional<double> QeClockSeconds(std::string_view text);

/// The run-statistics record of a finished run: app "qe-pw" (qe-cp, ...), procs and threads, the
/// program's WALL clock as the run's time, the problem from what the input holds, the -nk/-nb/-ni/
/// -nt/-nyfft/-nmany distribution as settings, the timing report as details.
RunStats QeRunToRunStats(const QeRun& run, const std::string& path);

}  // namespace qnm
