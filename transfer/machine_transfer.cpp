#include "transfer/machine_transfer.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <set>

#include "models/prediction_interval.h"
#include "util/text_format.h"

namespace qnm {
namespace {

/// How process counts map: by nodes when both ranks per node are known and asked for, else by cores, else P to P.
enum class Mapping { kNodes, kCores, kProcesses };
Mapping MappingOf(const TransferOptions& options, const MachineLayout& from, const MachineLayout& to) {
  if (options.map_by_nodes && from.ranks_per_node > 0 && to.ranks_per_node > 0) return Mapping::kNodes;
  return options.map_by_cores ? Mapping::kCores : Mapping::kProcesses;
}

/// A's process count per B process: on as many nodes (rpn_A / rpn_B) or cores (t_B / t_A), or 1.
double SourceScale(const TransferOptions& options, const MachineLayout& from, const MachineLayout& to) {
  switch (MappingOf(options, from, to)) {
    case Mapping::kNodes: return static_cast<double>(from.ranks_per_node) / to.ranks_per_node;
    case Mapping::kCores: return static_cast<double>(to.threads_per_proc) / from.threads_per_proc;
    case Mapping::kProcesses: break;
  }
  return 1.0;
}

/// A's process count for B's `procs` (at least 1).
double SourceProcs(const TransferredModel& t, int procs) {
  return std::max(1.0, procs * SourceScale(t.options, t.from, t.to));
}

/// log2 distance of `procs` from the nearest calibrating run (0 between two of them).
double OctavesFromRuns(const std::vector<std::pair<int, double>>& runs, int procs) {
  if (runs.empty()) return 0.0;
  if (procs < runs.front().first) return std::log2(static_cast<double>(runs.front().first) / procs);
  if (procs > runs.back().first) return std::log2(static_cast<double>(procs) / runs.back().first);
  return 0.0;
}

/// Node terms of every runtime curve evaluated at B's nodes: a term in nodes
/// with `rpn` ranks per node reads P_A / rpn; B's nodes are P_B / rpn_B =
/// P_A * t_A / (t_B * rpn_B), so the term's ranks per node becomes rpn_B * t_B / t_A.
bool MoveNodeTerms(RuntimeModel* runtime, int rpn) {
  bool any = false;
  for (RuntimeCurve& curve : runtime->members)
    for (ScalingTerm& term : curve.model.terms)
      if (term.ranks_per_node > 0) {
        any = any || term.ranks_per_node != rpn;
        term.ranks_per_node = rpn;
      }
  return any;
}

/// A term that grows with P (or nodes): an overhead, not divided work.
bool GrowingTerm(const ScalingTerm& term) {
  return term.p_exponent > 0 || (term.p_exponent == 0 && term.log_exponent > 0);
}

/// The source's run-to-run noise: its log residuals around the fitted curve, sum of squares over
/// n - p degrees of freedom (p = the curve's fitted coefficients, averaged over the members with
/// their weights); the plain mean square where n <= p + 1.
double ResidualLogSd(const SeriesModel& model) {
  const auto& residuals = model.anchor.log_residuals;
  if (residuals.empty()) return 0.0;
  double squares = 0.0;
  for (const auto& [log_procs, residual] : residuals) squares += residual * residual;
  double parameters = 0.0;
  if (model.kind == ModelKind::kRuntimeOnly)
    for (const RuntimeCurve& member : model.runtime.members)
      for (double c : member.model.coefficients) parameters += member.weight * (c > 0);
  const double n = static_cast<double>(residuals.size());
  return std::sqrt(squares / (n - parameters >= 1 ? n - parameters : n));
}

std::string ProcsList(const std::vector<std::pair<int, double>>& runs) {
  std::string out;
  for (const auto& [procs, time] : runs) out += (out.empty() ? "" : ",") + std::to_string(procs);
  return out;
}

}  // namespace

bool TransferOptions::IsValid(std::string* error) const {
  if (!(interval_level > 0 && interval_level < 1)) {
    *error = "interval level must be in (0, 1)";
    return false;
  }
  if (!(drift_log_sd_per_octave >= 0) || !(unknown_speed_log_sd >= 0) || !(run_noise_terms >= 0)) {
    *error = "transfer interval rates must be >= 0";
    return false;
  }
  return true;
}

const char* ToString(TransferPath path) {
  switch (path) {
    case TransferPath::kProfileOnly: return "profile only";
    case TransferPath::kOneRun: return "one run on the target";
    case TransferPath::kSeveralRuns: return "several runs on the target";
    case TransferPath::kSameMachine: return "same machine";
  }
  return "unknown";
}

MachineLayout LayoutOf(const Series& series) {
  MachineLayout layout;
  layout.threads_per_proc = std::max(1, series.key.threads_per_proc);
  layout.machine = series.key.machine;
  std::set<int> rpn;
  for (const RunGroup& group : series.groups)
    for (const RunStats& run : group.runs) {
      rpn.insert(run.ranks_per_node);
      if (layout.machine.empty()) layout.machine = run.machine;
    }
  if (rpn.size() == 1) layout.ranks_per_node = *rpn.begin();
  return layout;
}

std::string TransferSummary::BriefReport() const {
  std::string out = std::string("transferred to the target machine (") + ToString(path) + ")";
  if (Known(speed_ratio)) out += "; target/source time ratio " + FormatDouble("%.3g", speed_ratio);
  return out;
}

ProcsPrediction TransferredModel::Uncalibrated(int procs) const {
  const double source_procs = SourceProcs(*this, procs);
  // A's model is smooth in log P: between two process counts (or below P = 1,
  // where B's threads outnumber A's cores per process) it is interpolated, or
  // continued, geometrically from the two nearest integer process counts.
  const int low = std::max(1, static_cast<int>(std::floor(source_procs)));
  ProcsPrediction p = source.Predict(low);
  if (p.Ok() && source_procs != low) {
    ProcsPrediction high = source.Predict(low + 1);
    if (high.Ok()) {
      const double w = std::log(source_procs / low) / std::log((low + 1.0) / low);
      auto blend = [w](double a, double b) {
        return a > 0 && b > 0 ? std::exp((1 - w) * std::log(a) + w * std::log(b)) : (w < 0.5 ? a : b);
      };
      for (auto [i, j] : {std::pair{&p.total, &high.total}, {&p.compute, &high.compute},
                          {&p.imbalance, &high.imbalance}, {&p.switch_delay, &high.switch_delay},
                          {&p.mpi_active, &high.mpi_active}, {&p.contention, &high.contention}}) {
        if (!Known(i->value_s) || !Known(j->value_s)) continue;
        i->value_s = blend(i->value_s, j->value_s);
        if (Known(i->lower_s) && Known(j->lower_s)) i->lower_s = blend(i->lower_s, j->lower_s);
        if (Known(i->upper_s) && Known(j->upper_s)) i->upper_s = blend(i->upper_s, j->upper_s);
      }
    }
  }
  p.procs = procs;
  return p;
}

double TransferredModel::OverheadShare(int procs) const {
  double share = 0.0;
  if (source.kind == ModelKind::kQueueing) {
    const ProcsPrediction p = Uncalibrated(procs);
    if (!p.Ok() || !(p.total.value_s > 0)) return 0.0;
    for (const Interval* i : {&p.switch_delay, &p.mpi_active, &p.contention})
      if (Known(i->value_s) && i->value_s > 0) share += i->value_s / p.total.value_s;
  } else {
    // The members' overhead shares, averaged with their weights (models/runtime_model.h).
    const double source_procs = SourceProcs(*this, procs);
    double weight = 0.0;
    for (const RuntimeCurve& member : source.runtime.members) {
      const double total = member.model.Evaluate(source_procs);
      if (!(total > 0) || !std::isfinite(total)) continue;
      double overhead = 0.0;
      for (std::size_t k = 0; k < member.model.terms.size(); ++k)
        if (GrowingTerm(member.model.terms[k]))
          overhead += member.model.coefficients[k] * member.model.terms[k].Evaluate(source_procs);
      share += member.weight * overhead / total;
      weight += member.weight;
    }
    share = weight > 0 ? share / weight : 0.0;
  }
  return std::clamp(share, 0.0, 0.99);
}

double TransferredModel::LevelFactor(int procs) const {
  if (!ratio_on_computation_only) return calibration.Factor(procs);
  // B's time = A's computation x the speed ratio + A's overheads (Buckwalter 2005 §3: T = W + S + ...).
  const double share = OverheadShare(procs);
  return (1 - share) * calibration.Factor(procs) + share;
}

ProcsPrediction TransferredModel::Predict(int procs) const {
  ProcsPrediction p = Uncalibrated(procs);
  if (!p.Ok()) return p;
  const double factor = LevelFactor(procs);
  // A's own interval (its extrapolation and noise), as a log half-width.
  double source_half = Known(p.total.upper_s) && p.total.value_s > 0 ? std::log(p.total.upper_s / p.total.value_s) : 0.0;
  double source_lower_half =
      Known(p.total.lower_s) && p.total.lower_s > 0 ? std::log(p.total.value_s / p.total.lower_s) : source_half;
  double added_sd = 0.0;
  switch (summary.path) {
    case TransferPath::kSameMachine: break;
    case TransferPath::kProfileOnly: added_sd = options.unknown_speed_log_sd; break;
    case TransferPath::kOneRun:
    case TransferPath::kSeveralRuns: {
      double octaves = OctavesFromRuns(target_runs, procs);
      added_sd = std::hypot(options.drift_log_sd_per_octave * octaves,
                            std::sqrt(options.run_noise_terms) * source_noise_log_sd);
      break;
    }
  }
  const double added_half = z_quantile * added_sd;
  const double upper_half = std::hypot(source_half, added_half), lower_half = std::hypot(source_lower_half, added_half);
  // With the ratio on the computation alone, the overheads keep their level (B's profile's, or A's).
  const double compute_factor = ratio_on_computation_only ? calibration.Factor(procs) : factor;
  const double overhead_factor = ratio_on_computation_only ? 1.0 : factor;
  for (auto [i, f] : {std::pair{&p.total, factor}, {&p.compute, compute_factor}, {&p.imbalance, compute_factor},
                      {&p.switch_delay, overhead_factor}, {&p.mpi_active, overhead_factor},
                      {&p.contention, overhead_factor}}) {
    if (!Known(i->value_s)) continue;
    i->value_s *= f;
    SetInterval(i, LogHalfWidths{lower_half, upper_half});  // ends held inside double's range
  }
  // A's extrapolation distance is A's business; on B the distance that matters is from B's runs.
  if (!target_runs.empty()) p.extrapolation = OctavesFromRuns(target_runs, procs);
  if (summary.path == TransferPath::kProfileOnly)
    p.flags.push_back("no run on the target machine: its speed is unknown, the interval is wide");
  return p;
}

bool TransferSeriesModel(const SeriesModel& model, const Series& source_series, const Series* target,
                         const MachineProfile* target_profile, const TransferOptions& options,
                         TransferredModel* transferred, std::string* error) {
  if (!options.IsValid(error)) return false;
  const bool has_runs = target && !target->groups.empty();
  if (!has_runs && !target_profile) {
    *error = "the target machine needs runs (--target) or a machine profile (--machine)";
    return false;
  }
  TransferredModel t;
  t.source = model;
  t.options = options;
  t.z_quantile = boost::math::quantile(boost::math::normal(), 0.5 + 0.5 * options.interval_level);
  t.source_noise_log_sd = ResidualLogSd(model);
  t.from = LayoutOf(source_series);
  if (t.from.ranks_per_node == 0) t.from.ranks_per_node = model.ranks_per_node;
  if (has_runs) {
    t.to = LayoutOf(*target);
  } else {
    t.to.threads_per_proc = t.from.threads_per_proc;
    t.to.machine = target_profile->name;
    if (target_profile->cores_per_node > 0 && target_profile->allocation != Allocation::kOnePerNode)
      t.to.ranks_per_node = std::max(1, target_profile->cores_per_node / t.to.threads_per_proc);
    else if (target_profile->allocation == Allocation::kOnePerNode)
      t.to.ranks_per_node = 1;
  }
  TransferSummary& s = t.summary;
  const bool same_layout = t.from.threads_per_proc == t.to.threads_per_proc &&
                           t.from.ranks_per_node == t.to.ranks_per_node;
  const bool same_machine = has_runs && !target_profile && same_layout && !t.from.machine.empty() &&
                            ToLower(t.from.machine) == ToLower(t.to.machine);

  s.transferred.push_back("the code's scaling from " + std::to_string(model.training.size()) +
                          " process counts on " + (t.from.machine.empty() ? "the source machine" : t.from.machine) +
                          " (" + ToString(model.kind) + " model)");
  const Mapping mapping = MappingOf(options, t.from, t.to);
  const double scale = SourceScale(options, t.from, t.to);
  if (mapping == Mapping::kNodes && scale != 1.0)
    s.transferred.push_back("process counts mapped by nodes: P on the target (" + std::to_string(t.to.ranks_per_node) +
                            " ranks per node) fills as many nodes as P*" + std::to_string(t.from.ranks_per_node) +
                            "/" + std::to_string(t.to.ranks_per_node) + " on the source");
  if (mapping == Mapping::kCores && scale != 1.0)
    s.transferred.push_back("process counts mapped by cores: P on the target (" +
                            std::to_string(t.to.threads_per_proc) + " threads/process) is P*" +
                            std::to_string(t.to.threads_per_proc) + "/" + std::to_string(t.from.threads_per_proc) +
                            " on the source");
  // Where the source's measurements lie on the target's process counts: beyond them A's model extrapolates.
  // A whole count is printed whole (24576, not 2.458e+04); a fraction of a process with three digits.
  auto procs_text = [](double procs) {
    const double whole = std::round(procs);
    return std::fabs(procs - whole) <= 1e-9 * std::max(1.0, whole) ? std::to_string(std::llround(whole))
                                                                      : FormatDouble("%.3g", procs);
  };
  s.transferred.push_back("the source was measured at P=" + std::to_string(model.min_train_procs) + ".." +
                          std::to_string(model.max_train_procs) + ", on the target P=" +
                          procs_text(model.min_train_procs / scale) + ".." +
                          procs_text(model.max_train_procs / scale) +
                          "; beyond that the source's model extrapolates (its interval widens)");
  // Mapped by nodes, A's node terms already count B's nodes; otherwise they are moved to them.
  if (mapping != Mapping::kNodes && options.node_terms_in_target_nodes && t.to.ranks_per_node > 0 &&
      model.kind == ModelKind::kRuntimeOnly) {
    int rpn = std::max(1, static_cast<int>(std::lround(t.to.ranks_per_node * scale)));
    if (MoveNodeTerms(&t.source.runtime, rpn))
      s.transferred.push_back("overheads in nodes evaluated in the target's nodes (" +
                              std::to_string(t.to.ranks_per_node) + " ranks per node, source " +
                              std::to_string(t.from.ranks_per_node) + ")");
  }
  if (model.kind == ModelKind::kQueueing && target_profile) {
    t.source.machine = *target_profile;
    // The contention network's MPI service queues follow B's placement (models/contention_network.h):
    // B's runs say how many ranks share a node when the profile does not.
    if (t.source.machine.cores_per_node == 0 && t.to.ranks_per_node > 0) {
      t.source.machine.cores_per_node = t.to.ranks_per_node * t.to.threads_per_proc;
      t.source.machine.allocation = t.to.ranks_per_node == 1 ? Allocation::kOnePerNode : Allocation::kBlock;
    }
    s.transferred.push_back("messages per process and bytes per message from the source; switch delay "
                            "(Lat + L/BW) and MPI contention re-evaluated with the target profile " +
                            target_profile->name + " (" + ToString(t.source.machine.allocation) + " allocation" +
                            (t.source.machine.cores_per_node > 0
                                 ? ", " + std::to_string(t.source.machine.cores_per_node) + " cores per node"
                                 : std::string()) +
                            ")");
  } else if (model.kind == ModelKind::kQueueing) {
    s.calibrated.push_back("no target profile (--machine): the network is the source's " + model.machine.name +
                           "; the target's runs absorb the difference in the time level");
  } else if (target_profile) {
    s.calibrated.push_back("target profile " + target_profile->name +
                           " read; a runtime-only model has no communication term to re-evaluate with it");
  }

  if (same_machine) {
    s.path = TransferPath::kSameMachine;
  } else if (!has_runs) {
    s.path = TransferPath::kProfileOnly;
  } else {
    s.path = target->groups.size() == 1 ? TransferPath::kOneRun : TransferPath::kSeveralRuns;
  }
  if (has_runs)
    for (const RunGroup& group : target->groups)
      if (Known(group.median_time_s) && group.median_time_s > 0)
        t.target_runs.emplace_back(group.procs, group.median_time_s);
  if (has_runs && t.target_runs.empty()) {
    *error = "the target's runs have no usable time";
    return false;
  }
  const TransferredModel& base = t;
  t.calibration = TrainingAnchor::Build(t.target_runs, [&base](double p) {
    ProcsPrediction q = base.Uncalibrated(static_cast<int>(p));
    return q.Ok() ? q.total.value_s : kUnknown;
  });
  // The speed ratio on the computation alone, the overheads as they are (B's network where the queueing model
  // re-evaluated them with B's profile, else A's): the ratio that, applied to the computation, meets each run.
  // Where a run is faster than the overheads alone, none does, and the whole time follows the ratio.
  t.ratio_on_computation_only =
      has_runs && (!options.overheads_follow_speed || (model.kind == ModelKind::kQueueing && target_profile));
  if (t.ratio_on_computation_only) {
    bool feasible = true;
    std::vector<std::pair<double, double>> speed;
    for (const auto& [procs, time] : t.target_runs) {
      const double ratio = t.calibration.Factor(procs), share = t.OverheadShare(procs);
      feasible = feasible && ratio > share;
      if (feasible) speed.emplace_back(std::log(static_cast<double>(procs)), std::log((ratio - share) / (1 - share)));
    }
    if (feasible && !speed.empty()) {
      t.calibration.log_residuals = std::move(speed);
      s.calibrated.push_back(std::string("the speed ratio applies to the computation only; the overheads are ") +
                             (model.kind == ModelKind::kQueueing && target_profile
                                  ? "the target profile's"
                                  : "the source's"));
    } else {
      t.ratio_on_computation_only = false;
      s.calibrated.push_back("the target runs faster than the source's overheads alone: the speed ratio applies to "
                             "the whole time");
    }
  }
  if (!t.options.follow_each_run && t.calibration.log_residuals.size() > 1) {
    double mean = 0;
    for (const auto& [log_procs, residual] : t.calibration.log_residuals)
      mean += residual / t.calibration.log_residuals.size();
    for (auto& [log_procs, residual] : t.calibration.log_residuals) residual = mean;
  }
  if (!t.target_runs.empty()) {
    s.speed_ratio = t.LevelFactor(t.target_runs.front().first);
    if (s.path == TransferPath::kSameMachine)
      s.calibrated.push_back("the target is the source's machine and layout: the source's model as it is");
    else
      s.calibrated.push_back(
          "time level at the target's run" + std::string(t.target_runs.size() > 1 ? "s" : "") + " P=" +
          ProcsList(t.target_runs) + ": target/source ratio " + FormatDouble("%.3g", s.speed_ratio) +
          (t.target_runs.size() > 1 ? " at P=" + std::to_string(t.target_runs.front().first) +
                                          ", interpolated in log P between the runs, constant beyond them"
                                    : ", constant over P (one run: the ratio's drift with P is unknown)"));
    if (s.path != TransferPath::kSameMachine)
      s.calibrated.push_back("intervals widen by " + FormatDouble("%.2f", options.drift_log_sd_per_octave) +
                             " log sd per octave away from the target's runs, and by the noise of " +
                             FormatDouble("%g", options.run_noise_terms) + " single runs (the source's: " +
                             FormatDouble("%.3f", t.source_noise_log_sd) + " log sd)");
  } else {
    s.calibrated.push_back("no run on the target: its speed relative to the source is unknown; intervals "
                           "carry a log sd of " + FormatDouble("%.2f", options.unknown_speed_log_sd) +
                           " (the spread of speed ratios between machines)");
  }
  *transferred = std::move(t);
  return true;
}

}  // namespace qnm
