#include "whatif_scaling/trace_whatif.h"

#include "trace/otf2_reader.h"
#include "trace/trace_run_stats.h"
#include "trace/wait_states.h"

namespace qnm {

bool IsTraceRun(const RunStats& run) {
  if (run.sources.size() != 1) return false;
  const std::string& path = run.sources.front();
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".otf2") == 0;
}

RunStats WithTraceSpan(const RunStats& run, double span_s) {
  RunStats out = run;
  if (span_s > 0 && span_s != run.TotalTimeSeconds()) {
    out.wall_time_s = span_s;
    out.derivations["wall_time_s"] = "trace: last event - first event over all ranks (the what-if's measure)";
  }
  return out;
}

RunStats SimulateTraceRun(const RunStats& run, const std::vector<trace::Hypothesis>& hypotheses,
                          trace::WhatifSummary* summary) {
  const trace::Trace trace = trace::ReadOtf2Trace(run.sources.front());
  trace::WhatifOptions options;
  options.hypotheses = hypotheses;
  options.analyze_wait_states = false;
  const trace::WhatifResult result = trace::SimulateWhatif(trace, options);
  RunStats simulated = trace::RunStatsFromTrace(result.simulated, trace::AnalyzeWaitStates(result.simulated));
  // The run's identity, as the readers and the series grouping gave it.
  simulated.series = run.series;
  simulated.app = run.app;
  simulated.problem_class = run.problem_class;
  simulated.problem_size = run.problem_size;
  simulated.machine = run.machine;
  simulated.hosts = run.hosts;
  simulated.procs = run.procs;
  simulated.procs_requested = run.procs_requested;
  simulated.threads_per_proc = run.threads_per_proc;
  simulated.ranks_per_node = run.ranks_per_node;
  simulated.nodes = run.nodes;
  simulated.work_units = run.work_units;
  simulated.work_units_equal = run.work_units_equal;
  simulated.allocation = run.allocation;
  simulated.sources = run.sources;
  simulated.origin = run.origin + "#whatif";
  simulated.data_set = run.data_set;
  simulated.variant = run.variant;
  simulated.wall_time_s = result.summary.simulated_runtime_s;
  std::string described;
  for (const std::string& h : result.hypotheses) described += (described.empty() ? "" : "; ") + h;
  simulated.derivations["wall_time_s"] = "what-if simulation of the trace: last event - first event over ranks";
  simulated.derivations["whatif"] = "trace simulation: " + described;
  if (summary != nullptr) *summary = result.summary;
  return simulated;
}

}  // namespace qnm
