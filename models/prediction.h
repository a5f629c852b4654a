#pragma once
// Strong-scaling prediction of a series (Buckwalter 2005 + LoPC): fit how each
// per-process model input scales with P (models/scaling_fit.h), then at every
// target P rebuild the four components, T(P) = W + S + A + C with C from the
// contention network solved at P. Series without MPI profiles (a table of
// procs and time) are predicted from a strong-scaling fit of the total time.
// Every value carries an interval from leave-one-out errors of the whole
// pipeline (Student t), widened with the distance of extrapolation.
#include <string>
#include <vector>

#include "record/run_stats.h"
#include "models/decomposition.h"
#include "models/machine_profile.h"
#include "models/scaling_fit.h"
#include "mva/solver.h"

namespace qnm {

struct PredictionOptions {
  double interval_level = 0.9;     // two-sided level of every interval
  ScalingFitOptions input_fit;     // per-process inputs (messages, bytes/msg, ...)
  ScalingFitOptions runtime_fit;   // total time of runtime-only series
  bool has_machine = false;        // use `machine`; else a bundled profile matching the
  MachineProfile machine;          // series' machine name, else estimate from the series
  mva::Options mva;
  // Log-space error assumed when there are too few points for leave-one-out.
  double fallback_log_error = 0.3;
  // Interval half-widths grow by this factor per training range (in log2 P)
  // of extrapolation: leave-one-out errors mostly measure interpolation.
  double extrapolation_widening = 3.0;

  PredictionOptions();
  bool IsValid(std::string* error) const;
};

/// A value with its prediction interval (NaN when unknown).
struct Interval {
  double value_s = kUnknown, lower_s = kUnknown, upper_s = kUnknown;
};

struct ProcsPrediction {
  int procs = 0;
  Interval total, compute, switch_delay, mpi_active, contention;
  double messages_per_rank = kUnknown, bytes_per_message = kUnknown,
         service_s_per_message = kUnknown;
  long mpi_stations = 0;
  double extrapolation = 0.0;  // log2 distance outside the training range (0 inside)
};

enum class ModelKind { kQueueing, kRuntimeOnly };
const char* ToString(ModelKind kind);

/// One fitted model input with the points it was fitted to.
struct InputCurve {
  std::string key;   // "compute_s", "messages_per_rank", ...
  std::string name;  // "compute time per process"
  std::string unit;  // "s", "messages", "bytes", "ratio"
  std::vector<std::pair<int, double>> measured;
  ScalingFit fit;
};

/// The training data of one process count (medians over repetitions).
struct ProcsObservation {
  int procs = 0;
  int runs = 0;
  double measured_time_s = kUnknown, min_time_s = kUnknown, max_time_s = kUnknown;
  bool has_components = false;
  ComponentTimes components;  // medians of the runs' scaled components
  double app_time_s = kUnknown, mpi_time_s = kUnknown;  // medians, per rank
  double compute_s = kUnknown, messages_per_rank = kUnknown, bytes_per_message = kUnknown,
         service_s_per_message = kUnknown, mpi_active_s = kUnknown, time_scale = kUnknown;
};

struct SeriesModelSummary {
  ModelKind kind = ModelKind::kRuntimeOnly;
  int training_points = 0;
  int loo_points = 0;             // leave-one-out predictions behind the intervals
  double loo_log_rms = kUnknown;  // RMS of log(predicted/measured) total, leave-one-out
  double interval_log_sd = kUnknown;
  std::vector<std::string> notes;  // machine profile used or estimated, fallbacks, flags
  std::string BriefReport() const;
};

/// Everything fitted for one series; Predict() evaluates it at any P.
struct SeriesModel {
  std::string series_name;
  ModelKind kind = ModelKind::kRuntimeOnly;
  MachineProfile machine;
  int threads_per_proc = 1;
  std::vector<InputCurve> inputs;
  std::vector<ProcsObservation> training;
  std::vector<RunDecomposition> decompositions;  // every training run
  int min_train_procs = 1, max_train_procs = 1;
  double level = 0.9;
  // Log-space error scales for the intervals: total and each component.
  double total_log_sd = 0, compute_log_sd = 0, switch_log_sd = 0, active_log_sd = 0,
         contention_log_sd = 0;
  double t_quantile = 0;  // Student t quantile for the level
  double extrapolation_widening = 3.0;
  SeriesModelSummary summary;
  mva::Options mva;

  ProcsPrediction Predict(int procs) const;
};

/// Fits `series` on the process counts in `train_procs` (all when empty).
/// Returns false with `error` when fewer than one usable process count remains.
bool FitSeriesModel(const Series& series, const std::vector<int>& train_procs,
                    const PredictionOptions& options, SeriesModel* model, std::string* error);

/// Amdahl serial fraction f from measured (P, time) pairs: NNLS fit T = a + b/P, f = a/(a+b).
double FitSerialFraction(const std::vector<std::pair<int, double>>& times);

/// Observations of every process count in the series (all runs), for reports and charts.
std::vector<ProcsObservation> ObserveSeries(const Series& series, const MachineProfile& machine,
                                            const mva::Options& mva_options,
                                            std::vector<RunDecomposition>* decompositions);

}  // namespace qnm
