// `qnm-predict whatif TRACE`: SILAS-style what-if simulation on an OTF2
// trace: what would the run gain if a region were balanced or faster, or
// some messages were gone?
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "src/commands.h"
#include "trace/otf2_reader.h"
#include "trace/otf2_writer.h"
#include "whatif/whatif_hypothesis.h"
#include "whatif/whatif_report.h"
#include "whatif/whatif_simulation.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::cli {
namespace {

struct WhatifArgs {
  std::string trace_path;
  std::vector<std::string> balance, scale, cut;
  double scale_computation = -1, scale_mpi = -1, scale_transfer = -1;
  std::string config;
  std::string format = "table";
  std::string output;
  std::string write_trace;
  int top = 10;
  bool no_wait_states = false;
};

void Run(const WhatifArgs& args) {
  if (args.format != "table" && args.format != "json")
    throw InputError("", 0, "--format must be table or json, not '" + args.format + "'");
  trace::WhatifOptions options;
  if (!args.config.empty()) options.hypotheses = trace::ReadHypothesisFile(args.config);
  for (const std::string& region : args.balance)
    options.hypotheses.push_back(trace::BalanceFromArg(region));
  for (const std::string& spec : args.scale) options.hypotheses.push_back(trace::ScaleFromArg(spec));
  for (const std::string& spec : args.cut) options.hypotheses.push_back(trace::CutFromArg(spec));
  auto add_global = [&](double factor, trace::HypothesisKind kind) {
    if (factor < 0) return;
    trace::Hypothesis h;
    h.kind = kind;
    h.factor = factor;
    options.hypotheses.push_back(h);
  };
  add_global(args.scale_computation, trace::HypothesisKind::kScaleComputation);
  add_global(args.scale_mpi, trace::HypothesisKind::kScaleMpi);
  add_global(args.scale_transfer, trace::HypothesisKind::kScaleTransfer);
  options.analyze_wait_states = !args.no_wait_states;

  trace::Trace trace = trace::ReadOtf2Trace(args.trace_path);
  trace::WhatifResult result = trace::SimulateWhatif(trace, options);
  if (!args.write_trace.empty()) {
    std::string creator = "whatif: simulated from " + trace.path;
    for (const std::string& h : result.hypotheses) creator += "; " + h;
    trace::WriteOtf2ArchiveAtomically(result.simulated, args.write_trace, creator);
  }
  std::string text = args.format == "json" ? trace::WhatifJson(result, args.top)
                                           : trace::WhatifTable(result, args.top);
  WriteOutput(args.output, text);
}

}  // namespace

void AddWhatifCommand(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "whatif", "SILAS-style what-if simulation on an OTF2 trace: predicted run time if regions "
                "were balanced or scaled or messages cut");
  auto args = std::make_shared<WhatifArgs>();
  sub->add_option("trace", args->trace_path, "traces.otf2 anchor or the directory holding it")
      ->required();
  sub->add_option("--balance", args->balance,
                  "give every instance of REGION the average duration over ranks (repeatable)");
  sub->add_option("--scale", args->scale, "REGION=FACTOR: exclusive time in REGION times FACTOR");
  sub->add_option("--scale-computation", args->scale_computation,
                  "time outside MPI calls times FACTOR")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--scale-mpi", args->scale_mpi, "MPI time that is not waiting times FACTOR")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--scale-transfer", args->scale_transfer,
                  "message transfer time (receive after a late send) times FACTOR")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--cut-messages", args->cut,
                  "remove messages matching 'size|tag <rel> N' (rel: == != < <= > >=)");
  sub->add_option("--config", args->config,
                  "SILAS-like hypothesis file: BALANCE REGION \"r\", SCALE REGION \"r\" F, "
                  "SCALE COMPUTATION|MPI|TRANSFER F, CUT MESSAGE SIZE|TAG <rel> N");
  sub->add_option("--format", args->format, "table (default) or json");
  sub->add_option("-o,--output", args->output, "write the report to FILE instead of stdout");
  sub->add_option("--write-trace", args->write_trace,
                  "also write the simulated run as an OTF2 archive in folder DIR (new, empty, or one "
                  "qnm-predict wrote before)");
  sub->add_option("--top", args->top, "rows in the region and wait-change lists (default 10)")
      ->check(CLI::PositiveNumber);
  sub->add_flag("--no-wait-states", args->no_wait_states,
                "skip the wait-state analysis of the original and simulated trace");
  sub->callback([args] { Run(*args); });
}

}  // namespace qnm::cli
