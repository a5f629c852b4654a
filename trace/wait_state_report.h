#pragma once
// The report of `qnm-predict trace analyze`: the Scalasca metric tree with the
// share of time, the worst call paths and ranks, the dissimilarity ranking
// (Calzarossa et al. 2004), as a table a person reads top-down, or as JSON / CSV for tools.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "imbalance/dissimilarity.h"
#include "trace/trace_events.h"
#include "trace/wait_states.h"

namespace qnm::trace {

enum class ReportFormat { kTable, kJson, kCsv };
/// Parses "table", "json", "csv"; false if unknown.
bool ParseReportFormat(const std::string& text, ReportFormat* format);

/// One node of the metric tree, summed over ranks.
struct MetricNode {
  std::string id;    // Scalasca uniq_name ("mpi_latesender") or time category ("comp")
  std::string name;  // display name
  std::string parent_id;
  int depth = 0;
  double value_s = 0;
  bool is_pattern = false;
};

/// The metric tree in pre-order: Time, Computation, MPI and its categories,
/// with every wait-state pattern under its Scalasca parent.
std::vector<MetricNode> MetricTree(const Trace& trace, const WaitStateResult& result);

/// Everything the report shows; `dissimilarity` may be null.
struct TraceReportInput {
  const Trace* trace = nullptr;
  const WaitStateResult* result = nullptr;
  const DissimilarityResult* dissimilarity = nullptr;
  int top = 10;  // rows in the "worst" lists
};

/// The names `whatif --balance R` and `--scale R=F` accept: the trace's
/// regions that are not MPI calls, sorted (the table's "Regions" section).
std::vector<std::string> UserRegionNames(const Trace& trace);

nlohmann::json TraceReportJson(const TraceReportInput& input);
std::string TraceReportTable(const TraceReportInput& input);
/// One row per (metric, call path, rank) with a non-zero value.
std::string TraceReportCsv(const TraceReportInput& input);
std::string RenderTraceReport(const TraceReportInput& input, ReportFormat format);

}  // namespace qnm::trace
