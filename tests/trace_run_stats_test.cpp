// Run statistics and dissimilarity input (t_ijp) from traces.
#include <catch2/catch.hpp>

#include <numeric>
#include <string>

#include "imbalance/dissimilarity.h"
#include "trace/activity_times.h"
#include "trace/otf2_reader.h"
#include "trace/trace_run_stats.h"
#include "trace/wait_states.h"

using namespace qnm::trace;

namespace {
std::string TraceDir(const std::string& tag) {
  return std::string(QNM_TEST_DATA_DIR) + "/otf2/" + tag;
}
double Sum(const std::vector<double>& values) { return std::accumulate(values.begin(), values.end(), 0.0); }
}  // namespace

TEST_CASE("trace run stats: synthetic trace", "[trace]") {
  qnm::RunStats run = ReadTraceRunStats(TraceDir("synthetic-patterns-4rank"));
  CHECK(run.procs == 4);
  CHECK(run.app == "synthetic-patterns-4rank");
  // Every rank runs from PROGRAM_BEGIN (0) to PROGRAM_END (3.101 ms).
  for (double t : run.app_time_s_per_rank) CHECK(t == Approx(0.003101).epsilon(1e-12));
  // Sends: rank 0 MPI_Send + MPI_Isend; rank 2 MPI_Ssend, MPI_Send, 2 MPI_Isend.
  CHECK(run.p2p_calls_per_rank == std::vector<double>{2, 1, 4, 0});
  CHECK(run.p2p_bytes_sent_per_rank == std::vector<double>{1024 + 256, 512, 4096 + 512 + 2048 + 256, 0});
  // Barrier, Allreduce, Bcast, Reduce, Scan on every rank.
  CHECK(run.collective_calls_per_rank == std::vector<double>{5, 5, 5, 5});
  CHECK(run.collective_bytes_sent_per_rank[1] == 32 + 16384 + 8 + 8);
  // Rank 0's MPI time: the exclusive time of its MPI calls (by hand from otf2-print).
  // Init 90, Send 20, Recv 112 + 2, Barrier 110, Allreduce 120, Bcast 70, Reduce 100, Scan 31,
  // Isend 2, Wait 2, Win_create 40, fences 30 + 120, Puts 10 + 50, Win_start 5, Win_complete 10,
  // Win_free 30, Finalize 50.
  double rank0_mpi_us = 90 + 20 + 112 + 2 + 110 + 120 + 70 + 100 + 31 + 2 + 2 + 40 + 30 + 120 + 10 + 50 + 5 + 10 + 30 + 50;
  CHECK(run.mpi_time_s_per_rank[0] == Approx(rank0_mpi_us * 1e-6).epsilon(1e-9));
  CHECK(run.compute_time_mean_s == Approx(run.app_time_mean_s - run.mpi_time_mean_s));
  // Call sites: one per MPI call path; their per-rank times add up to the MPI time.
  double site_time = 0;
  for (const qnm::CallSiteStats& site : run.call_sites) site_time += Sum(site.time_s_per_rank);
  CHECK(site_time == Approx(Sum(run.mpi_time_s_per_rank)));
  bool found_waitall = false;
  for (const qnm::CallSiteStats& site : run.call_sites)
    if (site.source_location == "main/MPI_Waitall") {
      found_waitall = true;
      CHECK(site.mpi_function == "Waitall");
      CHECK(site.activity == qnm::MpiActivity::kPointToPoint);
      CHECK(site.calls_per_rank == std::vector<double>{0, 1, 0, 0});
      CHECK(site.time_s_per_rank[1] == Approx(90e-6).epsilon(1e-9));
    }
  CHECK(found_waitall);
}

TEST_CASE("trace activity times: t_ijp feeds the dissimilarity indices", "[trace]") {
  Trace trace = ReadOtf2Trace(TraceDir("tracer-stencil4d-32"));
  WaitStateResult profile = AnalyzeWaitStates(trace);
  qnm::ActivityRegionTimes times = ActivityTimesFromTrace(trace, profile);
  CHECK(times.ranks == 32);
  REQUIRE(times.activities.size() == 6);
  CHECK(times.activities[0] == "computation");
  CHECK(times.activities[5] == "other");  // MPI_Init
  // Regions: the TraceR user regions plus the top level (MPI_Init, Barrier outside loops).
  CHECK(std::find(times.regions.begin(), times.regions.end(), "TRACER_Loop") != times.regions.end());
  CHECK(std::find(times.regions.begin(), times.regions.end(), "(top level)") != times.regions.end());
  // t_ijp adds up to the measured time except the "MEASUREMENT OFF" pseudo region.
  double total = Sum(times.time_s), measured = 0, paused = 0;
  for (uint32_t c = 0; c < trace.call_paths.size(); ++c)
    for (uint32_t r = 0; r < 32; ++r) {
      measured += profile.ExclusiveTime(c, r);
      if (trace.call_paths.RegionOf(c).name == "MEASUREMENT OFF") paused += profile.ExclusiveTime(c, r);
    }
  CHECK(paused > 0);
  double outside = Sum(profile.outside_time_s);  // between top-level regions: computation
  CHECK(outside > 0);
  CHECK(total == Approx(measured - paused + outside).epsilon(1e-12));
  qnm::DissimilarityResult dissimilarity = qnm::ComputeDissimilarity(times, qnm::DissimilarityOptions{});
  CHECK(dissimilarity.summary.dominant_activity == "other");  // MPI_Init dominates this short run
  CHECK(dissimilarity.activity_ranking.size() >= 3);
}
