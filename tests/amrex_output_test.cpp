// Outputs of AMReX programs (app_outputs/amrex_output.h): the example output of AMReX's PnetCDF I/O benchmark
// (tests/data/amrex-output/SOURCES.md), AMReX 22+'s start-up lines with OpenMP and a rerun appended, a
// program's own "Run time =", and what is refused.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "app_outputs/amrex_output.h"
#include "ingest/ingest.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kFolder = std::string(QNM_TEST_DATA_DIR) + "/amrex-output";
const std::string kBenchmark = kFolder + "/pnetcdf-benchmark-np4.out";


// AMReX 22 and later: "Initializing AMReX" first, the MPI thread level, OpenMP threads; the older
// TinyProfiler form without blanks around the dots (AMReX's documented sample); a rerun on 8 processes
// appended, its time the program's own "Run time =" only.
const char kTwoRuns[] = R"(Initializing AMReX (22.10-20-g3082028e4287)...
MPI initialized with 4 MPI processes
MPI initialized with thread support level 3
OMP initialized with 8 OMP threads
AMReX (22.10-20-g3082028e4287) initialized
Run time = 1.7581

TinyProfiler total time across processes [min...avg...max]: 1.765...1.765...1.766
AMReX (22.10-20-g3082028e4287) finalized
Initializing AMReX (22.10-20-g3082028e4287)...
MPI initialized with 8 MPI processes
MPI initialized with thread support level 3
OMP initialized with 8 OMP threads
AMReX (22.10-20-g3082028e4287) initialized
Run time = 0.9412
AMReX (22.10-20-g3082028e4287) finalized
)";

std::string Refusal(const std::string& text, const std::string& path = "job.out") {
  try {
    const std::vector<qnm::AmrexRun> runs = qnm::ParseAmrexOutput(text, path);
    for (const qnm::AmrexRun& run : runs) {
      int line = 0;
      if (std::string why = qnm::AmrexRunUnfinished(run, &line); !why.empty()) return why;
      qnm::AmrexRunToRunStats(run, path);
    }
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the PnetCDF benchmark's example output: 4 MPI processes, TinyProfiler's slowest process", "[amrex]") {
  const std::string text = qnm::ReadFile(kBenchmark);
  REQUIRE(qnm::LooksLikeAmrexOutput(text));
  const std::vector<qnm::AmrexRun> runs = qnm::ParseAmrexOutput(text, kBenchmark);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].version == "19.01-75-g807b01a19821");
  CHECK(runs[0].total_line == 18);
  CHECK(runs[0].finalized);
  const qnm::RunStats run = qnm::AmrexRunToRunStats(runs[0], kBenchmark);
  CHECK(run.procs == 4);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.wall_time_s == Approx(3.758).epsilon(1e-12));
  CHECK(run.details.at("amrex_total_min_s") == "3.735");
  CHECK(run.details.at("amrex_total_avg_s") == "3.747");
  CHECK(run.details.at("amrex_version") == "19.01-75-g807b01a19821");
  CHECK(run.app.str() == "pnetcdf");
  CHECK(run.derivations.at("wall_time_s").find("max (line 18)") != std::string::npos);
}

TEST_CASE("AMReX outputs are read by ingest, one record per run of a job's output", "[amrex][ingest]") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder}, qnm::IngestOptions(), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 4);
  CHECK(runs[0].wall_time_s == Approx(3.758).epsilon(1e-12));

  const std::vector<qnm::AmrexRun> two = qnm::ParseAmrexOutput(kTwoRuns, "nyx-strong/slurm-42.out");
  REQUIRE(two.size() == 2);
  const qnm::RunStats first = qnm::AmrexRunToRunStats(two[0], "nyx-strong/slurm-42.out");
  const qnm::RunStats second = qnm::AmrexRunToRunStats(two[1], "nyx-strong/slurm-42.out");
  CHECK(first.procs == 4);
  CHECK(first.threads_per_proc == 8);
  CHECK(first.wall_time_s == Approx(1.766).epsilon(1e-12));  // TinyProfiler's, the program's kept as a detail
  CHECK(first.details.at("amrex_run_time_s") == "1.7581");
  CHECK(second.procs == 8);
  CHECK(second.wall_time_s == Approx(0.9412).epsilon(1e-12));
  CHECK(second.derivations.at("wall_time_s") == "the program's 'Run time =' (line 15)");
  CHECK(first.app.str() == "nyx");  // "slurm" names the batch system, not the program: the folder's name
}

TEST_CASE("an AMReX output that says too little is refused with its line", "[amrex]") {
  const std::string full = qnm::ReadFile(kBenchmark);
  // Cut before TinyProfiler's total: the run did not finish.
  const std::string cut = full.substr(0, full.find("TinyProfiler total"));
  CHECK(Refusal(cut).find("did not finish") != std::string::npos);
  CHECK(Refusal(cut).find("no 'AMReX (...) finalized'") != std::string::npos);
  // Finalized but never timed: a build without TINY_PROFILE, read with --pattern instead.
  std::string untimed = full;
  untimed.erase(untimed.find("TinyProfiler total"), untimed.find('\n', untimed.find("TinyProfiler total")) + 1 -
                                                        untimed.find("TinyProfiler total"));
  CHECK(Refusal(untimed).find("--pattern") != std::string::npos);
  // A malformed total, a total whose min exceeds its max, a count that is not one.
  std::string bad = full;
  bad.replace(bad.find("3.735 ... 3.747"), 15, "3.735 ... x.747");
  CHECK(Refusal(bad, "a.out").find("a.out:18:") == 0);
  bad = full;
  bad.replace(bad.find("3.735 ... 3.747 ... 3.758"), 25, "3.935 ... 3.747 ... 3.758");
  CHECK(Refusal(bad).find("min <= avg <= max") != std::string::npos);
  CHECK(Refusal("Initializing AMReX (25.10)...\nMPI initialized with four MPI processes\n").find(":2:") !=
        std::string::npos);
  // Two dots instead of three: not TinyProfiler's form.
  bad = full;
  bad.replace(bad.find("3.735 ... 3.747 ... 3.758"), 25, "3.735 .. 3.747 .. 3.758");
  CHECK(Refusal(bad).find("min ... avg ... max") != std::string::npos);
  // AMReX's start-up lines are needed to take a file at all.
  CHECK_FALSE(qnm::LooksLikeAmrexOutput("Run time = 3.1\n"));
}
