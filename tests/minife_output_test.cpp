// miniFE outputs read into run records (tests/data/minife: real runs of Mantevo/miniFE made for
// the project, SOURCES.md there). The values below are copied from the files by hand.
#include "app_outputs/minife_output.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "ingest_test_util.h"
#include "temp_dir.h"

using namespace qnm;

namespace {

namespace fs = std::filesystem;
using testing::Only;
using testing::ReadText;
using testing::Replaced;
using testing::WriteCase;

const std::string kMinife = std::string(QNM_TEST_DATA_DIR) + "/minife";
const std::string kNp4 = kMinife + "/np4/miniFE.60x60x60.P4.2026-11-30-12-19-11.yaml";

}  // namespace

TEST_CASE("miniFE: ranks, Total Program Time, the box as the class, the build as settings", "[ingest][minife]") {
  // np4: "number of processors: 4", "Iterations: 200", "Total CG Time: 1.24368", "Rows per proc
  // MIN: 54900" / "MAX: 58621", "CXXFLAGS: '-O3 -g'", line 62 "Total Program Time: 2.33303".
  const RunStats four = Only(testing::IngestPath(kNp4));
  CHECK(four.app == "minife");
  CHECK(four.procs == 4);
  CHECK(four.threads_per_proc == 1);
  CHECK(four.wall_time_s == 2.33303);
  CHECK_FALSE(Known(four.mpi_time_mean_s));  // runtime-only: its kernels' times include their MPI
  CHECK(four.problem_class == "60x60x60 elements");
  CHECK(four.iterations == 200);
  CHECK(four.details.at("minife.cg_time_s") == "1.24368");
  CHECK(four.details.at("minife.rows_per_proc_min") == "54900");
  CHECK(four.details.at("minife.rows_per_proc_max") == "58621");
  CHECK(four.details.at("setting.cxxflags") == "-O3 -g");
  CHECK(four.details.at("setting.mv_overlap_comm_comp") == "no");
  CHECK(four.details.at("setting.types") == "double/int/int");
  CHECK(four.details.at("setting.version") == "2.0");
  // "Platform: hostname" is where miniFE was built (uname -n at make time): not the run's machine.
  CHECK(four.details.at("minife.build_host") == "vm");
  CHECK(four.machine.empty());
  CHECK(four.hosts.empty());
  CHECK(four.sources.front() == kNp4 + ":1");

  // The OpenMP build: "OpenMP Max Threads:: 2" (its key has a colon of its own).
  const RunStats hybrid =
      Only(testing::IngestPath(kMinife + "/omp-th2-np2/miniFE.60x60x60.P2.T2.2026-11-30-12-19-19.yaml"));
  CHECK(hybrid.procs == 2);
  CHECK(hybrid.threads_per_proc == 2);
  CHECK(hybrid.wall_time_s == 1.52722);
  CHECK(hybrid.details.at("setting.cxxflags") == "-O3 -fopenmp");
}

TEST_CASE("miniFE: a run of 12,288 ranks on 128 cloud nodes (converged-computing's study)", "[ingest][minife]") {
  // aws-eks-size128: the YAML of an AWS EKS run (MIT, SOURCES.md) beside the job's output, which holds
  // miniFE's standard output and the Flux job's records: "OpenMP Max Threads:: 1", "number of
  // processors: 12288", "hostname: buildkitsandbox" (the container build), "Rows per proc MIN: 882",
  // "MAX: 1200", "Total Program Time: 1.51838".
  IngestSummary summary;
  const RunStats run = Only(testing::IngestPath(kMinife + "/aws-eks-size128", &summary, /*strict=*/false));
  CHECK(run.procs == 12288);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.wall_time_s == 1.51838);
  CHECK(run.problem_class == "230x230x230 elements");
  CHECK(run.details.at("minife.build_host") == "buildkitsandbox");
  CHECK(run.machine.empty());
  CHECK(run.details.at("minife.rows_per_proc_min") == "882");
  CHECK(run.details.at("minife.rows_per_proc_max") == "1200");
  CHECK(run.details.at("setting.cxxflags") == "-O3 -fopenmp");
  // The job's output beside it is left unread, but its Flux jobspec (128 nodes of 96 tasks) says where
  // the run ran (ingest/job_records_beside.h).
  CHECK(run.nodes == 128);
  CHECK(run.ranks_per_node == 96);
  CHECK(run.derivations.at("nodes").find("the Flux jobspec of the job's output beside the run") != std::string::npos);
  REQUIRE(summary.skipped.size() == 1);  // the job's output beside the YAML: left unread
  CHECK(summary.skipped.front().path == kMinife + "/aws-eks-size128/minife-128-iter-1-758229499904.out");
}

