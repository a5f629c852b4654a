// `qnm-predict predict` (the default subcommand) and `qnm-predict validate`:
// wire the command line to pipeline/ (series loading, runner, reports, charts).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "models/machine_profile.h"
#include "models/procs_spec.h"
#include "pipeline/chart_adapter.h"
#include "pipeline/prediction_report.h"
#include "pipeline/prediction_runner.h"
#include "pipeline/series_loading.h"
#include "src/commands.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "whatif_scaling/whatif_charts.h"
#include "whatif_scaling/whatif_prediction.h"
#include "whatif_scaling/whatif_prediction_report.h"

namespace qnm::cli {
namespace {

struct CommonArgs {
  std::vector<std::string> runs;
  std::string machine, format = "table", output, plot_dir, series, group_by = "content";
  double level = 0.9;
  RunSelectionArgs selection;
};

void AddCommon(CLI::App* sub, CommonArgs* args) {
  sub->add_option("RUNS", args->runs,
                  "files or directories to read (default: the bundled series); formats: " + ReadableFormatList());
  sub->add_option("--machine", args->machine,
                  "machine profile: a JSON file or a bundled name (llnl-cab, g5k-graphene, "
                  "pi4-ntua); default: the bundled profile whose host pattern matches the runs' "
                  "host names, else estimated from the series");
  sub->add_option("--format", args->format, "table | csv | json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  sub->add_option("-o,--output", args->output, "write to FILE (atomically) instead of stdout");
  sub->add_option("--plot", args->plot_dir, "also draw charts (gnuplot) into DIR");
  sub->add_option("--series", args->series, kSeriesOptionHelp);
  sub->add_option("--level", args->level, "level of the prediction intervals (default 0.9)");
  AddGroupByOption(sub, &args->group_by);
  AddRunSelectionOptions(sub, &args->selection);
}

}  // namespace

void AddGroupByOption(CLI::App* command, std::string* group_by) {
  command->add_option("--group-by", *group_by,
                      "what besides the files' content (application, class, threads, machine from "
                      "host names) keys a series: content (default), folder (the folder of the run's "
                      "files) or file-prefix (the data-set tag of file names)")
      ->check(CLI::IsMember({"content", "folder", "file-prefix"}));
}

GroupBy ParseGroupByOption(const std::string& text) {
  GroupBy group_by = GroupBy::kContent;
  if (!ParseGroupBy(text, &group_by))
    throw InputError("--group-by", 0, "must be content, folder or file-prefix, not '" + text + "'");
  return group_by;
}

PredictionOptions MakePredictionOptions(const std::string& machine, double level) {
  PredictionOptions options;
  options.interval_level = level;
  if (!machine.empty()) {
    options.machine = LoadMachineProfile(machine);
    options.has_machine = true;
  }
  std::string error;
  if (!options.IsValid(&error)) throw InputError("--level", 0, error);
  return options;
}

void AddPredictCommand(CLI::App& app) {
  auto args = std::make_shared<CommonArgs>();
  auto procs = std::make_shared<std::string>("1..1024:x2");
  CLI::App* predict = app.add_subcommand(
      "predict",
      "Predict run time and its four components (compute, switch delay, MPI service, MPI "
      "contention) for other process counts, with intervals");
  AddCommon(predict, args.get());
  predict->add_option("--procs", *procs,
                      "process counts: a..b, a..b:x2, a..b:+k or lists 1,2,4 (default 1..1024:x2)");
  auto whatif = std::make_shared<WhatifHypothesisArgs>();
  AddWhatifHypothesisOptions(predict, whatif.get());
  predict->callback([args, procs, whatif] {
    std::vector<int> targets = ParseProcsSpec(*procs, "--procs");
    PredictionOptions options = MakePredictionOptions(args->machine, args->level);
    std::vector<std::string> inputs = args->runs;
    if (!whatif->config.empty()) inputs.push_back(whatif->config);
    RefuseOutputOverInputs(args->output, inputs);
    WhatifScalingOptions whatif_options;
    if (whatif->Given()) whatif_options.hypotheses = ParseWhatifHypotheses(*whatif);
    std::string origin;
    std::vector<Series> series = LoadSeries(args->runs, args->series, &origin, ParseGroupByOption(args->group_by),
                                            ParseRunSelection(args->selection));
    if (whatif->Given()) {  // what-if x scaling: both curves and the gain
      whatif_options.prediction = options;
      std::vector<SeriesWhatifPrediction> results = RunWhatifPredict(series, targets, whatif_options);
      WriteOutput(args->output, FormatWhatifPredictions(results, args->format, origin));
      if (!args->plot_dir.empty())
        for (const SeriesWhatifPrediction& r : results) DrawCharts(BuildWhatifChartSet(r), args->plot_dir);
      return;
    }
    std::vector<SeriesPrediction> results = RunPredict(series, targets, options);
    WriteOutput(args->output, FormatPredictions(results, args->format, origin));
    if (!args->plot_dir.empty())
      for (const SeriesPrediction& r : results)
        DrawCharts(BuildChartSet(r.model, r.observed, r.predictions, {}), args->plot_dir);
  });

  auto vargs = std::make_shared<CommonArgs>();
  auto train = std::make_shared<std::string>();
  CLI::App* validate = app.add_subcommand(
      "validate",
      "Fit on some process counts, predict the others, and compare with the measured times "
      "(leave-one-out when no --train is given)");
  AddCommon(validate, vargs.get());
  validate->add_option("--train", *train, "training process counts, e.g. 1..8 or 1,2,4,8");
  validate->callback([vargs, train] {
    std::vector<int> train_procs;
    if (!train->empty()) train_procs = ParseProcsSpec(*train, "--train");
    PredictionOptions options = MakePredictionOptions(vargs->machine, vargs->level);
    RefuseOutputOverInputs(vargs->output, vargs->runs);
    std::string origin;
    std::vector<Series> series = LoadSeries(vargs->runs, vargs->series, &origin, ParseGroupByOption(vargs->group_by),
                                            ParseRunSelection(vargs->selection));
    std::vector<ValidationResult> results = RunValidate(series, train_procs, options);
    WriteOutput(vargs->output, FormatValidations(results, vargs->format, origin));
    if (!vargs->plot_dir.empty()) DrawValidationCharts(results, series, options, vargs->plot_dir, {});
  });
}

}  // namespace qnm::cli
