#include "models/contention_network.h"

#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <stdexcept>

namespace qnm {

long MpiServiceStations(int procs, int threads_per_proc, const MachineProfile* machine) {
  procs = std::max(1, procs);
  if (!machine) return procs;
  int threads = std::max(1, threads_per_proc);
  long per_node = machine->cores_per_node > 0 ? std::max(1, machine->cores_per_node / threads) : 1;
  switch (machine->allocation) {
    case Allocation::kOnePerNode:
      return procs;
    case Allocation::kBlock:
      return (procs + per_node - 1) / per_node;
    case Allocation::kCyclic:
      if (machine->nodes > 0) return std::min<long>(procs, machine->nodes);
      return (procs + per_node - 1) / per_node;
  }
  return procs;
}

mva::Network BuildContentionNetwork(const ContentionInput& input) {
  mva::Network network;
  network.classes.push_back({"process", std::max(1, input.procs), 0.0});
  auto station = [](const char* name, mva::StationType type, double demand_s) {
    mva::Station s;
    s.name = name;
    s.type = type;
    s.demand_s = {std::max(0.0, demand_s)};
    return s;
  };
  long stations = std::max(1L, input.mpi_stations);
  mva::Station compute = station("compute", mva::StationType::kDelay, input.compute_s);
  mva::Station switch_delay = station("switch", mva::StationType::kDelay, input.switch_delay_s);
  mva::Station mpi = station("mpi-service", mva::StationType::kQueue,
                             input.mpi_active_s / static_cast<double>(stations));
  mpi.count = stations;
  network.stations = {compute, switch_delay, mpi};
  return network;
}

double SchweitzerQueueResidence(const ContentionInput& input) {
  const double queues = static_cast<double>(std::max(1L, input.mpi_stations));
  const double demand_s = std::max(0.0, input.mpi_active_s) / queues;
  const double delay_s = std::max(0.0, input.compute_s) + std::max(0.0, input.switch_delay_s);
  const double customers = static_cast<double>(std::max(1, input.procs));
  // K R^2 + b R - D Z = 0 with b = Z - D (K + N - 1); the root is >= 0 and
  // taken in the form that does not cancel for either sign of b.
  const double b = delay_s - demand_s * (queues + customers - 1.0);
  const double root = std::sqrt(b * b + 4.0 * queues * demand_s * delay_s);
  if (b <= 0) return (root - b) / (2.0 * queues);
  return root + b > 0 ? 2.0 * demand_s * delay_s / (root + b) : 0.0;
}

bool SolveContention(const ContentionInput& input, const mva::Options& options,
                     double* contention_s, std::string* error) {
  if (!(input.mpi_active_s > 0) || input.procs <= 1) {  // nobody to wait behind
    *contention_s = 0.0;
    return true;
  }
  if (options.algorithm == mva::Algorithm::kAuto && input.procs > kExactContentionMaxProcs) {
    const double residence =
        SchweitzerQueueResidence(input) * static_cast<double>(std::max(1L, input.mpi_stations));
    if (!std::isfinite(residence)) {
      *error = "Schweitzer MVA gave a non-finite MPI residence time";
      return false;
    }
    *contention_s = std::max(0.0, residence - input.mpi_active_s);
    return true;
  }
  mva::Network network = BuildContentionNetwork(input);
  mva::Result result;
  if (!mva::Solve(network, options, &result, error)) return false;
  // Rk of a replicated station is per replica; a cycle visits all K of them.
  double residence = result.Rk[2][0] * static_cast<double>(network.stations[2].count);
  if (!std::isfinite(residence)) {
    *error = "MVA returned a non-finite MPI residence time";
    return false;
  }
  *contention_s = std::max(0.0, residence - input.mpi_active_s);
  return true;
}

bool SolveMpiActive(const ContentionInput& input, double mpi_less_switch_s,
                    const mva::Options& options, double* mpi_active_s, double* contention_s,
                    std::string* error) {
  *mpi_active_s = 0.0;
  *contention_s = 0.0;
  if (!(mpi_less_switch_s > 0)) return true;
  ContentionInput trial = input;
  std::string solve_error;
  auto excess = [&](double active) {
    trial.mpi_active_s = active;
    double contention = 0.0;
    if (!SolveContention(trial, options, &contention, &solve_error))
      throw std::runtime_error(solve_error);
    return active + contention - mpi_less_switch_s;
  };
  try {
    double high_value = excess(mpi_less_switch_s);  // >= 0 since C >= 0
    if (high_value <= 0) {
      *mpi_active_s = mpi_less_switch_s;
      return true;
    }
    boost::uintmax_t iterations = 100;
    auto tolerance = boost::math::tools::eps_tolerance<double>(40);
    std::pair<double, double> bracket = boost::math::tools::toms748_solve(
        excess, 0.0, mpi_less_switch_s, -mpi_less_switch_s, high_value, tolerance, iterations);
    double active = 0.5 * (bracket.first + bracket.second);
    trial.mpi_active_s = active;
    if (!SolveContention(trial, options, contention_s, error)) return false;
    *mpi_active_s = active;
    // Put the root-finding residue into contention so the parts add up exactly.
    *contention_s = std::max(0.0, mpi_less_switch_s - active);
    return true;
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

}  // namespace qnm
