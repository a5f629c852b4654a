#pragma once
// ONETEP's main output, `<input>.out` (linear-scaling density functional theory, docs/formats/onetep-output.md):
// after its banner ("Linear-Scaling Ab Initio Total Energy Program", "Version 6.1.12.0") ONETEP says where its
// parameters came from (`Reading parameters from file "4088.dat"`), how it runs ("Running with 40 MPI
// processes.", "There are 10 MPI processes running on the same node as the root process.", "4 threads in other
// parallel regions."), and at its end the timing report: "AVERAGE TIME:   16327.763s on     40 proc(s)" (over the
// processes) and "TOTAL TIME:     16328.044s on     40 proc(s)" (the run's wall-clock time: the file's "Job started"
// and "Job completed" lines are 4 h 32 min apart in such a run). A file may hold several runs (outputs
// appended); each opens with the banner. ONETEP times no communication: the records are runtime only.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One run of a ONETEP output.
struct OnetepRun {
  int line = 0;                 // of its banner's subtitle, 1-based
  std::string version;          // "6.1.12.0"
  std::string input;            // the parameter file it read, "4088.dat"
  int processes = 0;            // "Running with N MPI processes."; 0 = not printed
  int ranks_on_root_node = 0;   // "There are N MPI processes running on the same node as the root process."
  int threads = 0;              // "T threads in other parallel regions."; 0 = not printed
  double average_s = kUnknown;  // "AVERAGE TIME: X s on N proc(s)"
  double total_s = kUnknown;    // "TOTAL TIME: X s on N proc(s)": the run finished when it is known
  int total_line = 0;
  int total_procs = 0;  // the N of "TOTAL TIME: ... on N proc(s)"
};

/// True when one of the file's first 200 lines holds ONETEP's banner subtitle ("Linear-Scaling Ab Initio Total
/// Energy Program").
bool LooksLikeOnetepOutput(std::string_view text);

/// Every run of a ONETEP output, finished or not; throws InputError naming `path` and the line of a malformed
/// count or time, or of a "TOTAL TIME" whose process count is not the run's.
std::vector<OnetepRun> ParseOnetepOutput(std::string_view text, const std::string& path);

/// The run-statistics record of a finished run: app "onetep", the input file as its problem, procs, ranks per
/// node and threads as ONETEP reports them, "TOTAL TIME" as the run's time.
RunStats OnetepRunToRunStats(const OnetepRun& run, const std::string& path);

}  // namespace qnm
