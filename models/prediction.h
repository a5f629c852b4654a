#pragma once
// Strong-scaling prediction of a series. Series with MPI profiles get the
// queueing model of Buckwalter 2005 with LoPC contention (models/queueing_model.h): typed input curves (compute time,
// messages, bytes per message, LogGP service time per message) rebuilt at
// every target P into T(P) = W + I + S + A + C with C from the contention
// network and I the load imbalance (models/decomposition.h).
// Series without profiles (a table of procs and time) get the runtime-only
// model (models/runtime_model.h): an average of candidate curves weighted by
// forward validation. Every value carries an interval whose width grows with
// the distance of extrapolation, calibrated on forward-validation errors
// (models/forward_validation.h), and every prediction is checked against a
// plausible envelope (models/plausible_envelope.h): one that leaves it is
// flagged, and its interval widened to the envelope.
#include <functional>
#include <string>
#include <vector>

#include "models/decomposition.h"
#include "models/forward_validation.h"
#include "models/granularity.h"
#include "models/machine_profile.h"
#include "models/plausible_envelope.h"
#include "models/queueing_model.h"
#include "models/runtime_configuration.h"
#include "models/runtime_model.h"
#include "models/training_anchor.h"
#include "mva/solver.h"
#include "record/run_stats.h"

namespace qnm {

struct PredictionOptions {
  double interval_level = 0.9;  // two-sided level of every interval
  // The share of each interval's log width that lies above the prediction: 0.5 puts the
  // prediction at the interval's geometric middle; more leaves room for the runs that turn out
  // slower than extrapolated, which held-out runs do more often than faster. The width, and so the
  // level's promise, is unchanged by it. In [0.1, 0.9]. 0.6: chosen by the interval score
  // (Gneiting & Raftery 2007, s6.2) over 14 groups of held series, registered before two new
  // sets were collected; it failed its rule on the first (I: coverage 81.7%) and passed it on the
  // second (J: score 3.539 -> 3.203, coverage 86.6%), which the registration said ships it
  // (bench/README.md, round 26).
  double interval_upper_share = 0.6;
  RuntimeModelOptions runtime;  // runtime-only series, and the queueing model's input curves
  bool has_machine = false;     // use `machine`; else a bundled profile matching the
  MachineProfile machine;       // series' machine name, else estimate from the series
  mva::Options mva;
  PlausibleEnvelopeOptions envelope;
  // Runtime-only series: fit the multi-node runs alone when the time rises
  // as the runs leave the node (models/node_regime.h).
  bool split_at_node_boundary = true;
  // Runtime-only series: the configuration they are fitted with (models/runtime_configuration.h),
  // a name of StandardRuntimeConfigurations (default kShippedRuntimeConfiguration), or
  // kPerSeriesConfiguration: fit each of them to the training points but the largest and fit the
  // series with the one whose forecast of that point erred least (with fewer than five training
  // process counts, `runtime` with split_at_node_boundary as set). `configurations`, when not
  // empty, replaces the standard ones (one: that one, the user's; several: chosen among per
  // series). `runtime.candidates` set (the caller chose its curves) or choose_configuration false:
  // `runtime` as it is.
  std::string configuration = kShippedRuntimeConfiguration;
  // Runtime-only series whose fitted curve turns upward beyond the training range though every
  // training run was faster than the one before: beyond the curve's minimum, predict that minimum
  // (flagged; the interval's upper end stays the rising curve's). Registered before held-out set G
  // and shipped on it (bench/README.md, round 25); false: the rising curve, as rounds 18-24.
  bool hold_after_unevidenced_turn = true;
  bool choose_configuration = true;
  std::vector<RuntimeConfiguration> configurations;

