// Load-dependent MVA at large populations: a 10-station network with one 8-server
// station at N = 1000, where the textbook recursion p(0|n) = 1 - sum_j p(j|n)
// breaks down (Octave qncsmvald / LINE pfqn_mvald return negative or NaN
// throughput there). The reference is an independent computation: the
// normalising constant by convolution in log space (Buzen 1973, Reiser-Kobayashi).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "mva/solver.h"

namespace {

namespace mva = qnm::mva;

double LogAdd(double a, double b) {
  if (a == -INFINITY) return b;
  if (b == -INFINITY) return a;
  const double hi = std::max(a, b);
  return hi + std::log1p(std::exp(std::min(a, b) - hi));
}

/// log f_k(j), j = 0..N, of one station (think time as a delay station).
std::vector<double> LogFactor(const mva::Station& s, long n) {
  std::vector<double> f(n + 1, 0.0);
  for (long j = 1; j <= n; ++j) {
    double alpha = s.type == mva::StationType::kDelay ? static_cast<double>(j) : s.RateMultiplier(j);
    f[j] = f[j - 1] + std::log(s.demand_s[0] / alpha);
  }
  return f;
}

std::vector<double> Convolve(const std::vector<double>& g, const std::vector<double>& f) {
  std::vector<double> out(g.size(), -INFINITY);
  for (size_t n = 0; n < g.size(); ++n)
    for (size_t j = 0; j <= n; ++j) out[n] = LogAdd(out[n], f[j] + g[n - j]);
  return out;
}

/// log G(n), n = 0..N, of all stations except `skip`.
std::vector<double> LogG(const mva::Network& net, long n, size_t skip) {
  std::vector<double> g(n + 1, -INFINITY);
  g[0] = 0.0;
  mva::Station think;
  think.type = mva::StationType::kDelay;
  think.demand_s = {net.classes[0].think_time_s};
  if (think.demand_s[0] > 0) g = Convolve(g, LogFactor(think, n));
  for (size_t k = 0; k < net.stations.size(); ++k)
    if (k != skip) g = Convolve(g, LogFactor(net.stations[k], n));
  return g;
}

mva::Network EightServerNetwork(long population) {
  mva::Network net;
  net.classes = {{"jobs", population, 2.0}};
  mva::Station multi{"8-server", mva::StationType::kMultiServer, {9.6}, 8, {}, 1};
  net.stations.push_back(multi);  // 1.2 s per server: the bottleneck, X -> 1/1.2
  for (int k = 1; k < 9; ++k)
    net.stations.push_back({"queue" + std::to_string(k), mva::StationType::kQueue, {0.1 * k}, 1, {}, 1});
  net.stations.push_back({"delay", mva::StationType::kDelay, {5.0}, 1, {}, 1});
  return net;
}

/// The textbook marginal recursion (QSP §20.2) -- used only to show the case is hard.
double TextbookThroughput(const mva::Network& net) {
  const long n_max = net.classes[0].population;
  std::vector<double> p(n_max + 1, 0.0), q(net.stations.size(), 0.0);
  p[0] = 1.0;
  double x = 0.0;
  for (long n = 1; n <= n_max; ++n) {
    double total = net.classes[0].think_time_s, r0 = 0.0;
    for (long j = 1; j <= n; ++j) r0 += j * net.stations[0].demand_s[0] / net.stations[0].RateMultiplier(j) * p[j - 1];
    total += r0;
    for (size_t k = 1; k < net.stations.size(); ++k)
      total += net.stations[k].demand_s[0] * (net.stations[k].type == mva::StationType::kQueue ? 1.0 + q[k] : 1.0);
    x = n / total;
    for (size_t k = 1; k < net.stations.size(); ++k)
      q[k] = x * net.stations[k].demand_s[0] * (net.stations[k].type == mva::StationType::kQueue ? 1.0 + q[k] : 1.0);
    double busy = 0.0;
    for (long j = n; j >= 1; --j) {
      p[j] = net.stations[0].demand_s[0] / net.stations[0].RateMultiplier(j) * x * p[j - 1];
      busy += p[j];
    }
    p[0] = 1.0 - busy;
  }
  return x;
}

}  // namespace

