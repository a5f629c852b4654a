#include <catch2/catch.hpp>

#include "record/run_stats.h"

TEST_CASE("MPI calls are classified by name", "[run_stats]") {
  using qnm::MpiActivity;
  CHECK(qnm::ClassifyMpiCall("Isend") == MpiActivity::kPointToPoint);
  CHECK(qnm::ClassifyMpiCall("MPI_Waitall") == MpiActivity::kPointToPoint);
  CHECK(qnm::ClassifyMpiCall("Allreduce") == MpiActivity::kCollective);
  CHECK(qnm::ClassifyMpiCall("Ialltoall") == MpiActivity::kCollective);
  CHECK(qnm::ClassifyMpiCall("Barrier") == MpiActivity::kSynchronization);
  CHECK(qnm::ClassifyMpiCall("Win_fence") == MpiActivity::kRma);
  CHECK(qnm::ClassifyMpiCall("File_write_at") == MpiActivity::kIo);
  CHECK(qnm::ClassifyMpiCall("Comm_rank") == MpiActivity::kOther);
}

TEST_CASE("Derive fills summaries from per-rank data and says how", "[run_stats]") {
  qnm::RunStats run;
  run.procs = 2;
  run.app_time_s_per_rank = {10.0, 12.0};
  run.mpi_time_s_per_rank = {2.0, 4.0};
  run.p2p_calls_per_rank = {100, 300};
  run.p2p_bytes_sent_per_rank = {1000, 3000};
  run.Derive();
  CHECK(run.app_time_mean_s == Approx(11.0));
  CHECK(run.app_time_max_s == Approx(12.0));
  CHECK(run.compute_time_mean_s == Approx(8.0));
  CHECK(run.messages_per_rank == Approx(200.0));
  CHECK(run.bytes_per_message == Approx(10.0));
  CHECK(run.TotalTimeSeconds() == Approx(12.0));
  CHECK(run.derivations.count("compute_time_mean_s") == 1);
}