  bool IsValid(std::string* error) const;
  /// The configurations a runtime-only fit tries: none without the choice; `configurations`; else
  /// StandardRuntimeConfigurations(runtime), all of them for kPerSeriesConfiguration, else the one
  /// named by `configuration` (none for an unknown name: IsValid refuses it).
  std::vector<RuntimeConfiguration> TriedConfigurations() const;
};

/// A value with its prediction interval (NaN when unknown).
struct Interval {
  double value_s = kUnknown, lower_s = kUnknown, upper_s = kUnknown;
};

/// Why a prediction has or has no value (Ceres-style termination kind).
enum class PredictionTermination {
  kPredicted,         // values and intervals are set
  kCannotExtrapolate, // the series has one process count and this P is another
  kBeyondWorkUnits,   // more processes than the problem has units of work (NPB-MZ zones): impossible
  kFailed,            // the contention network could not be solved; see message
};
const char* ToString(PredictionTermination termination);

struct ProcsPrediction {
  int procs = 0;
  Interval total, compute, imbalance, switch_delay, mpi_active, contention;
  double messages_per_rank = kUnknown, bytes_per_message = kUnknown,
         service_s_per_message = kUnknown;
  long mpi_stations = 0;
  double extrapolation = 0.0;  // log2 distance outside the training range (0 inside)
  // Why this prediction is doubtful (it left the plausible envelope, ...); empty when not.
  std::vector<std::string> flags;
  PredictionTermination termination = PredictionTermination::kPredicted;
  std::string message;  // why there is no value (termination != kPredicted)
  bool Ok() const { return termination == PredictionTermination::kPredicted; }
};

enum class ModelKind { kQueueing, kRuntimeOnly };
const char* ToString(ModelKind kind);

/// One fitted model input for reports and charts, with the points it was fitted to.
struct InputCurve {
  std::string key;      // "compute_s", "messages_per_rank", ...
  std::string name;     // "compute time per process"
  std::string unit;     // "s", "messages", "bytes"
  std::vector<std::pair<int, double>> measured;
  std::string formula;  // the fitted curve, e.g. "1.00 x (3.1 + 52*P^-1)"
  double forward_log_rms = kUnknown;  // forward-validation RMS log error of the best candidate
  int averaged_curves = 1;            // > 1: the curve is a weighted average; forward_log_rms is its best's
  // Says where the curve misses a measured point by 1.5x or more ("misses the
  // measured P=16 by 4.0x"): the bounded families may not follow an input's
  // training points, and a chart must not hide it. Empty when it fits.
  std::string fit_note;
  std::function<double(double procs)> evaluate;
  double Evaluate(double procs) const { return evaluate ? evaluate(procs) : kUnknown; }
};

/// The training data of one process count (medians over repetitions).
struct ProcsObservation {
  int procs = 0;
  int runs = 0;
  double measured_time_s = kUnknown, min_time_s = kUnknown, max_time_s = kUnknown;
  bool has_components = false;
  ComponentTimes components;  // medians of the runs' scaled components
  double app_time_s = kUnknown, mpi_time_s = kUnknown;  // medians, per rank
  double compute_s = kUnknown, imbalance_s = kUnknown, messages_per_rank = kUnknown, bytes_per_message = kUnknown,
         service_s_per_message = kUnknown, mpi_active_s = kUnknown, time_scale = kUnknown;
};

struct SeriesModelSummary {
  ModelKind kind = ModelKind::kRuntimeOnly;
  int training_points = 0;
  bool extrapolatable = true;     // false with a single training process count
  int forward_points = 0;         // forward-validation errors behind the intervals
  double forward_log_rms = kUnknown;    // RMS of log(predicted/measured), forward validation
  double per_octave_log_sd = kUnknown;  // interval log sd per octave of extrapolation
  double noise_log_sd = kUnknown;       // interval log sd inside the training range (the noise)
  std::vector<std::string> notes;  // machine profile used or estimated, fallbacks, flags
  RuntimeConfigurationChoice configuration;  // runtime-only: the configuration chosen for the series
  std::string BriefReport() const;
};

/// Everything fitted for one series; Predict() evaluates it at any P.
struct SeriesModel {
  std::string series_name;
  ModelKind kind = ModelKind::kRuntimeOnly;
  MachineProfile machine;
  int threads_per_proc = 1;
  // Units of work the problem splits into (RunStats::work_units, NPB-MZ zones);
  // a P beyond it is flagged as impossible, not predicted. 0 = unknown.
  int work_units = 0;
  // Every run says its units are of one size: a P that does not divide them is no faster
  // than P = work_units / ceil(work_units / P) (models/granularity.h).
  bool work_units_equal = false;
  Granularity UnitGranularity() const { return Granularity{work_units_equal ? work_units : 0}; }
  // MPI ranks per node of the series (SeriesRanksPerNode over its runs); 0 = unknown or inconsistent.
  int ranks_per_node = 0;
  // Every training run says it ran on one node (RunStats::nodes == 1) while ranks_per_node is
  // unknown: a prediction beyond the training range may leave the node, and is flagged so.
  bool trained_on_one_node_of_unknown_size = false;
  RuntimeModel runtime;      // kind == kRuntimeOnly
  QueueingModel queueing;    // kind == kQueueing
  ExtrapolationError error;  // log-space sd of the total vs distance of extrapolation
  // The fitted model's residuals at the training points, applied to every
  // prediction (models/training_anchor.h): the model goes through its measured
  // points and extrapolates from the measured edge.
  TrainingAnchor anchor;
  PlausibleEnvelope envelope;
  bool widen_to_envelope = true;
  // Where the fitted curve has its minimum beyond the training range when
  // every training run was faster than the one before (0 = no such turn): a
  // rise after it comes from overhead terms fitted to a few percent of
  // efficiency loss, not from a measured rise, so a prediction beyond it is
  // flagged and its interval reaches down to the minimum (the curve may as
  // well stay flat). With hold_after_turn (runtime-only series) the prediction
  // itself stays at the minimum and the interval reaches up to the rise.
  int unevidenced_turn_procs = 0;
  bool hold_after_turn = false;  // PredictionOptions::hold_after_unevidenced_turn
  bool HoldsAfterTurn() const { return hold_after_turn && kind == ModelKind::kRuntimeOnly; }
  double unevidenced_turn_time_s = kUnknown;
  std::vector<InputCurve> inputs;  // the fitted curves, for reports and charts
  std::vector<ProcsObservation> training;
  // Training process counts with no MPI profile when the queueing model is fitted to the others
  // (their measured times, for the tables and charts; not fitted, not anchored).
  std::vector<ProcsObservation> unprofiled;
  std::vector<RunDecomposition> decompositions;  // every training run
  int min_train_procs = 1, max_train_procs = 1;
  double level = 0.9;
  double z_quantile = 1.645;  // standard normal quantile for the level
  double interval_upper_share = 0.6;  // PredictionOptions::interval_upper_share
  SeriesModelSummary summary;
  mva::Options mva;