TEST_CASE("miniFE: a campaign folder, its series and settings; a job log of two runs", "[ingest][minife]") {
  IngestSummary summary;
  const std::vector<RunStats> runs = testing::IngestPath(kMinife, &summary, /*strict=*/false);
  REQUIRE(runs.size() == 10);
  // The standard output beside its YAML is left unread, as SOURCES.md is: no run of its own.
  REQUIRE(summary.skipped.size() == 3);
  CHECK(summary.skipped[0].path == kMinife + "/SOURCES.md");
  CHECK(summary.skipped[1].path == kMinife + "/aws-eks-size128/minife-128-iter-1-758229499904.out");
  CHECK(summary.skipped[2].path == kMinife + "/np1/minife.out");
  CHECK(summary.skipped[2].reason.find("not a recognised format") != std::string::npos);
  // np2-overlap and np4-overlap ran with -mv_overlap_comm_comp 1: another series, not repetitions.
  CHECK(testing::NotesOf(summary).find("differ in setting.mv_overlap_comm_comp") != std::string::npos);
  int overlapped = 0;
  for (const RunStats& run : runs) overlapped += run.variant.find("mv_overlap_comm_comp=yes") != std::string::npos;
  CHECK(overlapped == 2);

  // joblog/slurm-4242.out: a batch script ran 1 and 2 ranks and printed each YAML into its output
  // (lines 21-82 and 103-164), between miniFE's standard output and `time`'s lines.
  std::vector<RunStats> job = testing::IngestPath(kMinife + "/joblog/slurm-4242.out");
  REQUIRE(job.size() == 2);
  std::sort(job.begin(), job.end(), [](const RunStats& a, const RunStats& b) { return a.procs < b.procs; });
  CHECK(job[0].procs == 1);
  CHECK(job[0].wall_time_s == 0.33337);
  CHECK(job[0].iterations == 133);
  CHECK(job[0].sources.front() == kMinife + "/joblog/slurm-4242.out:21");
  CHECK(job[1].procs == 2);
  CHECK(job[1].wall_time_s == 0.719959);
  CHECK(job[1].iterations == 134);  // CG's sums in another order: one more iteration to its tolerance
  CHECK(job[1].sources.front() == kMinife + "/joblog/slurm-4242.out:103");
  for (const RunStats& run : job) CHECK(run.problem_class == "40x40x40 elements");

  // The same document in a job log and in its YAML file: one measurement.
  testing::TempDir dir("qnm-minife", "twice");
  const std::string log = ReadText(kMinife + "/joblog/slurm-4242.out");
  const std::size_t begin = log.find("Mini-Application Name");
  const std::size_t end = log.find("Total Program Time: 0.33337\n") + 28;
  WriteCase(dir, "slurm-1.out", log);
  WriteCase(dir, "miniFE.40x40x40.P1.job.2026-11-30-12-19-22.yaml", log.substr(begin, end - begin));
  IngestSummary twice;
  CHECK(testing::IngestPath(dir.path.string(), &twice).size() == 2);
  CHECK(twice.duplicates.Total() == 1);
}

TEST_CASE("miniFE: its standard output alone, unfinished and damaged documents", "[ingest][minife]") {
  testing::TempDir dir("qnm-minife", "cases");
  // The standard output without its YAML says which file holds the run.
  const std::string progress = ReadText(kMinife + "/np1/minife.out");
  CHECK(LooksLikeMinifeProgress(progress));
  CHECK(testing::IngestErrorOf(WriteCase(dir, "minife.out", progress))
            .find("minife.out:7: miniFE's standard output, not its YAML document") != std::string::npos);

  const std::string yaml = ReadText(kNp4);
  const std::string cut = yaml.substr(0, yaml.find("CG solve:"));
  CHECK(testing::IngestErrorOf(WriteCase(dir, "cut.yaml", cut))
            .find("cut.yaml:1: miniFE document without its 'Total Program Time': the run did not finish") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "procs.yaml", Replaced(yaml, "number of processors: 4", "number of processors: 4x")))
            .find("procs.yaml:10: miniFE 'number of processors'") != std::string::npos);
  CHECK(testing::IngestErrorOf(
            WriteCase(dir, "time.yaml", Replaced(yaml, "Total Program Time: 2.33303", "Total Program Time: -2.3")))
            .find("time.yaml:62: miniFE 'Total Program Time' needs a non-negative number, got '-2.3'") !=
        std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "box.yaml", Replaced(yaml, "    ny: 60\n", "")))
            .find("box.yaml:1: miniFE run without its 'Global Run Parameters/dimensions/ny'") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "indent.yaml", Replaced(yaml, "  hostname: vm", "     hostname: vm")))
            .find("indent.yaml:15: miniFE document line indented under no section") != std::string::npos);
  CHECK(testing::IngestErrorOf(WriteCase(dir, "twice.yaml",
                                         Replaced(yaml, "  using MPI: yes", "  using MPI: yes\n  CXXFLAGS: '-O2'")))
            .find("twice.yaml:24: miniFE document repeats 'Build/CXXFLAGS' (first at line 22)") != std::string::npos);
  // A job log whose first document was cut by the next run's output: that run is counted, the next read.
  const std::string log = ReadText(kMinife + "/joblog/slurm-4242.out");
  const std::string killed = Replaced(log, "Total Program Time: 0.33337\n", "");
  const std::vector<RunStats> rest = testing::IngestPath(WriteCase(dir, "killed.out", killed));
  REQUIRE(rest.size() == 1);
  CHECK(rest.front().procs == 2);
  // Another Mantevo application's document is not miniFE's.
  CHECK_FALSE(LooksLikeMinifeOutput("Mini-Application Name: CoMD-mpi\n"));
}
