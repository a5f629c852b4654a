#pragma once
// What a file name says about a run. Data sets name their files
// "<tag>__<original name>" or "<tag>_<name>" (tpatki-npbmz__bt-mz.C.4.4.30707.1.mpiP,
// pi4-ntua_cg-C-16-4.out, st-g5k_lu.A.4.td.I.out); NPB binaries are named
// "<bench>.<CLASS>.<procs|x>" and mpiP appends ".<tasks>.<pid>.<index>.mpiP".
#include <string>
#include <vector>

namespace qnm {

struct FileNameInfo {
  std::string data_set;       // "tpatki-npbmz", "st-g5k"; empty when the name has no tag
  std::string original_name;  // the name without the data-set tag
  std::string app;            // NPB benchmark found in the name ("bt-mz", "lu"), lower case
  std::string problem_class;  // the class letter after the benchmark
  int procs = 0;              // first number after the class, "np16", "64ranks"
  int nodes = 0;              // "<bench>-<CLASS>-<procs>-<nodes>" (pi4-ntua)
  int nodes_word = 0;         // "16nodes", "1node", "32n" (run names: CdTe_16nodes_2048cores_…, kripke-32n-25)
  std::string nodes_token;    // the word that said it ("16nodes", "32n")
  int threads_total = 0;      // "th256"
  long long mpip_pid = -1;    // "<app>.<tasks>.<pid>.<index>.mpiP": collector PID
  int mpip_tasks = 0;
  std::string mpip_app;       // mpiP appName ("bt-mz.C.4", "lulesh2.0")
  std::string repetition;     // roman numeral repetition tag ("III") or empty
  std::vector<std::string> variant_words;  // other words: network, build, tracing mode
  std::string Variant() const;             // words joined by '-', plus "ppn<k>" when nodes known
};

/// Parses the base name of `path`.
FileNameInfo ParseFileName(const std::string& path);

/// Splits an NPB binary name "bt-mz.C.4" / "cg.B.x" into benchmark and class;
/// false when it is not one.
bool SplitNpbBinaryName(const std::string& name, std::string* app, std::string* problem_class);

/// True for the NPB benchmark names (bt cg dt ep ft is lu mg sp ua, *-mz).
bool IsNpbBenchmark(const std::string& lower_name);

/// The application a run read from an output that does not name it is named for: the first word
/// of the file's base name ("sedovflat.out" -> "sedovflat", "slurm-123.out" -> "slurm"), or of its
/// folder's when that word names an output, not a program ("out", "log", "stdout", "np"...);
/// "output" when neither has a word.
std::string ApplicationFromPath(const std::string& path);

}  // namespace qnm
