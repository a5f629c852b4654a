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
};

struct Network {
  std::vector<CustomerClass> classes;
  std::vector<Station> stations;

  long TotalPopulation() const;
  /// False, with a message naming the offending class/station, when the network
  /// cannot be solved (no stations, negative/NaN demand, N < 0, bad multipliers...).
  bool IsValid(std::string* error) const;
};

}  // namespace qnm::mva
