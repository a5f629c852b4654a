#pragma once
// Reader for mpiP text reports, versions 2.x to 3.5 (verbose and concise
// layouts). ParseMpipReport() keeps everything the report says, per rank;
// MpipToRunStats() turns it into the common run-statistics record.
// Format reference: docs/formats/mpip-format.md (sections cited as §n).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One row of "MPI Time (seconds)" (§4); rank -1 is the '*' row (sums over ranks).
struct MpipTaskTime {
  int rank = -1;
  double app_time_s = kUnknown;
  double mpi_time_s = kUnknown;
  double mpi_percent = kUnknown;
};

/// One stack frame of a call site (§5). Level 0 carries the MPI call.
struct MpipFrame {
  int level = 0;
  std::string file;     // source file, or empty when unresolved
  int line = 0;         // 0 when unresolved
  std::string address;  // "0x4018d9" when the source could not be resolved
  std::string function;
  std::string mpi_call;  // only on level 0
};

struct MpipCallSite {
  int id = 0;
  std::vector<MpipFrame> frames;  // level 0 first
};

/// A generic table row of the top-twenty and histogram sections: the first
/// token (MPI call) and the remaining numeric tokens in header order.
struct MpipTableRow {
  int line = 0;
  std::string call;
  std::vector<double> values;
};

/// A top-twenty / histogram section kept as printed (§6-§8, §11).
struct MpipTable {
  std::string title;
  std::vector<std::string> columns;  // header tokens, e.g. Call Site Time App% MPI% COV
  std::vector<MpipTableRow> rows;
};

/// One row of a per-call-site statistics section (§9, §10, §11).
/// Time sections: count, max/mean/min (ms per call), app%, mpi%.
/// Byte sections: count, max/mean/min (bytes per call), sum (bytes).
struct MpipSiteRow {
  int line = 0;
  std::string call;
  int site = 0;
  int rank = -1;  // -1 = '*' aggregate row
  double count = 0;
  double max = kUnknown, mean = kUnknown, min = kUnknown;
  double app_percent = kUnknown, mpi_percent = kUnknown;  // time sections
  double sum = kUnknown;                                  // byte sections
};

/// One (source, target) entry of the "Communication Matrix" block that a
/// modified mpiP build (CeNAT comm-patterns-clustering) appends to its reports.
struct MpipMatrixEntry {
  int source = 0, target = 0;
  double bytes = 0, messages = 0;
};

struct MpipReport {
  std::string path;
  std::vector<std::pair<std::string, std::string>> header;  // "@ key : value" in order
  std::string command;
  std::string version;            // "3.3.0", "2.5"
  std::string report_generation;  // "Collective", "Single collector task" or empty
  std::string env_var;            // raw MPIP variable, "[null]" when unset
  std::string start_time, stop_time;
  long long collector_pid = -1;
  std::vector<std::string> hosts;  // MPI Task Assignment, index = rank
  bool concise = false;            // "Task Time Statistics" layout (-c)
  bool complete = false;           // ends with the "End of Report" banner
  double threshold_percent = 0.0;  // -t: rank rows below it are not printed (§9)
  int stack_depth = 1;             // -k

  std::vector<MpipTaskTime> task_times;  // ranks in order
  MpipTaskTime task_total;               // the '*' row
  std::vector<MpipCallSite> call_sites;
  MpipTable aggregate_time, aggregate_sent, aggregate_io, aggregate_rma;
  MpipTable collective_histogram, p2p_histogram;
  std::vector<MpipSiteRow> time_stats, sent_stats, io_stats, rma_stats;
  std::vector<MpipMatrixEntry> communication_matrix;  // empty unless the block is present
  std::vector<MpipTable> other_tables;  // concise tables and unknown sections, as printed
  std::vector<std::string> warnings;    // "line N: ..." oddities that did not stop the parse

  int Tasks() const { return static_cast<int>(task_times.size()); }
  const MpipCallSite* FindSite(int id) const;
};

/// True when the text starts with the "@ mpiP" line (§1: detect by content, not name).
bool LooksLikeMpipReport(std::string_view text);

/// Parses a report. Throws InputError(path, line, ...) on malformed or
/// truncated input (no End-of-Report banner, rows that do not parse).
MpipReport ParseMpipReport(std::string_view text, const std::string& path);

/// Converts to the common record: per-rank app/MPI time, per-site time,
/// calls and bytes per rank, P2P/collective splits; `derivations` says how.
RunStats MpipToRunStats(const MpipReport& report);

/// Human-readable dump of everything the report contains (for `ingest --show`).
std::string DescribeMpipReport(const MpipReport& report);

}  // namespace qnm
