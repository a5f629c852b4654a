// Calzarossa et al. 2004 indices on real 64-rank mpiP reports, read by the mpiP reader, and
// the `qnm-predict imbalance` command line. Reference values come from an
// independent Python evaluation of eqs. 1-6 on the same reports (Count x Mean
// per rank row of 'Callsite Time statistics', AppTime - MPITime per rank).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "imbalance/dissimilarity.h"
#include "imbalance/dissimilarity_mpip.h"
#include "ingest/ingest.h"
#include "util/atomic_file.h"

namespace {

const std::string kMpip = std::string(QNM_TEST_DATA_DIR) + "/mpip";
const std::string kIs = kMpip + "/cenat__is.C.64.64.107264.1.mpiP";
const std::string kCg = kMpip + "/cenat__cg.C.64.64.106738.1.mpiP";

qnm::RunStats ReadOne(const std::string& path) {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = qnm::IngestPaths({path}, {}, &summary);
  REQUIRE(runs.size() == 1);
  return runs.front();
}

qnm::DissimilarityResult Analyse(const std::string& path, const qnm::MpipDissimilarityOptions& mpip = {},
                                 const qnm::DissimilarityOptions& options = {}) {
  return qnm::ComputeDissimilarity(qnm::ActivityRegionTimesFromMpip(ReadOne(path), mpip).times, options);
}

const qnm::RegionDissimilarity& Region(const qnm::DissimilarityResult& result, const std::string& name) {
  for (const qnm::RegionDissimilarity& region : result.regions)
    if (region.name == name) return region;
  FAIL("no region " << name);
  return result.regions.front();
}

struct CliRun {
  int status;
  std::string out, err;
};

/// A scratch directory of this test process (ctest -j runs test cases in parallel).
std::filesystem::path ScratchDir() {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("qnm_imbalance_cli." + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

CliRun Imbalance(const std::string& arguments) {
  const std::filesystem::path dir = ScratchDir();
  const std::string out = (dir / "stdout").string(), err = (dir / "stderr").string();
  int status = std::system((std::string(QNM_CLI_PATH) + " imbalance " + arguments + " >" + out + " 2>" + err).c_str());
  return {status, qnm::ReadFile(out), qnm::ReadFile(err)};
}

}  // namespace

TEST_CASE("NPB IS class C on 64 ranks: indices from the real mpiP report", "[dissimilarity][real]") {
  qnm::DissimilarityResult result = Analyse(kIs);
  CHECK(result.ranks == 64);
  CHECK(result.activity_names == std::vector<std::string>{"computation", "p2p", "collective"});
  CHECK(result.region_names.size() == 9);  // 9 call sites; the two Reduce in main merge; + application
  CHECK(result.summary.total_time_s == Approx(126.085049).epsilon(1e-8));
  CHECK(result.activities[2].index == Approx(0.027153053).epsilon(1e-7));        // ID_A collective
  CHECK(result.activities[2].scaled_index == Approx(0.00801219426).epsilon(1e-7));
  CHECK(result.activities[0].index == Approx(0.0106832623).epsilon(1e-7));       // computation
  CHECK(result.activities[1].index == Approx(0.28271842).epsilon(1e-7));         // p2p
  CHECK(Region(result, "Allreduce @ rank").index == Approx(0.0307026613).epsilon(1e-7));
  CHECK(Region(result, "Allreduce @ rank").scaled_index == Approx(0.00460890123).epsilon(1e-7));
  CHECK(Region(result, "Reduce @ main").time_s == Approx(12.391696).epsilon(1e-7));
  // Computation dominates (70 %), the collectives are the most imbalanced
  // activity by SID, the verification Wait the most imbalanced cell (rank 1).
  CHECK(result.summary.dominant_activity == "computation");
  CHECK(result.summary.most_imbalanced_activity == "collective");
  CHECK(result.summary.most_imbalanced_region == "application");
  const qnm::CellDissimilarity& worst = result.cells[static_cast<std::size_t>(result.cell_ranking[0])];
  CHECK(result.region_names[static_cast<std::size_t>(worst.region)] == "Wait @ full_verify");
  CHECK(worst.index == Approx(0.289779671).epsilon(1e-7));
  CHECK(worst.heaviest_rank == 1);

  // As in the paper's IS case study (§4.1: MPI statements as regions, class A
  // on 64 processors) MPI_Allreduce has the maximum scaled index.
  qnm::MpipDissimilarityOptions statements;
  statements.grouping = qnm::MpipRegionGrouping::kMpiFunction;
  statements.include_computation = false;
  qnm::DissimilarityResult mpi = Analyse(kIs, statements);
  CHECK(mpi.region_names.size() == 8);
  CHECK(mpi.summary.most_imbalanced_region == "Allreduce");
  CHECK(mpi.summary.dominant_region == "Allreduce");
}

TEST_CASE("NPB CG class C on 64 ranks: indices from the real mpiP report", "[dissimilarity][real]") {
  qnm::DissimilarityResult result = Analyse(kCg);
  CHECK(result.activity_names == std::vector<std::string>{"computation", "p2p", "collective", "synchronization"});
  CHECK(result.summary.total_time_s == Approx(780.777645).epsilon(1e-8));
  CHECK(result.activities[1].index == Approx(0.0212468223).epsilon(1e-7));
  CHECK(result.activities[1].scaled_index == Approx(0.0044691596).epsilon(1e-7));
  CHECK(result.activities[0].scaled_index == Approx(0.00162677805).epsilon(1e-7));
  CHECK(result.activities[3].index == Approx(0.055513092).epsilon(1e-7));
  CHECK(Region(result, "Send @ conj_grad_").scaled_index == Approx(0.00231589473).epsilon(1e-7));
  CHECK(Region(result, "Wait @ conj_grad_").index == Approx(0.0293467867).epsilon(1e-7));
  CHECK(result.summary.most_imbalanced_activity == "p2p");
  CHECK(result.summary.most_imbalanced_region == "Send @ conj_grad_");
  CHECK(result.activity_ranking == std::vector<int>{1, 0, 2, 3});
  // By ID: the Barrier in MAIN__ (synchronization) is the most unequal.
  qnm::DissimilarityOptions by_index;
  by_index.criterion = qnm::ImbalanceCriterion::kIndex;
  CHECK(Analyse(kCg, {}, by_index).summary.most_imbalanced_activity == "synchronization");
}

TEST_CASE("Per-rank mpiP call sites (ASLR) are merged by MPI function", "[dissimilarity][real]") {
  // nunatak: rank 0 resolved its sites (mpi_workload.c:22), ranks 1-3 did
  // not and got their own addresses: 8 sites, each used by one rank.
  const std::string nunatak = kMpip + "/nunatak__mpi_workload.4.2586003.1.mpiP";
  qnm::MpipActivityRegionTimes built = qnm::ActivityRegionTimesFromMpip(ReadOne(nunatak), {});
  CHECK(built.times.regions == std::vector<std::string>{"Recv", "Allreduce", "Send", "application"});
  CHECK(built.notes.front() ==
        "mpiP gave ranks their own call sites (8 sites used by one rank only): regions are MPI functions");
  qnm::DissimilarityResult result = qnm::ComputeDissimilarity(built.times, {});
  CHECK(Region(result, "Allreduce").index == Approx(0.01555069).epsilon(1e-6));  // balanced once merged
  CHECK(Region(result, "Recv").index == Approx(std::sqrt(0.75)));                // rank 0 only: sqrt(1 - 1/P)
  CHECK(result.activities[1].scaled_index == Approx(0.0234002502).epsilon(1e-7));
  CHECK(result.summary.most_imbalanced_activity == "p2p");
  // Without the merge the split Allreduce would look like the worst imbalance.
  qnm::MpipDissimilarityOptions split;
  split.merge_per_rank_sites = false;
  qnm::DissimilarityResult unmerged = Analyse(nunatak, split);
  CHECK(unmerged.summary.most_imbalanced_activity == "collective");
  CHECK(Region(unmerged, "Allreduce @ mpi_workload.c:22 main").index == Approx(std::sqrt(0.75)));

  // armhack21 CloverLeaf: 832 sites = 13 per rank x 64 ranks.
  qnm::DissimilarityResult clover = Analyse(kMpip + "/armhack21__clover_leaf.64.5895.1.mpiP");
  CHECK(clover.region_names.size() == 7);
  CHECK(clover.summary.total_time_s == Approx(1171.19651).epsilon(1e-8));
  CHECK(clover.activities[1].scaled_index == Approx(0.00129057114).epsilon(1e-7));  // p2p
  CHECK(clover.summary.most_imbalanced_region == "Waitall");
  // The NPB reports of the same data set keep their call sites.
  CHECK(qnm::ActivityRegionTimesFromMpip(ReadOne(kCg), {}).notes.front().find("own call sites") ==
        std::string::npos);
}

TEST_CASE("imbalance command: table, JSON and CSV on real reports", "[dissimilarity][real][cli]") {
  CliRun table = Imbalance(kIs + " --top 3");
  CHECK(table.status == 0);
  CHECK(table.out.find("most imbalanced activity collective (SID_A 0.00801219)") != std::string::npos);
  CHECK(table.out.find("  1   collective        0.5813   29.5%  0.02715     0.008012    <- candidate") !=
        std::string::npos);
  CHECK(table.out.find("  4   ") == std::string::npos);  // --top 3

  CliRun json = Imbalance(kIs + " " + kCg + " --format json --rank-by index");
  REQUIRE(json.status == 0);
  nlohmann::json runs = nlohmann::json::parse(json.out);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0]["run"].get<std::string>().find("cenat__cg.C.64") != std::string::npos);  // sorted by name
  CHECK(runs[0]["most_imbalanced"]["activity"] == "synchronization");
  CHECK(runs[1]["activities"][0]["name"] == "p2p");
  CHECK(runs[1]["activities"][0]["ID_A"].get<double>() == Approx(0.28271842).epsilon(1e-7));

