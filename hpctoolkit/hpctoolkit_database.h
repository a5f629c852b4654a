#pragma once
// HPCToolkit databases (docs/formats/hpctoolkit-database.md): the folder
// hpcprof writes from a sampled run, read by HPCToolkit's hpcviewer and by
// LLNL's Hatchet (GraphFrame.from_hpctoolkit). `experiment.xml` holds the
// calling context tree (procedure frames PF/Pr, call sites C, loops L,
// statements S, each with an id `i`), the procedure and metric tables; one
// binary file per profiled thread,
//   <n>.<program>-<rank>-<thread>-<host id>-<pid>-<k>.metric-db,
// holds every node's metric values:
//   "HPCPROF-metricdb__" (18 bytes), version (5), endianness 'b' (1),
//   int32 nodes, int32 metrics (big-endian), then nodes x metrics doubles
//   (big-endian), the row of node id i at i - 1.
// A run is the folder; experiment.xml stands for it, like an OTF2 trace's
// anchor. Sampling counts no calls and no bytes: the record holds times.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// What experiment.xml says that the run needs: the time metric, the tree's
/// top-level nodes and its outermost MPI frames.
struct HpctoolkitExperiment {
  std::string program;        // <Header n="...">
  std::string version;        // <HPCToolkitExperiment version="...">
  std::string time_metric;    // the inclusive time metric read, e.g. "CPUTIME (usec) (I)"
  int time_column = 0;        // its db-id: its column in a metric-db row
  int metrics_per_node = 0;   // db-num-metrics
  double seconds_per_unit = 1e-6;
  int max_node_id = 0;        // the largest node id of the tree
  std::vector<int> top_level;  // ids of the tree's top-level nodes (disjoint subtrees)
  struct MpiFrame {
    int node = 0;
    std::string routine;  // without "MPI_"/"PMPI_", e.g. "Allgather"
  };
  std::vector<MpiFrame> mpi_frames;  // MPI procedure frames with no MPI frame above them
};

/// "MPI_Allgather", "PMPI_Allgather", "mpi_allreduce_" (Fortran) -> "Allgather", "Allreduce"; "" for
/// any other procedure (MPIR_/MPID_ internals included); a load module after the name
/// ("PMPI_Bcast [libmpi.so.40]") is not part of it.
std::string MpiRoutineOf(std::string_view procedure);
/// Seconds per unit of a metric named "CPUTIME (usec) (I)", "REALTIME (sec)", ...; 0 when unnamed.
double SecondsPerUnit(const std::string& name);
/// How a time metric ranks for the run time: REALTIME or WALLCLOCK 2, CPUTIME 1, others 0 (case ignored).
int TimeMetricRank(const std::string& name);

/// True when `text` starts like an HPCToolkit experiment.xml.
bool LooksLikeHpctoolkitExperiment(std::string_view text);

/// experiment.xml; InputError(path, line, why) where it is not HPCToolkit's format.
HpctoolkitExperiment ParseHpctoolkitExperiment(std::string_view text, const std::string& path);

/// What a metric-db file's name says: `<n>.<program>-<rank>-<thread>-<host id>-<pid>-<k>.metric-db`.
struct MetricDbName {
  int rank = 0, thread = 0;
  std::string host_id;  // gethostid() in hex
};
bool ParseMetricDbName(const std::string& file_name, MetricDbName* name);

/// Throws InputError naming `path` unless `head` (a metric-db file's first 32 bytes or more) is
/// a metric-db header matching the experiment and `size_bytes` the size it declares.
void CheckMetricDbHeader(std::string_view head, std::size_t size_bytes, const std::string& path,
                         const HpctoolkitExperiment& experiment);

/// One rank's times from its thread-0 metric-db `bytes`, in seconds.
struct HpctoolkitRankTimes {
  double app_s = 0;                 // the top-level nodes' inclusive time, summed
  double mpi_s = 0;                 // the outermost MPI frames' inclusive time, summed
  std::vector<double> routine_s;    // per entry of the experiment's mpi_frames
};
/// Throws InputError naming `path` for a damaged file, or one that does not
/// match the experiment (node or metric counts).
HpctoolkitRankTimes ReadMetricDb(std::string_view bytes, const std::string& path,
                                 const HpctoolkitExperiment& experiment);

/// What the record's derivations say a database's parts were: experiment.xml and metric-db files
/// (the defaults), or meta.db and profile.db (hpctoolkit_v4_database.h).
struct HpctoolkitWording {
  std::string per_rank = "one thread-0 metric-db per MPI rank";
  std::string threads = "metric-db files of rank 0 (CPU threads)";
  std::string program = "experiment.xml <Header n>";
  std::string version = "experiment";
  std::string hosts = "distinct host ids in the metric-db names";
  std::vector<std::string> sources;  // the record's sources; empty: `paths`
};

/// A run from every rank's times (`ranks[r]`, read from `paths[r]`, which errors name): per-rank
/// application and MPI time, one call site per MPI routine (time only), the program, `threads` per
/// process and the nodes from the distinct `host_ids` (unknown when one is empty).
RunStats HpctoolkitToRunStats(const HpctoolkitExperiment& experiment, const std::vector<HpctoolkitRankTimes>& ranks,
                              const std::vector<std::string>& paths, int threads,
                              const std::vector<std::string>& host_ids,
                              const HpctoolkitWording& wording = HpctoolkitWording());

}  // namespace qnm
