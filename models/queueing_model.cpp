#include "models/queueing_model.h"

#include <algorithm>
#include <cmath>

#include "util/statistics.h"
#include "util/text_format.h"

namespace qnm {
namespace {

/// Fits one input curve to the positive values of `field`; an all-zero input gives an empty model
/// (evaluates to NaN, read as 0 by EvaluateParts).
bool FitInput(const std::vector<QueueingObservation>& observations,
              double QueueingObservation::*field, int min_procs, const std::vector<std::vector<ScalingTerm>>& candidates,
              const RuntimeModelOptions& base, RuntimeModel* model, std::string* error) {
  std::vector<std::pair<int, double>> points;
  for (const QueueingObservation& o : observations)
    if (o.*field > 0 && o.procs >= min_procs) points.emplace_back(o.procs, o.*field);
  *model = RuntimeModel();
  if (points.empty()) return true;
  RuntimeModelOptions options = base;
  options.candidates = candidates;
  return FitRuntimeModel(points, options, model, error);
}

/// LogGP service time s(L) = o + G*L by relative non-negative least squares over the runs.
MessageServiceModel FitMessageService(const std::vector<QueueingObservation>& observations) {
  std::vector<std::vector<double>> columns(2);
  std::vector<double> rhs;
  for (const QueueingObservation& o : observations) {
    if (o.procs < 2 || !(o.messages_per_rank > 0) || !(o.mpi_active_s > 0)) continue;
    double service = o.mpi_active_s / o.messages_per_rank;
    double bytes = std::max(0.0, o.bytes_per_message);
    columns[0].push_back(1.0 / service);
    columns[1].push_back(bytes / service);
    rhs.push_back(1.0);
  }
  MessageServiceModel model;
  model.runs = static_cast<int>(rhs.size());
  if (rhs.empty()) return model;
  std::vector<double> c;
  if (std::isfinite(SmallNonnegativeLeastSquares(columns, rhs, true, &c))) {
    model.overhead_s = c[0];
    model.gap_s_per_byte = c[1];
  }
  return model;
}

double ValueOrZero(const RuntimeModel& model, double procs) {
  if (model.members.empty()) return 0.0;
  double v = model.Evaluate(procs);
  return v > 0 ? v : 0.0;
}

/// The residuals of an input curve at its training points with P >= 2 (where it was fitted).
TrainingAnchor AnchorInput(const std::vector<QueueingObservation>& observations,
                           double QueueingObservation::*field, const RuntimeModel& model) {
  if (model.members.empty()) return TrainingAnchor();
  std::vector<std::pair<int, double>> points;
  for (const QueueingObservation& o : observations)
    if (o.procs >= 2 && o.*field > 0) points.emplace_back(o.procs, o.*field);
  return TrainingAnchor::Build(points, [&model](double procs) { return model.Evaluate(procs); });
}

}  // namespace

std::string MessageServiceModel::Formula() const {
  return FormatDouble("%.3g", overhead_s) + " s + " + FormatDouble("%.3g", gap_s_per_byte) +
         " s/B * bytes";
}

std::vector<std::vector<ScalingTerm>> ComputeCandidates() {
  const ScalingTerm one{0, 0}, inverse{-1, 0}, log2p{0, 1};
  return {{one, inverse}, {inverse}, {ScalingTerm{-0.75, 0}}, {ScalingTerm{-0.5, 0}},
          {one, inverse, log2p}, {inverse, log2p}};
}

std::vector<std::vector<ScalingTerm>> ImbalanceCandidates() {
  const ScalingTerm one{0, 0}, inverse{-1, 0};
  return {{one}, {one, inverse}};
}

std::vector<std::vector<ScalingTerm>> MessageCandidates() {
  // Bounded families only: a constant neighbour count, collectives growing in
  // log2 P, and the shrinking surface-to-volume laws of a domain decomposition
  // (P^-1/3, P^-1/2, P^-2/3 for 3-, 2-D subdomains; P^-1 for a fixed total
  // split over P). A power growing in P fitted to a few runs multiplies the
  // modelled MPI time without bound while the measured MPI time stays flat.
  const ScalingTerm one{0, 0}, log2p{0, 1};
  // Neighbour counts of a 2- and 3-D decomposition: one more per doubling of
  // P until 4 (P = 16) or 6 (P = 64) neighbours, then constant.
  ScalingTerm neighbours_2d{0, 1}, neighbours_3d{0, 1};
  neighbours_2d.log2_cap = 4;
  neighbours_3d.log2_cap = 6;
  std::vector<std::vector<ScalingTerm>> out = {{one}, {log2p}, {one, log2p}, {one, neighbours_2d},
                                               {one, neighbours_3d}};
  for (double a : {-1.0, -2.0 / 3.0, -0.5, -1.0 / 3.0}) {
    out.push_back({ScalingTerm{a, 0}});
    out.push_back({one, ScalingTerm{a, 0}});
  }
  return out;
}

bool FitQueueingModel(const std::vector<QueueingObservation>& observations,
                      const RuntimeModelOptions& options, QueueingModel* model, std::string* error,
                      bool imbalance_is_noise) {
  QueueingModel m;
  if (observations.empty()) {
    *error = "no training process count";
    return false;
  }
  // Inputs: few points each, so one forward error per candidate is enough evidence to weigh.
  RuntimeModelOptions inputs = options;
  inputs.prior = ExtrapolationPrior();  // learned on run times, not on these inputs
  inputs.min_forward_errors = 1;
  inputs.forward.first_origin = 1;
  if (!FitInput(observations, &QueueingObservation::compute_s, 1, ComputeCandidates(), inputs,
                &m.compute_s, error)) {
    *error = "compute time per process: " + *error;
    return false;
  }
  std::vector<double> scales;
  for (const QueueingObservation& o : observations) scales.push_back(o.time_scale);
  m.time_scale = MedianOfKnown(scales);
  if (!(m.time_scale > 0)) m.time_scale = 1.0;
  m.has_messages = std::all_of(observations.begin(), observations.end(),
                               [](const QueueingObservation& o) { return o.messages_per_rank >= 0; });
  if (m.has_messages) {
    m.has_bytes = std::any_of(observations.begin(), observations.end(), [](const QueueingObservation& o) {
      return o.bytes_per_message > 0 && o.messages_per_rank > 0;
    });
    if (!FitInput(observations, &QueueingObservation::messages_per_rank, 2, MessageCandidates(), inputs,
                  &m.messages_per_rank, error) ||
        (m.has_bytes && !FitInput(observations, &QueueingObservation::bytes_per_message, 2,
                                  MessageCandidates(), inputs, &m.bytes_per_message, error))) {
      *error = "message statistics: " + *error;
      return false;
    }
    m.service = FitMessageService(observations);
  }
  if (!FitInput(observations, &QueueingObservation::imbalance_s, 2, ImbalanceCandidates(), inputs,
                &m.imbalance_s, error)) {
    *error = "load imbalance: " + *error;
    return false;
  }
  // Through the measured imbalances, the last one carried on (see ImbalanceCandidates).
  // Message counts and sizes are not anchored: tried, BT-MZ's count at P = 16
  // (4491, the peak of a curve that falls to 2271 at P = 128) carried on
  // made P = 128 23% off instead of 3% (bench/README.md, what we tried).
  // Units of one size divide evenly at every P that divides them, so a training run's imbalance
  // is not its work's but run-to-run noise (a slow node, OS jitter; SP-MZ at P = 16: 14% over the
  // mean compute, 3% at P = 8, 5% at 32): the fitted curve over every run is kept, not one run's
  // noise carried to every larger P (bench/README.md, round 20).
  if (!imbalance_is_noise)
    m.imbalance_anchor = AnchorInput(observations, &QueueingObservation::imbalance_s, m.imbalance_s);
  for (const QueueingObservation& o : observations)
    if (o.procs == 1) {
      m.has_single_process = true;
      m.single_process = o;
    }
  if (!m.has_messages || m.service.runs == 0) {
    if (!FitInput(observations, &QueueingObservation::mpi_active_s, 1, ComputeCandidates(), inputs,
                  &m.mpi_active_s, error)) {
      *error = "MPI service time per process: " + *error;
      return false;
    }
  }
  *model = std::move(m);
  return true;
}

double BusiestComputeAt(const QueueingModel& model, double procs) {
  return ValueOrZero(model.compute_s, procs) +
         (procs >= 2 ? ValueOrZero(model.imbalance_s, procs) * model.imbalance_anchor.Factor(procs) : 0.0);
}

QueueingParts EvaluateParts(const QueueingModel& model, const MachineProfile& machine, int procs) {
  QueueingParts parts;
  parts.compute_s = ValueOrZero(model.compute_s, procs);
  if (procs >= 2) parts.imbalance_s = ValueOrZero(model.imbalance_s, procs) * model.imbalance_anchor.Factor(procs);
  if (procs == 1 && model.has_single_process) {  // the measured run: no network curve applies
    const QueueingObservation& o = model.single_process;
    parts.mpi_active_s = o.mpi_active_s;
    if (model.has_messages) {
      parts.messages_per_rank = std::max(0.0, o.messages_per_rank);
      parts.bytes_per_message = std::max(0.0, o.bytes_per_message);
      parts.switch_delay_s = parts.messages_per_rank * machine.SwitchDelayPerMessage(parts.bytes_per_message);
      if (parts.messages_per_rank > 0) parts.service_s_per_message = o.mpi_active_s / parts.messages_per_rank;
    }
    return parts;
  }
  if (model.has_messages) {
    parts.messages_per_rank = ValueOrZero(model.messages_per_rank, procs);
    parts.bytes_per_message = model.has_bytes ? ValueOrZero(model.bytes_per_message, procs) : 0.0;
    parts.switch_delay_s = parts.messages_per_rank * machine.SwitchDelayPerMessage(parts.bytes_per_message);
  }
  if (model.has_messages && model.service.runs > 0) {
    parts.service_s_per_message = model.service.Evaluate(parts.bytes_per_message);
    parts.mpi_active_s = parts.service_s_per_message * parts.messages_per_rank;
  } else {
    parts.mpi_active_s = ValueOrZero(model.mpi_active_s, procs);
  }
  return parts;
}

}  // namespace qnm
