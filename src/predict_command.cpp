// `qnm-predict predict` (the default subcommand) and `qnm-predict validate`:
// wire the command line to pipeline/ (series loading, runner, reports, charts).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "models/forward_validation.h"
#include "models/machine_profile.h"
#include "models/procs_spec.h"
#include "pipeline/chart_adapter.h"
#include "pipeline/prediction_report.h"
#include "pipeline/prediction_runner.h"
#include "pipeline/series_loading.h"
#include "pipeline/transfer_runner.h"
#include "src/commands.h"
#include "util/atomic_file.h"
#include "util/heap_reuse.h"
#include "util/input_error.h"
#include "util/text_format.h"
#include "whatif_scaling/whatif_charts.h"
#include "whatif_scaling/whatif_prediction.h"
#include "whatif_scaling/whatif_prediction_report.h"

namespace qnm::cli {
namespace {

struct CommonArgs {
  std::vector<std::string> runs;
  std::string machine, format = "table", output, plot_dir, series, group_by = "content";
  ModelChoiceArgs model;
  double level = 0.9;
  RunSelectionArgs selection;
  TargetArgs target;
};

void AddCommon(CLI::App* sub, CommonArgs* args) {
  sub->add_option("RUNS", args->runs,
                  "files or directories to read (default: the bundled series); formats: " + ReadableFormatList());
  sub->add_option("--machine", args->machine,
                  "machine profile: a JSON file or a bundled name (llnl-cab, g5k-graphene, "
                  "pi4-ntua); default: the bundled profile whose host pattern matches the runs' "
                  "host names, else estimated from the series; with --target it is B's profile, unless "
                  "--target-machine names B's: then it is A's (the RUNS')");
  sub->add_option("--format", args->format, "table | csv | json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  sub->add_option("-o,--output", args->output, "write to FILE (atomically) instead of stdout");
  sub->add_option("--plot", args->plot_dir, "also draw charts (gnuplot) into DIR");
  sub->add_option("--series", args->series, kSeriesOptionHelp);
  sub->add_option("--level", args->level, "level of the prediction intervals (default 0.9)");
  AddModelChoiceOptions(sub, &args->model);
  AddGroupByOption(sub, &args->group_by);
  AddRunSelectionOptions(sub, &args->selection);
  AddTargetOptions(sub, &args->target);
}

}  // namespace

void AddTargetOptions(CLI::App* command, TargetArgs* args) {
  command->add_option("--target", args->runs,
                      "runs of the same code on another machine B (files or directories): the model fitted on "
                      "RUNS (machine A) is moved to B and calibrated on these runs; --machine then names B's profile");
  command->add_option("--target-series", args->series,
                      "the series of the --target runs to move to (as --series; default: the only one, or the one "
                      "with the source's application and class)");
  command->add_option("--target-ranks-per-node", args->ranks_per_node,
                      "MPI ranks per node of the --target runs where their files do not say it "
                      "(--ranks-per-node is the source's)")
      ->check(CLI::Range(1, 10000000));
  command->add_option("--target-machine", args->profile,
                      "B's machine profile (JSON file or bundled name); --machine then names A's; alone, without "
                      "--target: a profile-only transfer (B's speed unknown, wide intervals)");
}

bool HasTarget(const TargetArgs& args) { return !args.runs.empty() || !args.profile.empty(); }

std::string SourceMachine(const std::string& machine, const TargetArgs& target) {
  return !HasTarget(target) || !target.profile.empty() ? machine : std::string();
}

TransferTarget LoadTransferTarget(const TargetArgs& args, const std::string& machine, GroupBy group_by,
                                  const RunSelection& selection) {
  TransferTarget target;
  std::string profile = !args.profile.empty() ? args.profile : machine;
  if (!profile.empty()) {
    target.profile = LoadMachineProfile(profile);
    target.has_profile = true;
  }
  if (!args.runs.empty()) {
    std::string origin;
    RunSelection target_selection = selection;  // B's layout is B's: the source's --ranks-per-node does not apply
    target_selection.ranks_per_node = args.ranks_per_node;
    target.series = LoadSeries(args.runs, args.series, &origin, group_by, target_selection);
  }
  return target;
}

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

void AddModelChoiceOptions(CLI::App* command, ModelChoiceArgs* choice) {
  std::string names;
  for (const std::string& name : NamedRuntimeConfigurations()) names += (names.empty() ? "'" : ", '") + name + "'";
  command->add_option("--configuration", choice->configuration,
                      std::string("runtime-only series: one of ") + names + " (default: '" +
                          kShippedRuntimeConfiguration + "'), or " + kPerSeriesConfiguration +
                          ": of the first four, the configuration whose forecast of the largest training P from the "
                          "ones before it erred least, with 5 or more training P");
  command->add_flag("--no-hold", choice->no_hold,
                    "runtime-only series whose fitted curve turns upward beyond the training range though every "
                    "training run was faster than the one before: predict the rising curve beyond its minimum "
                    "(default: hold the prediction at the minimum; both are flagged)");
  command->add_option("--interval-upper-share", choice->interval_upper_share,
                      "the share of each prediction interval's log width above the prediction, 0.1 to 0.9 "
                      "(default " + FormatDouble("%.2g", PredictionOptions().interval_upper_share) +
                          "; 0.5: the prediction in the interval's geometric middle)")
      ->check(CLI::Range(0.1, 0.9));
  command->add_option("--interval-noise", choice->interval_noise,
                      std::string("how the interval's growth per octave is read from the forward-validation errors: "
                                  "none (every error is growth), in-sample (a noise term of the fit's in-sample "
                                  "error, the rate by maximum likelihood) or fitted (the noise fitted too; "
                                  "default ") +
                          IntervalNoiseName(ExtrapolationErrorOptions().noise) + ")")
      ->check(CLI::IsMember({"none", "in-sample", "fitted"}));
}

PredictionOptions MakePredictionOptions(const std::string& machine, double level, const ModelChoiceArgs& choice) {
  PredictionOptions options;
  options.interval_level = level;
  options.hold_after_unevidenced_turn = !choice.no_hold;
  if (!std::isnan(choice.interval_upper_share)) options.interval_upper_share = choice.interval_upper_share;
  if (!choice.interval_noise.empty() && !ParseIntervalNoise(choice.interval_noise, &options.runtime.error.noise))
    throw InputError("--interval-noise", 0, "must be none, in-sample or fitted, not '" + choice.interval_noise + "'");
  const std::string& configuration = choice.configuration;
  // Not given: the library's default (a transfer then fits A in kDefaultRuntimeConfiguration, as
  // calibrated); per-series: the choice; a name: that configuration, everywhere.
  if (configuration == kPerSeriesConfiguration) {
    options.configuration = configuration;
  } else if (!configuration.empty()) {
    RuntimeConfiguration named;
    if (StandardRuntimeConfigurationNamed(configuration, options.runtime, &named))
      options.configurations = {std::move(named)};
    else
      throw InputError("--configuration", 0, std::string("must be ") + kPerSeriesConfiguration +
                                                 " or the name of a configuration (see --help), not '" +
                                                 configuration + "'");
  }
  if (!machine.empty()) {
    options.machine = LoadMachineProfile(machine);
    options.has_machine = true;
  }
  std::string error;
  if (!options.IsValid(&error)) throw InputError("--level", 0, error);
  return options;
}

TransferOptions MakeTransferOptions(double level) {
  TransferOptions options;
  options.interval_level = level;
  std::string error;
  if (!options.IsValid(&error)) throw InputError("--level", 0, error);
  return options;
}

void AddPredictCommand(CLI::App& app) {
  auto args = std::make_shared<CommonArgs>();
  auto procs = std::make_shared<std::string>("1..1024:x2");
  CLI::App* predict = app.add_subcommand(
      "predict",
      "Predict run time and its five components (compute, load imbalance, switch delay, MPI service, MPI "
      "contention) for other process counts, with intervals");
  AddCommon(predict, args.get());
  predict->add_option("--procs", *procs,
                      "process counts: a..b, a..b:x2, a..b:+k or lists 1,2,4 (default 1..1024:x2)");
  auto whatif = std::make_shared<WhatifHypothesisArgs>();
  AddWhatifHypothesisOptions(predict, whatif.get());
  predict->callback([args, procs, whatif] {
    std::vector<int> targets = ParseProcsSpec(*procs, "--procs");
    const bool transfer = HasTarget(args->target);
    PredictionOptions options =
        MakePredictionOptions(SourceMachine(args->machine, args->target), args->level, args->model);
    std::vector<std::string> inputs = args->runs;
    if (!whatif->config.empty()) inputs.push_back(whatif->config);
    inputs.insert(inputs.end(), args->target.runs.begin(), args->target.runs.end());
    RefuseOutputOverInputs(args->output, inputs);
    if (transfer && whatif->Given())
      throw InputError("--target", 0, "--target and --whatif are not combined: predict one question at a time");
    WhatifScalingOptions whatif_options;
    if (whatif->Given()) whatif_options.hypotheses = ParseWhatifHypotheses(*whatif);
    std::string origin;
    const GroupBy group_by = ParseGroupByOption(args->group_by);
    const RunSelection selection = ParseRunSelection(args->selection);
    std::vector<Series> series = LoadSeries(args->runs, args->series, &origin, group_by, selection);
    PrepareHeapForFits();
    if (whatif->Given()) {  // what-if x scaling: both curves and the gain
      whatif_options.prediction = options;
      std::vector<SeriesWhatifPrediction> results = RunWhatifPredict(series, targets, whatif_options);
      WriteOutput(args->output, FormatWhatifPredictions(results, args->format, origin));
      if (!args->plot_dir.empty())
        for (const SeriesWhatifPrediction& r : results) DrawCharts(BuildWhatifChartSet(r), args->plot_dir);
      return;
    }
    // Series by series: each is fitted, written and freed (with its runs) before
    // the next batch, so memory is bounded by a batch, not by the input (issue 19).
    OutputStream out(args->output);
    PredictionWriter writer(args->format, origin, [&out](std::string_view text) { out.Write(text); });
    auto write = [&](const Series&, SeriesPrediction&& r) {
      if (!args->plot_dir.empty()) DrawCharts(BuildChartSet(r.model, r.observed, r.predictions, {}), args->plot_dir);
      writer.Add(std::move(r));
    };
    if (transfer) {
      std::vector<SeriesPrediction> results =
          RunTransferPredict(series, LoadTransferTarget(args->target, args->machine, group_by, selection), targets,
                             options, MakeTransferOptions(args->level));
      for (std::size_t i = 0; i < results.size(); ++i) write(series[i], std::move(results[i]));
    } else {
      StreamPredict(&series, targets, options, write);
    }
    writer.Finish();
    out.Commit();
  });

  auto vargs = std::make_shared<CommonArgs>();
  auto train = std::make_shared<std::string>();
  auto loo_budget = std::make_shared<double>(kLeaveOneOutBudgetUnits);
  CLI::App* validate = app.add_subcommand(
      "validate",
      "Fit on some process counts, predict the others, and compare with the measured times "
      "(leave-one-out when no --train is given)");
  AddCommon(validate, vargs.get());
  validate->add_option("--train", *train,
                       "training process counts, e.g. 1..8 or 1,2,4,8; with --target: the target's process counts "
                       "that calibrate the transfer (default: its smallest)");
  validate->add_option("--loo-budget", *loo_budget,
                       "leave-one-out work budget in refit-point units (default 6e6, ~30 s of CPU): a refit of n "
                       "process counts costs n + 40 (x7 for the queueing model); beyond the budget each series "
                       "holds out an evenly spread share of its counts, said on stderr and in the validation "
                       "mode; 0 = hold out every count");
  validate->callback([vargs, train, loo_budget] {
    if (!(*loo_budget >= 0))
      throw InputError("--loo-budget", 0, "must be 0 (every count) or a positive number of refit-point units");
    std::vector<int> train_procs;
    if (!train->empty()) train_procs = ParseProcsSpec(*train, "--train");
    const bool transfer = HasTarget(vargs->target);
    PredictionOptions options =
        MakePredictionOptions(SourceMachine(vargs->machine, vargs->target), vargs->level, vargs->model);
    RefuseOutputOverInputs(vargs->output, vargs->runs);
    RefuseOutputOverInputs(vargs->output, vargs->target.runs);
    std::string origin;
    const GroupBy group_by = ParseGroupByOption(vargs->group_by);
    const RunSelection selection = ParseRunSelection(vargs->selection);
    std::vector<Series> series = LoadSeries(vargs->runs, vargs->series, &origin, group_by, selection);
    PrepareHeapForFits();
    if (transfer) {
      TransferTarget target = LoadTransferTarget(vargs->target, vargs->machine, group_by, selection);
      if (!train->empty()) target.calibrate_procs = ParseProcsSpec(*train, "--train");
      std::vector<ValidationResult> results =
          RunTransferValidate(series, target, options, MakeTransferOptions(vargs->level));
      WriteOutput(vargs->output, FormatValidations(results, vargs->format, origin));
      if (!vargs->plot_dir.empty()) DrawValidationCharts(results, series, options, vargs->plot_dir, {});
      return;
    }
    // Series by series, as predict: validated, written and freed a batch at a time.
    OutputStream out(vargs->output);
    ValidationWriter writer(vargs->format, origin, [&out](std::string_view text) { out.Write(text); });
    StreamValidate(
        &series, train_procs, options,
        [&](const Series& one, ValidationResult&& r) {
          if (!vargs->plot_dir.empty()) DrawValidationCharts({r}, {one}, options, vargs->plot_dir, {});
          writer.Add(std::move(r));
        },
        *loo_budget);
    writer.Finish();
    out.Commit();
  });
}

}  // namespace qnm::cli