TEST_CASE("Load-dependent MVA stays exact for an 8-server station at N = 1000", "[mva][stability]") {
  const long n = 1000;
  const mva::Network net = EightServerNetwork(n);
  mva::Result result;
  std::string error;
  REQUIRE(mva::Solve(net, mva::Options(), &result, &error));

  const std::vector<double> g = LogG(net, n, SIZE_MAX);
  const double x_ref = std::exp(g[n - 1] - g[n]);
  CHECK(result.X[0] == Approx(x_ref).epsilon(1e-10));
  CHECK(result.X[0] > 0.8);
  CHECK(result.X[0] <= (1.0 + 1e-12) / 1.2);  // saturated 8-server station: the asymptotic bound

  // Marginal of the 8-server station: p(j|N) = f(j) G_-k(N-j) / G(N).
  const std::vector<double> g_rest = LogG(net, n, 0);
  const std::vector<double> f = LogFactor(net.stations[0], n);
  double q_ref = 0.0, p0 = std::exp(f[0] + g_rest[n] - g[n]);
  for (long j = 1; j <= n; ++j) q_ref += j * std::exp(f[j] + g_rest[n - j] - g[n]);
  CHECK(result.Q[0][0] == Approx(q_ref).epsilon(1e-9));
  CHECK(result.Ubusy[0] == Approx(1.0 - p0).epsilon(1e-12));
  // A queue: Q_k = sum_{j>=1} D^j G(N-j)/G(N).
  double q5 = 0.0;
  for (long j = 1; j <= n; ++j) q5 += std::exp(j * std::log(net.stations[5].demand_s[0]) + g[n - j] - g[n]);
  CHECK(result.Q[5][0] == Approx(q5).epsilon(1e-9));
  CHECK(result.R[0] == Approx(n / x_ref - 2.0).epsilon(1e-9));

  // The case is hard: the textbook recursion is far off (here X = -0.40).
  const double textbook = TextbookThroughput(net);
  INFO("textbook X = " << textbook << ", exact X = " << x_ref);
  CHECK_FALSE(std::fabs(textbook - x_ref) < 1e-3 * x_ref);
}

TEST_CASE("Load-dependent MVA with decreasing rates matches log-space convolution", "[mva][stability]") {
  // Two load-dependent stations (one slowing down as it fills) plus a 3-server
  // station, replicated queues folded in: exact at N = 400.
  mva::Network net;
  net.classes = {{"jobs", 400, 1.0}};
  std::vector<double> slowing;
  for (int j = 1; j <= 50; ++j) slowing.push_back(1.0 / (1.0 + 0.01 * j));
  net.stations.push_back({"slowing", mva::StationType::kLoadDependent, {0.05}, 1, slowing, 1});
  net.stations.push_back({"3-server", mva::StationType::kMultiServer, {2.4}, 3, {}, 1});
  net.stations.push_back({"ld", mva::StationType::kLoadDependent, {0.5}, 1, {1.0, 1.5, 1.8, 2.0}, 1});
  net.stations.push_back({"queue", mva::StationType::kQueue, {0.7}, 1, {}, 1});
  mva::Result result;
  std::string error;
  REQUIRE(mva::Solve(net, mva::Options(), &result, &error));
  const long n = 400;
  const std::vector<double> g = LogG(net, n, SIZE_MAX);
  CHECK(result.X[0] == Approx(std::exp(g[n - 1] - g[n])).epsilon(1e-10));
  for (size_t k = 0; k < 3; ++k) {
    const std::vector<double> g_rest = LogG(net, n, k);
    const std::vector<double> f = LogFactor(net.stations[k], n);
    double q_ref = 0.0;
    for (long j = 1; j <= n; ++j) q_ref += j * std::exp(f[j] + g_rest[n - j] - g[n]);
    INFO("station " << k);
    CHECK(result.Q[k][0] == Approx(q_ref).epsilon(1e-9).margin(1e-12));
  }
}

TEST_CASE("Multi-class load-dependent MVA stays exact when the 8-server station saturates",
          "[mva][stability]") {
  // The 8-server network with its customers split into two identical classes
  // must give the single-class result (verified above against convolution).
  const long n = 600;
  const mva::Network single = EightServerNetwork(n);
  mva::Network split = single;
  split.classes = {{"a", n / 2, 2.0}, {"b", n / 2, 2.0}};
  for (mva::Station& s : split.stations) s.demand_s = {s.demand_s[0], s.demand_s[0]};
  mva::Result one, two;
  std::string error;
  REQUIRE(mva::Solve(single, mva::Options(), &one, &error));
  REQUIRE(mva::Solve(split, mva::Options(), &two, &error));
  CHECK(two.X[0] + two.X[1] == Approx(one.X[0]).epsilon(1e-10));
  CHECK(two.X[0] == Approx(two.X[1]).epsilon(1e-12));
  for (size_t k = 0; k < single.stations.size(); ++k) {
    INFO("station " << k);
    CHECK(two.Q[k][0] + two.Q[k][1] == Approx(one.Q[k][0]).epsilon(1e-9));
  }
  CHECK(two.Ubusy[0] == Approx(one.Ubusy[0]).epsilon(1e-12));
}
