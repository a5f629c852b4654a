// Properties every MVA solution must have, checked over thousands of random
// networks (fixed seeds, so a failure is reproducible): Little's law, capacity,
// monotone throughput, replicated == expanded, agreement of independent paths.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "mva/solver.h"

namespace {

namespace mva = qnm::mva;

struct Shape {
  int max_classes = 3;
  int max_stations = 5;
  long max_population = 6;
  bool load_dependent = true;  // allow multi-server / load-dependent stations
  long max_count = 3;
};

/// A random valid network; load-dependent multipliers are non-decreasing.
mva::Network RandomNetwork(std::mt19937& rng, const Shape& shape) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto pick = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  mva::Network net;
  const long classes = pick(1, shape.max_classes), stations = pick(1, shape.max_stations);
  for (long c = 0; c < classes; ++c)
    net.classes.push_back({"c" + std::to_string(c), pick(0, shape.max_population),
                           unit(rng) < 0.5 ? 0.0 : 5.0 * unit(rng)});
  for (long k = 0; k < stations; ++k) {
    mva::Station s;
    s.name = "s" + std::to_string(k);
    const double kind = unit(rng);
    if (kind < 0.2) s.type = mva::StationType::kDelay;
    else if (shape.load_dependent && kind < 0.35) s.type = mva::StationType::kMultiServer;
    else if (shape.load_dependent && kind < 0.45) s.type = mva::StationType::kLoadDependent;
    s.servers = static_cast<int>(pick(1, 4));
    double alpha = 1.0;
    for (long j = pick(1, 5); j > 0; --j, alpha += unit(rng)) s.rate_multipliers.push_back(alpha);
    for (long c = 0; c < classes; ++c) s.demand_s.push_back(unit(rng) < 0.1 ? 0.0 : 0.1 + 2.0 * unit(rng));
    s.count = pick(1, shape.max_count);
    net.stations.push_back(s);
  }
  // Every class with customers needs some demand or think time.
  for (long c = 0; c < classes; ++c) net.stations[0].demand_s[c] += 0.05;
  return net;
}

mva::Result SolveOrFail(const mva::Network& net, mva::Algorithm algorithm, double tolerance = 1e-12) {
  mva::Options options;
  options.algorithm = algorithm;
  options.tolerance = tolerance;
  mva::Result result;
  std::string error;
  INFO(error);
  REQUIRE(mva::Solve(net, options, &result, &error));
  return result;
}

bool Close(double a, double b, double rel, double abs = 1e-12) {
  return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b)) + abs;
}

double Capacity(const mva::Station& s) {
  if (s.type == mva::StationType::kMultiServer) return s.servers;
  if (s.type == mva::StationType::kLoadDependent) return s.rate_multipliers.back();
  return 1.0;
}

/// `exact`: load-dependent stations must also report their busy probability
/// (the approximate algorithms have no marginal probabilities and leave it NaN).
/// `slack`: Linearizer's corrected arrival queues can push a saturated queue's
/// utilisation a little above 1 (seen up to 2e-4 here); exact and Schweitzer cannot.
void CheckLittleAndCapacity(const mva::Network& net, const mva::Result& r, double rel, bool exact,
                            double slack = 1e-9) {
  for (size_t c = 0; c < net.classes.size(); ++c) {
    double customers = r.X[c] * net.classes[c].think_time_s;
    for (size_t k = 0; k < net.stations.size(); ++k) {
      CHECK(Close(r.Q[k][c], r.X[c] * r.Rk[k][c], 1e-12));  // Little per station
      customers += static_cast<double>(net.stations[k].count) * r.Q[k][c];
    }
    CHECK(Close(customers, static_cast<double>(net.classes[c].population), rel, 1e-9));  // overall
    if (net.classes[c].population > 0)
      CHECK(Close(r.R[c], net.classes[c].population / r.X[c] - net.classes[c].think_time_s, rel, 1e-9));
  }
  for (size_t k = 0; k < net.stations.size(); ++k) {
    if (net.stations[k].type == mva::StationType::kDelay) continue;
    double busy_servers = 0.0;
    for (size_t c = 0; c < net.classes.size(); ++c) busy_servers += r.U[k][c];
    INFO("station " << k << " type " << mva::ToString(net.stations[k].type));
    CHECK(busy_servers <= Capacity(net.stations[k]) * (1 + slack));
    if (net.stations[k].IsLoadDependent() && exact) {
      CHECK(r.Ubusy[k] >= 0.0);
      CHECK(r.Ubusy[k] <= 1.0 + 1e-12);
    }
  }
}

void CheckSameResult(const mva::Network& net, const mva::Result& a, const mva::Result& b,
                     const std::vector<size_t>& b_station_of, double rel) {
  for (size_t c = 0; c < net.classes.size(); ++c) {
    CHECK(Close(a.X[c], b.X[c], rel));
    CHECK(Close(a.R[c], b.R[c], rel));
  }
  for (size_t k = 0; k < net.stations.size(); ++k)
    for (size_t c = 0; c < net.classes.size(); ++c) {
      CHECK(Close(a.Q[k][c], b.Q[b_station_of[k]][c], rel));
      CHECK(Close(a.Rk[k][c], b.Rk[b_station_of[k]][c], rel));
    }
}

}  // namespace

