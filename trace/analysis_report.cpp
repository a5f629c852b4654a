#include "trace/analysis_report.h"

#include <iostream>
#include <memory>

#include "imbalance/dissimilarity.h"
#include "trace/activity_times.h"
#include "trace/cube_writer.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::trace {

ReportFormat CheckedReportFormat(const AnalyzeReportOptions& options) {
  ReportFormat format;
  if (!ParseReportFormat(options.format, &format))
    throw InputError("", 0, "unknown report format '" + options.format + "' (table, json or csv)");
  return format;
}

void WriteAnalysisReport(const Trace& trace, const WaitStateResult& result,
                         const AnalyzeReportOptions& options) {
  ReportFormat format = CheckedReportFormat(options);
  std::unique_ptr<DissimilarityResult> dissimilarity;
  if (!options.no_dissimilarity) {
    ActivityRegionTimes times = ActivityTimesFromTrace(trace, result);
    DissimilarityOptions dissimilarity_options;
    dissimilarity_options.report_top = options.top;
    dissimilarity = std::make_unique<DissimilarityResult>(ComputeDissimilarity(times, dissimilarity_options));
  }
  TraceReportInput input;
  input.trace = &trace;
  input.result = &result;
  input.dissimilarity = dissimilarity.get();
  input.top = options.top;
  if (!options.cube.empty()) WriteFileAtomically(options.cube, CubeReport(trace, result));
  std::string text = RenderTraceReport(input, format);
  WriteOutput(options.output, text);
}

}  // namespace qnm::trace
