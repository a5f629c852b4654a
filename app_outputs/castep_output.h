#pragma once
// CASTEP's main output, `<seed>.castep` (docs/formats/castep-output.md). CASTEP
// appends each run of a seed to the same file, so a file holds one or more runs,
// each opened by "Run started: <date>" after the banner ("Welcome to Academic
// Release CASTEP version 20.11"): "Calculation parallelised over N processes."
// (and "Each process may use up to T threads."), the parameters it ran with
// ("type of calculation : single point energy", "plane wave basis set cut-off :
// 400.0000 eV", "using functional : ...", "Total number of ions in cell = 270",
// "Number of kpoints used = 2"), and, when the run ends, "Initialisation time",
// "Calculation time", "Finalisation time", "Total time" and "Peak Memory Use".
// CASTEP times no communication: the records are runtime only.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// One run of a .castep file.
struct CastepRun {
  int line = 0;               // of its "Run started:" line, 1-based
  std::string version;        // "20.11", from the banner before it
  int processes = 0;          // "Calculation parallelised over N processes."; 0 = serial (not printed)
  int threads = 0;            // "Each process may use up to T threads."; 0 = not printed
  std::string distribution;   // "G-vector(128-way) and k-point(2-way)" as printed
  std::string title;          // the line under the "Title" banner
  std::string task;           // "single point energy"
  std::string cutoff_ev;      // "400" (%g of the plane wave basis set cut-off)
  std::string functional;     // "Perdew Wang (1991)"
  long long ions = 0;         // "Total number of ions in cell"
  long long kpoints = 0;      // "Number of kpoints used"
  long long max_scf_cycles = -1;
  double initialisation_s = kUnknown, calculation_s = kUnknown, finalisation_s = kUnknown;
  double total_s = kUnknown;      // "Total time": the run finished when it is known
  double peak_memory_kb = kUnknown;
};

/// True when one of the first lines holds CASTEP's banner ("CASTEP version").
bool LooksLikeCastepOutput(std::string_view text);

/// Parses every run of a .castep file, finished or not; throws InputError naming `path` (and the
/// line) when the file has no run ("Run started:") or a timing value is malformed.
std::vector<CastepRun> ParseCastepOutput(std::string_view text, const std::string& path);

/// The run-statistics record of a finished run: app "castep", the problem from its parameters,
/// procs and threads, "Total time" as the run's time.
RunStats CastepRunToRunStats(const CastepRun& run, const std::string& path);

}  // namespace qnm
