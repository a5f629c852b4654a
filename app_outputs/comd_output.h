#pragma once
// CoMD outputs (docs/formats/comd-output.md): the ExMatEx/ECP molecular-dynamics proxy application
// (ECP-copa/CoMD) prints its run to standard output and writes the same as YAML
// (`CoMD-mpi.<date>-<time>.yaml`): "Mini-Application Name : CoMD-mpi", the build ("Threading:
// none" or "OpenMP (N threads)"), "Run Date/Time", the command line's parameters (nx, ny, nz,
// xproc, yproc, zproc, nSteps, the potential), and at the end every timer's minimum, maximum and
// average over the ranks ("Timing Statistics Across 4 Ranks", YAML "Performance Results Across
// Ranks"). Its timers commHalo (around the MPI_Sendrecv pairs of a halo exchange) and commReduce
// (around its MPI_Allreduce calls) time MPI: the records carry the mean MPI time per rank, so the
// queueing model fits CoMD runs without a profiler. The standard output and the YAML of one run are
// one measurement (RunStats::origin).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One timer over the ranks ("total 3: 5.8115 0: 5.8125 5.8120 0.0004").
struct ComdTimerStats {
  double min_s = 0, max_s = 0, avg_s = 0, stdev_s = 0;
};

/// One run of CoMD in an output (standard output or its YAML).
struct ComdRun {
  int line = 0;                                   // its "Mini-Application Name" line, 1-based
  std::string name, version;                      // "CoMD-mpi", "1.1"
  std::string host, date_time;                    // "hostname", "Run Date/Time"
  int threads = 0;                                // "Threading: OpenMP (N threads)"; 0: none
  std::map<std::string, std::string> parameters;  // "Command Line Parameters" (nx, nSteps, potName, ...)
  long long total_atoms = 0;
  int total_ranks = 0;                           // "Timing Statistics Across N Ranks" / YAML "TotalRanks"
  std::map<std::string, long long> rank0_calls;  // "Timings for Rank 0" call counts, by timer
  std::map<std::string, ComdTimerStats> across;  // "... Across Ranks", by timer
  int across_line = 0;                           // its first row (0: the run did not finish)
  bool atoms_lost = false, validated = false;
};

/// True when `text` is CoMD's output or YAML (its "Mini-Application Name : CoMD" line).
bool LooksLikeComdOutput(std::string_view text);

/// Every run of an output; throws InputError naming `path` and the line when a value is malformed,
/// or the file holds no run.
std::vector<ComdRun> ParseComdOutput(std::string_view text, const std::string& path);

/// The record of a finished run: procs, threads, the slowest rank's total time, the mean MPI time
/// (commHalo + commReduce), rank 0's messages, the lattice, steps and potential as the class.
RunStats ComdRunToRunStats(const ComdRun& run, const std::string& path);

}  // namespace qnm
