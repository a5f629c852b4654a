// Patterns a program's output suggests for itself (reader/pattern_suggestion.h), and ingest offering them for a file
// no reader knows once the pattern reader has read a run with them: the lines of course programs' outputs in round
// 48's set S, LANL's PENNANT (tests/data/pennant), and what is no run's time (a job script's directives, a date, the
// CPU time).
#include "reader/pattern_suggestion.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"

namespace {

qnm::SuggestedPatterns Suggest(const std::string& text) { return qnm::SuggestOutputPatterns(text); }

}  // namespace

TEST_CASE("suggested patterns: the process count and run time a program prints", "[patterns][suggestion]") {
  // A power-method exercise's Slurm output: the count before its word, the time before "second(s)".
  qnm::SuggestedPatterns s = Suggest(
      "Doing 3000 power iterations on 10000x10000 matrix distributed row-wise over 8 processes...\n"
      "[Proc   0] Doing rows 0 to 1249\n"
      "Power method: NOT converged in 3000 iteration(s) to largest absolute eigenvalue theta = 9997.06 in 36.97 "
      "second(s) time.\n");
  CHECK(s.procs == "procs=over\\s+(\\d+)\\s+processes");
  CHECK(s.time == "time=in\\s+([0-9.]+(?:[eE][-+]?[0-9]+)?)\\s+second");
  CHECK(s.procs_line == 1);
  CHECK(s.time_line == 3);
  CHECK(s.Options() ==
        "--pattern 'procs=over\\s+(\\d+)\\s+processes' --pattern "
        "'time=in\\s+([0-9.]+(?:[eE][-+]?[0-9]+)?)\\s+second'");
  // A Jacobi exercise's log: the count after its word; of two runtimes the labelled total, not the average.
  s = Suggest(
      "\nNo. of processors: 2 resolution: 4000 iterations: 10 DIM: 1D\n=====\n"
      "Total   Runtime = 1.37806102e+01 seconds\nAverage Runtime = 1.37806102e+00 seconds\n");
  CHECK(s.procs == "procs=processors:\\s+(\\d+)");
  CHECK(s.time == "time=^\\s*Total\\s+Runtime\\s+=\\s+([0-9.]+(?:[eE][-+]?[0-9]+)?)");
  // A unit after the number or in brackets; an elapsed time above the bare word "time".
  s = Suggest("ranks = 16\ntime per step 0.1\nElapsed time: 12.5 ms\n");
  CHECK(s.procs == "procs=ranks\\s+=\\s+(\\d+)");
  CHECK(s.time == "time_ms=^\\s*Elapsed\\s+time:\\s+([0-9.]+(?:[eE][-+]?[0-9]+)?)");
  CHECK(Suggest("Running with 40 MPI processes.\nWall time (min): 3.5\n").time ==
        "time_min=^\\s*Wall\\s+time\\s+\\(min\\):\\s+([0-9.]+(?:[eE][-+]?[0-9]+)?)");
  CHECK(Suggest("Running with 40 MPI processes.\n").procs == "procs=with\\s+(\\d+)\\s+MPI\\s+processes");
}

TEST_CASE("suggested patterns: what is no run's time or process count", "[patterns][suggestion]") {
  CHECK(Suggest("#SBATCH --time=10\n#SBATCH --ntasks=4\n").time.empty());
  CHECK(Suggest("Submit time : 2023-01-12T15:58:58\n").time.empty());
  CHECK(Suggest("walltime=01:30:00\n").time.empty());
  CHECK(Suggest("CPU time 12.5 s\nuser time 3 s\n").time.empty());
  CHECK(Suggest("Time step    1\nTime step   20\n").time.empty());
  CHECK(Suggest("average_runtime_per_iteration= 2.195151e-02\n").time.empty());  // a word of its own
  CHECK(Suggest("processes: 8.5\n").procs.empty());
  CHECK(Suggest("subprocesses 4\n").procs.empty());
}

TEST_CASE("ingest offers the suggestion for a file no reader knows, once it reads a run", "[patterns][ingest]") {
  // PENNANT's outputs: the run time of "hydro cycle run time=", the processes from the file's name (np2).
  const std::string path = std::string(QNM_TEST_DATA_DIR) + "/pennant/sedovbig-c300/pennant-np2.out";
  qnm::IngestSummary summary;
  CHECK(qnm::IngestPaths({path}, {}, &summary).empty());
  const std::string why = summary.NoRunsReason(false);
  CHECK(why.find("pennant-np2.out:") != std::string::npos);
  CHECK(why.find("; --pattern 'time=^\\s*hydro\\s+cycle\\s+run\\s+time=\\s+([0-9.]+(?:[eE][-+]?[0-9]+)?)' reads 1 "
                 "run of it (written from its line 33: check it)") != std::string::npos);
  CHECK(why.find(qnm::kOutputPatternHint) == std::string::npos);  // the concrete suggestion instead
  // Given, the suggestion reads the run.
  qnm::IngestOptions options;
  qnm::AddOutputPattern(
      qnm::ParseOutputPattern("time=^\\s*hydro\\s+cycle\\s+run\\s+time=\\s+([0-9.]+(?:[eE][-+]?[0-9]+)?)"),
      &options.selection.output_patterns);
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({path}, options, &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 2);
}
