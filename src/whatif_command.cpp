// `qnm-predict whatif TRACE`: SILAS-style what-if simulation on an OTF2
// trace: what would the run gain if a region were balanced or faster, or
// some messages were gone?
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "ingest/archived_trace.h"
#include "src/commands.h"
#include "trace/otf2_reader.h"
#include "trace/otf2_writer.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "whatif/region_list.h"
#include "whatif/suggestions.h"
#include "whatif/whatif_hypothesis.h"
#include "whatif/whatif_report.h"
#include "whatif/whatif_simulation.h"
#include "whatif_scaling/suggestions_at_scale.h"

namespace qnm::cli {
namespace {

struct WhatifArgs {
  std::string trace_path;
  std::vector<std::string> balance, scale, cut, cut_region;
  // lowest() = not given (any value the user gives, NaN and negatives too, is checked)
  static constexpr double kNotGiven = std::numeric_limits<double>::lowest();
  double scale_computation = kNotGiven, scale_mpi = kNotGiven, scale_transfer = kNotGiven;
  std::string config;
  std::string format = "table";
  std::string output;
  std::string write_trace;
  int top = 10;
  bool no_wait_states = false;
  bool list_regions = false;
  bool suggest = false;
  int procs = 0;  // --suggest --procs P: rank by the predicted gain at P (0 = not given)
  std::vector<std::string> scaling_traces;
};

void RunOn(const WhatifArgs& args, const std::function<std::string(const std::string&)>& tell) {
  if (args.format != "table" && args.format != "json")
    throw InputError("", 0, "--format must be table or json, not '" + args.format + "'");
  if (args.list_regions) {
    trace::Trace trace = trace::ReadOtf2Trace(args.trace_path);
    trace.path = tell(trace.path);
    std::vector<trace::RegionListing> regions = trace::ListRegions(trace);
    WriteOutput(args.output, args.format == "json" ? trace::RegionListJson(regions, trace.path, trace.ranks.size())
                                                   : trace::RegionListTable(regions, trace.path, trace.ranks.size()));
    return;
  }
  if ((args.procs != 0 || !args.scaling_traces.empty()) && !args.suggest)
    throw InputError("--procs", 0, "--procs and --scaling-trace go with --suggest");
  if (args.suggest && args.procs != 0) {
    ScaledSuggestionReport report =
        RankSuggestionsAtScale(args.trace_path, args.scaling_traces, args.procs, MakePredictionOptions("", 0.9));
    WriteOutput(args.output, tell(args.format == "json" ? ScaledSuggestionJson(report) : ScaledSuggestionTable(report)));
    return;
  }
  if (args.suggest) {
    trace::Trace trace = trace::ReadOtf2Trace(args.trace_path);
    trace.path = tell(trace.path);
    trace::SuggestionReport report = trace::SuggestHypotheses(trace);
    WriteOutput(args.output, args.format == "json" ? trace::SuggestionJson(report, trace.path)
                                                   : trace::SuggestionTable(report, trace.path));
    return;
  }
  trace::WhatifOptions options;
  if (!args.config.empty()) options.hypotheses = trace::ReadHypothesisFile(args.config);
  for (const std::string& region : args.balance)
    options.hypotheses.push_back(trace::BalanceFromArg(region));
  for (const std::string& spec : args.scale) options.hypotheses.push_back(trace::ScaleFromArg(spec));
  for (const std::string& spec : args.cut) options.hypotheses.push_back(trace::CutFromArg(spec));
  for (const std::string& region : args.cut_region)
    options.hypotheses.push_back(trace::CutRegionFromArg(region));
  auto add_global = [&](double factor, trace::HypothesisKind kind, const char* option) {
    if (factor != WhatifArgs::kNotGiven)
      options.hypotheses.push_back(trace::GlobalScaleFromArg(kind, factor, option));
  };
  add_global(args.scale_computation, trace::HypothesisKind::kScaleComputation, "--scale-computation");
  add_global(args.scale_mpi, trace::HypothesisKind::kScaleMpi, "--scale-mpi");
  add_global(args.scale_transfer, trace::HypothesisKind::kScaleTransfer, "--scale-transfer");
  options.analyze_wait_states = !args.no_wait_states;

  trace::Trace trace = trace::ReadOtf2Trace(args.trace_path);
  trace.path = tell(trace.path);
  trace::WhatifResult result = trace::SimulateWhatif(trace, options);
  if (!args.write_trace.empty()) {
    std::string creator = "whatif: simulated from " + trace.path;
    for (const std::string& h : result.hypotheses) creator += "; " + h;
    trace::WriteOtf2ArchiveAtomically(result.simulated, args.write_trace, creator);
  }
  std::string text = args.format == "json" ? trace::WhatifJson(result, args.top)
                                           : trace::WhatifTable(result, args.top);
  WriteOutput(args.output, tell(text));
}

// The trace and the scaling traces may be archives holding one trace each (ingest/archived_trace.h):
// each is read from its unpacked copy, and what is printed names the archive member.
void Run(const WhatifArgs& args) {
  std::vector<std::unique_ptr<TraceInput>> inputs;
  std::vector<const TraceInput*> told;
  auto input = [&](const std::string& path) {
    inputs.push_back(std::make_unique<TraceInput>(path));
    told.push_back(inputs.back().get());
    return inputs.back()->ReadPath();
  };
  WhatifArgs unpacked = args;
  unpacked.trace_path = input(args.trace_path);
  for (std::string& path : unpacked.scaling_traces) path = input(path);
  auto tell = [&](const std::string& text) { return ToldByAll(told, text); };
  RunTellingArchiveMembers(told, [&] { RunOn(unpacked, tell); });
}

}  // namespace

void AddWhatifCommand(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "whatif", "SILAS-style what-if simulation on an OTF2 trace: predicted run time if regions "
                "were balanced or scaled or messages cut");
  auto args = std::make_shared<WhatifArgs>();
  sub->add_option("trace", args->trace_path, "traces.otf2 anchor, the directory holding it, or a tar or .zip archive holding one trace")
      ->required();
  sub->add_option("--balance", args->balance,
                  "REGION[:MODE]: balance REGION's exclusive time; MODE global-instance (default: "
                  "k-th instances averaged over ranks), process-local, global or scaled "
                  "(Hermanns 2008, §3.4.2; repeatable)");
  sub->add_option("--cut-region", args->cut_region,
                  "remove REGION with everything inside it, its messages and the collectives it "
                  "contains, on every rank (repeatable)");
  sub->add_flag("--suggest", args->suggest,
                "propose hypotheses (balance each imbalanced computation region, cut empty "
                "messages), simulate each, rank them by gain, and exit");
  sub->add_option("--procs", args->procs,
                  "with --suggest: rank the suggestions also by their predicted gain at P processes (what-if x "
                  "scaling; needs traces at two or more process counts unless P is the traced one)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--scaling-trace", args->scaling_traces,
                  "with --suggest --procs: a trace of the same code at another process count (repeatable)");
  sub->add_flag("--list-regions", args->list_regions,
                "list the trace's regions (instances per rank, exclusive time, imbalance) and exit");
  sub->add_option("--scale", args->scale, "REGION=FACTOR: exclusive time in REGION times FACTOR");
  sub->add_option("--scale-computation", args->scale_computation,
                  "time outside MPI calls times FACTOR (0 to 1000)");
  sub->add_option("--scale-mpi", args->scale_mpi, "MPI time that is not waiting times FACTOR (0 to 1000)");
  sub->add_option("--scale-transfer", args->scale_transfer,
                  "message transfer time (receive after a late send) times FACTOR (0 to 1000)");
  sub->add_option("--cut-messages", args->cut,
                  "remove messages matching 'size|tag <rel> N' (rel: == != < <= > >=) or "
                  "'region==R' (send or receive inside R)");
  sub->add_option("--config", args->config,
                  "SILAS-like hypothesis file: BALANCE REGION \"r\" [OPTION \"mode\" \"m\"], "
                  "SCALE REGION \"r\" F, SCALE COMPUTATION|MPI|TRANSFER F, CUT REGION \"r\", "
                  "CUT MESSAGE SIZE|TAG <rel> N, CUT MESSAGE REGION \"r\"");
  sub->add_option("--format", args->format, "table (default) or json");
  sub->add_option("-o,--output", args->output, "write the report to FILE instead of stdout");
  sub->add_option("--write-trace", args->write_trace,
                  "also write the simulated run as an OTF2 archive in folder DIR (new, empty, or one "
                  "qnm-predict wrote before)");
  sub->add_option("--top", args->top, "rows in the region and wait-change lists (default 10)")
      ->check(CLI::PositiveNumber);
  sub->add_flag("--no-wait-states", args->no_wait_states,
                "skip the wait-state analysis of the original and simulated trace");
  sub->callback([args] {
    std::vector<std::string> inputs = {args->trace_path, args->config};
    inputs.insert(inputs.end(), args->scaling_traces.begin(), args->scaling_traces.end());
    RefuseOutputOverInputs(args->output, inputs);
    Run(*args);
  });
}

}  // namespace qnm::cli
