#pragma once
// One series as an Extra-P experiment over p (`qnm-predict export`,
// docs/formats/extrap.md "Export"). What Extra-P needs to model it well:
//  - strong scaling: a run time that falls with p is modelled badly by
//    Extra-P's single-parameter search (it fits c0 + c1 log2 p, negative
//    beyond the data); Extra-P itself sums a strong-scaling metric over the
//    processes (its CUBE reader's `--scaling strong`), so the export writes
//    time x p (process-seconds) and counts summed over the processes;
//  - a consistent call tree: the root's inclusive time is the run time the
//    predictor models (RunStats::TotalTimeSeconds), "MPI" the measured MPI
//    time, "compute" the rest, so children never exceed their parent;
//  - every metric the records hold (time, visits, bytes_sent, messages);
//  - the series' identity (name, application, class, threads, machine,
//    variant) in '#' comment lines (text) and an "experiment" key (JSON Lines).
#include <string>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

struct ExtrapExportOptions {
  bool strong_scaling = true;  // values x p (times) / summed over processes (counts)
};

/// One call path x metric of the export: values [point][repetition].
struct ExportedMeasurement {
  std::string callpath;  // "bt-mz", "bt-mz->MPI", "bt-mz->MPI->MPI_Allreduce"
  std::string metric;    // "time", "visits", "bytes_sent", "messages"
  std::vector<std::vector<double>> values;
};

struct ExtrapExport {
  std::vector<int> points;                          // process counts, ascending
  std::vector<ExportedMeasurement> measurements;    // grouped by call path, root first
  std::vector<std::pair<std::string, std::string>> identity;  // ("series", "bt-mz.C"), ("threads", "1"), ...
  std::vector<std::string> notes;                   // what was left out and why
  bool strong_scaling = true;
};

/// The export of `series` (repetitions at a process count become repetitions of a point).
ExtrapExport BuildExtrapExport(const Series& series, const ExtrapExportOptions& options);

/// Extra-P's text format (PARAMETER p / POINTS / REGION / METRIC / DATA), identity in comments.
std::string WriteExportText(const ExtrapExport& experiment);
/// Extra-P's JSON Lines format; the first line also carries "experiment": {identity, scaling}.
std::string WriteExportJsonLines(const ExtrapExport& experiment);

}  // namespace qnm
