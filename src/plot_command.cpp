// `qnm-predict plot RUNS... [--procs ...] [--train ...] [-o DIR]`: predict and
// validate the series and draw every chart into DIR.
#include <memory>
#include <string>
#include <vector>

#include "models/procs_spec.h"
#include "src/commands.h"
#include "src/predict_report.h"
#include "util/input_error.h"

namespace qnm::cli {

std::vector<SeriesPrediction> RunPredict(const std::vector<Series>& series,
                                         const std::vector<int>& procs,
                                         const PredictionOptions& options);
std::vector<ValidationResult> RunValidate(const std::vector<Series>& series,
                                          const std::vector<int>& train,
                                          const PredictionOptions& options);

void AddPlotCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> runs;
    std::string procs = "1..1024:x2", train, machine, series, dir = "charts";
    double level = 0.9;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand(
      "plot", "Predict and validate, and draw the charts (validation, components, inputs, speedup)");
  sub->add_option("RUNS", args->runs, "inputs as for predict (default: the bundled series)");
  sub->add_option("--procs", args->procs, "process counts to predict (default 1..1024:x2)");
  sub->add_option("--train", args->train, "training process counts (default: all; validation "
                                          "is leave-one-out then)");
  sub->add_option("--machine", args->machine, "machine profile file or bundled name");
  sub->add_option("--series", args->series, "only series whose name contains NAME");
  sub->add_option("--level", args->level, "level of the prediction intervals (default 0.9)");
  sub->add_option("-o,--output", args->dir, "output directory (default ./charts)");
  sub->callback([args] {
    std::vector<int> targets = ParseProcsSpec(args->procs, "--procs");
    std::vector<int> train;
    if (!args->train.empty()) train = ParseProcsSpec(args->train, "--train");
    PredictionOptions options = MakePredictionOptions(args->machine, args->level);
    std::string origin;
    std::vector<Series> series = LoadSeries(args->runs, args->series, &origin);
    if (!train.empty()) {
      // Charts of the split: the model fitted on `train`, predictions at the targets and held-out P.
      std::vector<ValidationResult> validations = RunValidate(series, train, options);
      for (const ValidationResult& v : validations) {
        const Series* one = nullptr;
        for (const Series& s : series)
          if (s.name == v.series_name) one = &s;
        if (!one) continue;
        std::vector<ProcsObservation> observed = ObserveSeries(*one, v.model.machine, options.mva, nullptr);
        std::vector<ProcsPrediction> predictions;
        std::vector<int> held_out;
        std::vector<int> all = targets;
        for (const ValidationRow& row : v.rows) {
          if (!row.training) held_out.push_back(row.procs);
          all.push_back(row.procs);
        }
        std::sort(all.begin(), all.end());
        all.erase(std::unique(all.begin(), all.end()), all.end());
        for (int p : all) predictions.push_back(v.model.Predict(p));
        DrawCharts(BuildChartSet(v.model, observed, predictions, held_out), args->dir);
      }
      return;
    }
    for (const SeriesPrediction& r : RunPredict(series, targets, options))
      DrawCharts(BuildChartSet(r.model, r.observed, r.predictions, {}), args->dir);
  });
}

}  // namespace qnm::cli
