#include "models/decomposition.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "models/contention_network.h"
#include "models/scaling_fit.h"
#include "util/text_format.h"

namespace qnm {
namespace {

double MeanAppTime(const RunStats& run) {
  if (Known(run.app_time_mean_s)) return run.app_time_mean_s;
  if (run.app_time_s_per_rank.empty()) return kUnknown;
  double sum = 0;
  for (double t : run.app_time_s_per_rank) sum += t;
  return sum / static_cast<double>(run.app_time_s_per_rank.size());
}

double MeanMpiTime(const RunStats& run) {
  if (Known(run.mpi_time_mean_s)) return run.mpi_time_mean_s;
  if (run.mpi_time_s_per_rank.empty()) return kUnknown;
  double sum = 0;
  for (double t : run.mpi_time_s_per_rank) sum += t;
  return sum / static_cast<double>(run.mpi_time_s_per_rank.size());
}

/// Load imbalance I = max - mean of the per-rank compute (app - MPI time);
/// 0 without complete per-rank times.
double ComputeImbalance(const RunStats& run) {
  const std::vector<double>& app = run.app_time_s_per_rank;
  const std::vector<double>& mpi = run.mpi_time_s_per_rank;
  if (app.size() < 2 || app.size() != mpi.size()) return 0.0;
  double sum = 0, largest = 0;
  for (std::size_t r = 0; r < app.size(); ++r) {
    double compute = std::max(0.0, app[r] - mpi[r]);
    if (!std::isfinite(compute)) return 0.0;
    sum += compute;
    largest = std::max(largest, compute);
  }
  return std::max(0.0, largest - sum / static_cast<double>(app.size()));
}

}  // namespace

double RunDecomposition::ServicePerMessage() const {
  if (!(messages_per_rank > 0) || !Known(unscaled.mpi_active_s)) return kUnknown;
  return unscaled.mpi_active_s / messages_per_rank;
}

bool HasMpiProfile(const RunStats& run) {
  double app = MeanAppTime(run), mpi = MeanMpiTime(run);
  return Known(app) && Known(mpi) && app > 0 && mpi >= 0;
}

bool DecomposeRun(const RunStats& run, const MachineProfile& machine,
                  const mva::Options& mva_options, RunDecomposition* out, std::string* error) {
  RunDecomposition d;
  d.procs = std::max(1, run.procs);
  d.threads_per_proc = std::max(1, run.threads_per_proc);
  d.label = run.sources.empty() ? "P=" + std::to_string(d.procs) : run.sources.front();
  d.app_time_s = MeanAppTime(run);
  d.mpi_time_s = MeanMpiTime(run);
  if (!Known(d.app_time_s) || !Known(d.mpi_time_s) || !(d.app_time_s > 0)) {
    *error = d.label + ": no per-rank application and MPI time (an mpiP report or trace is needed)";
    return false;
  }
  if (d.mpi_time_s < 0) {
    d.flags.push_back("negative MPI time clamped to 0");
    d.mpi_time_s = 0;
  }
  if (d.mpi_time_s > d.app_time_s) {
    d.flags.push_back("MPI time " + FormatDouble("%.4g", d.mpi_time_s) + " s exceeds app time " +
                      FormatDouble("%.4g", d.app_time_s) + " s: compute clamped to 0");
  }
  d.messages_per_rank = run.messages_per_rank;
  d.bytes_per_message = run.bytes_per_message;
  if (!Known(d.bytes_per_message) && Known(run.bytes_sent_per_rank) && run.messages_per_rank > 0)
    d.bytes_per_message = run.bytes_sent_per_rank / run.messages_per_rank;
  d.measured_time_s = run.TotalTimeSeconds();
  if (!Known(d.measured_time_s) || !(d.measured_time_s > 0)) d.measured_time_s = d.app_time_s;
  d.time_scale = d.measured_time_s / d.app_time_s;
  if (std::fabs(d.time_scale - 1.0) > 0.1)
    d.flags.push_back("measured total differs from mean app time by " +
                      FormatDouble("%.0f%%", 100 * (d.time_scale - 1)) +
                      " (timed region vs MPI_Init..Finalize, or imbalance); parts scaled to the total");

  // The average rank waits I for the slowest one; that wait is MPI time but
  // neither service nor contention. It cannot exceed the MPI time.
  d.unscaled.imbalance_s = std::min(ComputeImbalance(run), d.mpi_time_s);
  const double mpi_less_imbalance_s = d.mpi_time_s - d.unscaled.imbalance_s;

  // Switch delay, Buckwalter 2005: S = m * (Lat + L/BW).
  double switch_s = 0.0;
  if (!Known(d.messages_per_rank) || d.messages_per_rank < 0) {
    d.flags.push_back("no message counts: switch delay taken as 0");
    d.messages_per_rank = kUnknown;
  } else {
    double bytes = Known(d.bytes_per_message) ? d.bytes_per_message : 0.0;
    if (!Known(d.bytes_per_message) && d.messages_per_rank > 0)
      d.flags.push_back("no message sizes: switch delay from latency only");
    switch_s = d.messages_per_rank * machine.SwitchDelayPerMessage(bytes);
  }
  // The estimated machine puts the run on its lower envelope exactly at its MPI time: a difference
  // within rounding of it leaves no MPI time to serve (0, not a residue of 1e-17 s).
  const double rounding_s = 1e-12 * mpi_less_imbalance_s;
  if (std::fabs(switch_s - mpi_less_imbalance_s) <= rounding_s) switch_s = mpi_less_imbalance_s;
  if (switch_s > mpi_less_imbalance_s) {
    d.flags.push_back("switch delay " + FormatDouble("%.4g", switch_s) + " s exceeds MPI time " +
                      FormatDouble("%.4g", mpi_less_imbalance_s) +
                      " s (less load imbalance; profile latency/bandwidth too pessimistic for this run): clamped");
    switch_s = mpi_less_imbalance_s;
  }
  d.unscaled.compute_s = std::max(0.0, d.app_time_s - d.mpi_time_s);
  d.unscaled.switch_delay_s = switch_s;
  d.mpi_stations = MpiServiceStations(d.procs, d.threads_per_proc, &machine);

  ContentionInput input;
  input.procs = d.procs;
  input.compute_s = d.unscaled.compute_s + d.unscaled.imbalance_s;  // away from the MPI queues
  input.switch_delay_s = switch_s;
  input.mpi_stations = d.mpi_stations;
  double active = 0, contention = 0;
  if (!SolveMpiActive(input, mpi_less_imbalance_s - switch_s, mva_options, &active, &contention, error)) {
    *error = d.label + ": " + *error;
    return false;
  }
  d.unscaled.mpi_active_s = active;
  d.unscaled.contention_s = contention;
  // MPI time larger than app time: the parts add to the MPI time; rescale to the total.
  double unscaled_total = d.unscaled.Total();
  double scale = unscaled_total > 0 ? d.measured_time_s / unscaled_total : 1.0;
  d.components.compute_s = d.unscaled.compute_s * scale;
  d.components.imbalance_s = d.unscaled.imbalance_s * scale;
  d.components.switch_delay_s = d.unscaled.switch_delay_s * scale;
  d.components.mpi_active_s = d.unscaled.mpi_active_s * scale;
  d.components.contention_s = d.unscaled.contention_s * scale;
  d.time_scale = scale;
  *out = d;
  return true;
}

bool EstimateNetworkFromRuns(const std::vector<const RunStats*>& runs, MachineProfile* machine) {
  std::vector<double> bytes, per_message, mpi, messages;
  for (const RunStats* run : runs) {
    double mpi_s = MeanMpiTime(*run);
    if (Known(mpi_s)) mpi_s -= std::min(ComputeImbalance(*run), mpi_s);  // waiting, not messaging
    if (!(run->messages_per_rank > 0) || !Known(mpi_s) || !(mpi_s > 0)) continue;
    double b = Known(run->bytes_per_message) ? run->bytes_per_message : 0.0;
    bytes.push_back(b);
    per_message.push_back(mpi_s / run->messages_per_rank);
    mpi.push_back(mpi_s);
    messages.push_back(run->messages_per_rank);
  }
  if (bytes.empty()) return false;
  // Relative least squares: each run weighs the same whatever its message time.
  std::vector<std::vector<double>> columns(2, std::vector<double>(bytes.size()));
  std::vector<double> rhs(bytes.size(), 1.0);
  for (std::size_t k = 0; k < bytes.size(); ++k) {
    columns[0][k] = 1.0 / per_message[k];
    columns[1][k] = bytes[k] / per_message[k];
  }
  std::vector<double> coefficients;
  double residual = SmallNonnegativeLeastSquares(columns, rhs, true, &coefficients);
  double latency = std::isfinite(residual) ? coefficients[0] : 0.0;
  double inverse_bandwidth = std::isfinite(residual) ? coefficients[1] : 0.0;
  // Lower envelope: no run may spend more on the switch than in MPI.
  double factor = 1.0;
  for (std::size_t k = 0; k < bytes.size(); ++k) {
    double switch_s = messages[k] * (latency + bytes[k] * inverse_bandwidth);
    if (switch_s > 0) factor = std::min(factor, mpi[k] / switch_s);
  }
  latency *= factor;
  inverse_bandwidth *= factor;
  MachineProfile estimated;
  estimated.name = "estimated";
  estimated.description = "network estimated from the series";
  estimated.latency_s = latency;
  estimated.bandwidth_bytes_per_s = inverse_bandwidth > 0 ? 1.0 / inverse_bandwidth : 1e300;
  estimated.allocation = Allocation::kOnePerNode;
  estimated.estimated = true;
  estimated.source = "estimated from the series";
  // Without message sizes the transfer cannot be told from the latency: the "latency" is then the
  // whole time per message, which for a code sending megabytes is no network's latency.
  const bool sizes_known = std::any_of(bytes.begin(), bytes.end(), [](double b) { return b > 0; });
  estimated.estimate_note =
      "no machine profile: latency " + FormatDouble("%.3g", latency) + " s" +
      (sizes_known ? std::string() : " (the whole time per message, transfer included: the runs give no message sizes)") +
      " and bandwidth " +
      (inverse_bandwidth > 0 ? FormatDouble("%.3g", 1.0 / inverse_bandwidth) + " B/s" : std::string("unbounded")) +
      " estimated from " + std::to_string(bytes.size()) +
      " runs (least squares of MPI time per message vs bytes per message, scaled to the lower "
      "envelope so no run's switch delay exceeds its MPI time); one MPI queue per process";
  *machine = estimated;
  return true;
}

}  // namespace qnm
