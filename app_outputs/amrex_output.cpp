// Outputs of AMReX programs (amrex_output.h, docs/formats/amrex-output.md).
#include "app_outputs/amrex_output.h"

#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "app_outputs/pattern_output.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kInitializing = "Initializing AMReX";
constexpr std::string_view kMpi = "MPI initialized with ";
constexpr std::string_view kOmp = "OMP initialized with ";
constexpr std::string_view kTotal = "TinyProfiler total time across processes [min...avg...max]:";
constexpr std::string_view kRunTime = "Run time = ";

// "AMReX (25.10) initialized" -> "25.10"; "" when `t` is not that line (with `word` for "finalized").
std::string VersionOf(std::string_view t, std::string_view word) {
  if (!StartsWith(t, "AMReX (")) return {};
  const std::size_t close = t.find(')');
  if (close == std::string_view::npos || Trim(t.substr(close + 1)) != word) return {};
  return std::string(t.substr(7, close - 7));
}

// "72 MPI processes" -> 72 (the first word of what follows the prefix).
int LeadingCount(std::string_view rest, const std::string& path, int line, const char* what) {
  const std::vector<std::string_view> words = SplitWhitespace(rest);
  if (words.empty()) throw InputError(path, line, std::string(what) + " without its count");
  return WholeCount(words[0], path, line, what, 1);
}

}  // namespace

bool LooksLikeAmrexOutput(std::string_view text) {
  const bool amrex = text.find(kInitializing) != std::string_view::npos ||
                     (text.find("AMReX (") != std::string_view::npos && text.find(") initialized") != std::string_view::npos);
  // Its start-up lines alone: a run cut before its time is then refused with why, not skipped unread.
  return amrex && text.find(kMpi) != std::string_view::npos;
}

std::vector<AmrexRun> ParseAmrexOutput(std::string_view text, const std::string& path) {
  std::vector<AmrexRun> runs;
  const std::vector<std::string_view> lines = SplitLines(text);
  auto begin = [&](int n) {
    runs.emplace_back();
    runs.back().line = n;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    if (StartsWith(t, kInitializing)) {
      begin(n);
      continue;
    }
    if (StartsWith(t, kMpi) && t.find("MPI processes") != std::string_view::npos) {
      // Before AMReX 22 no "Initializing" line: a run's MPI line after another run's start-up begins a new one.
      if (runs.empty() || runs.back().mpi_line > 0 || runs.back().initialized_line > 0) begin(n);
      runs.back().mpi_processes = LeadingCount(t.substr(kMpi.size()), path, n, "AMReX 'MPI initialized with'");
      runs.back().mpi_line = n;
      continue;
    }
    if (runs.empty()) continue;
    AmrexRun& run = runs.back();
    if (StartsWith(t, kOmp) && t.find("OMP threads") != std::string_view::npos) {
      run.omp_threads = LeadingCount(t.substr(kOmp.size()), path, n, "AMReX 'OMP initialized with'");
    } else if (const std::string version = VersionOf(t, "initialized"); !version.empty()) {
      run.version = version;
      run.initialized_line = n;
    } else if (!VersionOf(t, "finalized").empty()) {
      run.finalized = true;
    } else if (t.find(" initialized with ") != std::string_view::npos && t.find(" device") != std::string_view::npos) {
      // "CUDA initialized with 4 devices.", "HIP initialized with 8 devices.", "SYCL initialized with 4 devices."
      const std::size_t at = t.find(" initialized with ");
      const std::string backend(t.substr(0, at));
      if (backend == "CUDA" || backend == "HIP" || backend == "SYCL") {
        run.gpu_backend = backend;
        run.gpu_devices = LeadingCount(t.substr(at + 18), path, n, "AMReX GPU devices");
      }
    } else if (StartsWith(t, kTotal)) {
      // "251 ... 251.1 ... 251.1" (or "1.765...1.765...1.765" in older releases).
      std::string_view rest = Trim(t.substr(kTotal.size()));
      double values[3];
      for (int k = 0; k < 3; ++k) {
        const std::size_t dots = rest.find("...");
        if ((k < 2) != (dots != std::string_view::npos))
          throw InputError(path, n, "AMReX TinyProfiler total needs 'min ... avg ... max', got '" +
                                        std::string(Trim(t.substr(kTotal.size()))).substr(0, 60) + "'");
        values[k] = NonNegativeNumber(Trim(rest.substr(0, dots)), path, n, "AMReX TinyProfiler total time");
        if (dots != std::string_view::npos) rest = rest.substr(dots + 3);
      }
      if (!(values[0] <= values[1] && values[1] <= values[2]))
        throw InputError(path, n, "AMReX TinyProfiler total time: min <= avg <= max does not hold");
      run.total_min_s = values[0];
      run.total_avg_s = values[1];
      run.total_max_s = values[2];
      run.total_line = n;
    } else if (StartsWith(t, kRunTime)) {
      const std::vector<std::string_view> words = SplitWhitespace(t.substr(kRunTime.size()));
      if (words.empty()) throw InputError(path, n, "AMReX program's 'Run time =' without its seconds");
      run.run_time_s = NonNegativeNumber(words[0], path, n, "AMReX program's 'Run time ='");
      run.run_time_line = n;
    }
  }
  if (runs.empty()) throw InputError(path, 0, "no AMReX run in it ('Initializing AMReX' or 'MPI initialized with')");
  return runs;
}

