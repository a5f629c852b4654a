// `qnm-predict plot RUNS... [--procs ...] [--train ...] [-o DIR]`: predict and
// validate the series and draw every chart into DIR.
#include <memory>
#include <string>
#include <vector>

#include "models/procs_spec.h"
#include "pipeline/chart_adapter.h"
#include "pipeline/prediction_runner.h"
#include "pipeline/series_loading.h"
#include "src/commands.h"
#include "util/input_error.h"

namespace qnm::cli {

void AddPlotCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> runs;
    std::string procs = "1..1024:x2", train, machine, series, dir = "charts", group_by = "content";
    ModelChoiceArgs model;
    double level = 0.9;
    RunSelectionArgs selection;
    TargetArgs target;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand(
      "plot", "Predict and validate, and draw the charts (validation, components, inputs, speedup)");
  sub->add_option("RUNS", args->runs,
                  "files or directories to read (default: the bundled series); formats: " + ReadableFormatList());
  sub->add_option("--procs", args->procs, "process counts to predict (default 1..1024:x2)");
  sub->add_option("--train", args->train, "training process counts (default: all; validation "
                                          "is leave-one-out then)");
  sub->add_option("--machine", args->machine, "machine profile file or bundled name");
  sub->add_option("--series", args->series, kSeriesOptionHelp);
  sub->add_option("--level", args->level, "level of the prediction intervals (default 0.9)");
  AddModelChoiceOptions(sub, &args->model);
  sub->add_option("-o,--output", args->dir, "output directory (default ./charts)");
  AddGroupByOption(sub, &args->group_by);
  AddRunSelectionOptions(sub, &args->selection);
  AddTargetOptions(sub, &args->target);
  sub->callback([args] {
    std::vector<int> targets = ParseProcsSpec(args->procs, "--procs");
    std::vector<int> train;
    if (!args->train.empty()) train = ParseProcsSpec(args->train, "--train");
    const bool transfer = HasTarget(args->target);
    PredictionOptions options =
        MakePredictionOptions(SourceMachine(args->machine, args->target), args->level, args->model);
    std::string origin;
    const GroupBy group_by = ParseGroupByOption(args->group_by);
    const RunSelection selection = ParseRunSelection(args->selection);
    std::vector<Series> series = LoadSeries(args->runs, args->series, &origin, group_by, selection);
    if (transfer) {  // the source's model on the target: predictions beside the target's measured times
      TransferTarget target = LoadTransferTarget(args->target, args->machine, group_by, selection);
      for (const SeriesPrediction& r :
           RunTransferPredict(series, target, targets, options, MakeTransferOptions(args->level)))
        DrawCharts(BuildChartSet(r.model, r.observed, r.predictions, {}), args->dir);
      return;
    }
    if (!train.empty()) {
      // Charts of the split: the model fitted on `train`, predictions at the targets and held-out P.
      DrawValidationCharts(RunValidate(series, train, options), series, options, args->dir,
                           targets);
      return;
    }
    for (const SeriesPrediction& r : RunPredict(series, targets, options))
      DrawCharts(BuildChartSet(r.model, r.observed, r.predictions, {}), args->dir);
  });
}

}  // namespace qnm::cli
