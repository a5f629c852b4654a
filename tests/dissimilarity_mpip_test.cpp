// The mpiP front end of the Calzarossa et al. 2004 indices: t_ijp from a run-statistics
// record with per-rank call-site times.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "imbalance/dissimilarity.h"
#include "imbalance/dissimilarity_mpip.h"
#include "util/input_error.h"

namespace {

qnm::CallSiteStats Site(int id, const std::string& call, const std::string& location,
                        const std::vector<double>& time_ms_per_rank) {
  qnm::CallSiteStats site;
  site.id = id;
  site.mpi_function = call;
  site.source_location = location;
  site.activity = qnm::ClassifyMpiCall(call);
  double total = 0;
  for (double ms : time_ms_per_rank) {
    site.time_s_per_rank.push_back(ms / 1000);
    total += ms / 1000;
  }
  site.total_time_s = total;
  return site;
}

/// Numbers copied by hand from /work/shared/data/mpip/tpatki-npbmz__bt-mz.C.4.4.30707.1.mpiP
/// (mpiP 3.3.0, 4 ranks): MPI Time table and the 'Callsite Time statistics'
/// rows as Count x Mean (ms) per rank; ranks without a row are 0. The nine
/// Bcast/Reduce sites below 0.02 ms in total are left out. Locations are
/// written as the mpiP reader writes unresolved sites: "0xADDRESS function".
qnm::RunStats BtMzClassC4Ranks() {
  qnm::RunStats run;
  run.app = "bt-mz";
  run.procs = 4;
  run.sources = {"tpatki-npbmz__bt-mz.C.4.4.30707.1.mpiP"};
  run.app_time_s_per_rank = {11, 11, 11, 11};
  run.mpi_time_s_per_rank = {0.307, 0.154, 0.314, 0.27};
  run.call_sites = {
      Site(8, "Waitall", "0x418e3f exch_qbc_", {303 * 0.969, 303 * 0.447, 303 * 0.994, 303 * 0.85}),
      Site(7, "Isend", "0x418c2c exch_qbc_", {303 * 0.00847, 0, 202 * 0.00832, 101 * 0.00294}),
      Site(20, "Isend", "0x418dbf exch_qbc_", {0, 303 * 0.0353, 101 * 0.00238, 202 * 0.0377}),
      Site(12, "Irecv", "0x418c88 exch_qbc_", {303 * 0.0256, 0, 202 * 0.0216, 101 * 0.00307}),
      Site(19, "Irecv", "0x418d63 exch_qbc_", {0, 303 * 0.0163, 101 * 0.0043, 202 * 0.0061}),
      Site(4, "Barrier", "0x401cf8 MAIN__", {1.14, 0.659, 2.65, 0.04}),
      Site(15, "Barrier", "0x40246d MAIN__", {0.012, 0.163, 1.06, 1.08}),
      Site(13, "Bcast", "0x422c78 env_setup_", {0.004, 0.433, 0.432, 0.431}),
      Site(14, "Bcast", "0x401879 MAIN__", {0.033, 1.19, 1.2, 1.2}),
      Site(1, "Reduce", "0x420562 verify_", {1.34, 0.053, 0.172, 0.04}),
      Site(10, "Comm_split", "0x42415d mpi_setup_", {0.465, 0.487, 0.49, 0.49}),
  };
  return run;
}

int IndexOf(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] == name) return static_cast<int>(k);
  return -1;
}

}  // namespace