std::string AmrexRunUnfinished(const AmrexRun& run, int* line) {
  *line = run.line;
  if (run.total_line > 0 || run.run_time_line > 0) return {};
  return "AMReX run without its TinyProfiler total or 'Run time =': it did not finish" +
         std::string(run.finalized ? " timing itself (a build without TINY_PROFILE whose program prints no run time: "
                                     "read it with --pattern)"
                                   : " (no 'AMReX (...) finalized')");
}

RunStats AmrexRunToRunStats(const AmrexRun& r, const std::string& path) {
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(r.line));
  // AMReX names no program: the file's or its folder's name does (as for a pattern-read output).
  run.app = ApplicationFromPath(path);
  if (run.app == "output") run.app = "amrex";
  run.derivations["app"] = "the file's or its folder's name (AMReX prints no program name)";
  if (r.mpi_processes > 0) {
    run.procs = r.mpi_processes;
    run.derivations["procs"] = "AMReX 'MPI initialized with N MPI processes' (line " + std::to_string(r.mpi_line) + ")";
  } else {
    run.procs = 1;
    run.derivations["procs"] = "no 'MPI initialized with' line: a build without MPI, one process";
  }
  if (r.omp_threads > 0) {
    run.threads_per_proc = r.omp_threads;
    run.derivations["threads_per_proc"] = "AMReX 'OMP initialized with N OMP threads'";
  }
  const int line = r.total_line > 0 ? r.total_line : r.run_time_line;
  if (r.total_line > 0) {
    // Each process's time from AMReX's initialisation to its finalisation; the run lasts as long as the slowest.
    run.wall_time_s = r.total_max_s;
    run.derivations["wall_time_s"] = "AMReX TinyProfiler total time across processes, max (line " +
                                     std::to_string(r.total_line) + "): initialisation to finalisation";
    run.details["amrex_total_min_s"] = NumberText(r.total_min_s);
    run.details["amrex_total_avg_s"] = NumberText(r.total_avg_s);
    if (r.run_time_line > 0) run.details["amrex_run_time_s"] = NumberText(r.run_time_s);
  } else {
    run.wall_time_s = r.run_time_s;
    run.derivations["wall_time_s"] = "the program's 'Run time =' (line " + std::to_string(r.run_time_line) + ")";
  }
  if (!r.version.empty()) run.details["amrex_version"] = r.version;
  if (r.gpu_devices > 0) run.details["amrex_gpu_devices"] = r.gpu_backend + " " + std::to_string(r.gpu_devices);
  run.Derive();
  RequirePlausibleRecord(run, path, line);
  return run;
}

bool SniffAmrexOutput(const std::string&, std::string_view text) { return LooksLikeAmrexOutput(text); }

ReaderOutput ReadAmrexOutput(const ReaderInput& input) {
  return AppOutputRuns(
      input, ParseAmrexOutput(input.text, input.path), AmrexRunUnfinished,
      [&](const AmrexRun& run) { return AmrexRunToRunStats(run, input.FormatPath()); },
      "AMReX runs did not finish");
}

}  // namespace qnm
