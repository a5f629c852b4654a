#pragma once
// LULESH 2.0 standard output (docs/formats/lulesh-output.md): LLNL's shock-hydrodynamics proxy
// application, the most scaled mini-app of the DOE co-design centres. A run prints (rank 0, unless
// -q) "Running problem size 30^3 per domain until completion", "Num processors: 8", "Num threads:
// 2" (OpenMP builds), "Total number of elements: 216000", and when it ends "Run completed:" with
// "Problem size = 30", "MPI tasks = 8", "Iteration count = 932", "Final Origin Energy = ...", the
// symmetry check, "Elapsed time = 12 (s)" (two significant digits in the C++ source of LLNL/LULESH,
// %10.2f in ports), "Grind time (us/z/c) = 5.5091129 (per dom) ( ... overall)" and "FOM = ...".
// A job's output may hold several runs one after another. LULESH times no MPI call: the records
// are runtime only.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One run of LULESH in an output.
struct LuleshRun {
  int line = 0;                 // of its first line ("Running problem size", else "Run completed:"), 1-based
  int completed_line = 0;       // "Run completed:" (0: the run did not finish)
  int header_procs = 0;         // "Num processors: P"
  int threads = 0;              // "Num threads: T" (0: not printed, a build without OpenMP)
  long long header_elements = 0;  // "Total number of elements: E"
  int domain_size = 0;          // "Problem size = nx" (elements per domain edge)
  int procs = 0;                // "MPI tasks = P"
  long long iterations = -1;    // "Iteration count = C"
  std::string origin_energy;    // "Final Origin Energy = e", as printed
  double elapsed_s = -1;        // "Elapsed time = t (s)", as printed
  int elapsed_line = 0;
  double grind_per_domain_us = -1;  // "Grind time (us/z/c) = g (per dom)"
  double fom = -1;              // "FOM = f (z/s)"
};

/// True when `text` looks like LULESH's output (its start-up or closing lines).
bool LooksLikeLuleshOutput(std::string_view text);

/// Every run of an output, finished or not; throws InputError naming `path` (and the line) when a
/// value LULESH printed is malformed, or the file holds no LULESH run.
std::vector<LuleshRun> ParseLuleshOutput(std::string_view text, const std::string& path);

/// The record of a finished run: procs the MPI tasks, threads, the time (from the per-domain grind
/// time, iterations and domain size, 8 significant digits, when it agrees with the printed elapsed
/// time; else the printed one), the class the total elements and the iterations.
RunStats LuleshRunToRunStats(const LuleshRun& run, const std::string& path);

}  // namespace qnm