TEST_CASE("mpiP call sites become activities x regions x ranks", "[dissimilarity][mpip]") {
  qnm::MpipActivityRegionTimes built = qnm::ActivityRegionTimesFromMpip(BtMzClassC4Ranks(), {});
  const qnm::ActivityRegionTimes& times = built.times;
  CHECK(times.ranks == 4);
  CHECK(times.activities ==
        std::vector<std::string>{"computation", "p2p", "collective", "synchronization", "other"});
  // Unresolved sites merge by (MPI call, function): 11 sites -> 8 regions + application.
  CHECK(times.regions.size() == 9);
  const int isend = IndexOf(times.regions, "Isend @ exch_qbc_");
  const int application = IndexOf(times.regions, "application");
  REQUIRE(isend >= 0);
  REQUIRE(application >= 0);
  CHECK(times.At(1, static_cast<std::size_t>(isend), 2) == Approx((202 * 0.00832 + 101 * 0.00238) / 1000));
  CHECK(times.At(0, static_cast<std::size_t>(application), 1) == Approx(11 - 0.154));
  CHECK(times.At(0, static_cast<std::size_t>(isend), 1) == 0.0);

  // Keeping addresses apart gives one region per site.
  qnm::MpipDissimilarityOptions by_address;
  by_address.unresolved_by_address = true;
  CHECK(qnm::ActivityRegionTimesFromMpip(BtMzClassC4Ranks(), by_address).times.regions.size() == 12);
  qnm::MpipDissimilarityOptions by_function;
  by_function.grouping = qnm::MpipRegionGrouping::kFunction;
  CHECK(qnm::ActivityRegionTimesFromMpip(BtMzClassC4Ranks(), by_function).times.regions ==
        std::vector<std::string>{"exch_qbc_", "MAIN__", "env_setup_", "verify_", "mpi_setup_", "application"});
  qnm::MpipDissimilarityOptions by_mpi;
  by_mpi.grouping = qnm::MpipRegionGrouping::kMpiFunction;
  by_mpi.include_computation = false;
  qnm::MpipActivityRegionTimes mpi_only = qnm::ActivityRegionTimesFromMpip(BtMzClassC4Ranks(), by_mpi);
  CHECK(mpi_only.times.regions.size() == 7);
  CHECK(mpi_only.times.activities.front() == "p2p");
}

TEST_CASE("Calzarossa et al. 2004 indices of bt-mz class C on 4 ranks (hand-copied mpiP numbers)", "[dissimilarity][mpip]") {
  qnm::MpipActivityRegionTimes built = qnm::ActivityRegionTimesFromMpip(BtMzClassC4Ranks(), {});
  qnm::DissimilarityResult result = qnm::ComputeDissimilarity(built.times, {});
  const auto& regions = result.region_names;
  const auto region = [&](const std::string& name) {
    return result.regions[static_cast<std::size_t>(IndexOf(regions, name))];
  };
  // Reference values from an independent Python evaluation of eqs. 1-6 on the same numbers.
  CHECK(result.summary.total_time_s == Approx(44.0001751));
  CHECK(result.CellIndex(0, static_cast<std::size_t>(IndexOf(regions, "application"))) ==
        Approx(0.00298628959).epsilon(1e-7));
  CHECK(result.CellIndex(1, static_cast<std::size_t>(IndexOf(regions, "Waitall @ exch_qbc_"))) ==
        Approx(0.13455248).epsilon(1e-7));
  CHECK(result.CellIndex(2, static_cast<std::size_t>(IndexOf(regions, "Reduce @ verify_"))) ==
        Approx(0.678409048).epsilon(1e-7));
  CHECK(result.activities[1].index == Approx(0.140451901).epsilon(1e-7));          // ID_A p2p
  CHECK(result.activities[1].scaled_index == Approx(0.00328755458).epsilon(1e-7)); // SID_A p2p
  CHECK(result.activities[0].scaled_index == Approx(0.00291535361).epsilon(1e-7)); // SID_A computation
  CHECK(result.activities[2].index == Approx(0.377957424).epsilon(1e-7));          // ID_A collective
  CHECK(region("Waitall @ exch_qbc_").scaled_index == Approx(0.00302062998).epsilon(1e-7));
  CHECK(region("Isend @ exch_qbc_").index == Approx(0.31797387).epsilon(1e-7));
  CHECK(region("Barrier @ MAIN__").index == Approx(0.34303754).epsilon(1e-7));

  // Computation dominates the time (97.6 %), yet point-to-point (the Waitall
  // of exch_qbc_) is the most imbalanced by SID; by ID it is collective.
  CHECK(result.summary.dominant_activity == "computation");
  CHECK(result.summary.dominant_region == "application");
  CHECK(result.summary.most_imbalanced_activity == "p2p");
  CHECK(result.summary.most_imbalanced_region == "Waitall @ exch_qbc_");
  CHECK(result.activity_ranking == std::vector<int>{1, 0, 2, 3, 4});
  const qnm::CellDissimilarity& worst = result.cells[static_cast<std::size_t>(result.cell_ranking[0])];
  CHECK(regions[static_cast<std::size_t>(worst.region)] == "Reduce @ verify_");
  CHECK(worst.heaviest_rank == 0);  // the root of the verification Reduce
  qnm::DissimilarityOptions by_index;
  by_index.criterion = qnm::ImbalanceCriterion::kIndex;
  CHECK(qnm::ComputeDissimilarity(built.times, by_index).summary.most_imbalanced_activity == "collective");
}