  const std::string csv_path = (ScratchDir() / "is.csv").string();
  std::filesystem::remove(csv_path);
  CliRun csv = Imbalance(kIs + " --format csv --regions mpi --no-computation -o " + csv_path);
  CHECK(csv.status == 0);
  CHECK(csv.out.empty());
  std::string written = qnm::ReadFile(csv_path);
  CHECK(written.find(",region,1,,Allreduce,18.927139,") != std::string::npos);
}

TEST_CASE("imbalance command: bad input gives one line and exit 1", "[dissimilarity][real][cli]") {
  CliRun missing = Imbalance("/nonexistent/report.mpiP");
  CHECK(missing.status != 0);
  CHECK(missing.err.find("/nonexistent/report.mpiP") != std::string::npos);
  CliRun format = Imbalance(kIs + " --format xml");
  CHECK(format.status != 0);
  CHECK(format.err == "qnm-predict: --format must be table, json or csv, not 'xml'\n");
  CliRun dispersion = Imbalance(kIs + " --dispersion manhattan");
  CHECK(dispersion.status != 0);
  CHECK(dispersion.err.find("--dispersion must be") != std::string::npos);
  CliRun top = Imbalance(kIs + " --top -2");
  CHECK(top.err == "qnm-predict: --top must be >= 0 (0 = all rows)\n");
  CliRun unwritable = Imbalance(kIs + " -o /nonexistent/dir/out.json");
  CHECK(unwritable.status != 0);
  CHECK(unwritable.err.find("/nonexistent/dir/out.json") != std::string::npos);
  // An NPB stdout file has no call sites: nothing to analyse.
  CliRun npb = Imbalance(kMpip + "/npb-stdout");
  CHECK(npb.status != 0);
  CHECK(npb.err.find("no run with per-rank mpiP call-site times") != std::string::npos);
}
