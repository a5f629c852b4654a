#pragma once
// Buckwalter 2005's four components of one measured run, per process, and the
// load imbalance the per-rank spread shows:
//   compute W = mean over ranks of app - MPI time (non-overlapped computation),
//   load imbalance I = max - mean of the ranks' compute: the time the average
//   rank waits inside MPI for the slowest one (Scalasca's wait at N x N and
//   late-sender wait caused by imbalance, Geimer et al. 2010 §3; 0 without
//   per-rank times). W + I is the slowest rank's compute;
//   switch delay S = m * (Lat + L/BW),
//   MPI active A and MPI contention C with S + A + C = MPI time - I, C from the
//   contention network (models/contention_network.h).
// The parts are computed on mpiP's per-rank mean times and then scaled by
// time_scale = measured total / mean app time, so they add up to the run's
// measured total (the application's own timer when it has one).
#include <string>
#include <vector>

#include "models/machine_profile.h"
#include "mva/solver.h"
#include "record/run_stats.h"

namespace qnm {

struct ComponentTimes {
  double compute_s = kUnknown;
  double switch_delay_s = kUnknown;
  double mpi_active_s = kUnknown;
  double contention_s = kUnknown;
  double imbalance_s = 0.0;  // load imbalance I (0 when the run has no per-rank times)
  double Total() const { return compute_s + imbalance_s + switch_delay_s + mpi_active_s + contention_s; }
};

struct RunDecomposition {
  int procs = 0;
  int threads_per_proc = 1;
  std::string label;              // first source file, or "P=<procs>"
  double measured_time_s = kUnknown;  // what the components add up to
  double app_time_s = kUnknown;       // mean per rank
  double mpi_time_s = kUnknown;       // mean per rank
  double time_scale = 1.0;            // measured_time_s / app_time_s
  double messages_per_rank = kUnknown;
  double bytes_per_message = kUnknown;
  long mpi_stations = 1;
  ComponentTimes unscaled;            // on the per-rank mean app time
  ComponentTimes components;          // scaled: sum == measured_time_s
  std::vector<std::string> flags;     // inconsistent inputs that were clamped, and why

  /// MPI service time per message (unscaled A / m), NaN without messages.
  double ServicePerMessage() const;
};

/// True when the run has what the decomposition needs: per-rank app and MPI time.
bool HasMpiProfile(const RunStats& run);

/// Decomposes one run. `machine` gives Lat, BW and the placement. Returns
/// false with `error` when the run has no MPI profile or the solver fails.
bool DecomposeRun(const RunStats& run, const MachineProfile& machine,
                  const mva::Options& mva_options, RunDecomposition* decomposition,
                  std::string* error);

/// Estimates Lat and BW from the runs themselves when no profile is given:
/// least squares of MPI time per message against bytes per message (both >= 0),
/// scaled down to the lower envelope so no run's switch delay exceeds its MPI
/// time. Placement is one queue per process. Returns false when no run has
/// messages and MPI time.
bool EstimateNetworkFromRuns(const std::vector<const RunStats*>& runs, MachineProfile* machine);

}  // namespace qnm
