// Fixed-point core of the approximate MVA algorithms; see approximate_mva.h.
#include "mva/approximate_mva.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace qnm::mva {

int ImpliedServers(const Station& station) {
  if (station.type == StationType::kMultiServer) return station.servers;
  if (station.type != StationType::kLoadDependent || station.rate_multipliers.empty()) return 0;
  const double m = station.rate_multipliers.back();
  if (m < 1 || m != std::floor(m) || m > 1e6) return 0;
  for (size_t j = 0; j < station.rate_multipliers.size(); ++j)
    if (station.rate_multipliers[j] != std::min(static_cast<double>(j + 1), m)) return 0;
  if (static_cast<double>(station.rate_multipliers.size()) < m) return 0;  // held value != m
  return static_cast<int>(m);
}

double MultiServerBusyProbability(double offered_load, double servers) {
  if (!(offered_load > 0)) return 0.0;
  if (offered_load >= servers) return 1.0;  // saturated: some server is always busy
  // 1 / P(0) = sum_{k<m} a^k/k! + a^m/m! / (1 - a/m), summed in logs (m up to 1e6).
  const long m = static_cast<long>(servers);
  const double log_a = std::log(offered_load);
  std::vector<double> logs;
  logs.reserve(static_cast<size_t>(m) + 1);
  double log_term = 0.0;  // log(a^k / k!)
  for (long j = 0; j < m; ++j) {
    logs.push_back(log_term);
    log_term += log_a - std::log(static_cast<double>(j + 1));
  }
  logs.push_back(log_term - std::log1p(-offered_load / servers));
  const double top = *std::max_element(logs.begin(), logs.end());
  double sum = 0.0;
  for (double l : logs) sum += std::exp(l - top);
  const double log_inverse_p0 = top + std::log(sum);
  return -std::expm1(-log_inverse_p0);  // 1 - P(0)
}

ApproximateMva::ApproximateMva(const Network& network)
    : network_(network), classes_(network.classes.size()), stations_(network.stations.size()) {
  for (const Station& s : network.stations) {
    const int m = ImpliedServers(s);
    if (s.type == StationType::kDelay) role_.push_back(Role::kDelay);
    else if (m > 1) role_.push_back(Role::kSeidmann);
    else role_.push_back(Role::kQueue);  // queues, 1-server stations, unsupported LD
    servers_.push_back(m > 1 ? m : 1.0);
  }
}

bool ApproximateMva::CheckSupported(std::string* error) const {
  for (size_t k = 0; k < stations_; ++k) {
    const Station& s = network_.stations[k];
    if (s.type == StationType::kLoadDependent && ImpliedServers(s) == 0) {
      *error = "station " + std::to_string(k) + " ('" + s.name +
               "'): the approximate algorithms support multi-server stations but not general "
               "load-dependent rate multipliers; solve it with the exact algorithm";
      return false;
    }
  }
  return true;
}

ApproximateMva::State ApproximateMva::InitialState(const std::vector<long>& population) const {
  State state;
  state.population = population;
  double replicas = 0;
  for (const Station& s : network_.stations) replicas += static_cast<double>(s.count);
  state.queue.assign(stations_ * classes_, 0.0);
  for (size_t k = 0; k < stations_; ++k)
    for (size_t c = 0; c < classes_; ++c)
      state.queue[k * classes_ + c] = static_cast<double>(population[c]) / replicas;
  state.residence_s.assign(stations_ * classes_, 0.0);
  state.throughput.assign(classes_, 0.0);
  return state;
}

double ApproximateMva::Residence(size_t k, size_t c, double arrival_queue) const {
  const double demand_s = network_.stations[k].demand_s[c];
  switch (role_[k]) {
    case Role::kDelay: return demand_s;
    case Role::kQueue: return demand_s * (1.0 + arrival_queue);
    case Role::kSeidmann: {
      const double m = servers_[k];
      return demand_s / m * (1.0 + arrival_queue) + demand_s * (m - 1.0) / m;
    }
  }
  return demand_s;
}

void ApproximateMva::Iterate(const std::vector<double>& corrections, const Options& options,
                             State* state, Summary* summary) const {
  const size_t C = classes_;
  std::vector<double> total(stations_), next(stations_ * C);
  const std::vector<long>& n = state->population;
  double change = 0.0;
  bool converged = false;
  int iteration = 0;
  while (iteration < options.max_iterations) {
    ++iteration;
    for (size_t k = 0; k < stations_; ++k) {
      total[k] = 0.0;
      for (size_t c = 0; c < C; ++c) total[k] += state->queue[k * C + c];
    }
    for (size_t c = 0; c < C; ++c) {
      double cycle_s = network_.classes[c].think_time_s;
      for (size_t k = 0; k < stations_; ++k) {
        double arrival = 0.0;
        if (corrections.empty()) {
          arrival = n[c] > 0 ? total[k] - state->queue[k * C + c] / static_cast<double>(n[c]) : total[k];
        } else {
          for (size_t j = 0; j < C; ++j) {
            const double left = static_cast<double>(n[j] - (j == c ? 1 : 0));
            if (left <= 0) continue;
            arrival += left * (state->queue[k * C + j] / static_cast<double>(n[j]) +
                               corrections[(k * C + j) * C + c]);
          }
        }
        const double r = Residence(k, c, std::max(0.0, arrival));
        state->residence_s[k * C + c] = r;
        cycle_s += static_cast<double>(network_.stations[k].count) * r;
      }
      state->throughput[c] = n[c] > 0 ? static_cast<double>(n[c]) / cycle_s : 0.0;
    }
    change = 0.0;
    for (size_t k = 0; k < stations_; ++k)
      for (size_t c = 0; c < C; ++c) {
        double r = state->residence_s[k * C + c];
        if (role_[k] == Role::kSeidmann)  // the delay part holds no queue
          r -= network_.stations[k].demand_s[c] * (servers_[k] - 1.0) / servers_[k];
        const double q = state->throughput[c] * r;
        change = std::max(change, std::fabs(q - state->queue[k * C + c]));
        state->queue[k * C + c] = q;
      }
    if (change < options.tolerance) {
      converged = true;
      break;
    }
  }
  summary->iterations += iteration;
  summary->final_change = change;
  if (!converged) {
    summary->converged = false;
    summary->message = "no convergence after " + std::to_string(iteration) +
                       " iterations (last max |dQ| " + std::to_string(change) + ")";
  }
}

void ApproximateMva::WriteResult(const State& state, Result* result) const {
  const size_t C = classes_;
  for (size_t c = 0; c < C; ++c) result->X[c] = state.throughput[c];
  for (size_t k = 0; k < stations_; ++k) {
    // Seidmann's model has no P(n_k = 0) of the m servers: it is estimated
    // as an M/M/m queue offered the load the MVA throughput puts on it
    // (Erlang's P(0)), with a note (Solve) instead of NaN (issue 19).
    if (role_[k] == Role::kSeidmann) {
      double busy_servers = 0.0;
      for (size_t c = 0; c < C; ++c) busy_servers += state.throughput[c] * network_.stations[k].demand_s[c];
      result->Ubusy[k] = MultiServerBusyProbability(busy_servers, servers_[k]);
    }
    double total = 0.0;
    for (size_t c = 0; c < C; ++c) total += state.queue[k * C + c];
    for (size_t c = 0; c < C; ++c) {
      // Classes without customers: what one arriving customer would see.
      const double r = state.population[c] > 0 ? state.residence_s[k * C + c] : Residence(k, c, total);
      result->Rk[k][c] = r;
      result->Q[k][c] = state.throughput[c] * r;
    }
  }
}

}  // namespace qnm::mva
