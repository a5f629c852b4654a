// Quicksilver outputs (quicksilver_output.h, docs/formats/quicksilver-output.md).
#include "app_outputs/quicksilver_output.h"

#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::string_view kVersion = "Quicksilver Version";
constexpr double kSecondsPerMicrosecond = 1e-6;

std::string QuicksilverRunUnfinished(const QuicksilverRun& run, int* line) {
  *line = run.line;
  if (run.timers_line > 0) return {};
  return "Quicksilver run without its cumulative timers: it did not finish (killed, out of time, or the output was "
         "cut)";
}

}  // namespace

bool LooksLikeQuicksilverOutput(std::string_view text) {
  return text.find(kVersion) != std::string_view::npos && text.find("Quicksilver Git Hash") != std::string_view::npos;
}

std::vector<QuicksilverRun> ParseQuicksilverOutput(std::string_view text, const std::string& path) {
  std::vector<QuicksilverRun> runs;
  const std::vector<std::string_view> lines = SplitLines(text);
  enum class Section { kNone, kSimulation, kTimerHeading, kTimers } section = Section::kNone;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view raw = lines[i];
    const std::string_view t = Trim(raw);
    std::string_view key, value;
    if (StartsWith(t, kVersion) && SplitAtFirstColon(t, &key, &value)) {
      runs.emplace_back();
      runs.back().line = n;
      runs.back().version = std::string(value);
      section = Section::kNone;
      continue;
    }
    if (runs.empty()) continue;
    QuicksilverRun& run = runs.back();
    if (section == Section::kSimulation) {
      if (!raw.empty() && raw[0] == ' ' && SplitAtFirstColon(t, &key, &value)) {
        run.simulation[std::string(key)] = std::string(value);
        continue;
      }
      section = Section::kNone;
    }
    if (section == Section::kTimerHeading) {
      // "Name  number  microSecs ..." and "of calls  min  avg  max  stddev  Rating"
      if (StartsWith(t, "Name") || StartsWith(t, "of calls")) continue;
      section = Section::kTimers;
    }
    if (section == Section::kTimers) {
      if (StartsWith(t, "Figure Of Merit")) {
        const std::vector<std::string_view> w = SplitWhitespace(t);
        if (w.size() < 4)
          throw InputError(path, n, "Quicksilver 'Figure Of Merit' line without its value");
        NonNegativeNumber(w[3], path, n, "Quicksilver Figure Of Merit");
        run.figure_of_merit = std::string(w[3]);
        section = Section::kNone;
        continue;
      }
      // "cycleTracking_MPI   52458   7.160e+07   1.351e+08   1.584e+08   6.252e+06   85.33"
      const std::vector<std::string_view> w = SplitWhitespace(t);
      if (w.size() != 7)
        throw InputError(path, n, "Quicksilver timer row needs a name, calls, min, avg, max, stddev and rating, got '" +
                                      std::string(t.substr(0, 60)) + "'");
      QuicksilverTimer& timer = run.timers[std::string(w[0])];
      timer.calls = WholeNumber(w[1], path, n, "Quicksilver timer calls", 0, 1LL << 50);
      timer.min_us = NonNegativeNumber(w[2], path, n, "Quicksilver timer minimum");
      timer.avg_us = NonNegativeNumber(w[3], path, n, "Quicksilver timer average");
      timer.max_us = NonNegativeNumber(w[4], path, n, "Quicksilver timer maximum");
      if (run.timers_line == 0) run.timers_line = n;
      continue;
    }
    if (t == "Simulation:") {
      section = Section::kSimulation;
    } else if (StartsWith(t, "Timer") && t.find("Cumulative") != std::string_view::npos) {
      section = Section::kTimerHeading;
    } else if (StartsWith(t, "PASS::")) {
      ++run.checks_passed;
    } else if (StartsWith(t, "FAIL::")) {
      ++run.checks_failed;
    } else if (SplitAtFirstColon(t, &key, &value)) {
      if (key == "Quicksilver Git Hash") run.git_hash = std::string(value);
      if (key == "Number of MPI ranks") run.ranks = WholeCount(value, path, n, "Quicksilver 'Number of MPI ranks'", 1);
      if (key == "Number of OpenMP Threads")
        run.threads = WholeCount(value, path, n, "Quicksilver 'Number of OpenMP Threads'", 1);
    }
  }
  if (runs.empty()) throw InputError(path, 0, "no Quicksilver run: no 'Quicksilver Version' line");
  return runs;
}

