#pragma once
// AMBER mdout files: what pmemd (pmemd.MPI, pmemd.cuda, pmemd.cuda.MPI) and sander (sander.MPI,
// msander) write with -o (docs/formats/amber-mdout.md). A run prints its banner between two rows of
// dashes ("Amber 24 PMEMD   2024", "Amber 18 SANDER   2018", "MSANDER   2021"; pmemd of Amber 11-14
// prints "Amber 14 SANDER" and then "| PMEMD implementation of SANDER, Release 14"), "| Hostname:
// sh03-11n04.int" (Amber 16 on), "File Assignments:" ("|   PARM: prmtop"), the GPU build's
// "Precision model in use:" and "GPU DEVICE INFO" ("CUDA Device ID in use:"), "NATOM  =   23558",
// section "2.  CONTROL  DATA  FOR  THE  RUN" ("imin = 0", "nstlim = 25000", "dt = 0.00200", "cut =
// 8.00000", "NFFT1 = 64"), "| Running AMBER/MPI version on    4 MPI task" (pmemd) or "...    4
// nodes" (sander) before "4.  RESULTS", and when it ends the timings: pmemd's "|  Master Total wall
// time:   272    seconds" (whole seconds; "|  Total wall time:" when serial or on one GPU) with
// "Final Performance Info" ("Elapsed(s) =  339.42", "ns/day =  12.73"), sander's "|  Job began  at
// 15:53:40.425  on 05/06/2021" ... "|  Run   done at 15:53:40.675  on 05/06/2021". Read as printed
// by Amber 10 to 24 and msander. AMBER times no communication: the records are runtime only.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One run of pmemd or sander in an mdout file (a job's output may hold several, one after another).
struct AmberRun {
  int line = 0;                 // of its banner, 1-based
  std::string banner;           // "Amber 24 PMEMD 2024", "MSANDER 2021"
  std::string program;          // "pmemd", "sander", "msander"
  std::string version;          // "24", "18"; msander's year "2021"
  int pmemd_line = 0;           // "| PMEMD implementation of SANDER, Release 18"
  std::string executable;       // "|   Executable path: pmemd.cuda"
  std::string defines;          // "| Conditional Compilation Defines Used:" then "| MPI", "| CUDA", ...: "MPI CUDA"
  std::string host;             // "|          Hostname: sh03-11n04.int" ("Unknown" not kept)
  std::string mdin, prmtop;     // "|   MDIN: mdin", "|   PARM: prmtop" of "File Assignments:"
  int mpi_line = 0;             // "| Running AMBER/MPI version on    4 MPI task" / "...    4 nodes"
  int mpi_tasks = 0;
  int openmp_threads = 0;       // "| Number of openmp threads per MPI task:    2" (pmemd's OpenMP build)
  int multisander_groups = 0;   // "|  MULTISANDER:    2 groups.    4 processors out of    8 total."
  int multisander_world = 0;
  bool gpu = false;             // "| GPU (CUDA) Version of PMEMD in use: NVIDIA GPU IN USE."
  std::string gpu_api;          // "cuda" ("GPU (CUDA)"), "hip"
  std::string precision;        // "SPFP", "DPFP" of "Precision model in use:" / "[SPFP] - ..."
  int gpus = 0;                 // the "CUDA Device ID in use:" lines (one per MPI task)
  int gpus_detected = 0;        // "CUDA Capable Devices Detected:      1"
  std::string gpu_name;         // "CUDA Device Name: NVIDIA A40"
  long long natom = 0;          // " NATOM  =   79056 NTYPES = ..."
  std::map<std::string, std::string> control;  // "name = value" of "2.  CONTROL  DATA  FOR  THE  RUN"
  int control_line = 0;
  std::string thermostat;       // "Langevin" of "Langevin dynamics temperature regulation:" (ntt is not printed)
  // Timings (pmemd; sander before Amber 10 prints them too): "Master" on an MPI run.
  int total_wall_line = 0;
  double total_wall_s = kUnknown, setup_wall_s = kUnknown, nonsetup_wall_s = kUnknown;
  double total_cpu_s = kUnknown, setup_cpu_s = kUnknown, nonsetup_cpu_s = kUnknown;
  bool master_times = false;    // "|  Master Total wall time:"
  int final_performance_line = 0;   // "| Final Performance Info:"
  double elapsed_all_steps_s = kUnknown;  // "Average timings for all steps:" "Elapsed(s) =  339.42"
  double per_step_ms = kUnknown, ns_per_day = kUnknown, s_per_ns = kUnknown;  // unknown where "*****"
  // sander's clock: "|           Job began  at 15:53:40.425  on 05/06/2021", "Setup done at", "Run   done at".
  int job_began_line = 0, setup_done_line = 0, run_done_line = 0;
  double job_began_ms = kUnknown, setup_done_ms = kUnknown, run_done_ms = kUnknown;  // since 2000, local time
  int error_line = 0;           // the first "ERROR: Calculation halted ...", "SANDER BOMB", ...
  std::string error;
};

/// True when one of the first lines of `text` is an AMBER banner ("Amber 20 PMEMD  2020").
bool LooksLikeAmberMdout(std::string_view text);

/// Every run of an mdout file, finished or not; throws InputError naming `path` (and the line) when
/// the file has no AMBER banner or a number AMBER printed is malformed.
std::vector<AmberRun> ParseAmberMdout(std::string_view text, const std::string& path);

/// True when the run printed its closing timings (pmemd's "Total wall time", sander's "Run done at").
bool AmberRunFinished(const AmberRun& run);

/// The run-statistics record of a finished run: app "amber", the problem from the topology's name,
/// NATOM and the control data; procs the MPI tasks (1 without the MPI line), the whole run's wall
/// time as its time. Throws InputError when the times are inconsistent.
RunStats AmberRunToRunStats(const AmberRun& run, const std::string& path);

}  // namespace qnm
