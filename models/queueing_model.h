#pragma once
// The mpiP-driven model of a series (Buckwalter 2005's four components with LoPC
// contention, and the load imbalance): T(P) = time_scale * (W + I + S + A + C)
// per process, where
//   W(P)  compute time (mean over ranks): serial, shrinking and overhead parts,
//         a + b/P + c*log2(P) and its sub-forms, chosen and averaged by forward
//         validation;
//   I(P)  load imbalance, max - mean of the ranks' compute (decomposition.h):
//         a constant or a + b/P (ImbalanceCandidates) fitted to P >= 2, through
//         the measured points with the last one carried on: the slowest rank's
//         excess does not shrink like the mean (a largest unit of work, a slow
//         node), so the measured edge is the best evidence of where it goes;
//         with units of work of one size, the fitted curve alone (their
//         imbalance is run noise: models/prediction.cpp);
//   m(P)  messages per process and L(P) bytes per message, forms chosen by
//         forward validation (models/runtime_model.h) among bounded families,
//         including a neighbour count that saturates (ScalingTerm::log2_cap);
//   S     switch delay m * (Lat + L/BW) from the machine profile;
//   A     MPI service time m * s(L), with the per-message service time s a
//         function of the message size shared by every training run,
//         s(L) = overhead + gap * L (LogGP: Alexandrov et al. 1995, §2 —
//         o + G*(k-1) for a k-byte message) — not a free curve in P, which a
//         few runs can bend upwards without bound;
//   C     contention from the closed network solved at P (contention_network.h).
#include <string>
#include <vector>

#include "models/contention_network.h"
#include "models/runtime_model.h"
#include "models/training_anchor.h"

namespace qnm {

/// Per-message MPI service time as a function of message size (LogGP-like).
struct MessageServiceModel {
  double overhead_s = 0.0;       // per message
  double gap_s_per_byte = 0.0;   // per byte
  int runs = 0;                  // training process counts it was fitted to
  double Evaluate(double bytes_per_message) const {
    return overhead_s + gap_s_per_byte * (bytes_per_message > 0 ? bytes_per_message : 0.0);
  }
  std::string Formula() const;   // "2.1e-05 s + 3.4e-10 s/B * bytes"
};

/// The training data of one process count that the queueing model is fitted to.
struct QueueingObservation {
  int procs = 0;
  double compute_s = 0.0;             // W, unscaled per process
  double messages_per_rank = -1.0;    // < 0 when unknown
  double bytes_per_message = -1.0;    // < 0 when unknown
  double mpi_active_s = 0.0;          // A, unscaled per process
  double imbalance_s = 0.0;           // I, unscaled per process (0: balanced or unknown)
  double time_scale = 1.0;            // measured total / unscaled parts
};

struct QueueingModel {
  RuntimeModel compute_s;
  bool has_messages = false;  // S and A follow m(P); else A(P) is fitted directly, S = 0
  bool has_bytes = false;
  RuntimeModel messages_per_rank, bytes_per_message;
  MessageServiceModel service;
  RuntimeModel mpi_active_s;  // only without message counts
  // Load imbalance I(P) at P >= 2 (empty: every training run balanced or
  // without per-rank times).
  RuntimeModel imbalance_s;
  // I(P) goes through the measured imbalances (models/training_anchor.h): the
  // last one is carried on beyond the training range. Empty when the units of
  // work are of one size (SP-MZ, LU-MZ zones): their imbalance is run noise, and
  // the fitted curve over every run is kept (FitQueueingModel).
  TrainingAnchor imbalance_anchor;
  // Message statistics are fitted to P >= 2 only: a single process sends no
  // network messages (its few "messages" are collectives with itself, of a
  // few bytes, and would bend every curve). P = 1 keeps its measured parts.
  bool has_single_process = false;
  QueueingObservation single_process;
  double time_scale = 1.0;    // median over the training process counts
};

/// Candidate curves for compute time: Amdahl's a + b/P, b/P, b*P^-a, and with
/// a log2(P) overhead (a + b/P + c*log2 P, b/P + c*log2 P).
std::vector<std::vector<ScalingTerm>> ComputeCandidates();
/// Candidate curves for the load imbalance I: constant and a + b/P (an excess
/// that shrinks with the share of work), never growing: a + c*log2(P) (the
/// expected maximum of more ranks' noise) was tried and carried SP-MZ's jump
/// at P = 16 into 38% errors (bench/README.md, what we tried).
std::vector<std::vector<ScalingTerm>> ImbalanceCandidates();
/// Candidate curves for messages per process and bytes per message: constant,
/// powers of P (shrinking and growing), log2 P, and constant + one of these.
std::vector<std::vector<ScalingTerm>> MessageCandidates();

/// Fits the model to `observations` (sorted by procs). Returns false with `error`.
/// `imbalance_is_noise`: the units of work are of one size (SeriesModel::work_units_equal), so
/// a run's imbalance is its noise and the fitted curve is kept without carrying the last run's on.
bool FitQueueingModel(const std::vector<QueueingObservation>& observations,
                      const RuntimeModelOptions& options, QueueingModel* model, std::string* error,
                      bool imbalance_is_noise = false);

/// The per-process parts at `procs` before contention (unscaled).
struct QueueingParts {
  double compute_s = 0, imbalance_s = 0, switch_delay_s = 0, mpi_active_s = 0;
  double messages_per_rank = kUnknown, bytes_per_message = kUnknown, service_s_per_message = kUnknown;
};
QueueingParts EvaluateParts(const QueueingModel& model, const MachineProfile& machine, int procs);
/// The busiest rank's compute time W + I at a real-valued `procs` >= 2 (unscaled): what
/// the busiest rank of a P that does not divide the units of work computes, evaluated at
/// the effective process count (models/granularity.h).
double BusiestComputeAt(const QueueingModel& model, double procs);

}  // namespace qnm
