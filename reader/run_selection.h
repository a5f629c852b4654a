#pragma once
// Which measurements of a multi-metric, multi-parameter experiment are the
// runs qnm-predict models (CLI: --parameter, --metric, --callpath, --where):
// the parameter that is the process count, the metric and call path that are
// the run time, and fixed values of the other parameters.
#include <string>
#include <utility>
#include <vector>

#include "reader/output_patterns.h"

namespace qnm {

struct RunSelection {
  std::string parameter;  // the process count; empty = the one named like one (p, procs, ranks, np, ...)
  std::string metric;     // the run-time metric; empty = "time" (else "runtime", else the only metric)
  std::string callpath;   // the run-time call path; empty = the first root (no "->") with that metric
  std::vector<std::pair<std::string, double>> where;  // other parameters fixed: {"n", 2000}
  // What the user knows of every run and the files may not say (CLI
  // --ranks-per-node, --work-units); 0 = take it from the files. Given, they
  // replace what the files say, and the derivation records it.
  int ranks_per_node = 0;
  int work_units = 0;
  // --pattern FIELD=REGEX: where the outputs no reader knows say their run time, process count,
  // ... (reader/output_patterns.h); empty = such outputs are not read.
  std::vector<OutputPattern> output_patterns;

  bool Empty() const { return parameter.empty() && metric.empty() && callpath.empty() && where.empty(); }
  /// The --pattern of the run time, or none: a reader of a file whose run time the user located leaves the file to
  /// the pattern reader (a report of `time`, an LSF job's output).
  const OutputPattern* RunTimePattern() const;
};

/// Parses one --where value, "n=2000" (several as "n=2000,s=3"), appending to
/// `selection->where`; throws std::invalid_argument naming the bad part.
void AddWhere(const std::string& text, RunSelection* selection);

/// True for parameter names that mean a process count.
bool IsProcessCountName(const std::string& name);

}  // namespace qnm
