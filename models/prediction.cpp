#include "models/prediction.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <set>

#include "models/contention_network.h"
#include "util/statistics.h"
#include "util/text_format.h"

namespace qnm {
namespace {

/// The fitted part of a model, without intervals (refitted for every leave-one-out fold).
struct CoreModel {
  ModelKind kind = ModelKind::kRuntimeOnly;
  const MachineProfile* machine = nullptr;
  int threads_per_proc = 1;
  bool has_messages = false;  // S = messages x (latency + bytes/bandwidth) (else S = 0)
  bool per_message = false;   // A = service/msg * messages (else A fitted directly)
  bool has_bytes = false;
  std::vector<InputCurve> inputs;
  const ScalingModel* Find(const std::string& key) const {
    for (const InputCurve& input : inputs)
      if (input.key == key) return &input.fit.model;
    return nullptr;
  }
};

bool FitInput(const std::vector<ProcsObservation>& observations, const char* key,
              const char* name, const char* unit, double ProcsObservation::*field,
              const ScalingFitOptions& options, bool positive_only, CoreModel* core,
              std::string* error) {
  InputCurve curve;
  curve.key = key;
  curve.name = name;
  curve.unit = unit;
  std::vector<double> procs, values;
  for (const ProcsObservation& o : observations) {
    double value = o.*field;
    if (!Known(value) || (positive_only && !(value > 0))) continue;
    procs.push_back(o.procs);
    values.push_back(value);
    curve.measured.emplace_back(o.procs, value);
  }
  if (procs.empty()) {
    *error = std::string("no process count has a value for ") + name;
    return false;
  }
  if (!FitScaling(procs, values, options, &curve.fit, error)) {
    *error = std::string(name) + ": " + *error;
    return false;
  }
  core->inputs.push_back(std::move(curve));
  return true;
}

bool FitCore(const std::vector<ProcsObservation>& observations, ModelKind kind,
             const MachineProfile* machine, int threads, const PredictionOptions& options,
             CoreModel* core, std::string* error) {
  *core = CoreModel();
  core->kind = kind;
  core->machine = machine;
  core->threads_per_proc = threads;
  if (kind == ModelKind::kRuntimeOnly)
    return FitInput(observations, "total_time_s", "total run time", "s",
                    &ProcsObservation::measured_time_s, options.runtime_fit, true, core, error);

  ScalingFitOptions constant = options.input_fit;
  constant.p_exponents = {0};
  constant.log_exponents = {0};
  constant.max_terms = 1;
  if (!FitInput(observations, "compute_s", "compute time per process", "s",
                &ProcsObservation::compute_s, options.input_fit, false, core, error) ||
      !FitInput(observations, "time_scale", "measured total / mean app time", "ratio",
                &ProcsObservation::time_scale, constant, true, core, error))
    return false;
  core->has_messages = std::all_of(observations.begin(), observations.end(),
                                   [](const ProcsObservation& o) { return Known(o.messages_per_rank); });
  int with_service = 0, with_bytes = 0;
  for (const ProcsObservation& o : observations) {
    if (Known(o.service_s_per_message) && o.service_s_per_message > 0) ++with_service;
    if (Known(o.bytes_per_message) && o.messages_per_rank > 0) ++with_bytes;
  }
  // The switch delay follows the messages whenever they are known, even when
  // it leaves no MPI service time to express per message (then A is fitted per process).
  core->per_message = core->has_messages && with_service > 0;
  if (core->has_messages) {
    if (!FitInput(observations, "messages_per_rank", "messages per process", "messages",
                  &ProcsObservation::messages_per_rank, options.input_fit, false, core, error))
      return false;
    core->has_bytes = with_bytes > 0;
    if (core->has_bytes &&
        !FitInput(observations, "bytes_per_message", "bytes per message", "bytes",
                  &ProcsObservation::bytes_per_message, options.input_fit, true, core, error))
      return false;
  }
  if (core->per_message) {
    if (!FitInput(observations, "service_s_per_message", "MPI service time per message", "s",
                  &ProcsObservation::service_s_per_message, options.input_fit, true, core, error))
      return false;
  } else if (!FitInput(observations, "mpi_active_s", "MPI service time per process", "s",
                       &ProcsObservation::mpi_active_s, options.input_fit, false, core, error)) {
    return false;
  }
  return true;
}

/// Point prediction (no intervals).
bool PredictCore(const CoreModel& core, int procs, const mva::Options& mva_options,
                 ProcsPrediction* out, std::string* error) {
  ProcsPrediction p;
  p.procs = procs;
  auto eval = [&](const char* key) {
    const ScalingModel* model = core.Find(key);
    return model ? std::max(0.0, model->Evaluate(procs)) : kUnknown;
  };
  if (core.kind == ModelKind::kRuntimeOnly) {
    p.total.value_s = eval("total_time_s");
    *out = p;
    return true;
  }
  double compute = eval("compute_s");
  double scale = eval("time_scale");
  if (!(scale > 0)) scale = 1.0;
  double switch_s = 0, active = 0;
  if (core.has_messages) {
    p.messages_per_rank = eval("messages_per_rank");
    p.bytes_per_message = core.has_bytes ? eval("bytes_per_message") : 0.0;
    switch_s = p.messages_per_rank * core.machine->SwitchDelayPerMessage(p.bytes_per_message);
  }
  if (core.per_message) {
    p.service_s_per_message = eval("service_s_per_message");
    active = p.service_s_per_message * p.messages_per_rank;
  } else {
    active = eval("mpi_active_s");
  }
  ContentionInput input;
  input.procs = procs;
  input.compute_s = compute;
  input.switch_delay_s = switch_s;
  input.mpi_active_s = active;
  input.mpi_stations = MpiServiceStations(procs, core.threads_per_proc, core.machine);
  p.mpi_stations = input.mpi_stations;
  double contention = 0;
  if (!SolveContention(input, mva_options, &contention, error)) return false;
  p.compute.value_s = compute * scale;
  p.switch_delay.value_s = switch_s * scale;
  p.mpi_active.value_s = active * scale;
  p.contention.value_s = contention * scale;
  p.total.value_s = (compute + switch_s + active + contention) * scale;
  *out = p;
  return true;
}

void SetInterval(Interval* interval, double log_sd, double t, double widen) {
  if (!Known(interval->value_s)) return;
  double half = t * log_sd * widen;
  interval->lower_s = interval->value_s * std::exp(-half);
  interval->upper_s = interval->value_s * std::exp(half);
}

double LogError(double predicted, double measured, double floor) {
  return std::log((std::max(0.0, predicted) + floor) / (std::max(0.0, measured) + floor));
}

}  // namespace

PredictionOptions::PredictionOptions() {
  // Strong scaling without profiles: at most two parts c*P^-a that shrink (or
  // stay, a = 0: Amdahl's serial part) as P grows; a up to 1.5 admits the
  // superlinear cache effects real series show. No growing terms: from a few
  // total times alone they extrapolate wildly (validated on the NPB series).
  runtime_fit.p_exponents = {-1.5, -1.25, -1, -0.75, -0.5, -0.25, 0};
  runtime_fit.log_exponents = {0};
  runtime_fit.required_terms = {};
  runtime_fit.max_terms = 2;
}

bool PredictionOptions::IsValid(std::string* error) const {
  if (!(interval_level > 0 && interval_level < 1)) {
    *error = "interval level must be in (0, 1), e.g. 0.9";
    return false;
  }
  if (!(extrapolation_widening >= 0)) {
    *error = "extrapolation_widening must be >= 0";
    return false;
  }
  if (!(fallback_log_error > 0)) {
    *error = "fallback_log_error must be > 0";
    return false;
  }
  return input_fit.IsValid(error) && runtime_fit.IsValid(error) && mva.IsValid(error);
}

const char* ToString(ModelKind kind) {
  return kind == ModelKind::kQueueing ? "queueing" : "runtime-only";
}

std::string SeriesModelSummary::BriefReport() const {
  std::string out = std::string(ToString(kind)) + " model on " + std::to_string(training_points) +
                    " process counts";
  if (loo_points > 0)
    out += "; leave-one-out RMS log error of the total " + FormatDouble("%.3f", loo_log_rms) + " over " +
           std::to_string(loo_points) + " points";
  return out;
}

std::vector<ProcsObservation> ObserveSeries(const Series& series, const MachineProfile& machine,
                                            const mva::Options& mva_options,
                                            std::vector<RunDecomposition>* decompositions) {
  std::vector<ProcsObservation> observations;
  for (const RunGroup& group : series.groups) {
    ProcsObservation o;
    o.procs = group.procs;
    o.runs = static_cast<int>(group.runs.size());
    o.measured_time_s = group.median_time_s;
    o.min_time_s = group.min_time_s;
    o.max_time_s = group.max_time_s;
    std::vector<double> compute, switch_s, active, contention, app, mpi, w, m, bytes, service,
        active_raw, scale;
    for (const RunStats& run : group.runs) {
      if (!HasMpiProfile(run)) continue;
      RunDecomposition d;
      std::string error;
      if (!DecomposeRun(run, machine, mva_options, &d, &error)) continue;
      compute.push_back(d.components.compute_s);
      switch_s.push_back(d.components.switch_delay_s);
      active.push_back(d.components.mpi_active_s);
      contention.push_back(d.components.contention_s);
      app.push_back(d.app_time_s);
      mpi.push_back(d.mpi_time_s);
      w.push_back(d.unscaled.compute_s);
      m.push_back(d.messages_per_rank);
      bytes.push_back(d.bytes_per_message);
      service.push_back(d.ServicePerMessage());
      active_raw.push_back(d.unscaled.mpi_active_s);
      scale.push_back(d.time_scale);
      if (decompositions) decompositions->push_back(d);
    }
    if (!compute.empty()) {
      o.has_components = true;
      o.components.compute_s = MedianOfKnown(compute);
      o.components.switch_delay_s = MedianOfKnown(switch_s);
      o.components.mpi_active_s = MedianOfKnown(active);
      o.components.contention_s = MedianOfKnown(contention);
      o.app_time_s = MedianOfKnown(app);
      o.mpi_time_s = MedianOfKnown(mpi);
      o.compute_s = MedianOfKnown(w);
      o.messages_per_rank = MedianOfKnown(m);
      o.bytes_per_message = MedianOfKnown(bytes);
      o.service_s_per_message = MedianOfKnown(service);
      o.mpi_active_s = MedianOfKnown(active_raw);
      o.time_scale = MedianOfKnown(scale);
      if (!Known(o.measured_time_s)) o.measured_time_s = o.components.Total();
    }
    if (Known(o.measured_time_s) && o.measured_time_s > 0) observations.push_back(o);
  }
  return observations;
}

ProcsPrediction SeriesModel::Predict(int procs) const {
  CoreModel core;
  core.kind = kind;
  core.machine = &machine;
  core.threads_per_proc = threads_per_proc;
  core.inputs = inputs;
  core.has_messages = core.Find("messages_per_rank") != nullptr;
  core.per_message = core.Find("service_s_per_message") != nullptr;
  core.has_bytes = core.Find("bytes_per_message") != nullptr;
  ProcsPrediction p;
  std::string error;
  if (!PredictCore(core, procs, mva, &p, &error)) {
    p.procs = procs;
    return p;  // values stay NaN; callers print them as unknown
  }
  double distance = 0;
  if (procs > max_train_procs) distance = std::log2(static_cast<double>(procs) / max_train_procs);
  if (procs < min_train_procs) distance = std::log2(static_cast<double>(min_train_procs) / procs);
  p.extrapolation = distance;
  double range = std::log2(static_cast<double>(max_train_procs) / min_train_procs);
  double widen = 1.0 + extrapolation_widening * distance / std::max(1.0, range);
  double total_sd = total_log_sd;
  if (kind == ModelKind::kQueueing && p.total.value_s > 0) {
    // Far out, the components' own uncertainties (propagated as independent
    // errors) can exceed what the total's leave-one-out errors say.
    double var = 0;
    for (auto [value, sd] : {std::pair{p.compute.value_s, compute_log_sd},
                             std::pair{p.switch_delay.value_s, switch_log_sd},
                             std::pair{p.mpi_active.value_s, active_log_sd},
                             std::pair{p.contention.value_s, contention_log_sd}})
      var += value * sd * value * sd;
    total_sd = std::max(total_sd, std::sqrt(var) / p.total.value_s);
  }
  SetInterval(&p.total, total_sd, t_quantile, widen);
  if (kind == ModelKind::kQueueing) {
    SetInterval(&p.compute, compute_log_sd, t_quantile, widen);
    SetInterval(&p.switch_delay, switch_log_sd, t_quantile, widen);
    SetInterval(&p.mpi_active, active_log_sd, t_quantile, widen);
    SetInterval(&p.contention, contention_log_sd, t_quantile, widen);
  }
  return p;
}

bool FitSeriesModel(const Series& series, const std::vector<int>& train_procs,
                    const PredictionOptions& options, SeriesModel* model, std::string* error) {
  if (!options.IsValid(error)) return false;
  SeriesModel m;
  m.series_name = series.name;
  m.threads_per_proc = std::max(1, series.key.threads_per_proc);
  m.level = options.interval_level;
  m.mva = options.mva;
  m.extrapolation_widening = options.extrapolation_widening;
  std::set<int> train(train_procs.begin(), train_procs.end());
  auto in_training = [&](int procs) { return train.empty() || train.count(procs) > 0; };

  // Which machine: given, bundled for the series' machine, or estimated.
  std::vector<const RunStats*> profiled;
  bool all_profiled = true;
  int training_groups = 0;
  for (const RunGroup& group : series.groups) {
    if (!in_training(group.procs)) continue;
    ++training_groups;
    bool any = false;
    for (const RunStats& run : group.runs)
      if (HasMpiProfile(run)) {
        profiled.push_back(&run);
        any = true;
      }
    all_profiled = all_profiled && any;
  }
  if (training_groups == 0) {
    *error = series.name + ": no runs at the training process counts";
    return false;
  }
  m.kind = all_profiled ? ModelKind::kQueueing : ModelKind::kRuntimeOnly;
  if (!all_profiled && !profiled.empty())
    m.summary.notes.push_back("some training process counts have no MPI profile: runtime-only model");
  if (m.kind == ModelKind::kQueueing) {
    if (options.has_machine) {
      m.machine = options.machine;
      m.summary.notes.push_back("machine profile " + m.machine.name +
                                (m.machine.file.empty() ? "" : " (" + m.machine.file + ")"));
    } else if (std::string why; FindProfileForSeries(series, &m.machine, &why)) {
      m.summary.notes.push_back("machine profile " + m.machine.name + " (bundled; " + why + ")");
    } else if (EstimateNetworkFromRuns(profiled, &m.machine)) {
      m.summary.notes.push_back(m.machine.estimate_note);
    } else {
      m.machine.name = "none";
      m.machine.latency_s = 0;
      m.machine.bandwidth_bytes_per_s = 1e300;
      m.machine.source = "no profile and no message statistics";
      m.summary.notes.push_back("no machine profile and no message counts: switch delay 0");
    }
  }

  // Observations of the training process counts.
  Series training_series = series;
  training_series.groups.clear();
  for (const RunGroup& group : series.groups)
    if (in_training(group.procs)) training_series.groups.push_back(group);
  m.training = ObserveSeries(training_series, m.machine, options.mva, &m.decompositions);
  if (m.kind == ModelKind::kQueueing) {
    bool complete = std::all_of(m.training.begin(), m.training.end(),
                                [](const ProcsObservation& o) { return o.has_components; });
    if (!complete || m.training.empty()) {
      m.kind = ModelKind::kRuntimeOnly;
      m.summary.notes.push_back("decomposition failed for a training process count: runtime-only model");
    }
  }
  for (const RunDecomposition& d : m.decompositions)
    for (const std::string& flag : d.flags)
      m.summary.notes.push_back("P=" + std::to_string(d.procs) + " " + d.label + ": " + flag);
  if (m.training.empty()) {
    *error = series.name + ": no usable measured time at the training process counts";
    return false;
  }
  m.min_train_procs = m.training.front().procs;
  m.max_train_procs = m.training.back().procs;

  CoreModel core;
  if (!FitCore(m.training, m.kind, &m.machine, m.threads_per_proc, options, &core, error)) {
    *error = series.name + ": " + *error;
    return false;
  }
  m.inputs = core.inputs;

  // Intervals: leave-one-out predictions of the whole pipeline.
  std::vector<double> total_errors, compute_errors, switch_errors, active_errors, contention_errors;
  if (m.training.size() >= 3) {
    for (std::size_t k = 0; k < m.training.size(); ++k) {
      std::vector<ProcsObservation> rest = m.training;
      rest.erase(rest.begin() + static_cast<long>(k));
      CoreModel fold;
      std::string fold_error;
      ProcsPrediction p;
      if (!FitCore(rest, m.kind, &m.machine, m.threads_per_proc, options, &fold, &fold_error) ||
          !PredictCore(fold, m.training[k].procs, options.mva, &p, &fold_error))
        continue;
      const ProcsObservation& o = m.training[k];
      total_errors.push_back(LogError(p.total.value_s, o.measured_time_s, 0.0));
      if (m.kind == ModelKind::kQueueing) {
        double floor = 0.02 * o.measured_time_s;
        compute_errors.push_back(LogError(p.compute.value_s, o.components.compute_s, floor));
        switch_errors.push_back(LogError(p.switch_delay.value_s, o.components.switch_delay_s, floor));
        active_errors.push_back(LogError(p.mpi_active.value_s, o.components.mpi_active_s, floor));
        contention_errors.push_back(LogError(p.contention.value_s, o.components.contention_s, floor));
      }
    }
  }
  auto rms = [&](const std::vector<double>& errors) {
    if (errors.size() < 2) return options.fallback_log_error;
    double sum = 0;
    for (double e : errors) sum += e * e;
    return std::max(0.01, std::sqrt(sum / static_cast<double>(errors.size())));
  };
  m.total_log_sd = rms(total_errors);
  m.compute_log_sd = rms(compute_errors);
  m.switch_log_sd = rms(switch_errors);
  m.active_log_sd = rms(active_errors);
  m.contention_log_sd = rms(contention_errors);
  double df = std::max(1.0, static_cast<double>(total_errors.size()) - 1.0);
  boost::math::students_t t_dist(df);
  m.t_quantile = boost::math::quantile(t_dist, 0.5 + 0.5 * options.interval_level);
  if (total_errors.size() < 2)
    m.summary.notes.push_back("too few process counts for leave-one-out: intervals assume a " +
                              FormatDouble("%.0f%%", 100 * (std::exp(options.fallback_log_error) - 1)) +
                              " error");

  m.summary.kind = m.kind;
  m.summary.training_points = static_cast<int>(m.training.size());
  m.summary.loo_points = static_cast<int>(total_errors.size());
  m.summary.loo_log_rms = total_errors.size() >= 2 ? m.total_log_sd : kUnknown;
  m.summary.interval_log_sd = m.total_log_sd;
  *model = std::move(m);
  return true;
}

double FitSerialFraction(const std::vector<std::pair<int, double>>& times) {
  std::vector<std::vector<double>> columns(2);
  std::vector<double> rhs;
  for (const auto& [procs, time] : times) {
    if (!(time > 0) || procs < 1) continue;
    columns[0].push_back(1.0 / time);  // relative least squares
    columns[1].push_back(1.0 / (procs * time));
    rhs.push_back(1.0);
  }
  if (rhs.size() < 2) return kUnknown;
  std::vector<double> c;
  double residual = SmallNonnegativeLeastSquares(columns, rhs, true, &c);
  if (!std::isfinite(residual) || !(c[0] + c[1] > 0)) return kUnknown;
  return c[0] / (c[0] + c[1]);
}

}  // namespace qnm
