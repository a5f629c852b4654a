// Error and cost of the closed-form Schweitzer contention network against
// exact MVA (models/contention_network.h): for a grid of networks (compute
// over MPI time W/A from 0.01 to 100, K = P, P/16 or one queue) at P from
// 64 to 100,000, the largest relative error of the contention C and of the
// total W + S + A + C, and the time of one exact and one closed-form solve.
// Usage: contention_bench
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "models/contention_network.h"

int main() {
  using Clock = std::chrono::steady_clock;
  qnm::mva::Options exact;
  exact.algorithm = qnm::mva::Algorithm::kExact;
  std::printf("%8s %14s %14s %14s %14s\n", "P", "max |dC|/C", "max |dT|/T", "exact s/solve",
              "closed s/solve");
  for (int procs : {64, 256, 1024, 2048, 4096, 16384, 100000}) {
    double worst_c = 0, worst_t = 0, exact_s = 0, closed_s = 0;
    int solves = 0;
    for (double ratio : {0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 100.0}) {
      for (long stations : {static_cast<long>(procs), std::max(1L, procs / 16L), 1L}) {
        qnm::ContentionInput input;
        input.procs = procs;
        input.mpi_active_s = 1.0;
        input.compute_s = ratio;
        input.switch_delay_s = 0.05;
        input.mpi_stations = stations;
        double c_exact = 0;
        std::string error;
        auto t0 = Clock::now();
        if (!qnm::SolveContention(input, exact, &c_exact, &error)) {
          std::fprintf(stderr, "contention_bench: %s\n", error.c_str());
          return 1;
        }
        auto t1 = Clock::now();
        double residence = qnm::SchweitzerQueueResidence(input) * static_cast<double>(stations);
        double c_closed = std::max(0.0, residence - input.mpi_active_s);
        auto t2 = Clock::now();
        exact_s += std::chrono::duration<double>(t1 - t0).count();
        closed_s += std::chrono::duration<double>(t2 - t1).count();
        ++solves;
        double total = input.compute_s + input.switch_delay_s + input.mpi_active_s;
        if (c_exact > 1e-12) worst_c = std::max(worst_c, std::abs(c_closed - c_exact) / c_exact);
        worst_t = std::max(worst_t, std::abs(c_closed - c_exact) / (total + c_exact));
      }
    }
    std::printf("%8d %14.3e %14.3e %14.3e %14.3e\n", procs, worst_c, worst_t, exact_s / solves,
                closed_s / solves);
  }
  return 0;
}