RunStats QuicksilverRunToRunStats(const QuicksilverRun& q, const std::string& path) {
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(q.line));
  run.app = "quicksilver";
  run.derivations["app"] = "Quicksilver 'Quicksilver Version' (line " + std::to_string(q.line) + ")";
  if (q.ranks == 0) throw InputError(path, q.line, "Quicksilver run without its 'Number of MPI ranks'");
  run.procs = q.ranks;
  run.derivations["procs"] = "Quicksilver 'Number of MPI ranks'";
  if (q.threads > 0) {
    run.threads_per_proc = q.threads;
    run.derivations["threads_per_proc"] = "Quicksilver 'Number of OpenMP Threads'";
  }
  const auto main = q.timers.find("main");
  if (main == q.timers.end())
    throw InputError(path, q.timers_line, "Quicksilver cumulative timers without their 'main' timer");
  // The run's time: the slowest rank's main timer (the whole simulation, initialisation included).
  run.wall_time_s = main->second.max_us * kSecondsPerMicrosecond;
  run.app_time_max_s = run.wall_time_s;
  run.app_time_mean_s = main->second.avg_us * kSecondsPerMicrosecond;
  const std::string at = " (line " + std::to_string(q.timers_line) + "ff)";
  run.derivations["wall_time_s"] = "Quicksilver cumulative timer 'main', its maximum over the ranks" + at;
  run.derivations["app_time_mean_s"] = "Quicksilver cumulative timer 'main', its average over the ranks";
  run.derivations["app_time_max_s"] = "Quicksilver cumulative timer 'main', its maximum over the ranks";
  // MPI: cycleTracking_MPI times the particles' buffering, their non-blocking sends and receives,
  // and, nested inside it, the end-of-cycle test's allreduce (cycleTracking_Test_Done): its
  // average alone is the MPI time (src/main.cc). One blocking test a cycle falls outside it.
  if (const auto mpi = q.timers.find("cycleTracking_MPI"); mpi != q.timers.end()) {
    run.mpi_time_mean_s = mpi->second.avg_us * kSecondsPerMicrosecond;
    run.derivations["mpi_time_mean_s"] =
        "Quicksilver timer cycleTracking_MPI (the particles' buffering, non-blocking sends and receives, and the "
        "cycleTracking_Test_Done allreduce nested in it), its average over the ranks";
  }

  // The problem: the input file, the mesh and its size, the particles and the steps.
  auto param = [&](const char* name) {
    const auto found = q.simulation.find(name);
    return found == q.simulation.end() ? std::string() : found->second;
  };
  std::vector<std::string> words;
  if (!param("inputFile").empty()) words.push_back(BaseName(param("inputFile")));
  if (!param("nx").empty()) words.push_back(param("nx") + "x" + param("ny") + "x" + param("nz") + " cells");
  if (!param("lx").empty()) words.push_back(param("lx") + "x" + param("ly") + "x" + param("lz") + " cm");
  if (!param("nParticles").empty()) words.push_back(param("nParticles") + " particles");
  if (!param("nSteps").empty()) words.push_back(param("nSteps") + " steps");
  run.problem_class = JoinNonEmpty(words, ", ");
  run.derivations["problem_class"] =
      "Quicksilver Simulation block: inputFile, nx x ny x nz, lx x ly x lz, nParticles, nSteps";

  const std::string setting = kDeclaredSettingPrefix;
  if (!q.git_hash.empty()) run.details[setting + "git_hash"] = q.git_hash;
  for (const auto& [name, key] : std::vector<std::pair<const char*, std::string>>{
           {"loadBalance", "load_balance"}, {"nBatches", "batches"}, {"batchSize", "batch_size"}})
    if (!param(name).empty()) run.details[setting + key] = param(name);
  if (!param("xDom").empty())
    run.details["quicksilver.domains"] = param("xDom") + "x" + param("yDom") + "x" + param("zDom");
  for (const auto& [name, timer] : q.timers)
    run.details["quicksilver." + name + "_time_s"] = NumberText(timer.avg_us * kSecondsPerMicrosecond);
  if (!q.figure_of_merit.empty()) run.details["quicksilver.merit.figure_of_merit"] = q.figure_of_merit;
  if (q.checks_passed + q.checks_failed > 0) {
    run.verification = q.checks_failed > 0 ? "UNSUCCESSFUL" : "SUCCESSFUL";
    run.derivations["verification"] = "Quicksilver's checks: " + std::to_string(q.checks_passed) + " PASS, " +
                                      std::to_string(q.checks_failed) + " FAIL";
  }
  run.Derive();
  RequirePlausibleRecord(run, path, q.timers_line);
  return run;
}

bool SniffQuicksilverOutput(const std::string&, std::string_view text) { return LooksLikeQuicksilverOutput(text); }

ReaderOutput ReadQuicksilverOutput(const ReaderInput& input) {
  return AppOutputRuns(
      input, ParseQuicksilverOutput(input.text, input.path), QuicksilverRunUnfinished,
      [&](const QuicksilverRun& run) { return QuicksilverRunToRunStats(run, input.path); },
      "Quicksilver runs did not finish");
}

}  // namespace qnm
