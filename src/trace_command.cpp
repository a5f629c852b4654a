// `qnm-predict trace analyze|stats`: wires the OTF2 reader, the wait-state
// analysis, the dissimilarity indices and the reports to the command line.
#include <iostream>
#include <string>

#include "ingest/archived_trace.h"
#include "record/run_stats_json.h"
#include "src/commands.h"
#include "trace/analysis_report.h"
#include "trace/otf2_reader.h"
#include "trace/streaming_analysis.h"
#include "trace/trace_run_stats.h"
#include "trace/wait_states.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::cli {
namespace {

const char* const kTraceHelp =
    "traces.otf2 anchor, the directory holding it, or a tar or .zip archive holding one trace";

struct TraceArgs : trace::AnalyzeReportOptions {
  std::string trace_path;
  int jobs = 0;  // threads reading the trace; 0 = the cores available
  uint64_t window_events = trace::StreamingAnalysisOptions{}.window_events;
  bool window_given = false;  // --window: windows of that size whatever the trace's size
};

trace::StreamingAnalysisOptions StreamingOptions(const TraceArgs& args) {
  trace::StreamingAnalysisOptions options;
  options.jobs = args.jobs;
  options.window_events = args.window_events;
  if (args.window_given) options.window_min_rank_bytes = 0;
  return options;
}

void CheckJobs(int jobs) {
  trace::StreamingAnalysisOptions options;
  options.jobs = jobs;
  std::string error;
  if (!options.IsValid(&error)) throw InputError("", 0, "--jobs: " + error);
}

void RunAnalyze(const TraceArgs& args) {
  if (args.format != "table" && args.format != "json" && args.format != "csv")  // before the (long) analysis
    throw InputError("", 0, "--format must be table, json or csv, not '" + args.format + "'");
  CheckJobs(args.jobs);
  const TraceInput input(args.trace_path);
  RunTellingArchiveMembers({&input}, [&] {
    trace::StreamingAnalysis analysis = trace::AnalyzeTraceStreaming(input.ReadPath(), StreamingOptions(args));
    analysis.trace.path = input.Told(analysis.trace.path);
    trace::WriteAnalysisReport(analysis.trace, analysis.result, args);
  });
}

void RunStats(const TraceArgs& args) {
  if (args.format != "table" && args.format != "json")
    throw InputError("", 0, "--format must be table or json, not '" + args.format + "'");
  CheckJobs(args.jobs);
  const TraceInput input(args.trace_path);
  RunTellingArchiveMembers({&input}, [&] {
    qnm::RunStats run = trace::ReadTraceRunStats(input.ReadPath(), StreamingOptions(args));
    for (std::string& source : run.sources) source = input.Told(source);
    WriteOutput(args.output, args.format == "json" ? RunToJson(run).dump(1) + "\n" : trace::RunStatsTable(run));
  });
}

}  // namespace

void AddTraceCommand(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "trace", "Analyse OTF2 traces (Score-P): Scalasca wait states, dissimilarity, run statistics");
  sub->require_subcommand(1);
  auto args = std::make_shared<TraceArgs>();

  CLI::App* analyze = sub->add_subcommand(
      "analyze", "Wait-state report: metric tree with % of time, worst call paths and ranks, "
                 "dissimilarity ranking");
  analyze->add_option("trace", args->trace_path, kTraceHelp)
      ->required();
  analyze->add_option("--format", args->format, "table (default), json or csv");
  analyze->add_option("-o,--output", args->output, "write the report to FILE instead of stdout");
  analyze->add_option("--cube", args->cube, "also write a CUBE4 report (.cubex) to FILE");
  analyze->add_option("--top", args->top, "rows in the ranked lists (default 10, 0 = all)");
  analyze->add_flag("--no-dissimilarity", args->no_dissimilarity, "leave out the dissimilarity indices");
  const char* const jobs_help =
      "threads that read and analyse the ranks (default 0 = every core available); "
      "the report is the same for any number";
  analyze->add_option("-j,--jobs", args->jobs, jobs_help);
  const char* const window_help =
      "events of each rank read before the messages read so far are matched and their records freed "
      "(default 65536 when the event files hold 32 MB or more per rank; 0 = read each thread's ranks whole, "
      "holding every message's records until the end); "
      "the report is the same for any number";
  analyze->add_option("--window", args->window_events, window_help)
      ->each([args](const std::string&) { args->window_given = true; });
  analyze->callback([args] {
    RefuseOutputOverInputs(args->output, {args->trace_path});
    RefuseOutputOverInputs(args->cube, {args->trace_path});
    RefuseOneFileForTwoOutputs(args->output, "-o", args->cube, "--cube");
    RunAnalyze(*args);
  });

  CLI::App* stats = sub->add_subcommand(
      "stats", "Run statistics (the record mpiP ingest produces) from a trace");
  stats->add_option("trace", args->trace_path, kTraceHelp)
      ->required();
  stats->add_option("--format", args->format, "table (default) or json");
  stats->add_option("-o,--output", args->output, "write to FILE instead of stdout");
  stats->add_option("-j,--jobs", args->jobs, jobs_help);
  stats->add_option("--window", args->window_events, window_help)
      ->each([args](const std::string&) { args->window_given = true; });
  stats->callback([args] {
    RefuseOutputOverInputs(args->output, {args->trace_path});
    RunStats(*args);
  });
}

}  // namespace qnm::cli
