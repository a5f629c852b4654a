#pragma once
// Writes the report of an analysed trace exactly as `qnm-predict trace
// analyze` does; shared by the CLI and the MPI parallel replay.
#include <string>

#include "trace/trace_events.h"
#include "trace/wait_state_report.h"
#include "trace/wait_states.h"

namespace qnm::trace {

/// The report options of `trace analyze`.
struct AnalyzeReportOptions {
  std::string format = "table";  // table, json or csv
  std::string output;            // "" or "-" = stdout
  std::string cube;              // also write a CUBE4 report here, if set
  int top = 10;
  bool no_dissimilarity = false;
};

/// Parses options.format; throws InputError if unknown.
ReportFormat CheckedReportFormat(const AnalyzeReportOptions& options);

/// Renders the report (with the dissimilarity ranking unless disabled) and
/// writes it and the optional cube atomically.
void WriteAnalysisReport(const Trace& trace, const WaitStateResult& result,
                         const AnalyzeReportOptions& options);

}  // namespace qnm::trace
