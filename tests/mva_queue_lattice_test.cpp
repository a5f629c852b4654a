// The vectorised lattice walk for queue/delay networks (mva/queue_lattice.cpp)
// against an independent path: the same network with one queue written as a
// load-dependent station with alpha(j) = 1 (the same queue) goes through the
// Reiser-Lavenberg marginal recursion of exact_multi_class.cpp. Shapes cover
// the compiled kernels (2-4 classes, 1-16 queues), the generic one (5+ classes,
// 17+ queues), one active class, empty classes, delays and replicas. And a
// reused Workspace/Result gives exactly what a fresh solve gives.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "mva/solver.h"

namespace {

namespace mva = qnm::mva;

mva::Network RandomQueueNetwork(std::mt19937& rng, long classes, long stations, long max_population) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto pick = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  mva::Network net;
  for (long c = 0; c < classes; ++c)
    net.classes.push_back({"c" + std::to_string(c), pick(0, max_population), unit(rng) < 0.3 ? 0.0 : 4.0 * unit(rng)});
  for (long k = 0; k < stations; ++k) {
    mva::Station s;
    s.name = "s" + std::to_string(k);
    if (k > 0 && unit(rng) < 0.15) s.type = mva::StationType::kDelay;
    for (long c = 0; c < classes; ++c) s.demand_s.push_back(unit(rng) < 0.1 ? 0.0 : 0.05 + unit(rng));
    s.count = unit(rng) < 0.2 ? pick(2, 3) : 1;
    net.stations.push_back(s);
  }
  for (long c = 0; c < classes; ++c) net.stations[0].demand_s[c] += 0.05;  // station 0 is a queue
  return net;
}

mva::Result SolveExact(const mva::Network& net, mva::Workspace* workspace = nullptr,
                       mva::Result* reuse = nullptr) {
  mva::Options options;
  options.algorithm = mva::Algorithm::kExact;
  mva::Result fresh;
  mva::Result* result = reuse ? reuse : &fresh;
  std::string error;
  INFO(error);
  REQUIRE(mva::Solve(net, options, result, &error, workspace));
  return *result;
}

void CheckClose(const mva::Result& a, const mva::Result& b, double rel) {
  auto close = [rel](double x, double y) { return std::fabs(x - y) <= rel * std::max(std::fabs(x), std::fabs(y)) + 1e-14; };
  for (size_t c = 0; c < a.X.size(); ++c) {
    CHECK(close(a.X[c], b.X[c]));
    CHECK(close(a.R[c], b.R[c]));
  }
  for (size_t k = 0; k < a.Q.size(); ++k)
    for (size_t c = 0; c < a.X.size(); ++c) {
      INFO("station " << k << " class " << c);
      CHECK(close(a.Q[k][c], b.Q[k][c]));
      CHECK(close(a.Rk[k][c], b.Rk[k][c]));
    }
}

}  // namespace

TEST_CASE("The vectorised queue lattice equals the load-dependent recursion", "[mva][lattice]") {
  std::mt19937 rng(12);
  struct Size {
    long classes, stations, max_population;
  };
  // (classes, queues) around the kernel boundaries: 4 classes / 16 stations are
  // the largest compiled kernels.
  const std::vector<Size> sizes = {{2, 1, 30}, {2, 4, 30}, {2, 5, 20}, {3, 6, 9},  {3, 8, 9},  {3, 12, 8},
                                   {4, 16, 4}, {4, 3, 5},  {2, 17, 12}, {5, 4, 3}, {6, 9, 2}, {3, 23, 6},
                                   {2, 10, 1}, {3, 2, 0}};
  int compared = 0;
  for (const Size& size : sizes)
    for (int i = 0; i < 12; ++i) {
      const mva::Network net = RandomQueueNetwork(rng, size.classes, size.stations, size.max_population);
      mva::Network reference = net;
      reference.stations[0].type = mva::StationType::kLoadDependent;
      reference.stations[0].rate_multipliers = {1.0};
      reference.stations[0].count = 1;
      mva::Network same = net;
      same.stations[0].count = 1;
      INFO("classes " << size.classes << ", stations " << size.stations << ", network " << i);
      CheckClose(SolveExact(same), SolveExact(reference), 1e-11);
      ++compared;
    }
  CHECK(compared == 168);
}

TEST_CASE("A reused workspace and result give exactly a fresh solve's numbers", "[mva][lattice]") {
  std::mt19937 rng(5);
  const mva::Network big = RandomQueueNetwork(rng, 3, 9, 25);
  const mva::Network small = RandomQueueNetwork(rng, 2, 3, 4);
  const mva::Network single = RandomQueueNetwork(rng, 1, 7, 500);
  mva::Workspace workspace;
  mva::Result reused;
  for (const mva::Network* net : {&big, &small, &single, &big, &single, &small}) {
    const mva::Result fresh = SolveExact(*net);
    const mva::Result again = SolveExact(*net, &workspace, &reused);
    CHECK(again.X == fresh.X);
    CHECK(again.Q == fresh.Q);
    CHECK(again.Rk == fresh.Rk);
    CHECK(again.U == fresh.U);
    CHECK(again.summary.iterations == fresh.summary.iterations);
    CHECK(again.summary.message == fresh.summary.message);
  }
  CHECK(workspace.capacity() > 0);
}
