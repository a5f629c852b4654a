#include "pipeline/chart_adapter.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>

#include "util/input_error.h"

namespace qnm {

plots::ChartSet BuildChartSet(const SeriesModel& model, const std::vector<ProcsObservation>& observed,
                              const std::vector<ProcsPrediction>& predictions,
                              const std::vector<int>& held_out) {
  plots::ChartSet charts;
  charts.context.series_name = model.series_name;
  if (model.kind == ModelKind::kQueueing)
    charts.context.machine =
        model.machine.estimated ? "network estimated from the series" : model.machine.name;
  std::string stem;
  for (char c : model.series_name)
    stem += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
  charts.context.file_stem = stem.empty() ? "series" : stem;
  if (model.work_units > 0)
    charts.context.caveat = {"No prediction beyond P = " + std::to_string(model.work_units) + ":",
                             "the problem has " + std::to_string(model.work_units) +
                                 " units of work (NPB-MZ zones, --work-units)."};
  // Which way of fitting a runtime-only series was chosen for it, and on what evidence.
  if (const RuntimeConfigurationChoice& choice = model.summary.configuration; choice.made) {
    charts.context.caveat.push_back("Runtime model: " + choice.chosen + ",");
    const int chosen = choice.chosen_index, fallback = kDefaultRuntimeConfiguration;
    if (chosen >= 0 && std::isfinite(choice.backcast_log_error[chosen])) {
      charts.context.caveat.push_back("chosen per series: its forecast of P = " +
                                      std::to_string(choice.forecast_procs) + " from the");
      charts.context.caveat.push_back("runs before it erred least (" + choice.BackcastPercent(chosen) +
                                      (chosen == fallback ? ")." : ";"));
      if (chosen != fallback && fallback < static_cast<int>(choice.names.size()))
        charts.context.caveat.push_back(choice.names[fallback] + ", the fallback: " + choice.BackcastPercent(fallback) + ").");
    }
  } else if (choice.by_default) {
    charts.context.caveat.push_back("Runtime model: " + choice.chosen + " (the default).");
  }
  charts.interval_level = model.level;
  std::vector<std::pair<int, double>> times;
  for (const ProcsObservation& o : observed) {
    plots::MeasuredPoint point;
    point.procs = o.procs;
    point.time_s = o.measured_time_s;
    point.min_s = o.min_time_s;
    point.max_s = o.max_time_s;
    point.training = std::find(held_out.begin(), held_out.end(), o.procs) == held_out.end() &&
                     std::none_of(model.unprofiled.begin(), model.unprofiled.end(),
                                  [&](const ProcsObservation& u) { return u.procs == o.procs; });
    charts.measured.push_back(point);
    if (point.training) times.emplace_back(o.procs, o.measured_time_s);
    if (o.has_components)
      charts.measured_components.push_back(
          {o.procs, o.components.compute_s,
           o.components.imbalance_s + o.components.switch_delay_s + o.components.mpi_active_s +
               o.components.contention_s});
  }
  for (const ProcsPrediction& p : predictions) {
    plots::PredictedPoint point;
    point.procs = p.procs;
    point.time_s = p.total.value_s;
    point.lower_s = p.total.lower_s;
    point.upper_s = p.total.upper_s;
    point.compute_s = p.compute.value_s;
    point.imbalance_s = p.imbalance.value_s;
    point.switch_delay_s = p.switch_delay.value_s;
    point.mpi_active_s = p.mpi_active.value_s;
    point.contention_s = p.contention.value_s;
    point.flagged = !p.flags.empty();
    charts.predicted.push_back(point);
  }
  int max_procs = model.max_train_procs;
  for (const ProcsPrediction& p : predictions) max_procs = std::max(max_procs, p.procs);
  for (const ProcsObservation& o : observed) max_procs = std::max(max_procs, o.procs);
  for (const InputCurve& input : model.inputs) {
    if (input.key == "time_scale") continue;
    plots::ModelInputCurve curve;
    curve.name = input.name;
    curve.unit = input.unit;
    curve.formula = input.formula;
    curve.fit_note = input.fit_note;
    curve.measured = input.measured;
    for (int k = 0; k <= 48; ++k) {
      int procs = static_cast<int>(std::lround(std::pow(max_procs, k / 48.0)));
      if (!curve.fitted.empty() && curve.fitted.back().first == procs) continue;
      const double value = input.Evaluate(procs);
      if (!std::isfinite(value)) continue;  // not modelled there (message curves below P = 2)
      curve.fitted.emplace_back(procs, std::max(0.0, value));
    }
    charts.inputs.push_back(curve);
  }
  charts.serial_fraction = FitSerialFraction(times);
  return charts;
}

void DrawCharts(const plots::ChartSet& charts, const std::string& dir) {
  if (!plots::GnuplotAvailable()) {
    std::cerr << "qnm-predict: warning: gnuplot not found, no charts drawn (install gnuplot-nox)\n";
    return;
  }
  plots::PlotOptions options;
  options.output_dir = dir;
  plots::PlotResult result;
  std::string error;
  if (!plots::WriteCharts(charts, options, &result, &error))
    throw InputError("", 0, "charts for " + charts.context.series_name + " not drawn: " + error);
  for (const std::string& warning : result.warnings)
    std::cerr << "qnm-predict: warning: " << warning << "\n";
  std::cerr << "qnm-predict: " << result.files.size() << " chart files for "
            << charts.context.series_name << " in " << dir << "\n";
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

}  // namespace qnm
