#include "models/prediction.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <set>

#include "models/contention_network.h"
#include "models/granularity.h"
#include "models/node_regime.h"
#include "models/prediction_interval.h"
#include "models/speedup_evidence.h"
#include "util/statistics.h"
#include "util/text_format.h"

namespace qnm {
namespace {

/// Point values of the queueing model at `procs` (no intervals).
bool PredictQueueing(const QueueingModel& model, const MachineProfile& machine, int threads,
                     const mva::Options& mva_options, const Granularity& granularity, int procs,
                     ProcsPrediction* p, std::string* error) {
  QueueingParts parts = EvaluateParts(model, machine, procs);
  // The busiest rank holds ceil(U/P) units (models/granularity.h), as many as every rank
  // of the effective process count U/ceil(U/P) <= P: it computes no less than the busiest
  // rank there, so its excess over this P's mean compute is a floor of the imbalance.
  if (const double at = granularity.EffectiveProcs(procs); at < procs && at >= 2)
    parts.imbalance_s = std::max(parts.imbalance_s, BusiestComputeAt(model, at) - parts.compute_s);
  ContentionInput input;
  input.procs = procs;
  input.compute_s = parts.compute_s + parts.imbalance_s;  // away from the MPI queues
  input.switch_delay_s = parts.switch_delay_s;
  input.mpi_active_s = parts.mpi_active_s;
  input.mpi_stations = MpiServiceStations(procs, threads, &machine);
  double contention = 0;
  if (!SolveContention(input, mva_options, &contention, error)) return false;
  double scale = model.time_scale;
  p->messages_per_rank = parts.messages_per_rank;
  p->bytes_per_message = parts.bytes_per_message;
  p->service_s_per_message = parts.service_s_per_message;
  p->mpi_stations = input.mpi_stations;
  p->compute.value_s = parts.compute_s * scale;
  p->imbalance.value_s = parts.imbalance_s * scale;
  p->switch_delay.value_s = parts.switch_delay_s * scale;
  p->mpi_active.value_s = parts.mpi_active_s * scale;
  p->contention.value_s = contention * scale;
  p->total.value_s =
      (parts.compute_s + parts.imbalance_s + parts.switch_delay_s + parts.mpi_active_s + contention) * scale;
  return true;
}

/// Which machine: given, bundled for the series' machine, or estimated from the runs.
void ChooseMachine(const Series& series, const std::vector<const RunStats*>& profiled,
                   const PredictionOptions& options, SeriesModel* m) {
  if (options.has_machine) {
    m->machine = options.machine;
    m->summary.notes.push_back("machine profile " + m->machine.name +
                               (m->machine.file.empty() ? "" : " (" + m->machine.file + ")"));
  } else if (std::string why; FindProfileForSeries(series, &m->machine, &why)) {
    m->summary.notes.push_back("machine profile " + m->machine.name + " (bundled; " + why + ")");
  } else if (EstimateNetworkFromRuns(profiled, &m->machine)) {
    m->summary.notes.push_back(m->machine.estimate_note);
  } else {
    m->machine.name = "none";
    m->machine.latency_s = 0;
    m->machine.bandwidth_bytes_per_s = 1e300;
    m->machine.source = "no profile and no message statistics";
    m->summary.notes.push_back("no machine profile and no message counts: switch delay 0");
  }
}

std::vector<QueueingObservation> QueueingInputs(const std::vector<ProcsObservation>& training) {
  std::vector<QueueingObservation> out;
  for (const ProcsObservation& o : training) {
    QueueingObservation q;
    q.procs = o.procs;
    q.compute_s = Known(o.compute_s) ? o.compute_s : 0.0;
    q.messages_per_rank = Known(o.messages_per_rank) ? o.messages_per_rank : -1.0;
    q.bytes_per_message = Known(o.bytes_per_message) ? o.bytes_per_message : -1.0;
    q.mpi_active_s = Known(o.mpi_active_s) ? o.mpi_active_s : 0.0;
    q.imbalance_s = Known(o.imbalance_s) ? o.imbalance_s : 0.0;
    q.time_scale = Known(o.time_scale) && o.time_scale > 0 ? o.time_scale : 1.0;
    out.push_back(q);
  }
  return out;
}

InputCurve Curve(const char* key, const char* name, const char* unit, const RuntimeModel& model,
                 const std::vector<ProcsObservation>& training, double ProcsObservation::*field) {
  InputCurve c;
  c.key = key;
  c.name = name;
  c.unit = unit;
  for (const ProcsObservation& o : training)
    if (Known(o.*field)) c.measured.emplace_back(o.procs, o.*field);
  c.formula = model.Formula();
  if (!model.members.empty()) c.forward_log_rms = model.members.front().forward_log_rms;
  c.averaged_curves = std::max<int>(1, static_cast<int>(model.members.size()));
  c.evaluate = [model](double procs) { return model.Evaluate(procs); };
  return c;
}

/// The curve as the model uses it: through its training points (the anchor's factor).
InputCurve Anchored(InputCurve c, const TrainingAnchor& anchor) {
  if (anchor.log_residuals.empty()) return c;
  if (anchor.LargestLogMiss() > 0.01) c.formula += ", through the measured points";
  c.evaluate = [inner = c.evaluate, anchor](double procs) { return inner(procs) * anchor.Factor(procs); };
  return c;
}

/// Fitted to P >= 2: a single process has no imbalance and no network messages; the model
/// keeps its measured parts at P = 1, so the curves are not drawn below P = 2.
InputCurve FromTwo(InputCurve c) {
  c.evaluate = [inner = c.evaluate](double procs) { return procs >= 2 ? inner(procs) : kUnknown; };
  return c;
}

/// "misses the measured P=16 by 4.0x" for the measured point the curve misses
/// most, when that is by a factor of 1.5 or more; else empty.
std::string WorstMiss(const InputCurve& c) {
  double worst = 1.5;
  int at = 0;
  for (const auto& [procs, value] : c.measured) {
    const double fitted = c.Evaluate(procs);
    if (!(value > 0) || !(fitted > 0) || !std::isfinite(fitted)) continue;
    const double factor = std::max(fitted / value, value / fitted);
    if (factor >= worst) worst = factor, at = procs;
  }
  return at > 0 ? "misses the measured P=" + std::to_string(at) + " by " + FormatDouble("%.1f", worst) + "x" : "";
}

std::vector<InputCurve> DescribeInputs(const SeriesModel& m) {
  std::vector<InputCurve> out;
  if (m.kind == ModelKind::kRuntimeOnly) {
    // As the predictions use it: through the measured points (the training anchor), not the average of
    // curves alone, which may miss them (a superlinear start the families cannot follow).
    out.push_back(Anchored(Curve("total_time_s", "total run time", "s", m.runtime, m.training,
                                 &ProcsObservation::measured_time_s),
                           m.anchor));
    return out;  // no fit note: the anchored curve goes through every measured point
  }
  const QueueingModel& q = m.queueing;
  out.push_back(Curve("compute_s", "compute time per process", "s", q.compute_s, m.training,
                      &ProcsObservation::compute_s));
  if (!q.imbalance_s.members.empty()) {
    InputCurve c = Curve("imbalance_s", "load imbalance per process (max - mean compute)", "s", q.imbalance_s,
                         m.training, &ProcsObservation::imbalance_s);
    if (m.work_units_equal) c.formula += ", over every run (units of one size: the imbalance is run noise)";
    out.push_back(FromTwo(Anchored(c, q.imbalance_anchor)));
  }
  if (q.has_messages) {
    out.push_back(FromTwo(Curve("messages_per_rank", "messages per process", "messages", q.messages_per_rank,
                                m.training, &ProcsObservation::messages_per_rank)));
    if (q.has_bytes)
      out.push_back(FromTwo(Curve("bytes_per_message", "bytes per message", "bytes", q.bytes_per_message,
                                  m.training, &ProcsObservation::bytes_per_message)));
  }
  if (q.has_messages && q.service.runs > 0) {
    InputCurve c;
    c.key = "service_s_per_message";
    c.name = "MPI service time per message";
    c.unit = "s";
    for (const ProcsObservation& o : m.training)
      if (Known(o.service_s_per_message)) c.measured.emplace_back(o.procs, o.service_s_per_message);
    c.formula = q.service.Formula() + " (LogGP, at the fitted bytes per message)";
    c.evaluate = [q](double procs) {
      double bytes = q.has_bytes && !q.bytes_per_message.members.empty() ? q.bytes_per_message.Evaluate(procs) : 0.0;
      return q.service.Evaluate(bytes);
    };
    out.push_back(FromTwo(c));
  } else {
    InputCurve c = Curve("mpi_active_s", "MPI service time per process", "s", q.mpi_active_s, m.training,
                         &ProcsObservation::mpi_active_s);
    const bool all_zero = std::all_of(c.measured.begin(), c.measured.end(),
                                      [](const std::pair<int, double>& point) { return point.second == 0; });
    if (q.mpi_active_s.members.empty() && !c.measured.empty() && all_zero)
      c.formula = "0 (no run has MPI time beyond its switch delay and load imbalance)";
    out.push_back(c);
  }
  for (InputCurve& c : out) c.fit_note = WorstMiss(c);
  return out;
}

/// Forward validation of the whole queueing pipeline on the training totals.
std::vector<ForwardError> ForwardValidateQueueing(const SeriesModel& m, const PredictionOptions& options) {
  std::vector<QueueingObservation> observations = QueueingInputs(m.training);
  std::vector<double> procs, totals;
  for (const ProcsObservation& o : m.training) {
    procs.push_back(o.procs);
    totals.push_back(o.measured_time_s);
  }
  ForwardValidationOptions forward = options.runtime.forward;
  forward.first_origin = std::max(2, forward.first_origin);
  return RollingOriginErrors(procs, totals, forward, [&](int count) -> Predictor {
    std::vector<QueueingObservation> prefix(observations.begin(), observations.begin() + count);
    QueueingModel fold;
    std::string error;
    if (!FitQueueingModel(prefix, options.runtime, &fold, &error, m.work_units_equal)) return {};
    auto raw = [fold, &m](double p) {
      ProcsPrediction out;
      std::string e;
      if (!PredictQueueing(fold, m.machine, m.threads_per_proc, m.mva, m.UnitGranularity(),
                           static_cast<int>(p), &out, &e))
        return kUnknown;
      return out.total.value_s;
    };
    std::vector<std::pair<int, double>> measured;
    for (int k = 0; k < count; ++k) measured.emplace_back(static_cast<int>(procs[k]), totals[k]);
    TrainingAnchor anchor = TrainingAnchor::Build(measured, raw);
    return [raw, anchor](double p) { return raw(p) * anchor.Factor(p); };
  });
}

/// Pooled sample sd of log(time) over the groups with repeated runs; 0 without repetitions.
double RepetitionLogSd(const std::vector<const RunGroup*>& groups) {
  double sum = 0;
  int degrees = 0;
  for (const RunGroup* group : groups) {
    std::vector<double> logs;
    for (const RunStats& run : group->runs)
      if (double t = run.TotalTimeSeconds(); t > 0 && std::isfinite(t)) logs.push_back(std::log(t));
    if (logs.size() < 2) continue;
    double mean = 0;
    for (double v : logs) mean += v / logs.size();
    for (double v : logs) sum += (v - mean) * (v - mean);
    degrees += static_cast<int>(logs.size()) - 1;
  }
  return degrees > 0 ? std::sqrt(sum / degrees) : 0.0;
}

/// "P=4" or "P=4, 8, 32".
std::string ProcsList(const std::vector<int>& procs) {
  std::string out = "P=";
  for (std::size_t k = 0; k < procs.size(); ++k) out += (k ? ", " : "") + std::to_string(procs[k]);
  return out;
}

/// The fewest profiled process counts the queueing model is fitted to when others have no
/// profile: from three, the whole pipeline has a forward-validation error (fitted on two,
/// forecasting the third; ForwardValidateQueueing).
constexpr std::size_t kMinProfiledProcessCounts = 3;

/// The groups of `series` at the training process counts (all when `train_procs` is empty) and
/// their runs with an MPI profile; returns whether the queueing model applies. It does when every
/// training group has a profile, or when at least kMinProfiledProcessCounts do, the largest
/// training P among them (the edge the model extrapolates from): a campaign with one report
/// missing keeps its queueing model, fitted to the profiled groups alone, and `left_out` gets the
/// others (removed from `training`). The groups are pointed to, not
/// copied: a leave-one-out validation fits every series once per process count.
bool SelectTraining(const Series& series, const std::vector<int>& train_procs,
                    std::vector<const RunGroup*>* training, std::vector<const RunStats*>* profiled,
                    std::vector<const RunGroup*>* left_out = nullptr) {
  std::set<int> train(train_procs.begin(), train_procs.end());
  std::vector<const RunGroup*> with_profile, without_profile;
  for (const RunGroup& group : series.groups) {
    if (!train.empty() && train.count(group.procs) == 0) continue;
    training->push_back(&group);
    bool any = false;
    for (const RunStats& run : group.runs)
      if (HasMpiProfile(run)) {
        profiled->push_back(&run);
        any = true;
      }
    (any ? with_profile : without_profile).push_back(&group);
  }
  if (without_profile.empty()) return true;
  if (with_profile.size() < kMinProfiledProcessCounts || with_profile.back() != training->back()) return false;
  *training = std::move(with_profile);
  if (left_out) *left_out = std::move(without_profile);
  return true;
}

/// Fits the queueing model to m->training and calibrates its intervals on the forward
/// validation of the whole pipeline.
bool FitQueueingPart(const PredictionOptions& options, SeriesModel* m, std::string* error) {
  if (!FitQueueingModel(QueueingInputs(m->training), options.runtime, &m->queueing, error, m->work_units_equal))
    return false;
  std::vector<ForwardError> errors = ForwardValidateQueueing(*m, options);
  double sum = 0;
  for (const ProcsObservation& o : m->training) {
    ProcsPrediction p;
    std::string why;
    double v = PredictQueueing(m->queueing, m->machine, m->threads_per_proc, m->mva, m->UnitGranularity(),
                               o.procs, &p, &why)
                   ? p.total.value_s
                   : kUnknown;
    double log_error = v > 0 ? std::log(v / o.measured_time_s) : kFailedLogError;
    sum += log_error * log_error;
  }
  m->error = CalibrateExtrapolationError(errors, {}, static_cast<int>(errors.size()),
                                         std::sqrt(sum / m->training.size()), options.runtime.error);
  m->summary.forward_log_rms = RmsLogError(errors);
  return true;
}

/// The minimum of the predicted curve beyond the training range (a grid of
/// four points per octave up to 2^22 processes), kept only when the curve
/// rises after it and no training run was slower than the one before.
void FindUnevidencedTurn(const std::vector<std::pair<int, double>>& times, SeriesModel* m) {
  for (std::size_t k = 1; k < times.size(); ++k)
    if (!(times[k].second < times[k - 1].second)) return;  // the data show a rise (or a plateau) themselves
  if (times.size() < 2) return;
  double best_s = times.back().second, last_s = best_s;
  int best_procs = times.back().first;
  for (int step = 1;; ++step) {
    const double procs = times.back().first * std::exp2(step / 4.0);
    if (procs > (1 << 22)) break;
    const ProcsPrediction p = m->Predict(static_cast<int>(std::lround(procs)));
    if (!p.Ok() || !Known(p.total.value_s)) break;
    last_s = p.total.value_s;
    if (last_s < best_s) {
      best_s = last_s;
      best_procs = p.procs;
    }
  }
  if (best_procs > times.back().first && last_s > best_s * 1.01) {
    m->unevidenced_turn_procs = best_procs;
    m->unevidenced_turn_time_s = best_s;
    m->summary.notes.push_back("the fitted curve turns upward after P=" + std::to_string(best_procs) + " (" +
                               FormatDouble("%.4g", best_s) +
                               " s) though every training run was faster than the one before: beyond it " +
                               (m->HoldsAfterTurn() ? "the prediction is held at that minimum (flagged) and the "
                                                     "interval reaches up to the rising curve"
                                                   : "the rise is flagged and the interval reaches down to that "
                                                     "minimum"));
  }
}

/// What the fitted model says about itself (BriefReport and notes).
void FillSummary(SeriesModel* m) {
  m->summary.kind = m->kind;
  m->summary.training_points = static_cast<int>(m->training.size());
  m->summary.extrapolatable = m->training.size() >= 2;
  m->summary.forward_points = m->error.forward_errors;
  if (m->kind == ModelKind::kRuntimeOnly && !m->runtime.members.empty())
    m->summary.forward_log_rms = m->runtime.members.front().forward_log_rms;
  m->summary.per_octave_log_sd = m->summary.extrapolatable ? m->error.per_octave_log_sd : kUnknown;
  m->summary.noise_log_sd = m->error.base_log_sd;
  if (m->kind == ModelKind::kRuntimeOnly)
    m->summary.notes.push_back("total run time = " + m->runtime.Formula());
  if (m->work_units > 0)
    m->summary.notes.push_back("the problem splits into " + std::to_string(m->work_units) +
                               " units of work (NPB-MZ zones, --work-units): no prediction beyond P=" +
                               std::to_string(m->work_units) +
                               (m->work_units_equal
                                    ? "; they are of one size, so the busiest rank holds ceil(" +
                                          std::to_string(m->work_units) +
                                          "/P) of them and a P that does not divide them is no faster than P = " +
                                          std::to_string(m->work_units) + "/ceil(" + std::to_string(m->work_units) +
                                          "/P) (granularity)"
                                    : std::string()));
}

}  // namespace

bool PredictionOptions::IsValid(std::string* error) const {
  if (!(interval_level > 0 && interval_level < 1)) {
    *error = "interval level must be in (0, 1), e.g. 0.9";
    return false;
  }
  if (!(interval_upper_share >= 0.1 && interval_upper_share <= 0.9)) {
    *error = "the interval's upper share must be in [0.1, 0.9] (0.5: the prediction in its geometric middle)";
    return false;
  }
  for (const RuntimeConfiguration& c : configurations)
    if (!c.runtime.IsValid(error)) {
      *error = "configuration " + c.name + ": " + *error;
      return false;
    }
  if (choose_configuration && configurations.empty() && TriedConfigurations().empty()) {
    *error = "no runtime configuration named '" + configuration + "' (" + kPerSeriesConfiguration + " or one of " +
             "models/runtime_configuration.h's)";
    return false;
  }
  return runtime.IsValid(error) && envelope.IsValid(error) && mva.IsValid(error);
}

std::vector<RuntimeConfiguration> PredictionOptions::TriedConfigurations() const {
  if (!choose_configuration) return {};
  if (!configurations.empty()) return configurations;
  if (configuration == kPerSeriesConfiguration) return StandardRuntimeConfigurations(runtime);
  RuntimeConfiguration named;
  if (!StandardRuntimeConfigurationNamed(configuration, runtime, &named)) return {};
  return {std::move(named)};
}

const char* ToString(ModelKind kind) {
  return kind == ModelKind::kQueueing ? "queueing" : "runtime-only";
}

const char* ToString(PredictionTermination termination) {
  switch (termination) {
    case PredictionTermination::kPredicted: return "predicted";
    case PredictionTermination::kCannotExtrapolate: return "cannot extrapolate";
    case PredictionTermination::kBeyondWorkUnits: return "impossible";
    case PredictionTermination::kFailed: return "failed";
  }
  return "unknown";
}

std::string SeriesModelSummary::BriefReport() const {
  std::string out = std::string(ToString(kind)) + " model on " + std::to_string(training_points) +
                    " process count" + (training_points == 1 ? "" : "s");
  if (!extrapolatable) return out + "; one process count: cannot extrapolate";
  if (forward_points > 0)
    out += "; forward-validation RMS log error " + FormatDouble("%.3f", forward_log_rms) + " over " +
           std::to_string(forward_points) + " held-back points";
  if (Known(per_octave_log_sd))
    out += "; interval log sd " + FormatDouble("%.3f", per_octave_log_sd) + " per octave of extrapolation" +
           (Known(noise_log_sd) ? " over a noise of " + FormatDouble("%.3f", noise_log_sd) : "");
  return out;
}

namespace {

/// ObserveSeries on the given groups of a series.
std::vector<ProcsObservation> ObserveGroups(const std::vector<const RunGroup*>& groups, const MachineProfile& machine,
                                            const mva::Options& mva_options,
                                            std::vector<RunDecomposition>* decompositions) {
  std::vector<ProcsObservation> observations;
  observations.reserve(groups.size());  // ~170 bytes each: a million P would double to 340 MB while growing
  for (const RunGroup* one : groups) {
    const RunGroup& group = *one;
    ProcsObservation o;
    o.procs = group.procs;
    o.runs = static_cast<int>(group.runs.size());
    o.measured_time_s = group.median_time_s;
    o.min_time_s = group.min_time_s;
    o.max_time_s = group.max_time_s;
    std::vector<double> compute, imbalance, switch_s, active, contention, app, mpi, w, imbalance_raw, m,
        bytes, service, active_raw, scale;
    for (const RunStats& run : group.runs) {
      if (!HasMpiProfile(run)) continue;
      RunDecomposition d;
      std::string error;
      if (!DecomposeRun(run, machine, mva_options, &d, &error)) continue;
      compute.push_back(d.components.compute_s);
      imbalance.push_back(d.components.imbalance_s);
      imbalance_raw.push_back(d.unscaled.imbalance_s);
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
      o.components.imbalance_s = MedianOfKnown(imbalance);
      o.imbalance_s = MedianOfKnown(imbalance_raw);
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

}  // namespace

std::vector<ProcsObservation> ObserveSeries(const Series& series, const MachineProfile& machine,
                                            const mva::Options& mva_options,
                                            std::vector<RunDecomposition>* decompositions) {
  std::vector<const RunGroup*> groups;
  groups.reserve(series.groups.size());
  for (const RunGroup& group : series.groups) groups.push_back(&group);
  return ObserveGroups(groups, machine, mva_options, decompositions);
}

ProcsPrediction SeriesModel::Predict(int procs) const {
  ProcsPrediction p;
  p.procs = procs;
  if (!summary.extrapolatable && procs != min_train_procs) {
    p.termination = PredictionTermination::kCannotExtrapolate;
    p.message = "only P=" + std::to_string(min_train_procs) +
                " was measured: one process count cannot be extrapolated";
    return p;
  }
  if (work_units > 0 && procs > work_units) {
    p.termination = PredictionTermination::kBeyondWorkUnits;
    p.message = "P=" + std::to_string(procs) + " exceeds the " + std::to_string(work_units) +
                " units of work the problem splits into (NPB-MZ zones, --work-units)";
    return p;
  }
  std::string why;
  const Granularity granularity = UnitGranularity();
  if (kind == ModelKind::kRuntimeOnly) {
    // Never faster than a run whose ranks all hold the busiest rank's share of the units.
    p.total.value_s = runtime.Evaluate(procs);
    if (double at = granularity.EffectiveProcs(procs); at < procs)
      p.total.value_s = std::max(p.total.value_s, runtime.Evaluate(at));
  } else if (!PredictQueueing(queueing, machine, threads_per_proc, mva, granularity, procs, &p, &why)) {
    p.termination = PredictionTermination::kFailed;
    p.message = why;
    return p;
  }
  if (!Known(p.total.value_s)) {
    p.termination = PredictionTermination::kFailed;
    p.message = "the fitted curves give no positive time at this P";
    return p;
  }
  const double factor = anchor.Factor(procs);
  for (Interval* i : {&p.total, &p.compute, &p.imbalance, &p.switch_delay, &p.mpi_active, &p.contention})
    if (Known(i->value_s)) i->value_s *= factor;
  p.extrapolation = ExtrapolationDistance(procs, min_train_procs, max_train_procs);
  const LogHalfWidths half = SplitLogWidth(z_quantile * error.LogSd(p.extrapolation), interval_upper_share);
  for (Interval* i : {&p.total, &p.compute, &p.imbalance, &p.switch_delay, &p.mpi_active, &p.contention})
    SetInterval(i, half);
  // Inside the training range the curves interpolate measured times; the envelope is for extrapolation.
  if (procs > max_train_procs) CheckEnvelope(envelope, widen_to_envelope, half, &p);
  if (unevidenced_turn_procs > 0 && procs > unevidenced_turn_procs &&
      p.total.value_s > unevidenced_turn_time_s * 1.01) {
    p.flags.push_back(std::string(HoldsAfterTurn() ? "held at" : "rises after") + " the curve's minimum at P=" +
                      std::to_string(unevidenced_turn_procs) +
                      (HoldsAfterTurn() ? " (the fitted curve rises after it)" : "") +
                      "; no training run was slower than the one before");
    if (widen_to_envelope || HoldsAfterTurn())
      p.total.lower_s = std::min(p.total.lower_s, ScaledEnd(unevidenced_turn_time_s, -half.below));
    // Held flat: the rise is the fitted overhead terms' own, the upper end keeps it.
    if (HoldsAfterTurn()) p.total.value_s = unevidenced_turn_time_s;
  }
  const bool leaves_node = ranks_per_node > 0 && max_train_procs <= ranks_per_node && procs > ranks_per_node;
  if (leaves_node)
    p.flags.push_back("leaves the node (" + std::to_string(ranks_per_node) +
                      " ranks per node): no training run crossed the network, so the jump a multi-node run "
                      "may take is not in the data");
  const bool may_leave_node = trained_on_one_node_of_unknown_size && procs > max_train_procs;
  if (may_leave_node)
    p.flags.push_back("may leave the node: every training run ran on one node, whose number of ranks the data "
                      "do not give (--ranks-per-node), so this run may cross the network, which no training run did");
  // A run on more nodes has more of what the ranks of one node share (memory bandwidth, caches): a code
  // that stopped scaling inside the node because its ranks shared them may scale again across nodes
  // (HPCG on Fritz: 73 s on 8 and 10 ranks of one node, 1.17 s on 1000 ranks of 42). Nothing in the
  // training runs rules that out, so the interval reaches down to perfect scaling from the last of them.
  // training is sorted by P (its last is max_train_procs).
  if ((leaves_node || may_leave_node) && !training.empty() && Known(training.back().measured_time_s)) {
    const ProcsObservation& last = training.back();
    const double perfect_s = last.measured_time_s * last.procs / procs;
    if (perfect_s < p.total.lower_s) {
      p.total.lower_s = perfect_s;
      p.flags.back() += "; the interval reaches down to perfect scaling from P=" + std::to_string(last.procs);
    }
  }
  FlagUninformativeInterval(min_train_procs, max_train_procs, error, &p);
  return p;
}

std::vector<ProcsObservation> SeriesModel::Measured() const {
  std::vector<ProcsObservation> out = training;
  if (unprofiled.empty()) return out;
  out.insert(out.end(), unprofiled.begin(), unprofiled.end());
  std::sort(out.begin(), out.end(), [](const ProcsObservation& a, const ProcsObservation& b) { return a.procs < b.procs; });
  return out;
}

bool UsesQueueingModel(const Series& series, const std::vector<int>& train_procs) {
  std::vector<const RunGroup*> training;
  std::vector<const RunStats*> profiled;
  return SelectTraining(series, train_procs, &training, &profiled);
}

namespace {

/// FitSeriesModel with one configuration (options.choose_configuration is not read).
bool FitWithOptions(const Series& series, const std::vector<int>& train_procs, const PredictionOptions& options,
                    SeriesModel* model, std::string* error, const std::function<void()>& runs_read) {
  SeriesModel m;
  m.series_name = series.name;
  m.threads_per_proc = std::max(1, series.key.threads_per_proc);
  std::vector<RunLayout> layouts;
  bool equal_units = true;
  for (const RunGroup& group : series.groups)
    for (const RunStats& run : group.runs) {
      m.work_units = std::max(m.work_units, run.work_units);
      if (run.work_units > 0) equal_units = equal_units && run.work_units_equal;
      layouts.push_back(RunLayout{run.procs, run.nodes, run.ranks_per_node});
    }
  m.ranks_per_node = SeriesRanksPerNode(layouts);
  m.work_units_equal = m.work_units > 0 && equal_units;
  m.level = options.interval_level;
  m.mva = options.mva;
  m.widen_to_envelope = options.envelope.widen_interval;
  m.hold_after_turn = options.hold_after_unevidenced_turn;
  m.z_quantile = boost::math::quantile(boost::math::normal(), 0.5 + 0.5 * options.interval_level);
  m.interval_upper_share = options.interval_upper_share;
  std::vector<const RunGroup*> training_groups;
  std::vector<const RunStats*> profiled;
  std::vector<const RunGroup*> unprofiled;
  const bool queueing = SelectTraining(series, train_procs, &training_groups, &profiled, &unprofiled);
  if (training_groups.empty()) {
    *error = series.name + ": no runs at the training process counts";
    return false;
  }
  m.kind = queueing ? ModelKind::kQueueing : ModelKind::kRuntimeOnly;
  if (!queueing && !profiled.empty())
    m.summary.notes.push_back("some training process counts have no MPI profile (the largest among them, or fewer than " +
                              std::to_string(kMinProfiledProcessCounts) + " have one): runtime-only model");
  if (!unprofiled.empty()) {
    std::vector<int> procs;
    for (const RunGroup* group : unprofiled) procs.push_back(group->procs);
    m.summary.notes.push_back(ProcsList(procs) + (procs.size() == 1 ? " has" : " have") +
                              " no MPI profile: the queueing model is fitted to the " +
                              std::to_string(training_groups.size()) +
                              " training process counts that have one; " +
                              (procs.size() == 1 ? "its measured time is" : "their measured times are") +
                              " shown beside the model's, not fitted");
  }
  if (m.kind == ModelKind::kQueueing) ChooseMachine(series, profiled, options, &m);

  if (m.ranks_per_node == 0) {
    bool one_node = true;
    for (const RunGroup* group : training_groups)
      for (const RunStats& run : group->runs) one_node = one_node && run.nodes == 1;
    m.trained_on_one_node_of_unknown_size = one_node;
  }
  m.training = ObserveGroups(training_groups, m.machine, options.mva, &m.decompositions);
  m.unprofiled = ObserveGroups(unprofiled, m.machine, options.mva, nullptr);
  if (m.kind == ModelKind::kQueueing &&
      (m.training.empty() || !std::all_of(m.training.begin(), m.training.end(),
                                          [](const ProcsObservation& o) { return o.has_components; }))) {
    m.kind = ModelKind::kRuntimeOnly;
    m.summary.notes.push_back("decomposition failed for a training process count: runtime-only model");
    // The runtime-only model fits every measured time, the unprofiled ones too.
    m.training = m.Measured();
    m.unprofiled.clear();
  }
  // One note per flag: a flag every run of a sampled profile carries ("no message counts") is one line.
  std::vector<std::pair<std::string, std::vector<const RunDecomposition*>>> flagged;
  for (const RunDecomposition& d : m.decompositions)
    for (const std::string& flag : d.flags) {
      auto same = std::find_if(flagged.begin(), flagged.end(), [&](const auto& f) { return f.first == flag; });
      if (same == flagged.end()) same = flagged.insert(flagged.end(), {flag, {}});
      same->second.push_back(&d);
    }
  for (const auto& [flag, runs] : flagged) {
    if (runs.size() == 1) {
      m.summary.notes.push_back("P=" + std::to_string(runs[0]->procs) + " " + runs[0]->label + ": " + flag);
      continue;
    }
    std::vector<int> procs;
    for (const RunDecomposition* d : runs) procs.push_back(d->procs);
    m.summary.notes.push_back(ProcsList(procs) + ": " + flag);
  }
  if (m.training.empty()) {
    *error = series.name + ": no usable measured time at the training process counts";
    return false;
  }
  // Repetitions measure the run-to-run noise directly (applied after the fit, below).
  const double repetition_log_sd = RepetitionLogSd(training_groups);
  training_groups.clear();
  unprofiled.clear();
  profiled.clear();
  // Nothing below reads the runs (`series` included): the caller may free them now.
  if (runs_read) runs_read();
  m.min_train_procs = m.training.front().procs;
  m.max_train_procs = m.training.back().procs;
  std::vector<std::pair<int, double>> times;
  for (const ProcsObservation& o : m.training) times.emplace_back(o.procs, o.measured_time_s);
  m.envelope = BuildPlausibleEnvelope(times, options.envelope);

  if (m.kind == ModelKind::kRuntimeOnly) {
    RuntimeModelOptions runtime = options.runtime;
    if (runtime.ranks_per_node == 0) runtime.ranks_per_node = m.ranks_per_node;
    // What the node terms and the node-boundary checks stand on (unknown: neither applies).
    if (runtime.ranks_per_node > 0)
      m.summary.notes.push_back(std::to_string(runtime.ranks_per_node) + " ranks per node (the runs' layout)");
    NodeRegimeSplit regime = SplitAtNodeBoundary(times, options.split_at_node_boundary ? m.ranks_per_node : 0);
    if (!regime.note.empty()) m.summary.notes.push_back(regime.note);
    if (!FitRuntimeModel(regime.fitted, runtime, &m.runtime, error)) {
      *error = m.series_name + ": " + *error;
      return false;
    }
    m.error = m.runtime.error;
  } else if (!FitQueueingPart(options, &m, error)) {
    *error = m.series_name + ": " + *error;
    return false;
  }
  if (std::string note = InNodeTrainingNote(times, m.ranks_per_node); !note.empty())
    m.summary.notes.push_back(std::move(note));
  if (m.trained_on_one_node_of_unknown_size)
    if (std::string note = OneNodeOfUnknownSizeNote(times); !note.empty()) m.summary.notes.push_back(std::move(note));
  if (std::string note = NoSpeedupNote(times); !note.empty()) m.summary.notes.push_back(std::move(note));
  // Repetitions measure the run-to-run noise directly: the pooled sd of log
  // time over the repeated training points is a floor of the interval's base
  // (the anchor makes the in-sample error zero, the noise does not go away).
  if (double noise = repetition_log_sd; noise > m.error.base_log_sd) {
    m.error.base_log_sd = noise;
    m.summary.notes.push_back("repeated runs spread by " + FormatDouble("%.1f", 100 * noise) +
                              "% (pooled log sd): the intervals are at least that wide");
  }
  {
    const SeriesModel& fitted = m;  // not yet anchored: Predict() applies an empty anchor
    m.anchor = TrainingAnchor::Build(times, [&fitted](double p) {
      ProcsPrediction q = fitted.Predict(static_cast<int>(p));
      return q.Ok() ? q.total.value_s : kUnknown;
    });
    if (m.anchor.LargestLogMiss() > 0.05)
      m.summary.notes.push_back("the fitted model alone missed a training point by " +
                                FormatDouble("%.0f", 100 * std::expm1(m.anchor.LargestLogMiss())) +
                                "%; predictions follow the measured points (training anchor)");
  }
  FindUnevidencedTurn(times, &m);
  m.inputs = DescribeInputs(m);

  FillSummary(&m);
  *model = std::move(m);
  return true;
}

/// `options` with configuration `c` in place of the runtime model's options, no further choice.
PredictionOptions WithConfiguration(const PredictionOptions& options, const RuntimeConfiguration& c) {
  PredictionOptions out = options;
  out.runtime = c.runtime;
  out.split_at_node_boundary = c.split_at_node_boundary;
  out.choose_configuration = false;
  out.configurations.clear();
  return out;
}

/// The choice per series (models/runtime_configuration.h) among `configurations`: each fitted
/// to the `training` groups but the largest forecasts that one. Returns the index of the one
/// that erred least, -1 when nothing told them apart (fewer than five measured training points,
/// or every forecast alike); `choice` gets every error.
int ChooseConfiguration(const Series& series, const std::vector<const RunGroup*>& training,
                        const std::vector<RuntimeConfiguration>& configurations, const PredictionOptions& options,
                        RuntimeConfigurationChoice* choice) {
  std::vector<const RunGroup*> measured;
  for (const RunGroup* group : training)
    if (Known(group->median_time_s) && group->median_time_s > 0) measured.push_back(group);
  // Four points before the forecast one: with three every configuration but the cost laws' is
  // Amdahl's law alone (RuntimeModelOptions::min_forward_errors), nothing worth choosing by.
  if (measured.size() < 5) return -1;
  const RunGroup& last = *measured.back();
  std::vector<int> before;
  for (std::size_t k = 0; k + 1 < measured.size(); ++k) before.push_back(measured[k]->procs);
  for (const RuntimeConfiguration& c : configurations) {
    SeriesModel shorter;
    std::string ignored;
    double error = NAN;
    if (FitWithOptions(series, before, WithConfiguration(options, c), &shorter, &ignored, {})) {
      const ProcsPrediction p = shorter.Predict(last.procs);
      if (p.Ok() && p.total.value_s > 0 && std::isfinite(p.total.value_s))
        error = std::fabs(std::log(p.total.value_s / last.median_time_s));
    }
    choice->names.push_back(c.name);
    choice->backcast_log_error.push_back(error);
  }
  choice->forecast_procs = last.procs;
  return LeastBackcastError(choice->backcast_log_error, -1);
}

}  // namespace

bool FitSeriesModel(const Series& series, const std::vector<int>& train_procs,
                    const PredictionOptions& options, SeriesModel* model, std::string* error,
                    const std::function<void()>& runs_read) {
  if (!options.IsValid(error)) return false;
  std::vector<const RunGroup*> training;
  std::vector<const RunStats*> profiled;
  const bool queueing = SelectTraining(series, train_procs, &training, &profiled);
  // A caller that names the candidate curves has chosen its model.
  if (!options.choose_configuration || !options.runtime.candidates.empty() || queueing)
    return FitWithOptions(series, train_procs, options, model, error, runs_read);
  const std::vector<RuntimeConfiguration> configurations = options.TriedConfigurations();
  const bool given = configurations.size() == 1;  // one configuration: nothing to choose
  // The shipped default is not the caller's choice: its note says so.
  const bool by_default = given && options.configurations.empty() && options.configuration == kShippedRuntimeConfiguration;
  RuntimeConfigurationChoice choice;
  const int fitted = given ? 0 : ChooseConfiguration(series, training, configurations, options, &choice);
  PredictionOptions chosen = options;
  chosen.choose_configuration = false;
  if (fitted >= 0) chosen = WithConfiguration(options, configurations[fitted]);
  if (!FitWithOptions(series, train_procs, chosen, model, error, runs_read)) return false;
  if (fitted < 0) return true;
  choice.made = !given;
  choice.by_default = by_default;
  choice.chosen_index = given ? -1 : fitted;
  choice.chosen = configurations[fitted].name;
  model->summary.notes.push_back(!given       ? choice.Note()
                                 : by_default ? "configuration " + choice.chosen + " (the default; --configuration " +
                                                    kPerSeriesConfiguration + " chooses one per series)"
                                              : "configuration " + choice.chosen + " (given, not chosen)");
  model->summary.configuration = std::move(choice);
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
