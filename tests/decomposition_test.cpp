// Splitting one run's MPI time into load imbalance, switch delay, MPI service
// and contention (models/decomposition.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "models/decomposition.h"
#include "models/machine_profile.h"
#include "record/run_stats.h"
#include "tests/profiled_run.h"

namespace {

bool HasFlagContaining(const qnm::RunDecomposition& d, const std::string& text) {
  return std::any_of(d.flags.begin(), d.flags.end(),
                     [&](const std::string& flag) { return flag.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("decomposition: a switch delay within rounding of the MPI time leaves exactly no service time",
          "[predict][decomposition]") {
  // A message count whose latency share m * (2 / m) does not give back 2 exactly, as the estimated
  // machine's lower envelope leaves it for the run it is scaled to.
  int messages = 1;
  while (messages * (2.0 / messages) == 2.0) ++messages;
  INFO("messages " << messages << ": switch delay " << messages * (2.0 / messages));
  const qnm::RunStats run = qnm::testing::ProfiledRun(4, 10, 2, messages, 0);
  qnm::MachineProfile machine;
  machine.name = "envelope";
  machine.latency_s = 2.0 / messages;
  machine.bandwidth_bytes_per_s = 1e9;
  qnm::RunDecomposition d;
  std::string error;
  REQUIRE(qnm::DecomposeRun(run, machine, qnm::mva::Options(), &d, &error));
  CHECK(d.unscaled.switch_delay_s == 2.0);
  CHECK(d.unscaled.mpi_active_s == 0.0);
  CHECK(d.unscaled.contention_s == 0.0);
  CHECK_FALSE(HasFlagContaining(d, "exceeds MPI time"));

  // A delay really above the MPI time is clamped and said so.
  machine.latency_s = 2.02 / messages;
  REQUIRE(qnm::DecomposeRun(run, machine, qnm::mva::Options(), &d, &error));
  CHECK(d.unscaled.switch_delay_s == 2.0);
  CHECK(HasFlagContaining(d, "exceeds MPI time"));
}
