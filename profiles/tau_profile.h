#pragma once
// TAU profiles (docs/formats/tau-profile.md): one text file per process and
// thread, `profile.<node>.<context>.<thread>`, written by TAU's profiler
// (TauProfiler.cpp, "templated_functions" format) and read by its pprof and
// ParaProf, and by LLNL's Hatchet. A run is the folder of its profiles (for
// several metrics, the MULTI__TIME folder); the files of rank 0, thread 0
// stand for the run, like an OTF2 trace's anchor.
//
//   <n> templated_functions_MULTI_<metric>
//   # Name Calls Subrs Excl Incl ProfileCalls # <metadata>...</metadata>
//   "<timer>" <calls> <subrs> <excl> <incl> <profile calls> GROUP="<g1|g2>"   (n lines; times in us)
//   <k> aggregates
//   <m> userevents
//   # eventname numevents max min mean sumsqr
//   "<event>" <count> <max> <min> <mean> <sum of squares>                      (m lines)
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

struct TauTimer {
  std::string name;    // as written, e.g. "MPI_Send()  " trimmed, or ".TAU application => MPI_Init()"
  std::string groups;  // GROUP="..." ("MPI", "TAU_CALLPATH|MPI")
  double calls = 0, subroutines = 0, exclusive = 0, inclusive = 0;  // in the metric's unit (TIME: us)
  int line = 0;
  bool IsCallPath() const { return name.find(" => ") != std::string::npos; }
  bool InGroup(std::string_view group) const;
};

struct TauUserEvent {
  std::string name;  // "Message size sent to all nodes", "Message size for broadcast"
  double count = 0, max = 0, min = 0, mean = 0, sum_squares = 0;
};

struct TauProfile {
  std::string metric = "TIME";                  // from templated_functions_MULTI_<metric>
  std::map<std::string, std::string> metadata;  // <attribute><name>..</name><value>..</value>
  std::vector<TauTimer> timers;
  std::vector<TauUserEvent> user_events;
};

/// True when `text` starts like a TAU profile ("<n> templated_functions").
bool LooksLikeTauProfile(std::string_view text);

/// The (node, context, thread) of a file named `profile.<n>.<c>.<t>`; false
/// for any other name.
bool ParseTauProfileName(const std::string& file_name, int* node, int* context, int* thread);

/// One profile file; InputError(path, line, why) where it is not TAU's format.
TauProfile ParseTauProfile(std::string_view text, const std::string& path);

/// A run from the thread-0 profile of every rank (`ranks[r]` of rank r, read
/// from `paths[r]`), with `threads` threads per process: per-rank time of the
/// top-level timer, MPI time (exclusive time of the MPI group), MPI calls by
/// kind, message sizes from TAU's user events, one call site per MPI
/// routine, app and hosts from the metadata. Throws InputError naming the
/// file when a profile is not a time profile.
RunStats TauProfilesToRunStats(const std::vector<TauProfile>& ranks, const std::vector<std::string>& paths,
                               int threads);

}  // namespace qnm