TEST_CASE("Exact MVA obeys Little's law and capacity on random networks", "[mva][properties]") {
  std::mt19937 rng(20261122);
  for (int i = 0; i < 2000; ++i) {
    const mva::Network net = RandomNetwork(rng, Shape());
    INFO("network " << i);
    CheckLittleAndCapacity(net, SolveOrFail(net, mva::Algorithm::kExact), 1e-9, true);
  }
}

TEST_CASE("Approximate MVA obeys Little's law and capacity on random networks", "[mva][properties]") {
  std::mt19937 rng(7);
  Shape shape;
  shape.max_population = 30;
  for (int i = 0; i < 1000; ++i) {
    mva::Network net = RandomNetwork(rng, shape);
    for (mva::Station& s : net.stations)  // multi-server only (Seidmann), no general LD
      if (s.type == mva::StationType::kLoadDependent) s.type = mva::StationType::kMultiServer;
    INFO("network " << i);
    {
      INFO("Schweitzer");
      CheckLittleAndCapacity(net, SolveOrFail(net, mva::Algorithm::kSchweitzer), 1e-8, false);
    }
    INFO("Linearizer");
    CheckLittleAndCapacity(net, SolveOrFail(net, mva::Algorithm::kLinearizer), 1e-8, false, 1e-3);
  }
}

TEST_CASE("Single-class throughput does not decrease with the population", "[mva][properties]") {
  std::mt19937 rng(11);
  Shape shape;
  shape.max_classes = 1;
  shape.max_stations = 8;
  for (int i = 0; i < 500; ++i) {
    mva::Network net = RandomNetwork(rng, shape);
    double previous = 0.0;
    for (long n = 0; n <= 25; ++n) {
      net.classes[0].population = n;
      const double x = SolveOrFail(net, mva::Algorithm::kExact).X[0];
      INFO("network " << i << " N " << n);
      CHECK(x >= previous * (1 - 1e-12));
      previous = x;
    }
  }
}

TEST_CASE("Replicated stations give the expanded network's results", "[mva][properties]") {
  std::mt19937 rng(99);
  for (int i = 0; i < 1000; ++i) {
    Shape shape;
    shape.max_count = 4;
    shape.load_dependent = i % 2 == 0;
    const mva::Network net = RandomNetwork(rng, shape);
    const mva::Network expanded = net.Expanded();
    std::vector<size_t> first_replica;
    for (size_t k = 0, e = 0; k < net.stations.size(); e += net.stations[k].count, ++k)
      first_replica.push_back(e);
    INFO("network " << i);
    CheckSameResult(net, SolveOrFail(net, mva::Algorithm::kExact),
                    SolveOrFail(expanded, mva::Algorithm::kExact), first_replica, 1e-9);
    if (!shape.load_dependent) {
      CheckSameResult(net, SolveOrFail(net, mva::Algorithm::kSchweitzer),
                      SolveOrFail(expanded, mva::Algorithm::kSchweitzer), first_replica, 1e-8);
      CheckSameResult(net, SolveOrFail(net, mva::Algorithm::kLinearizer),
                      SolveOrFail(expanded, mva::Algorithm::kLinearizer), first_replica, 1e-8);
    }
  }
}

TEST_CASE("Approximate MVA equals exact MVA where it must", "[mva][properties]") {
  std::mt19937 rng(5);
  Shape shape;
  shape.max_classes = 1;
  shape.max_stations = 8;
  std::vector<size_t> same(8);
  for (size_t k = 0; k < same.size(); ++k) same[k] = k;
  for (int i = 0; i < 1000; ++i) {
    mva::Network net = RandomNetwork(rng, shape);
    for (mva::Station& s : net.stations)
      if (s.type == mva::StationType::kLoadDependent) s.type = mva::StationType::kMultiServer;
    net.classes[0].population = 1;  // one customer: it never queues, Schweitzer is exact
    INFO("network " << i);
    const mva::Result exact = SolveOrFail(net, mva::Algorithm::kExact);
    CheckSameResult(net, exact, SolveOrFail(net, mva::Algorithm::kSchweitzer), same, 1e-10);
    CheckSameResult(net, exact, SolveOrFail(net, mva::Algorithm::kLinearizer), same, 1e-10);
  }
  // Only delays: no queueing at any population, in any number of classes.
  for (int i = 0; i < 200; ++i) {
    Shape many;
    many.load_dependent = false;
    mva::Network net = RandomNetwork(rng, many);
    for (mva::Station& s : net.stations) s.type = mva::StationType::kDelay;
    INFO("delay network " << i);
    CheckSameResult(net, SolveOrFail(net, mva::Algorithm::kExact),
                    SolveOrFail(net, mva::Algorithm::kSchweitzer), same, 1e-10);
  }
}

