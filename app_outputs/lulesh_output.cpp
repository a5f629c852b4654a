// LULESH 2.0 standard output (lulesh_output.h, docs/formats/lulesh-output.md).
#include "app_outputs/lulesh_output.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// The text after "<label> =" (or "<label>:"), trimmed; empty when `line` does not start with `label`.
std::string_view ValueOf(std::string_view line, std::string_view label) {
  line = Trim(line);
  if (!StartsWith(line, label)) return {};
  std::string_view rest = Trim(line.substr(label.size()));
  if (!rest.empty() && (rest.front() == '=' || rest.front() == ':')) rest.remove_prefix(1);
  return Trim(rest);
}

// The first word of a value LULESH printed ("9.6 (s)" -> "9.6", "43.368516 (per dom) ..." -> "43.368516").
std::string_view FirstWord(std::string_view value) {
  const std::vector<std::string_view> words = SplitWhitespace(value);
  return words.empty() ? value : words[0];
}

// Why a run did not finish, and the line that shows it; empty when it finished.
std::string LuleshRunUnfinished(const LuleshRun& run, int* line) {
  *line = run.line;
  if (run.completed_line == 0)
    return "LULESH run without its closing 'Run completed:' block: it did not finish (killed, out of time, or the "
           "output was cut)";
  if (run.elapsed_line == 0) {
    *line = run.completed_line;
    return "LULESH run without its 'Elapsed time' line: the output was cut";
  }
  return {};
}

}  // namespace

bool LooksLikeLuleshOutput(std::string_view text) {
  const bool start = text.find("Running problem size ") != std::string_view::npos &&
                     text.find("per domain") != std::string_view::npos &&
                     text.find("Total number of elements:") != std::string_view::npos;
  const bool end = text.find("Run completed:") != std::string_view::npos &&
                   text.find("Grind time (us/z/c)") != std::string_view::npos;
  return start || end;
}

std::vector<LuleshRun> ParseLuleshOutput(std::string_view text, const std::string& path) {
  std::vector<LuleshRun> runs;
  const std::vector<std::string_view> lines = SplitLines(text);
  auto current = [&](int line) -> LuleshRun& {
    if (runs.empty() || (runs.back().completed_line > 0 && runs.back().elapsed_line > 0)) {
      runs.emplace_back();
      runs.back().line = line;
    }
    return runs.back();
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view line = Trim(lines[i]);
    if (StartsWith(line, "Running problem size ")) {
      // A new run's start-up: one whose start-up was seen but which never completed stays as it is.
      runs.emplace_back();
      runs.back().line = n;
    } else if (std::string_view v = ValueOf(line, "Num processors"); !v.empty()) {
      current(n).header_procs =
          static_cast<int>(WholeNumber(FirstWord(v), path, n, "LULESH 'Num processors'", 1, 1 << 30));
    } else if (std::string_view v = ValueOf(line, "Num threads"); !v.empty()) {
      current(n).threads = static_cast<int>(WholeNumber(FirstWord(v), path, n, "LULESH 'Num threads'", 1, 1 << 20));
    } else if (std::string_view v = ValueOf(line, "Total number of elements"); !v.empty()) {
      current(n).header_elements =
          WholeNumber(FirstWord(v), path, n, "LULESH 'Total number of elements'", 1, 1LL << 60);
    } else if (line == "Run completed:") {
      LuleshRun& run = current(n);
      if (run.completed_line > 0) throw InputError(path, n, "a second 'Run completed:' in one LULESH run");
      run.completed_line = n;
    } else if (runs.empty() || runs.back().completed_line == 0) {
      continue;  // the closing block's values count only after 'Run completed:'
    } else if (std::string_view v = ValueOf(line, "Problem size"); !v.empty()) {
      runs.back().domain_size =
          static_cast<int>(WholeNumber(FirstWord(v), path, n, "LULESH 'Problem size'", 1, 1 << 20));
    } else if (std::string_view v = ValueOf(line, "MPI tasks"); !v.empty()) {
      runs.back().procs = static_cast<int>(WholeNumber(FirstWord(v), path, n, "LULESH 'MPI tasks'", 1, 1 << 30));
    } else if (std::string_view v = ValueOf(line, "Iteration count"); !v.empty()) {
      runs.back().iterations = WholeNumber(FirstWord(v), path, n, "LULESH 'Iteration count'", 1, 1LL << 40);
    } else if (std::string_view v = ValueOf(line, "Final Origin Energy"); !v.empty()) {
      runs.back().origin_energy = std::string(SplitWhitespace(v)[0]);
    } else if (std::string_view v = ValueOf(line, "Elapsed time"); !v.empty()) {
      runs.back().elapsed_s = NonNegativeNumber(FirstWord(v), path, n, "LULESH 'Elapsed time'");
      runs.back().elapsed_line = n;
    } else if (std::string_view v = ValueOf(line, "Grind time (us/z/c)"); !v.empty()) {
      runs.back().grind_per_domain_us = NonNegativeNumber(FirstWord(v), path, n, "LULESH 'Grind time (us/z/c)'");
    } else if (std::string_view v = ValueOf(line, "FOM"); !v.empty()) {
      runs.back().fom = NonNegativeNumber(FirstWord(v), path, n, "LULESH 'FOM'");
    }
  }
  if (runs.empty()) throw InputError(path, 0, "no LULESH run: neither 'Running problem size' nor 'Run completed:'");
  for (const LuleshRun& run : runs) {
    if (run.completed_line == 0) continue;
    if (run.procs == 0 || run.domain_size == 0 || run.iterations < 0)
      throw InputError(path, run.completed_line,
                       "a LULESH 'Run completed:' block without its Problem size, MPI tasks and Iteration count");
    const long long elements = static_cast<long long>(run.domain_size) * run.domain_size * run.domain_size * run.procs;
    if (run.header_elements > 0 && run.header_elements != elements)
      throw InputError(path, run.completed_line,
                       "LULESH 'Problem size = " + std::to_string(run.domain_size) + "' on " + std::to_string(run.procs) +
                           " tasks is " + std::to_string(elements) + " elements, its start-up said " +
                           std::to_string(run.header_elements));
    if (run.header_procs > 0 && run.header_procs != run.procs)
      throw InputError(path, run.completed_line,
                       "LULESH 'MPI tasks = " + std::to_string(run.procs) + "' after 'Num processors: " +
                           std::to_string(run.header_procs) + "' of its start-up (line " + std::to_string(run.line) + ")");
  }
  return runs;
}

