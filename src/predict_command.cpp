// `qnm-predict predict` (the default subcommand) and `qnm-predict validate`:
// wire the command line to models/prediction.h and models/validation.h.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "models/procs_spec.h"
#include "src/commands.h"
#include "src/predict_report.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::cli {
namespace {

struct CommonArgs {
  std::vector<std::string> runs;
  std::string machine, format = "table", output, plot_dir, series, group_by = "content";
  double level = 0.9;
};

void AddCommon(CLI::App* sub, CommonArgs* args) {
  sub->add_option("RUNS", args->runs,
                  "mpiP reports, NPB outputs, statistics tables or directories (default: the "
                  "bundled series)");
  sub->add_option("--machine", args->machine,
                  "machine profile: a JSON file or a bundled name (llnl-cab, g5k-graphene, "
                  "pi4-ntua); default: the bundled profile matching the runs' machine, else "
                  "estimated from the series");
  sub->add_option("--format", args->format, "table | csv | json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  sub->add_option("-o,--output", args->output, "write to FILE (atomically) instead of stdout");
  sub->add_option("--plot", args->plot_dir, "also draw charts (gnuplot) into DIR");
  sub->add_option("--series", args->series, "only series whose name contains NAME");
  sub->add_option("--level", args->level, "level of the prediction intervals (default 0.9)");
  AddGroupByOption(sub, &args->group_by);
}

}  // namespace

std::vector<SeriesPrediction> RunPredict(const std::vector<Series>& series,
                                         const std::vector<int>& procs,
                                         const PredictionOptions& options) {
  std::vector<SeriesPrediction> results;
  for (const Series& one : series) {
    SeriesPrediction r;
    std::string error;
    if (!FitSeriesModel(one, {}, options, &r.model, &error)) throw InputError("", 0, error);
    r.observed = ObserveSeries(one, r.model.machine, options.mva, nullptr);
    std::vector<int> targets = procs;
    if (one.groups.size() < 2) {  // nothing to extrapolate from: its own P only, and say so
      targets.clear();
      std::cerr << "qnm-predict: note: series " << one.name << " has runs at one process count only (P="
                << (one.groups.empty() ? 0 : one.groups.front().procs)
                << "): it cannot be extrapolated; only its own P is reproduced\n";
    }
    for (const ProcsObservation& o : r.observed) targets.push_back(o.procs);
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    for (int p : targets) r.predictions.push_back(r.model.Predict(p));
    results.push_back(std::move(r));
  }
  return results;
}

std::vector<ValidationResult> RunValidate(const std::vector<Series>& series,
                                          const std::vector<int>& train,
                                          const PredictionOptions& options) {
  std::vector<ValidationResult> results;
  std::string last_error;
  for (const Series& one : series) {
    ValidationOptions validation;
    validation.train_procs = train;
    validation.prediction = options;
    ValidationResult r;
    if (!ValidateSeries(one, validation, &r, &last_error)) {
      if (series.size() == 1) throw InputError("", 0, last_error);
      continue;  // e.g. a single-P series among many
    }
    results.push_back(std::move(r));
  }
  if (results.empty()) throw InputError("", 0, "no series could be validated: " + last_error);
  return results;
}

void DrawValidationCharts(const std::vector<ValidationResult>& results,
                          const std::vector<Series>& series, const PredictionOptions& options,
                          const std::string& dir, const std::vector<int>& extra_procs) {
  for (const ValidationResult& r : results) {
    const Series* one = nullptr;
    for (const Series& s : series)
      if (s.name == r.series_name) one = &s;
    if (!one) continue;
    std::vector<ProcsObservation> observed = ObserveSeries(*one, r.model.machine, options.mva, nullptr);
    std::vector<ProcsPrediction> predictions;
    std::vector<int> held_out;
    std::vector<int> all = extra_procs;
    for (const ValidationRow& row : r.rows) {
      if (extra_procs.empty()) predictions.push_back(row.predicted);
      if (!row.training) held_out.push_back(row.procs);
      all.push_back(row.procs);
    }
    if (!extra_procs.empty()) {
      std::sort(all.begin(), all.end());
      all.erase(std::unique(all.begin(), all.end()), all.end());
      for (int p : all) predictions.push_back(r.model.Predict(p));
    }
    DrawCharts(BuildChartSet(r.model, observed, predictions, held_out), dir);
  }
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
  predict->callback([args, procs] {
    std::vector<int> targets = ParseProcsSpec(*procs, "--procs");
    PredictionOptions options = MakePredictionOptions(args->machine, args->level);
    std::string origin;
    std::vector<Series> series = LoadSeries(args->runs, args->series, &origin, ParseGroupByOption(args->group_by));
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
    std::string origin;
    std::vector<Series> series = LoadSeries(vargs->runs, vargs->series, &origin, ParseGroupByOption(vargs->group_by));
    std::vector<ValidationResult> results = RunValidate(series, train_procs, options);
    WriteOutput(vargs->output, FormatValidations(results, vargs->format, origin));
    if (!vargs->plot_dir.empty()) DrawValidationCharts(results, series, options, vargs->plot_dir, {});
  });
}

}  // namespace qnm::cli