TEST_CASE("mpiP front end notes and errors", "[dissimilarity][mpip]") {
  qnm::RunStats run = BtMzClassC4Ranks();
  run.mpi_time_s_per_rank[2] = 12.0;  // more MPI than application time on rank 2
  run.call_sites[0].total_time_s *= 2;  // rank rows hidden by mpiP -t
  qnm::MpipActivityRegionTimes built = qnm::ActivityRegionTimesFromMpip(run, {});
  CHECK(built.times.At(0, built.times.regions.size() - 1, 2) == 0.0);
  std::string notes;
  for (const std::string& note : built.notes) notes += note + "\n";
  CHECK(notes.find("MPITime > AppTime on 1 rank") != std::string::npos);
  CHECK(notes.find("1 call site(s) lack rank rows") != std::string::npos);
  CHECK(notes.find("11 call sites merged into 8 regions") != std::string::npos);

  run.app_time_s_per_rank.clear();
  built = qnm::ActivityRegionTimesFromMpip(run, {});
  CHECK(built.times.activities.front() == "p2p");

  qnm::RunStats empty;
  empty.procs = 64;
  empty.sources = {"ep.C.64.mpiP"};
  CHECK_THROWS_AS(qnm::ActivityRegionTimesFromMpip(empty, {}), qnm::InputError);
  CHECK_THROWS_WITH(qnm::ActivityRegionTimesFromMpip(empty, {}),
                    Catch::StartsWith("ep.C.64.mpiP: no per-rank call-site times"));
  qnm::RunStats too_many = BtMzClassC4Ranks();
  too_many.procs = 2;
  too_many.app_time_s_per_rank.resize(2);
  too_many.mpi_time_s_per_rank.resize(2);
  // The call sites say 4 ranks: the run is taken as 4 ranks and computation
  // (known for 2 only) is left out with a note.
  built = qnm::ActivityRegionTimesFromMpip(too_many, {});
  CHECK(built.times.ranks == 4);
  CHECK(built.times.activities.front() == "p2p");
}

TEST_CASE("Source locations of resolved mpiP call sites keep file and line", "[dissimilarity][mpip]") {
  qnm::RunStats run;
  run.procs = 2;
  run.call_sites = {Site(1, "Allreduce", "cg.f:1242 conj_grad_", {1.0, 3.0}),
                    Site(2, "Allreduce", "cg.f:1242 conj_grad_", {1.0, 1.0}),
                    Site(3, "Send", "lulesh-comm.cc:204 CommRecv(Domain&, int, bool)", {2.0, 0.0})};
  qnm::MpipActivityRegionTimes built = qnm::ActivityRegionTimesFromMpip(run, {});
  CHECK(built.times.regions ==
        std::vector<std::string>{"Allreduce @ cg.f:1242 conj_grad_",
                                 "Send @ lulesh-comm.cc:204 CommRecv(Domain&, int, bool)"});
  CHECK(built.times.At(1, 0, 0) == Approx(0.002));  // two per-rank site ids merged
  qnm::MpipRegionGrouping grouping;
  CHECK(qnm::ParseMpipRegionGrouping("function", &grouping));
  CHECK(grouping == qnm::MpipRegionGrouping::kFunction);
  CHECK_FALSE(qnm::ParseMpipRegionGrouping("file", &grouping));
}
