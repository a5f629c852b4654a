#pragma once
// A closed queueing network: customer classes cycling through stations.
// Schema follows ../shared/data/mva-vectors/README.md (the `model` object).
#include <string>
#include <vector>

namespace qnm::mva {

enum class StationType {
  kQueue,          // load-independent single server (FCFS/PS/LCFS-PR)
  kDelay,          // infinite server: residence = demand
  kLoadDependent,  // rate multipliers alpha(j): with j jobs present, demand is D/alpha(j)
  kMultiServer,    // m identical servers: load-dependent with alpha(j) = min(j, m)
};
const char* ToString(StationType type);
/// Parses "queue" | "delay" | "load_dependent" | "multi_server" (also "multiserver");
/// false if unknown.
bool ParseStationType(const std::string& text, StationType* type);

struct CustomerClass {
  std::string name;
  long population = 0;        // N_c >= 0
  double think_time_s = 0.0;  // Z_c >= 0
};

struct Station {
  std::string name;
  StationType type = StationType::kQueue;
  std::vector<double> demand_s;           // D_kc per class (visits x service time), per replica
  int servers = 1;                        // kMultiServer: m
  std::vector<double> rate_multipliers;   // kLoadDependent: alpha(1..N_total); the last value
                                          // is held for larger populations
  long count = 1;                         // K identical replicas, each with demand_s (a
                                          // customer's total demand over them is K x demand_s)

  /// alpha(j) for j >= 1 jobs present: min(j, m) for multi-server, the (held) multiplier
  /// for load-dependent stations, 1 otherwise.
  double RateMultiplier(long jobs) const;
  bool IsLoadDependent() const {
    return type == StationType::kLoadDependent || type == StationType::kMultiServer;
  }
};

struct Network {
  std::vector<CustomerClass> classes;
  std::vector<Station> stations;

  long TotalPopulation() const;
  /// False, with a message naming the offending class/station, when the network
  /// cannot be solved (no stations, negative/NaN demand, N < 0, bad multipliers,
  /// a class with customers but no demand and no think time...).
  bool IsValid(std::string* error) const;
  /// The same network with every replicated station (count K) written out as K
  /// stations of count 1 (used to check the replicated solution).
  Network Expanded() const;
};

}  // namespace qnm::mva
