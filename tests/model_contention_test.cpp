#include <catch2/catch.hpp>

#include "models/contention_network.h"

using qnm::ContentionInput;

TEST_CASE("contention vanishes without anyone to wait behind", "[model][contention]") {
  qnm::mva::Options options;
  std::string error;
  double contention = -1;
  ContentionInput one{1, 5.0, 0.1, 2.0, 1};
  REQUIRE(qnm::SolveContention(one, options, &contention, &error));
  CHECK(contention == 0);
  // Compute dominates: queues are almost always empty.
  ContentionInput light{64, 1000.0, 0.0, 0.01, 64};
  REQUIRE(qnm::SolveContention(light, options, &contention, &error));
  CHECK(contention < 1e-5);
  CHECK(contention >= 0);
}

TEST_CASE("contention of a balanced network matches exact MVA in closed form", "[model][contention]") {
  // P customers, K = P queues of demand A/P each, no delay: R = A (1 + (P-1)/P),
  // so C = A (P-1)/P (QSP ch. 6, balanced networks).
  qnm::mva::Options options;
  std::string error;
  for (int procs : {2, 4, 16, 128}) {
    double contention = 0;
    ContentionInput input{procs, 0.0, 0.0, 1.0, procs};
    REQUIRE(qnm::SolveContention(input, options, &contention, &error));
    CHECK(contention == Approx((procs - 1.0) / procs).epsilon(1e-9));
  }
  // One shared queue (all processes on one node): C = A (P - 1).
  double contention = 0;
  ContentionInput shared{4, 0.0, 0.0, 1.0, 1};
  REQUIRE(qnm::SolveContention(shared, options, &contention, &error));
  CHECK(contention == Approx(3.0).epsilon(1e-9));
}

TEST_CASE("MPI active time is the root of A + C(A) = MPI - S", "[model][contention]") {
  qnm::mva::Options options;
  std::string error;
  ContentionInput input{16, 2.0, 0.05, 0.0, 16};
  double active = 0, contention = 0;
  REQUIRE(qnm::SolveMpiActive(input, 0.6, options, &active, &contention, &error));
  CHECK(active > 0);
  CHECK(active < 0.6);
  CHECK(active + contention == Approx(0.6).epsilon(1e-9));
  input.mpi_active_s = active;
  double check = 0;
  REQUIRE(qnm::SolveContention(input, options, &check, &error));
  CHECK(check == Approx(contention).epsilon(1e-6));
  // Nothing left for MPI service after the switch delay.
  REQUIRE(qnm::SolveMpiActive(input, 0.0, options, &active, &contention, &error));
  CHECK(active == 0);
  CHECK(contention == 0);
}

TEST_CASE("MPI service stations follow placement", "[model][contention]") {
  qnm::MachineProfile machine;
  machine.cores_per_node = 16;
  machine.allocation = qnm::Allocation::kBlock;
  CHECK(qnm::MpiServiceStations(64, 1, &machine) == 4);
  CHECK(qnm::MpiServiceStations(64, 4, &machine) == 16);
  CHECK(qnm::MpiServiceStations(3, 1, &machine) == 1);
  machine.allocation = qnm::Allocation::kCyclic;
  machine.nodes = 8;
  CHECK(qnm::MpiServiceStations(64, 1, &machine) == 8);
  CHECK(qnm::MpiServiceStations(5, 1, &machine) == 5);
  machine.allocation = qnm::Allocation::kOnePerNode;
  CHECK(qnm::MpiServiceStations(64, 1, &machine) == 64);
  CHECK(qnm::MpiServiceStations(64, 1, nullptr) == 64);
}

TEST_CASE("closed-form Schweitzer contention is the fixed point the MVA solver iterates to",
          "[model][contention]") {
  qnm::mva::Options schweitzer;
  schweitzer.algorithm = qnm::mva::Algorithm::kSchweitzer;
  schweitzer.tolerance = 1e-12;
  for (ContentionInput input : {ContentionInput{16, 2.0, 0.05, 1.0, 16}, ContentionInput{300, 0.1, 0.0, 1.0, 20},
                                ContentionInput{64, 0.0, 0.0, 3.0, 1}, ContentionInput{5000, 50.0, 1.0, 0.5, 5000}}) {
    INFO("P = " << input.procs << ", K = " << input.mpi_stations);
    qnm::mva::Result result;
    std::string error;
    REQUIRE(qnm::mva::Solve(qnm::BuildContentionNetwork(input), schweitzer, &result, &error));
    CHECK(qnm::SchweitzerQueueResidence(input) == Approx(result.Rk[2][0]).epsilon(1e-8));
  }
}

TEST_CASE("above the exact threshold contention stays within 0.1% of exact MVA", "[model][contention]") {
  qnm::mva::Options exact;
  exact.algorithm = qnm::mva::Algorithm::kExact;
  qnm::mva::Options automatic;  // kAuto: closed-form Schweitzer above kExactContentionMaxProcs
  for (long stations : {4097L, 256L, 1L}) {
    ContentionInput input{qnm::kExactContentionMaxProcs * 2 + 1, 1.0, 0.05, 1.0, stations};
    double c_exact = 0, c_auto = 0;
    std::string error;
    REQUIRE(qnm::SolveContention(input, exact, &c_exact, &error));
    REQUIRE(qnm::SolveContention(input, automatic, &c_auto, &error));
    CHECK(c_auto == Approx(c_exact).epsilon(1e-3));
    CHECK(c_auto != c_exact);  // really the approximation, not the exact recursion
  }
}
