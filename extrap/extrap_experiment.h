#pragma once
// Extra-P experiments (github.com/extra-p/extrap, docs/file-formats.md): the
// text format (PARAMETER / POINTS / REGION / METRIC / DATA), the JSON format
// ({"parameters": [...], "measurements": {callpath: {metric: [{point, values}]}}})
// and JSON Lines ({"params": {"p": 4}, "callpath": ..., "metric": ..., "value": ...}).
// All parameters are read (extrap_data.h); a RunSelection (run_selection.h)
// picks the process count and fixes the others, giving the one-parameter
// experiment below. qnm-predict writes a series in the text and JSON Lines formats
// (docs/formats/extrap.md says which record value each call path carries).
#include <string>
#include <string_view>
#include <vector>

#include "reader/run_selection.h"
#include "record/run_stats.h"

namespace qnm {

/// One call path x metric: the measured values (repetitions) at each point.
struct ExtrapMeasurement {
  std::string callpath;  // "main", "main->MPI", "main->MPI->MPI_Allreduce"
  std::string metric;    // "time" (seconds), or any other metric
  std::vector<std::vector<double>> values;  // [point][repetition]
};

/// An experiment over one parameter (the process count).
struct ExtrapExperiment {
  std::string parameter = "p";
  std::vector<double> points;  // parameter values, in file order
  std::vector<ExtrapMeasurement> measurements;
};

/// Readers: the file's ExtrapData (extrap_data.h) under `selection`
/// (SelectSeries in extrap_selection.h); throw InputError(path, line, ...) on
/// malformed input and on a choice of parameter the file leaves open.
ExtrapExperiment ReadExtrapText(std::string_view text, const std::string& path, const RunSelection& selection = {});
ExtrapExperiment ReadExtrapJson(std::string_view text, const std::string& path, const RunSelection& selection = {});
ExtrapExperiment ReadExtrapJsonLines(std::string_view text, const std::string& path,
                                     const RunSelection& selection = {});

/// Sniffers for ingest/: text starting (after '#' comments) with PARAMETER;
/// a JSON object with "parameters" and "measurements"; a first JSON line with "params".
bool LooksLikeExtrapText(std::string_view text);
bool LooksLikeExtrapJson(std::string_view text);
bool LooksLikeExtrapJsonLines(std::string_view text);

/// One record per point and repetition: the run-time call path x metric of
/// `selection` (default: the root call path's "time") is the run time;
/// "<root>->MPI" and "<root>->compute" give the MPI and compute time per rank.
/// `series` names the series (the file name). Each record's origin is
/// "<call path>|<metric>|<point>|r<repetition index>" (duplicate_runs.h).
std::vector<RunStats> ExtrapToRunStats(const ExtrapExperiment& experiment, const std::string& series,
                                       const std::string& path, const RunSelection& selection = {});

/// Writers following Extra-P's documented grammar (the export writes through
/// pipeline/extrap_export.h; these serve the round trips of tests and fuzzing).
std::string WriteExtrapText(const ExtrapExperiment& experiment);
std::string WriteExtrapJsonLines(const ExtrapExperiment& experiment);

}  // namespace qnm
