// MVA solver timings: median wall time of the Solve() call only, over repeated
// runs (network construction and output excluded). Usage: mva_bench [min_seconds]
// Peer numbers (issue 2, same machine type): JMT 6 ms for case 1, PDQ 1.9 ms for
// case 2, PDQ 1.8 ms for case 3.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mva/solver.h"

namespace {

namespace mva = qnm::mva;

/// Deterministic demands in [0.05, 1.05) so every run solves the same network.
double Demand(size_t k, size_t c) { return 0.05 + std::fmod(0.37 * (k + 1) + 0.61 * (c + 1) * (k + 2), 1.0); }

mva::Network Queues(const std::vector<long>& populations, size_t stations, double think_time_s) {
  mva::Network net;
  for (size_t c = 0; c < populations.size(); ++c)
    net.classes.push_back({"class" + std::to_string(c), populations[c], think_time_s});
  for (size_t k = 0; k < stations; ++k) {
    mva::Station s;
    s.name = "station" + std::to_string(k);
    for (size_t c = 0; c < populations.size(); ++c) s.demand_s.push_back(Demand(k, c));
    net.stations.push_back(s);
  }
  return net;
}

struct Case {
  std::string name;
  mva::Network network;
  mva::Algorithm algorithm;
  std::string peer;
};

/// Median (and fastest, less sensitive to other jobs on the machine) of the Solve() time.
double MedianSeconds(const Case& bench, double min_seconds, int* runs, double* fastest,
                     mva::Result* result) {
  mva::Options options;
  options.algorithm = bench.algorithm;
  std::vector<double> times;
  double total = 0.0;
  while ((total < min_seconds || times.size() < 5) && times.size() < 2000) {
    std::string error;
    const auto start = std::chrono::steady_clock::now();
    const bool ok = mva::Solve(bench.network, options, result, &error);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!ok) {
      std::fprintf(stderr, "%s: %s\n", bench.name.c_str(), error.c_str());
      std::exit(1);
    }
    times.push_back(seconds);
    total += seconds;
  }
  std::sort(times.begin(), times.end());
  *runs = static_cast<int>(times.size());
  *fastest = times.front();
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const double min_seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  std::vector<Case> cases;
  cases.push_back({"1 class, 10 stations, N=10000, exact", Queues({10000}, 10, 1.0),
                   mva::Algorithm::kExact, "JMT 6 ms"});
  cases.push_back({"3 classes, 6 stations, N=(40,30,20), exact", Queues({40, 30, 20}, 6, 1.0),
                   mva::Algorithm::kExact, "PDQ 1.9 ms"});
  cases.push_back({"2 classes, 10 stations, N=(100,100), exact", Queues({100, 100}, 10, 1.0),
                   mva::Algorithm::kExact, "PDQ 1.8 ms"});
  cases.push_back({"1 class, 100 stations, N=10^6, exact", Queues({1000000}, 100, 1.0),
                   mva::Algorithm::kExact, ""});
  mva::Network replicated = Queues({1024}, 2, 0.5);
  replicated.stations[1].count = 1024;  // e.g. one queue per process
  cases.push_back({"1 class, N=1024, 1024-replicated queue + 1 queue, exact", replicated,
                   mva::Algorithm::kExact, ""});
  mva::Network multi_server = Queues({1000}, 10, 2.0);
  multi_server.stations[0].type = mva::StationType::kMultiServer;
  multi_server.stations[0].servers = 8;
  multi_server.stations[0].demand_s = {9.6};
  cases.push_back({"1 class, 10 stations incl. 8-server, N=1000, exact (stable LD)", multi_server,
                   mva::Algorithm::kExact, ""});
  cases.push_back({"3 classes, 6 stations, N=(40,30,20), Schweitzer", Queues({40, 30, 20}, 6, 1.0),
                   mva::Algorithm::kSchweitzer, ""});
  cases.push_back({"3 classes, 6 stations, N=(40,30,20), Linearizer", Queues({40, 30, 20}, 6, 1.0),
                   mva::Algorithm::kLinearizer, ""});

  std::printf("%-64s %12s %12s %6s %12s  %s\n", "case", "median", "min", "runs", "peer", "X[0]");
  for (const Case& bench : cases) {
    int runs = 0;
    double fastest = 0.0;
    mva::Result result;
    const double seconds = MedianSeconds(bench, min_seconds, &runs, &fastest, &result);
    std::printf("%-64s %9.3f ms %9.3f ms %6d %12s  %.10g\n", bench.name.c_str(), seconds * 1e3,
                fastest * 1e3, runs, bench.peer.c_str(), result.X[0]);
  }
  return 0;
}