TEST_CASE("Linearizer is closer to exact MVA than Schweitzer", "[mva][properties]") {
  std::mt19937 rng(3);
  Shape shape;
  shape.load_dependent = false;
  shape.max_population = 10;
  double schweitzer_error = 0.0, linearizer_error = 0.0;
  int better = 0, networks = 0;
  for (int i = 0; i < 300; ++i) {
    const mva::Network net = RandomNetwork(rng, shape);
    const mva::Result exact = SolveOrFail(net, mva::Algorithm::kExact);
    const mva::Result bs = SolveOrFail(net, mva::Algorithm::kSchweitzer);
    const mva::Result lin = SolveOrFail(net, mva::Algorithm::kLinearizer);
    double e_bs = 0.0, e_lin = 0.0;
    for (size_t c = 0; c < net.classes.size(); ++c) {
      if (exact.X[c] == 0) continue;
      e_bs = std::max(e_bs, std::fabs(bs.X[c] / exact.X[c] - 1));
      e_lin = std::max(e_lin, std::fabs(lin.X[c] / exact.X[c] - 1));
    }
    schweitzer_error += e_bs;
    linearizer_error += e_lin;
    if (e_bs > 1e-6) {
      ++networks;
      if (e_lin < e_bs) ++better;
    }
  }
  INFO("mean max rel X error: Schweitzer " << schweitzer_error / 300 << ", Linearizer "
                                           << linearizer_error / 300);
  CHECK(linearizer_error < 0.5 * schweitzer_error);
  CHECK(better > 0.9 * networks);
}

TEST_CASE("Multi-class exact MVA agrees with the single-class paths", "[mva][properties]") {
  std::mt19937 rng(17);
  for (int i = 0; i < 500; ++i) {
    Shape shape;
    shape.max_classes = 1;
    shape.max_population = 12;
    const mva::Network single = RandomNetwork(rng, shape);
    // Split the customers into two identical classes: totals must not change.
    mva::Network split = single;
    const long n = single.classes[0].population;
    split.classes = {{"a", n / 2, single.classes[0].think_time_s},
                     {"b", n - n / 2, single.classes[0].think_time_s}};
    for (mva::Station& s : split.stations) s.demand_s = {s.demand_s[0], s.demand_s[0]};
    const mva::Result one = SolveOrFail(single, mva::Algorithm::kExact);
    const mva::Result two = SolveOrFail(split, mva::Algorithm::kExact);
    INFO("network " << i);
    CHECK(Close(one.X[0], two.X[0] + two.X[1], 1e-9));
    for (size_t k = 0; k < single.stations.size(); ++k) {
      CHECK(Close(one.Q[k][0], two.Q[k][0] + two.Q[k][1], 1e-9));
      if (single.stations[k].IsLoadDependent()) CHECK(Close(one.Ubusy[k], two.Ubusy[k], 1e-9));
    }
  }
}

TEST_CASE("A 1024-replicated station at N = 1024 equals its expanded network", "[mva][properties]") {
  mva::Network net;
  net.classes = {{"ranks", 1024, 0.5}};
  net.stations = {{"network", mva::StationType::kQueue, {0.002}, 1, {}, 1},
                  {"rank", mva::StationType::kQueue, {1.0}, 1, {}, 1024},
                  {"barrier", mva::StationType::kDelay, {0.1}, 1, {}, 1}};
  const mva::Network expanded = net.Expanded();
  REQUIRE(expanded.stations.size() == 1026);
  const mva::Result r = SolveOrFail(net, mva::Algorithm::kExact);
  const mva::Result e = SolveOrFail(expanded, mva::Algorithm::kExact);
  CHECK(r.X[0] == Approx(e.X[0]).epsilon(1e-11));
  CHECK(r.Q[1][0] == Approx(e.Q[1][0]).epsilon(1e-11));
  CHECK(r.Q[1][0] == Approx(e.Q[1025 - 1][0]).epsilon(1e-11));  // every replica alike
  CHECK(r.Q[0][0] == Approx(e.Q[0][0]).epsilon(1e-11));
  CHECK(r.R[0] == Approx(e.R[0]).epsilon(1e-11));
  CheckLittleAndCapacity(net, r, 1e-10, true);
}

TEST_CASE("Single-class exact MVA at N = 10^5 with 100 stations approaches its bound", "[mva][properties]") {
  mva::Network net;
  net.classes = {{"jobs", 100000, 3.0}};
  for (int k = 0; k < 100; ++k)
    net.stations.push_back({"s" + std::to_string(k), mva::StationType::kQueue, {0.01 + 0.0099 * k}, 1, {}, 1});
  const mva::Result r = SolveOrFail(net, mva::Algorithm::kExact);
  const double d_max = 0.01 + 0.0099 * 99;
  CHECK(r.X[0] <= 1.0 / d_max);
  CHECK(r.X[0] == Approx(1.0 / d_max).epsilon(1e-9));  // far beyond the knee: saturated
  CHECK(r.U[99][0] == Approx(1.0).epsilon(1e-9));
  CheckLittleAndCapacity(net, r, 1e-9, true);
  // Non-bottleneck queues tend to D/(D_max - D) customers (an M/M/1 at utilisation D/D_max).
  CHECK(r.Q[0][0] == Approx(0.01 / (d_max - 0.01)).epsilon(1e-6));
}
