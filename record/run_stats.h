#pragma once
// The run-statistics record: what every reader in ingest/ (mpiP, NPB, tables,
// OTF2 traces) produces and what models/ consumes. One record per measured
// run (one execution of one application configuration). Fields a reader
// cannot fill stay empty (NaN / empty vector / empty string); Derive() fills
// the summary values from the per-rank data and records how in `derivations`.
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "record/rank_values.h"
#include "record/shared_text.h"
#include "record/text_map.h"

namespace qnm {

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
inline bool Known(double value) { return !std::isnan(value); }

/// What kind of MPI activity a call is; used for splitting counts and bytes
/// and for the dissimilarity activities (Calzarossa et al. 2004).
enum class MpiActivity { kPointToPoint, kCollective, kSynchronization, kRma, kIo, kOther };
const char* ToString(MpiActivity activity);
/// Classifies an MPI function by name, with or without the "MPI_" prefix
/// ("Isend" -> point-to-point, "Allreduce" -> collective, "Barrier" ->
/// synchronization, "Wait*" -> point-to-point completion, "Win_*"/"Put" -> RMA).
MpiActivity ClassifyMpiCall(const std::string& mpi_function);
/// True for the sends whose messages a record counts as point-to-point
/// (Send, Isend, Ssend, Issend, Bsend, Ibsend, Rsend, Irsend, Sendrecv,
/// Sendrecv_replace), named without "MPI_".
bool IsPointToPointSend(const std::string& mpi_function);
/// True for the activities a record counts as collectives (collectives incl. Barrier).
inline bool CountsAsCollective(MpiActivity activity) {
  return activity == MpiActivity::kCollective || activity == MpiActivity::kSynchronization;
}

/// One MPI call site (mpiP) or one MPI call path (trace), with per-rank data.
struct CallSiteStats {
  int id = 0;                   // the report's own id (only meaningful inside one report)
  std::string mpi_function;     // without "MPI_", e.g. "Allreduce"
  std::string source_location;  // "file:line function" or an address when unresolved
  MpiActivity activity = MpiActivity::kOther;
  // Per rank, index = MPI rank; size = procs (0 where the rank has no data).
  std::vector<double> time_s_per_rank;
  std::vector<double> calls_per_rank;
  std::vector<double> bytes_sent_per_rank;  // as the tool counts them (see derivations)
  double total_time_s = kUnknown;           // the report's '*' row (sum over ranks)
  double total_calls = kUnknown;
  double total_bytes_sent = kUnknown;
  bool ranks_complete = true;  // false when a threshold (mpiP -t) hid some rank rows
};

/// The prefix of a RunStats::origin that identifies a measurement without its file.
inline constexpr const char* kMeasurementOrigin = "measurement:";

struct RunStats {
  // ---- identity -------------------------------------------------------
  SharedText series;         // explicit series name (statistics tables); empty = from the key
  SharedText app;            // "lu", "bt-mz", "CoMD-mpi", lower-case for NPB
  SharedText problem_class;  // NPB class "C", or empty
  SharedText problem_size;   // NPB "Size" text ("162x 162x 162"), or empty
  SharedText machine;        // host-name stem (mpiP hosts, info file) or a table's machine/system, or empty
  std::vector<std::string> hosts;  // host names the run's files name (mpiP MPI Task Assignment, info file)
  int procs = 0;              // MPI processes (NPB "active" processes when they differ)
  int procs_requested = 0;    // NPB "Total processes" (0 = same as procs)
  int threads_per_proc = 1;   // OpenMP threads per process (hybrid runs)
  int ranks_per_node = 0;     // MPI processes per node (table column, host names, info file); 0 = unknown
  int nodes = 0;              // nodes the run used; 0 = unknown
  int work_units = 0;         // independent units of work the problem splits into (NPB-MZ zones); 0 = unknown
  bool work_units_equal = false;  // the units are of one size (SP-MZ and LU-MZ zones, --work-units): P ranks
                                  // that do not divide them leave the busiest ceil(work_units / P) of them
  SharedText allocation;     // "block", "cyclic", "one-per-node" or empty
  std::vector<std::string> sources;  // every file that contributed to this record
  // Where the measurement came from: "<file content digest>#<place in the
  // file>" (an Extra-P value: "#<call path>|<metric>|<point>|r<repetition>").
  // Two records of one origin are one measurement read twice; equal numbers
  // from different origins are different runs (ingest/duplicate_runs.h).
  // An origin starting with kMeasurementOrigin names the measurement itself
  // (a batch job of a test), so the same job read from two files of different
  // formats (a ReFrame perflog and its run report) is one measurement.
  std::string origin;
  SharedText data_set;       // data-set tag from the file name ("tpatki-npbmz", "st-g5k"), or empty
  SharedText variant;        // run-configuration words from the file name ("eth O3", "td"), or empty

