#pragma once
// PETSc's performance summary, printed at PetscFinalize() by `-log_view` (`-log_summary`
// before PETSc 3.7) into the job's output or a file of its own (docs/formats/petsc-log.md).
// Every PETSc application prints it (PetIBM, PFLOTRAN, MOOSE, Firedrake, FEniCS): after the
// "PETSc Performance Summary:" title, "<program> on a <arch> named <host> with N processors, by
// <user> <date>" ("N processes, by <user> on <date>" from PETSc 3.18), "Using Petsc Release
// Version 3.12.2, ..." (or a development revision), then a table of Max, Max/Min, Avg and Total
// over the ranks: "Time (sec):", "Flops:" ("Flop:" from 3.10), "MPI Messages:" and "MPI Message
// Lengths:" ("MPI Msg Count:" and "MPI Msg Len (bytes):" from 3.18), "MPI Reductions:"; the stages
// ("Summary of Stages:"), the events, and "#PETSc Option Table entries:". A file may hold the
// application's own output before it, and several summaries (several runs) one after another.
// PETSc times no MPI call: the records are runtime only.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One row of "Summary of Stages:" (the time is the mean over the ranks).
struct PetscStage {
  std::string name;              // "Main Stage", "solvePoisson"
  double time_mean_s = kUnknown; // Time Avg
  double time_percent = kUnknown;
};

/// One performance summary (one run).
struct PetscLogRun {
  int line = 0;                // of its "PETSc Performance Summary:" title, 1-based
  int header_line = 0;         // of "<program> on a <arch> named <host> with N ..."
  std::string program;         // as printed ("./ex19", "/path/murrumbidgee_3d.py", "petibm-decoupledibpm")
  std::string arch;            // PETSC_ARCH, may be empty ("on a  named")
  std::string host;            // process 0's host
  int processes = 0;
  int threads = 0;             // "Using N OpenMP threads"; 0 = not printed
  std::string version;         // "3.12.2", or "dev-<revision>" of a development build
  std::string version_line;    // the "Using Petsc ..." line as printed
  double time_max_s = kUnknown, time_ratio = kUnknown, time_mean_s = kUnknown;
  double flop_max = kUnknown, flop_mean = kUnknown, flop_total = kUnknown;
  double messages_max = kUnknown, messages_mean = kUnknown, messages_total = kUnknown;
  double bytes_max = kUnknown, bytes_per_message = kUnknown, bytes_total = kUnknown;
  double reductions_max = kUnknown;
  std::vector<PetscStage> stages;
  bool debug_build = false;              // the "compiled with a debugging option" warning box
  std::vector<std::string> options;      // the option table's entries, as printed
};

/// True when `text` (a file's head) holds PETSc's "PETSc Performance Summary:" title line.
bool LooksLikePetscLog(std::string_view text);

/// Every summary of a file, complete or not; throws InputError naming `path` and the line when the
/// file holds no summary, a summary's header line is missing or has no process count, or a number
/// of its table is malformed.
std::vector<PetscLogRun> ParsePetscLog(std::string_view text, const std::string& path);

/// The option table's entries a series is keyed by: sorted, without those that only choose what is
/// printed (-log_view, -options_left, *_monitor, *_view, -info, ...), "-name value" as "name=value".
std::vector<std::string> PetscSolverOptions(const std::vector<std::string>& options);

/// The run-statistics record of a summary with its time row: app the program's base name, procs
/// from the header, the slowest rank's time as the run's, messages and bytes per rank.
RunStats PetscLogRunToRunStats(const PetscLogRun& run, const std::string& path);

}  // namespace qnm