RunStats LuleshRunToRunStats(const LuleshRun& run, const std::string& path) {
  RunStats stats;
  stats.sources.push_back(path + ":" + std::to_string(run.completed_line));
  stats.app = "lulesh";
  stats.derivations["app"] = "LULESH output: 'Run completed:' (line " + std::to_string(run.completed_line) + ")";
  stats.procs = run.procs;
  stats.derivations["procs"] = "LULESH 'MPI tasks'";
  if (run.threads > 0) {
    stats.threads_per_proc = run.threads;
    stats.derivations["threads_per_proc"] = "LULESH 'Num threads' (omp_get_max_threads of rank 0)";
  }
  // The time: LULESH prints it with two significant digits (C++ source) or two decimals (ports); the
  // per-domain grind time has eight, and is the time per iteration and element of one domain:
  // t = g * 1e-6 * iterations * nx^3. Taken when it agrees with the printed time to its rounding.
  const double nx = run.domain_size;
  const double from_grind = run.grind_per_domain_us >= 0
                                ? run.grind_per_domain_us * 1e-6 * static_cast<double>(run.iterations) * nx * nx * nx
                                : -1;
  const double rounding = std::max(0.005, 0.05 * run.elapsed_s);
  if (from_grind > 0 && std::fabs(from_grind - run.elapsed_s) <= rounding) {
    stats.wall_time_s = from_grind;
    stats.derivations["wall_time_s"] =
        "LULESH 'Grind time (us/z/c) ... (per dom)' x 'Iteration count' x 'Problem size'^3 (8 significant digits; "
        "the 'Elapsed time' line, " + FormatDouble("%g", run.elapsed_s) + " s, agrees to its rounding)";
  } else {
    stats.wall_time_s = run.elapsed_s;
    stats.derivations["wall_time_s"] = "LULESH 'Elapsed time' (line " + std::to_string(run.elapsed_line) + ")";
  }
  stats.derivations["app_time_mean_s"] = "LULESH elapsed time, as wall_time_s";
  stats.iterations = static_cast<int>(std::min<long long>(run.iterations, 1LL << 30));
  // The problem: the whole mesh (a strong-scaling series keeps it while the ranks grow; LULESH's
  // -s gives the size per domain, so a weak-scaling campaign's meshes differ) and the iterations.
  const long long elements = static_cast<long long>(run.domain_size) * run.domain_size * run.domain_size * run.procs;
  stats.problem_class = std::to_string(elements) + " elements, " + std::to_string(run.iterations) + " iterations";
  stats.derivations["problem_class"] =
      "LULESH: the whole mesh ('Problem size'^3 x 'MPI tasks' elements) and the 'Iteration count'";
  stats.details["lulesh_domain_size"] = std::to_string(run.domain_size);
  if (!run.origin_energy.empty()) stats.details["lulesh_final_origin_energy"] = run.origin_energy;
  if (run.fom >= 0) stats.details["lulesh_fom_zones_per_s"] = FormatDouble("%.8g", run.fom);
  if (run.grind_per_domain_us >= 0)
    stats.details["lulesh_grind_time_us_per_zone_cycle"] = FormatDouble("%.8g", run.grind_per_domain_us);
  stats.Derive();
  RequirePlausibleRecord(stats, path, run.completed_line);
  return stats;
}

bool SniffLuleshOutput(const std::string&, std::string_view text) { return LooksLikeLuleshOutput(text); }

ReaderOutput ReadLuleshOutput(const ReaderInput& input) {
  // An MPI profile of the same run beside it (mpitrace's, or an mpiP report) pairs with it (run_pairing.h).
  return AppOutputRuns(
      input, ParseLuleshOutput(input.text, input.path), LuleshRunUnfinished,
      [&](const LuleshRun& run) { return LuleshRunToRunStats(run, input.path); }, "LULESH runs did not finish");
}

}  // namespace qnm
