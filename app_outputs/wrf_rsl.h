#pragma once
// WRF's rsl files (docs/formats/wrf-rsl.md): wrf.exe built for distributed memory (dmpar, dm+sm)
// writes one rsl.out.NNNN and one rsl.error.NNNN per MPI task; process 0's (rsl.error.0000, else
// rsl.out.0000) is the run. It prints "taskid: 0 hostname: nid001234" (WRF 3.8 on), " Ntasks in X 10 ,
// ntasks in Y 16", the banner "WRF V4.2.1 MODEL", " Parent domain" with " ids,ide,jds,jde 1 793 1 853",
// " D01: Time step = 15.00000 (s)" (WRF 4.2 on), "WRF NUMBER OF TILES FROM OMP_GET_MAX_THREADS = 2"
// (OpenMP builds), one "Timing for main: time 2016-08-29_09:00:15 on domain   1:  117.81557 elapsed
// seconds" per time step of each domain ("Timing for main (dt= 15.00): ..." with an adaptive step),
// "Timing for Writing <file> for domain 1: ...", "Timing for processing wrfinput file (stream 0) for
// domain 1: ...", "Timing for processing lateral boundary for domain 1: ...", and at the end
// "d01 2016-08-29_09:30:00 wrf: SUCCESS COMPLETE WRF"; a run that stops prints
// "-------------- FATAL CALLED ---------------" and "FATAL CALLED FROM FILE: <stdin> LINE: 1085" before
// its message. Read as printed by WRF 3.8 to 4.7 (frame/module_integrate.F, module_timing.F, module_dm.F)
// and by TempoQuest's AceCAST ("Equivalent WRF version: WRF V4.6.0 MODEL").
// WRF times no communication: the records are runtime only.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// What process 0's rsl file of one wrf.exe run says, with the lines it was found on (1-based).
struct WrfRslFile {
  int host_line = 0;               // "taskid: 0 hostname: nia0435.scinet.local"
  std::string host;
  int ntasks_line = 0;             // " Ntasks in X 10 , ntasks in Y 16"
  int ntasks_x = 0, ntasks_y = 0;
  int banner_line = 0;             // "WRF V4.2.1 MODEL"
  std::string version;             // "4.2.1"
  std::string git_commit;          // "git commit 7972b899..." after the banner (WRF 4.1 on), or empty
  int omp_line = 0;                // "WRF NUMBER OF TILES FROM OMP_GET_MAX_THREADS = 2": an OpenMP build
  int omp_threads = 0;
  int tiles = 0;                   // the first "WRF NUMBER OF TILES = N"
  int parent_line = 0;             // " ids,ide,jds,jde 1 793 1 853" of " Parent domain"
  int e_we = 0, e_sn = 0;          // its ide and jde: the namelist's e_we and e_sn of domain 1
  std::string time_step_s;         // " D01: Time step = 15.00000 (s)" as printed, or empty
  std::string dx_m;                // "Domain # 1: dx = 3000.000 m" as printed, or empty
  bool adaptive_time_step = false; // "Timing for main (dt= 15.00): ..."
  bool acecast = false;            // TempoQuest's AceCAST (WRF on GPUs): "Equivalent WRF version: WRF V4.6.0 MODEL"

  // "Timing for main" lines. Domain 1's step covers its own solve, the history writes and boundary reads
  // before it, the opening and whole integration of its nests (module_integrate.F: start_timing at the top
  // of the loop, end_timing after the nests): the nests' lines are inside it.
  int first_main_line = 0, last_main_line = 0;   // of domain 1
  long long main_steps = 0;                      // domain 1's lines
  double main_s = 0;                             // their sum
  double first_step_s = kUnknown;                // domain 1's first step (it opens nests, writes at t0)
  std::string first_time, last_time;             // model times of domain 1's first and last lines
  int domains = 1;                               // the highest domain number of a "Timing for" line
  long long nest_steps = 0;                      // the lines of other domains
  double nest_main_s = 0;                        // their sum (inside domain 1's steps)
  // The other "Timing for" lines, of any domain.
  double writing_s = 0;             // "Timing for Writing ..."
  double input_s = 0;               // "Timing for processing wrfinput file" / "... restart file"
  double boundary_s = 0;            // "Timing for processing lateral boundary"
  double other_s = 0;               // any other "Timing for <what>: N elapsed seconds"
  double initial_input_s = 0;       // domain 1's input lines before its first step (wrf_init, no step covers them)
  double after_last_step_s = 0;     // every line after domain 1's last step (the final writes)
  int timing_lines = 0;

  int success_line = 0;             // "wrf: SUCCESS COMPLETE WRF"
  int fatal_line = 0;               // "FATAL CALLED FROM FILE" (else the "FATAL CALLED" banner)
  std::string fatal;                // the message after it
  int real_line = 0;                // "real_em: SUCCESS COMPLETE REAL_EM INIT" or another real_em line
  int malformed_line = 0;           // the first timing line that is not "Timing for <what>: <s> elapsed seconds"
  std::string malformed;            // why
  int last_line = 0;                // the last non-blank line
  std::string last_text;
};

/// True when the name (less a compression suffix) is WRF's "rsl.error.NNNN" / "rsl.out.NNNN" (or a
/// renamed copy "rsl.error.0000.<tag>"); `rank` gets NNNN.
bool WrfRslName(const std::string& path, int* rank, bool* error_file);

/// True for an rsl file that process 0's file beside it stands for: rsl.error/rsl.out.NNNN of another
/// rank, or rsl.out.0000 with rsl.error.0000 beside it. Ingest's walk leaves them out (the run is one).
bool IsWrfRslOfAnchor(const std::string& path);
/// The same for a file of an archive: `beside(name)` says whether "rsl.error.0000" / "rsl.out.0000"
/// (plain or compressed) is in the file's folder.
bool IsWrfRslCompanion(const std::string& path, const std::function<bool(const std::string&)>& beside);

/// True when the text is an rsl file of WRF: one of its first lines is "Ntasks in X" or WRF's banner.
bool LooksLikeWrfRsl(std::string_view text);

/// What process 0's rsl file says; throws InputError naming `path` and the line when a number WRF
/// printed is malformed.
WrfRslFile ParseWrfRsl(std::string_view text, const std::string& path);

/// Why the run cannot be read (real.exe's file, no "SUCCESS COMPLETE WRF", FATAL CALLED), and `*line`;
/// empty when it finished.
std::string WrfRslRefusal(const WrfRslFile& f, int* line);

/// The run-statistics record of a finished wrf.exe run: app "wrf", procs ntasks_x*ntasks_y, threads from
/// the OpenMP line, the timed part of the run as its time; the hosts of every task (`task_hosts[r]` of
/// task r, from the other rsl.error files) when given, else process 0's. Throws InputError when the file
/// gives no task count or no main step of domain 1.
RunStats WrfRslToRunStats(const WrfRslFile& f, const std::string& path,
                          const std::vector<std::string>& task_hosts = {});

}  // namespace qnm