  ProcsPrediction Predict(int procs) const;
  /// Every measured training process count, sorted by P: `training` and `unprofiled`.
  std::vector<ProcsObservation> Measured() const;
};

/// Fits `series` on the process counts in `train_procs` (all when empty).
/// Returns false with `error` when no usable process count remains. `runs_read`, when
/// given, is called once the runs have been read into `training` and before the curves
/// are fitted: nothing of `series` is read after it, so it may free the runs (a million
/// records are ~0.5 GB; issue 19).
bool FitSeriesModel(const Series& series, const std::vector<int>& train_procs,
                    const PredictionOptions& options, SeriesModel* model, std::string* error,
                    const std::function<void()>& runs_read = {});

/// Whether FitSeriesModel fits `series` on `train_procs` (all when empty) with the queueing
/// model: every training process count has a run with an MPI profile (else runtime-only).
bool UsesQueueingModel(const Series& series, const std::vector<int>& train_procs = {});

/// Amdahl serial fraction f from measured (P, time) pairs: NNLS fit T = a + b/P, f = a/(a+b).
double FitSerialFraction(const std::vector<std::pair<int, double>>& times);

/// Observations of every process count in the series (all runs), for reports and charts.
std::vector<ProcsObservation> ObserveSeries(const Series& series, const MachineProfile& machine,
                                            const mva::Options& mva_options,
                                            std::vector<RunDecomposition>* decompositions);

}  // namespace qnm
