// `qnm-predict report RUNS... -o study.html [--procs ...]`: the whole study as
// one self-contained HTML page (report/study_report.h).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "models/procs_spec.h"
#include "report/study_report.h"
#include "src/commands.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::cli {

void AddReportCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> runs;
    std::string procs = "1..1024:x2", machine, series, output, group_by = "content";
    ModelChoiceArgs model;
    double level = 0.9;
    std::vector<std::string> traces;
    RunSelectionArgs selection;
    TargetArgs target;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand(
      "report", "Write one self-contained HTML page for a whole study: inputs found, models, predictions, "
                "leave-one-out validation, components (charts inline as SVG)");
  sub->add_option("RUNS", args->runs,
                  "files or directories to read (default: the bundled series); formats: " + ReadableFormatList());
  sub->add_option("-o,--output", args->output, "the HTML file to write (atomically)")->required();
  sub->add_option("--procs", args->procs, "process counts to predict (default 1..1024:x2)");
  sub->add_option("--machine", args->machine, "machine profile file or bundled name");
  sub->add_option("--series", args->series, kSeriesOptionHelp);
  sub->add_option("--level", args->level, "level of the prediction intervals (default 0.9)");
  AddModelChoiceOptions(sub, &args->model);
  sub->add_option("--trace", args->traces,
                  "OTF2 trace (traces.otf2 or its directory) to add: wait states, worst call paths and ranks, "
                  "load-imbalance ranking, region names for whatif (repeatable)");
  AddGroupByOption(sub, &args->group_by);
  AddRunSelectionOptions(sub, &args->selection);
  AddTargetOptions(sub, &args->target);
  auto whatif = std::make_shared<WhatifHypothesisArgs>();
  AddWhatifHypothesisOptions(sub, whatif.get());
  sub->callback([args, whatif] {
    report::StudyOptions options;
    options.paths = args->runs;
    options.series_filter = args->series;
    options.group_by = args->group_by;
    options.group = ParseGroupByOption(args->group_by);
    options.selection = ParseRunSelection(args->selection);
    options.procs_spec = args->procs;
    options.procs = ParseProcsSpec(args->procs, "--procs");
    options.has_target = HasTarget(args->target);
    if (options.has_target && whatif->Given())
      throw InputError("--target", 0, "--target and --whatif are not combined: report one question at a time");
    options.prediction =
        MakePredictionOptions(SourceMachine(args->machine, args->target), args->level, args->model);
    if (options.has_target) {
      options.target = LoadTransferTarget(args->target, args->machine, options.group, options.selection);
      options.transfer = MakeTransferOptions(args->level);
    }
    options.traces = args->traces;
    if (whatif->Given()) options.whatif = ParseWhatifHypotheses(*whatif);
    std::vector<std::string> inputs = args->runs;  // -o over an input would destroy it
    inputs.insert(inputs.end(), args->target.runs.begin(), args->target.runs.end());
    if (!whatif->config.empty()) inputs.push_back(whatif->config);
    inputs.insert(inputs.end(), args->traces.begin(), args->traces.end());
    RefuseOutputOverInputs(args->output, inputs);
    const report::Study study = report::BuildStudy(options);
    WriteOutput(args->output, report::RenderStudyHtml(study));
    std::cerr << "qnm-predict: report of " << study.series.size() << " series written to " << args->output << "\n";
  });
}

}  // namespace qnm::cli
