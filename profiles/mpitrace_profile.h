#pragma once
// IBM's mpitrace profiles (docs/formats/mpitrace-profile.md): libmpitrace.so, preloaded into an MPI
// job (IBM/mpitrace; the MPI profiler of ALCF's Polaris and Aurora, OLCF's Summit and LLNL's Sierra
// documentation), writes `mpi_profile.<jobid>.<rank>` for rank 0 and the ranks of least, median and
// most time in MPI (every rank with SAVE_ALL_TASKS=yes). Each file:
//   "Data for MPI rank 0 of 4:", "Times from MPI_Init() to MPI_Finalize().",
//   the rank's MPI routines ("MPI_Isend   523   50379.3   0.002": calls, average bytes, seconds),
//   "total communication time = 0.108 seconds.", "total elapsed time = 3.726 seconds.", ...
// and rank 0's file, after its message-size histograms, "Summary for all tasks:" (the least,
// median and most MPI time) and "MPI timing summary for all ranks:", a row per rank with its host,
// cpu, MPI time, elapsed time, user and system time, memory and context switches.
// Rank 0's file is the run: every rank's MPI and elapsed time from the last table (the queueing
// model's MPI time per rank), rank 0's routines as the message counts, the hosts as the machine.
// The program is not named: the run's folder is (without the words that name its process count).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One row of a rank's MPI routine table.
struct MpitraceRoutine {
  std::string name;  // "MPI_Isend", as printed
  long long calls = 0;
  double average_bytes = 0;
  double time_s = 0;
};

/// One rank's row of "MPI timing summary for all ranks".
struct MpitraceRankRow {
  int rank = 0;
  std::string host;
  double communication_s = 0, elapsed_s = 0;
};

struct MpitraceProfile {
  int rank = -1;  // "Data for MPI rank R of N"
  int procs = 0;
  std::string window;  // "MPI_Init() to MPI_Finalize()", or "MPI_Pcontrol(1) to MPI_Pcontrol(0)"
  std::vector<MpitraceRoutine> routines;
  double communication_s = -1;  // "total communication time"
  double elapsed_s = -1;        // "total elapsed time"
  int elapsed_line = 0;
  double user_s = -1, system_s = -1, max_rss_mib = -1, mpi_io_s = -1;
  // "Summary for all tasks" (rank 0): the ranks of least, median and most MPI time, and the longest run.
  int summary_line = 0;
  double min_communication_s = -1, median_communication_s = -1, max_communication_s = -1;
  double largest_elapsed_s = -1;
  std::vector<MpitraceRankRow> ranks;  // "MPI timing summary for all ranks" (rank 0), in rank order
};

/// True when `text` starts like an mpitrace profile ("Data for MPI rank R of N:", its routine table).
bool LooksLikeMpitraceProfile(std::string_view text);

/// What one file says; throws InputError naming `path` and the line when a number is malformed or a
/// table is cut.
MpitraceProfile ParseMpitraceProfile(std::string_view text, const std::string& path);

/// The record of rank 0's profile: procs, every rank's MPI and elapsed time, the hosts, and the
/// messages of every rank when `every_rank` holds each rank's profile in rank order (SAVE_ALL_TASKS),
/// else rank 0's as every rank's; the application left empty (the reader names it after the folder,
/// or an application's output beside it gives it, run_pairing.h).
RunStats MpitraceProfileToRunStats(const MpitraceProfile& profile, const std::string& path,
                                   const std::vector<MpitraceProfile>& every_rank = {});

/// True for `mpi_profile.<jobid>.<rank>` of a rank other than 0 when `beside(name)` says rank 0's
/// file of the same job is in its folder: rank 0's file is the run (its summary holds every rank's
/// times), this one is not a run of its own (its routine table is not read).
bool IsMpitraceCompanion(const std::string& path, const std::function<bool(const std::string&)>& beside);
/// The same on disk.
bool IsMpitraceOfAnchor(const std::string& path);

}  // namespace qnm
