// MVA solver timings: median and fastest wall time of the Solve() call only, warm
// (one workspace and result reused, as `qnm-predict mva --repeat` does), over
// repeated runs; network construction and output excluded. Also the median CPU
// time of the calling thread (on a loaded machine a run longer than a time
// slice waits for the CPU; CPU time does not count that). Prints the time per
// lattice point (from the median CPU time) and the arithmetic one point needs.
// Usage: mva_bench [min_seconds] [--only SUBSTRING] [--write-networks DIR]
// Peer figures: issue 12, measured on the same machine type: PDQ 7.0 rebuilt with
// -O2, JMT (JMVA) warm after JIT warm-up; median of 21 warm solve calls.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <time.h>

#include <nlohmann/json.hpp>

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

/// The mva-vector `model` object of a queue network (for whole-process timings).
nlohmann::ordered_json ModelJson(const mva::Network& net) {
  nlohmann::ordered_json model;
  for (const mva::CustomerClass& c : net.classes)
    model["classes"].push_back({{"name", c.name}, {"population", c.population}, {"think_time", c.think_time_s}});
  for (const mva::Station& s : net.stations)
    model["stations"].push_back({{"name", s.name}, {"type", "queue"}, {"demands", s.demand_s}});
  return model;
}

struct Case {
  std::string name;
  mva::Network network;
  mva::Algorithm algorithm;
  double peer_ms = 0.0;  // fastest peer, warm (0: none)
  std::string peer;
  std::string file;      // --write-networks file name ("" = not written)
};

/// Floating-point operations one lattice point needs (a fused multiply-add
/// counts 2, a division 1) in the exact queue/delay recursions, K queues:
/// multi-class, per class with n_c > 0: dot product 2K, + A_c and n_c / S_c 2,
/// queue update D (1 + Q) and X D (1 + Q) summed over classes 4K;
/// single-class: W = sum K D^2 (1 + Q) 3K, Q = X D (1 + Q) 2K, + 3 scalar.
double FlopsPerPoint(const mva::Network& net) {
  const double K = static_cast<double>(net.stations.size());
  double C = 0;
  for (const mva::CustomerClass& c : net.classes) C += c.population > 0 ? 1.0 : 0.0;
  return net.classes.size() == 1 ? 5 * K + 3 : C * (6 * K + 2);
}

double LatticePoints(const mva::Network& net) {
  double points = 1;
  for (const mva::CustomerClass& c : net.classes) points *= static_cast<double>(c.population + 1);
  return points;
}

double ThreadCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// Median (and fastest, less sensitive to other jobs on the machine) of the Solve()
/// wall time; `cpu_median`: median thread CPU time of the same calls.
double MedianSeconds(const Case& bench, double min_seconds, int* runs, double* fastest, double* cpu_median,
                     mva::Result* result) {
  mva::Options options;
  options.algorithm = bench.algorithm;
  mva::Workspace workspace;
  std::string error;
  if (!mva::Solve(bench.network, options, result, &error, &workspace)) {  // warm-up
    std::fprintf(stderr, "%s: %s\n", bench.name.c_str(), error.c_str());
    std::exit(1);
  }
  std::vector<double> times, cpu_times;
  double total = 0.0;
  while ((total < min_seconds || times.size() < 21) && times.size() < 5000) {
    const double cpu_start = ThreadCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    mva::Solve(bench.network, options, result, &error, &workspace);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cpu_times.push_back(ThreadCpuSeconds() - cpu_start);
    times.push_back(seconds);
    total += seconds;
  }
  std::sort(times.begin(), times.end());
  std::sort(cpu_times.begin(), cpu_times.end());
  *cpu_median = cpu_times[cpu_times.size() / 2];
  *runs = static_cast<int>(times.size());
  *fastest = times.front();
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  double min_seconds = 1.0;
  std::string only, write_dir;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--write-networks") && i + 1 < argc) write_dir = argv[++i];
    else min_seconds = std::atof(argv[i]);
  }
  const auto exact = mva::Algorithm::kExact;
  std::vector<Case> cases;
  cases.push_back({"1 class, 10 stations, N=10000", Queues({10000}, 10, 1.0), exact, 0.53, "JMT",
                   "single_class_10st_N10000.json"});
  cases.push_back({"3 classes, 6 stations, N=(40,30,20)", Queues({40, 30, 20}, 6, 1.0), exact, 1.07,
                   "PDQ -O2", "three_class_6st_N40_30_20.json"});
  cases.push_back({"2 classes, 10 stations, N=(100,100)", Queues({100, 100}, 10, 1.0), exact, 0.58,
                   "PDQ -O2", "two_class_10st_N100_100.json"});
  cases.push_back({"3 classes, 10 stations, N=(100,100,100)", Queues({100, 100, 100}, 10, 1.0), exact, 0, "",
                   "three_class_10st_N100_100_100.json"});
  cases.push_back({"4 classes, 10 stations, N=(20,20,20,20)", Queues({20, 20, 20, 20}, 10, 1.0), exact, 0, "",
                   "four_class_10st_N20x4.json"});
  cases.push_back({"1 class, 100 stations, N=10^6", Queues({1000000}, 100, 1.0), exact, 0, "", ""});
  mva::Network replicated = Queues({1024}, 2, 0.5);
  replicated.stations[1].count = 1024;  // e.g. one queue per process
  cases.push_back({"1 class, N=1024, 1024-replicated queue + 1 queue", replicated, exact, 0, "", ""});
  mva::Network multi_server = Queues({1000}, 10, 2.0);
  multi_server.stations[0].type = mva::StationType::kMultiServer;
  multi_server.stations[0].servers = 8;
  multi_server.stations[0].demand_s = {9.6};
  cases.push_back({"1 class, 10 stations incl. 8-server, N=1000 (stable LD)", multi_server, exact, 0, "", ""});
  cases.push_back({"3 classes, 6 stations, N=(40,30,20), Schweitzer", Queues({40, 30, 20}, 6, 1.0),
                   mva::Algorithm::kSchweitzer, 0, "", ""});
  cases.push_back({"3 classes, 6 stations, N=(40,30,20), Linearizer", Queues({40, 30, 20}, 6, 1.0),
                   mva::Algorithm::kLinearizer, 0, "", ""});

  if (!write_dir.empty()) {
    for (const Case& bench : cases) {
      if (bench.file.empty()) continue;
      std::ofstream(write_dir + "/" + bench.file) << ModelJson(bench.network).dump(1) << "\n";
    }
    return 0;
  }
  std::printf("%-56s %10s %10s %10s %5s %9s %7s %8s  %s\n", "case (exact unless named)", "median ms", "min ms",
              "cpu ms", "runs", "ns/point", "flop/pt", "GFlop/s", "peer warm: ratio to our median");
  for (const Case& bench : cases) {
    if (!only.empty() && bench.name.find(only) == std::string::npos) continue;
    int runs = 0;
    double fastest = 0.0, cpu = 0.0;
    mva::Result result;
    const double seconds = MedianSeconds(bench, min_seconds, &runs, &fastest, &cpu, &result);
    const bool exact_queues = bench.algorithm == exact && bench.name.find("LD") == std::string::npos &&
                              bench.name.find("replicated") == std::string::npos;
    const double points = bench.network.classes.size() == 1 ? bench.network.classes[0].population
                                                            : LatticePoints(bench.network);
    std::printf("%-56s %10.3f %10.3f %10.3f %5d", bench.name.c_str(), seconds * 1e3, fastest * 1e3, cpu * 1e3,
                runs);
    if (exact_queues)
      std::printf(" %9.2f %7.0f %8.2f", cpu / points * 1e9, FlopsPerPoint(bench.network),
                  FlopsPerPoint(bench.network) * points / cpu * 1e-9);
    else
      std::printf(" %9s %7s %8s", "", "", "");
    if (bench.peer_ms > 0)
      std::printf("  %s %.2f ms: %.1fx", bench.peer.c_str(), bench.peer_ms, bench.peer_ms / (seconds * 1e3));
    std::printf("   X[0] = %.10g\n", result.X[0]);
  }
  return 0;
}
