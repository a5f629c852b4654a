// Logs of Nalu-Wind and Nalu (nalu_log.h, docs/formats/nalu-wind-log.md).
#include "app_outputs/nalu_log.h"

#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kTiming = "Timing for Simulation: nprocs=";
constexpr std::string_view kMain = "main() --";
constexpr std::string_view kStep = "WallClockTime:";
constexpr std::string_view kEquation = "Timing for Eq:";
constexpr std::string_view kComplete = "Simulation Shall Complete";
constexpr std::string_view kTrilinos = "Trilinos Version:";

// "Nalu-Wind Version: v1.2.0" -> the program ("Nalu-Wind") and the version; false for another line.
bool VersionLine(std::string_view t, std::string* program, std::string* version) {
  for (std::string_view name : {std::string_view("Nalu-Wind"), std::string_view("Nalu")}) {
    const std::string prefix = std::string(name) + " Version:";
    if (!StartsWith(t, prefix)) continue;
    *program = std::string(name);
    *version = std::string(Trim(t.substr(prefix.size())));
    return true;
  }
  return false;
}

// The value after `key` among "key: value" pairs separated by blanks or tabs ("avg: 2634.76 \tmin: ...");
// throws naming `what` when the key is missing or its value is no non-negative number.
double ValueAfterKey(std::string_view t, std::string_view key, const std::string& path, int line, const char* what) {
  const std::vector<std::string_view> words = SplitWhitespace(t);
  for (std::size_t i = 0; i + 1 < words.size(); ++i)
    if (words[i] == key) return NonNegativeNumber(words[i + 1], path, line, what);
  throw InputError(path, line, std::string(what) + " without its '" + std::string(key) + "'");
}

// A "<phase> -- avg: a min: b max: c" line of a "Timing for Eq:" block: adds a and c (seconds) to the sums.
// Linear iterations are counts, not seconds, and are left out.
void AddPhase(std::string_view t, NaluRun* run, const std::string& path, int line) {
  if (StartsWith(t, "linear iterations")) return;
  run->solver_avg_s += ValueAfterKey(t, "avg:", path, line, "Nalu equation timer");
  run->solver_max_s += ValueAfterKey(t, "max:", path, line, "Nalu equation timer");
}

}  // namespace

bool LooksLikeNaluLog(std::string_view text) {
  if (BeginsALine(text, kTiming) && BeginsALine(text, kMain)) return true;
  // The banner alone (a run killed before its timing): refused with why, not skipped unread.
  return BeginsALine(text, "Nalu-Wind Version:") && BeginsALine(text, "Realm Options Review");
}

std::vector<NaluRun> ParseNaluLog(std::string_view text, const std::string& path) {
  std::vector<NaluRun> runs;
  const std::vector<std::string_view> lines = SplitLines(text);
  bool in_equation = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    std::string program, version;
    if (VersionLine(t, &program, &version)) {
      // A banner after a run's timing begins the next run (reruns appended to one log).
      if (runs.empty() || runs.back().main_line > 0 || !runs.back().program.empty()) {
        runs.emplace_back();
        runs.back().line = n;
      }
      runs.back().program = program;
      runs.back().version = version;
      continue;
    }
    if (runs.empty() || runs.back().main_line > 0) {
      // Lines before any banner (a log whose head was cut) or after a run's timing: only a new run's
      // timing or steps begin one.
      if (!StartsWith(t, kTiming) && !StartsWith(t, kStep) && !StartsWith(t, kEquation)) continue;
      runs.emplace_back();
      runs.back().line = n;
    }
    NaluRun& run = runs.back();
    if (StartsWith(t, kTrilinos)) {
      run.trilinos_version = std::string(Trim(t.substr(kTrilinos.size())));
    } else if (StartsWith(t, kStep)) {
      run.step_time_sum_s += ValueAfterKey(t, "Total:", path, n, "Nalu 'WallClockTime:' step");
      ++run.time_steps;
    } else if (StartsWith(t, kComplete)) {
      run.completed = true;
    } else if (StartsWith(t, kEquation)) {
      in_equation = true;
      continue;
    } else if (in_equation && t.find(" -- ") != std::string_view::npos && t.find("avg:") != std::string_view::npos) {
      AddPhase(t, &run, path, n);
      continue;
    } else if (StartsWith(t, kTiming)) {
      const std::vector<std::string_view> words = SplitWhitespace(t.substr(kTiming.size()));
      if (words.empty()) throw InputError(path, n, "Nalu 'Timing for Simulation: nprocs=' without its count");
      run.procs = WholeCount(words[0], path, n, "Nalu 'Timing for Simulation: nprocs='", 1);
      run.procs_line = n;
    } else if (StartsWith(t, kMain)) {
      if (run.procs_line == 0)
        throw InputError(path, n, "Nalu 'main() --' timing without 'Timing for Simulation: nprocs=' before it");
      run.main_avg_s = ValueAfterKey(t, "avg:", path, n, "Nalu main() timing");
      run.main_min_s = ValueAfterKey(t, "min:", path, n, "Nalu main() timing");
      run.main_max_s = ValueAfterKey(t, "max:", path, n, "Nalu main() timing");
      if (!(run.main_min_s <= run.main_avg_s * (1 + 1e-5) && run.main_avg_s <= run.main_max_s * (1 + 1e-5)))
        throw InputError(path, n, "Nalu main() timing: min <= avg <= max does not hold");
      run.main_line = n;
    }
    in_equation = false;
  }
  if (runs.empty())
    throw InputError(path, 0, "no Nalu run in it (a 'Nalu-Wind Version:' banner or 'Timing for Simulation' lines)");
  return runs;
}