  // ---- times ------------------------------------------------------------
  double wall_time_s = kUnknown;  // the application's own timer (NPB "Time in seconds", table time_s)
  RankValues app_time_s_per_rank;  // mpiP AppTime / trace: first..last event per rank
  RankValues mpi_time_s_per_rank;  // time inside MPI per rank
  double app_time_mean_s = kUnknown, app_time_max_s = kUnknown;
  double mpi_time_mean_s = kUnknown, mpi_time_max_s = kUnknown;
  double compute_time_mean_s = kUnknown;  // app - MPI (non-overlapped computation), mean over ranks

  // ---- messages (per rank, index = rank) -----------------------------------
  // (RankValues: a vector that costs one pointer while empty, record/rank_values.h)
  RankValues p2p_calls_per_rank;          // sends (Send, Isend, Sendrecv, ...)
  RankValues p2p_bytes_sent_per_rank;
  RankValues collective_calls_per_rank;   // collectives incl. Barrier
  RankValues collective_bytes_sent_per_rank;
  // Summaries (mean over ranks); a table may give only these.
  double messages_per_rank = kUnknown;     // messages sent per rank (P2P sends + collectives)
  double bytes_sent_per_rank = kUnknown;   // bytes sent per rank
  double bytes_per_message = kUnknown;     // bytes_sent_per_rank / messages_per_rank
  double mpi_calls_per_rank = kUnknown;    // all MPI calls per rank (incl. receives, waits)

  // Point-to-point matrix, row-major [source * procs + target]; empty unless the
  // tool gives it (modified mpiP "Communication Matrix", traces).
  RankValues comm_matrix_bytes;
  RankValues comm_matrix_messages;

  std::vector<CallSiteStats> call_sites;
  bool per_rank_complete = true;  // false when some call sites lack rank rows (mpiP -t)

  // ---- application-reported (NPB) -----------------------------------------
  double mops_total = kUnknown;
  double mops_per_proc = kUnknown;
  int iterations = 0;
  SharedText verification;  // "SUCCESSFUL", "UNSUCCESSFUL", "NOT PERFORMED" or empty
  SharedText npb_version;
  SharedText tool_version;  // mpiP / Score-P version
  TextMap details;  // compile flags, dates, command, ... (shared between records until changed)

  /// How each derived value was derived, keyed by field name, e.g.
  /// {"bytes_sent_per_rank", "mpiP counts bytes on the sender only; Alltoall counts one block"}.
  /// Shared between records until one changes it (record/text_map.h).
  TextMap derivations;

  /// The time the run took: wall_time_s if known, else max app time per rank.
  double TotalTimeSeconds() const;
  /// Fills the mean/max/summary fields from the per-rank vectors where they are
  /// empty, and records each derivation. Idempotent.
  void Derive();
  /// Sets `nodes` to `count` (derived as `how` says) and, when it divides procs, ranks_per_node
  /// = procs / count, each with its derivation.
  void SetNodes(int count, const std::string& how);
  /// Ranks per node `count` (> 0; else nothing), with `how` as its derivation, and the nodes the run
  /// fills: ceil(procs / count), one node for a run of unknown procs.
  void SetRanksPerNode(int count, const std::string& how);
  /// A run that says its nodes and ranks per node but not its processes (`nodes,ppn,time` rows): procs =
  /// nodes x ranks per node (at most 2^30), with `how` as its derivation. False, changing nothing, when
  /// procs is known or either count is not.
  bool SetProcsFromLayout(const std::string& how);
};

/// Makes the identity texts of `run` share the blocks of equal texts of
/// earlier records in `pool` (a table's rows repeat their series, app and
/// machine: one block for all rows instead of one per row).
void ShareIdentityTexts(RunStats* run, SharedTextPool* pool);

/// Key of a series: runs that differ only in process count (and repetition).
struct SeriesKey {
  std::string series;  // explicit name from a table; when set it alone (with threads, group) keys the series
  std::string app, problem_class, machine;
  std::string variant;  // run-configuration words of the file name ("eth-O3"), or empty
  std::string group;    // folder or file prefix when the user groups by them (series_identity.h), or empty
  int threads_per_proc = 1;
  std::string ToString() const;  // "lu-mz.C th=4 @machine (variant)"
  /// ToString() with the threads also where an explicit name leaves them out ("study th=2"): what
  /// tells apart series of one name at several thread counts.
  std::string ToStringWithThreads() const;
  bool operator<(const SeriesKey& other) const;
  bool operator==(const SeriesKey& other) const;
};
SeriesKey KeyOf(const RunStats& run);

/// All runs of one process count in a series (repetitions kept).
struct RunGroup {
  int procs = 0;
  std::vector<RunStats> runs;
  double median_time_s = kUnknown;  // median over repetitions of TotalTimeSeconds()
  double min_time_s = kUnknown, max_time_s = kUnknown;
};

/// A strong-scaling series: the same configuration at several process counts.
struct Series {
  SeriesKey key;
  std::string name;              // display name (key.ToString() unless given)
  std::vector<RunGroup> groups;  // sorted by procs, ascending
};

/// Groups runs into series by `key_of` (KeyOf() when empty), then by procs,
/// and summarises repeats.
std::vector<Series> GroupIntoSeries(std::vector<RunStats> runs,
                                    const std::function<SeriesKey(const RunStats&)>& key_of = {});

}  // namespace qnm