std::string NaluRunUnfinished(const NaluRun& run, int* line) {
  *line = run.line;
  if (run.main_line > 0) return {};
  if (run.procs_line > 0) {
    *line = run.procs_line;
    return "Nalu 'Timing for Simulation' without its 'main() --' line: the log was cut";
  }
  return "Nalu run without its 'Timing for Simulation' lines: it did not finish (" +
         (run.time_steps > 0 ? std::to_string(run.time_steps) + " time steps logged" +
                                   (run.completed ? "" : ", no 'Simulation Shall Complete'")
                             : std::string("no time step logged")) +
         "; killed at its wall-time limit, or it failed)";
}

RunStats NaluRunToRunStats(const NaluRun& r, const std::string& path) {
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(r.line));
  run.app = r.program.empty() ? "nalu-wind" : r.program == "Nalu" ? "nalu" : "nalu-wind";
  run.derivations["app"] = r.program.empty() ? "Nalu's 'Timing for Simulation' lines (the log's banner is cut)"
                                             : "the log's banner ('" + r.program + " Version:')";
  run.procs = r.procs;
  run.derivations["procs"] = "Nalu 'Timing for Simulation: nprocs=' (line " + std::to_string(r.procs_line) + ")";
  // Each process's wall time in main() (stk::wall_time); the run lasts as long as the slowest.
  run.wall_time_s = r.main_max_s;
  run.derivations["wall_time_s"] = "Nalu main() wall time over the processes, max (line " +
                                   std::to_string(r.main_line) + "): the whole run, set-up and output included";
  run.app_time_mean_s = r.main_avg_s;
  run.app_time_max_s = r.main_max_s;
  run.derivations["app_time_mean_s"] = "Nalu main() wall time, avg over the processes";
  run.details["nalu_main_min_s"] = NumberText(r.main_min_s);
  if (!r.version.empty()) run.tool_version = r.program + " " + r.version;
  if (!r.trilinos_version.empty()) run.details["trilinos_version"] = r.trilinos_version;
  if (r.time_steps > 0) {
    run.details["nalu_time_steps"] = std::to_string(r.time_steps);
    run.details["nalu_time_loop_s"] = NumberText(r.step_time_sum_s);
  }
  if (r.solver_max_s > 0) {
    run.details["nalu_equations_avg_s"] = NumberText(r.solver_avg_s);
    run.details["nalu_equations_max_s"] = NumberText(r.solver_max_s);
  }
  run.Derive();
  RequirePlausibleRecord(run, path, r.main_line);
  return run;
}

bool SniffNaluLog(const std::string&, std::string_view text) { return LooksLikeNaluLog(text); }

ReaderOutput ReadNaluLog(const ReaderInput& input) {
  return AppOutputRuns(
      input, ParseNaluLog(input.text, input.path), NaluRunUnfinished,
      [&](const NaluRun& run) { return NaluRunToRunStats(run, input.FormatPath()); }, "Nalu runs did not finish");
}

}  // namespace qnm
