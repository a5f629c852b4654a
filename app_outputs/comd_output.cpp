// CoMD outputs (comd_output.h, docs/formats/comd-output.md).
#include "app_outputs/comd_output.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "reader/run_stats_check.h"
#include "reader/series_identity.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// "3:" -> 3; the rank field of a statistics row.
bool IsRankField(std::string_view word) {
  return word.size() >= 2 && word.back() == ':' && ParseInteger(word.substr(0, word.size() - 1)).has_value();
}

std::string ComdRunUnfinished(const ComdRun& run, int* line) {
  *line = run.line;
  if (run.across_line == 0)
    return run.name +
           " run without its timing statistics across the ranks: it did not finish (killed, out of time, "
           "or the output was cut)";
  return {};
}

}  // namespace

bool LooksLikeComdOutput(std::string_view text) {
  const std::size_t at = text.find("Mini-Application Name");
  if (at == std::string_view::npos) return false;
  const std::size_t end = text.find('\n', at);
  const std::string_view line = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
  return line.find(": CoMD") != std::string_view::npos;
}

std::vector<ComdRun> ParseComdOutput(std::string_view text, const std::string& path) {
  std::vector<ComdRun> runs;
  const std::vector<std::string_view> lines = SplitLines(text);
  enum class Section { kNone, kParameters, kRank0, kAcross, kYamlRank0, kYamlAcross } section = Section::kNone;
  std::string yaml_timer;  // the YAML section's current "Timer: <name>"
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view raw = lines[i];
    const std::string_view t = Trim(raw);
    std::string_view key, value;
    if (StartsWith(t, "Mini-Application Name") && SplitAtFirstColon(t, &key, &value)) {
      runs.emplace_back();
      runs.back().line = n;
      runs.back().name = std::string(value);
      section = Section::kNone;
      continue;
    }
    if (runs.empty() || t.empty()) {
      if (section == Section::kRank0 || section == Section::kAcross) section = Section::kNone;
      continue;
    }
    ComdRun& run = runs.back();
    const bool indented = !raw.empty() && (raw[0] == ' ' || raw[0] == '\t');
    if (section == Section::kParameters && !indented) section = Section::kNone;
    if ((section == Section::kYamlRank0 || section == Section::kYamlAcross) && !indented) section = Section::kNone;
    const std::vector<std::string_view> w = SplitWhitespace(t);
    if (section == Section::kRank0 || section == Section::kAcross) {
      if (StartsWith(t, "Timer") || StartsWith(t, "___")) continue;
      const std::string timer(w[0]);
      if (section == Section::kRank0) {
        if (w.size() != 5)
          throw InputError(path, n,
                           "CoMD rank 0 timing row needs a timer, # calls, avg/call, total and % loop, got '" +
                               std::string(t.substr(0, 60)) + "'");
        run.rank0_calls[timer] = WholeNumber(w[1], path, n, "CoMD '# Calls'", 0, 1LL << 50);
      } else {
        // "total   3:   5.8115   0:   5.8125   5.8120   0.0004"
        if (w.size() != 7 || !IsRankField(w[1]) || !IsRankField(w[3]))
          throw InputError(path, n,
                           "CoMD timing statistics row needs a timer, rank: min, rank: max, avg and stdev, "
                           "got '" +
                               std::string(t.substr(0, 60)) + "'");
        ComdTimerStats& s = run.across[timer];
        s.min_s = NonNegativeNumber(w[2], path, n, "CoMD timer minimum");
        s.max_s = NonNegativeNumber(w[4], path, n, "CoMD timer maximum");
        s.avg_s = NonNegativeNumber(w[5], path, n, "CoMD timer average");
        s.stdev_s = NonNegativeNumber(w[6], path, n, "CoMD timer deviation");
        if (run.across_line == 0) run.across_line = n;
      }
      continue;
    }
    // The standard output's tables: "Timings for Rank 0", "Timing Statistics Across 4 Ranks:".
    if (StartsWith(t, "Timing Statistics Across") && w.size() >= 5) {
      section = Section::kAcross;
      run.total_ranks = WholeCount(w[3], path, n, "CoMD 'Timing Statistics Across N Ranks'", 1);
      continue;
    }
    if (!SplitAtFirstColon(t, &key, &value)) {
      if (StartsWith(t, "Timings for Rank 0")) section = Section::kRank0;
      continue;
    }
    if (section == Section::kYamlRank0 || section == Section::kYamlAcross) {
      if (key == "Timer") {
        yaml_timer = std::string(value);
        if (section == Section::kYamlAcross && run.across_line == 0) run.across_line = n;
        continue;
      }
      if (yaml_timer.empty()) continue;
      if (section == Section::kYamlRank0 && key == "CallCount")
        run.rank0_calls[yaml_timer] = WholeNumber(value, path, n, "CoMD YAML CallCount", 0, 1LL << 50);
      if (section == Section::kYamlAcross) {
        ComdTimerStats& s = run.across[yaml_timer];
        if (key == "MinTime") s.min_s = NonNegativeNumber(value, path, n, "CoMD YAML MinTime");
        if (key == "MaxTime") s.max_s = NonNegativeNumber(value, path, n, "CoMD YAML MaxTime");
        if (key == "AvgTime") s.avg_s = NonNegativeNumber(value, path, n, "CoMD YAML AvgTime");
        if (key == "StdevTime") s.stdev_s = NonNegativeNumber(value, path, n, "CoMD YAML StdevTime");
      }
      continue;
    }
    if (key == "Command Line Parameters") {
      section = Section::kParameters;
    } else if (section == Section::kParameters) {
      run.parameters[std::string(key)] = std::string(value);
    } else if (key == "Mini-Application Version") {
      run.version = std::string(value);
    } else if (key == "hostname") {
      run.host = std::string(value);
    } else if (key == "Run Date/Time") {
      run.date_time = std::string(value);
    } else if (key == "Threading") {
      // "none", or "OpenMP (4 threads)"
      run.threads = 1;
      if (const std::size_t open = value.find('('); open != std::string_view::npos) {
        const std::vector<std::string_view> count = SplitWhitespace(value.substr(open + 1));
        run.threads = WholeCount(count.empty() ? std::string_view() : count[0], path, n,
                                 "CoMD 'Threading: OpenMP (N threads)'", 1);
      }
    } else if (key == "Total atoms") {
      run.total_atoms = WholeNumber(value, path, n, "CoMD 'Total atoms'", 1, 1LL << 50);
    } else if (key == "TotalRanks") {
      run.total_ranks = WholeCount(value, path, n, "CoMD YAML TotalRanks", 1);
    } else if (key == "Performance Results For Rank 0") {
      section = Section::kYamlRank0;
      yaml_timer.clear();
    } else if (key == "Performance Results Across Ranks") {
      section = Section::kYamlAcross;
      yaml_timer.clear();
    } else if (key == "Final atom count") {
      run.validated = true;
      run.atoms_lost = value.find("no atoms lost") == std::string_view::npos;
    } else if (StartsWith(t, "# WARNING:") && t.find("atoms lost") != std::string_view::npos) {
      run.atoms_lost = true;
      run.validated = true;
    }
  }
  if (runs.empty()) throw InputError(path, 0, "no CoMD run: no 'Mini-Application Name' line");
  for (const ComdRun& run : runs) {
    if (run.across_line == 0) continue;
    if (!run.across.count("total"))
      throw InputError(path, run.across_line, run.name + " timing statistics without their 'total' timer");
    if (run.total_ranks == 0)
      throw InputError(path, run.line,
                       run.name +
                           " run without its number of ranks ('Timing Statistics Across N "
                           "Ranks', 'TotalRanks')");
  }
  return runs;
}

RunStats ComdRunToRunStats(const ComdRun& c, const std::string& path) {
  RunStats run;
  const std::string at = " (line " + std::to_string(c.across_line) + ")";
  run.sources.push_back(path + ":" + std::to_string(c.line));
  run.app = ToLower(c.name);
  run.derivations["app"] = "CoMD 'Mini-Application Name' (line " + std::to_string(c.line) + ")";
  run.procs = c.total_ranks;
  run.derivations["procs"] = "CoMD 'Timing Statistics Across N Ranks' (YAML TotalRanks)";
  if (c.threads > 1) {
    run.threads_per_proc = c.threads;
    run.derivations["threads_per_proc"] = "CoMD 'Threading: OpenMP (N threads)'";
  }
  // The run's time: the slowest rank's 'total' timer (CoMD's whole run, initialization included).
  const ComdTimerStats& total = c.across.at("total");
  run.wall_time_s = total.max_s;
  run.derivations["wall_time_s"] = "CoMD timer 'total', its maximum over the ranks" + at;
  run.app_time_mean_s = total.avg_s;
  run.app_time_max_s = total.max_s;
  run.derivations["app_time_mean_s"] = "CoMD timer 'total', its average over the ranks";
  run.derivations["app_time_max_s"] = "CoMD timer 'total', its maximum over the ranks";
  // MPI: commHalo times each halo exchange's two MPI_Sendrecv, commReduce its MPI_Allreduce calls.
  double mpi = 0;
  int mpi_timers = 0;
  for (const char* timer : {"commHalo", "commReduce"})
    if (auto found = c.across.find(timer); found != c.across.end()) {
      mpi += found->second.avg_s;
      ++mpi_timers;
    }
  if (mpi_timers > 0) {
    run.mpi_time_mean_s = mpi;
    run.derivations["mpi_time_mean_s"] =
        "CoMD timers commHalo (around a halo exchange's two MPI_Sendrecv) + commReduce (around MPI_Allreduce), "
        "their averages over the ranks";
  }
  const auto halo = c.rank0_calls.find("commHalo"), reduce = c.rank0_calls.find("commReduce");
  if (run.procs > 1 && halo != c.rank0_calls.end()) {
    run.messages_per_rank = 2.0 * static_cast<double>(halo->second) +
                            (reduce != c.rank0_calls.end() ? static_cast<double>(reduce->second) : 0.0);
    run.derivations["messages_per_rank"] =
        "CoMD rank 0's timer calls: 2 x commHalo (a halo exchange sends two messages) + commReduce, as every rank's";
  }
  // The problem: the lattice (nx x ny x nz unit cells), steps, potential, time step and temperature.
  auto parameter = [&](const char* name) {
    auto found = c.parameters.find(name);
    return found == c.parameters.end() ? std::string() : found->second;
  };
  std::vector<std::string> words;
  if (!parameter("nx").empty())
    words.push_back(parameter("nx") + "x" + parameter("ny") + "x" + parameter("nz") + " cells");
  if (!parameter("nSteps").empty()) words.push_back(parameter("nSteps") + " steps");
  words.push_back(parameter("doeam") == "1" ? "EAM " + parameter("potName") : "LJ");
  if (!parameter("Time step").empty()) words.push_back(parameter("Time step"));
  if (!parameter("Initial Temperature").empty()) words.push_back(parameter("Initial Temperature"));
  run.problem_class = JoinNonEmpty(words, ", ");
  run.derivations["problem_class"] =
      "CoMD command line parameters: nx x ny x nz, nSteps, the potential (doeam, potName), the time step and the "
      "initial temperature";
  if (!c.version.empty()) run.details[std::string(kDeclaredSettingPrefix) + "version"] = c.version;
  if (!parameter("xproc").empty())
    run.details["comd_decomposition"] = parameter("xproc") + "x" + parameter("yproc") + "x" + parameter("zproc");
  if (c.total_atoms > 0) run.details["comd_total_atoms"] = std::to_string(c.total_atoms);
  if (c.validated) {
    run.verification = c.atoms_lost ? "UNSUCCESSFUL" : "SUCCESSFUL";
    run.derivations["verification"] = c.atoms_lost ? "CoMD lost atoms" : "CoMD 'Final atom count : N, no atoms lost'";
  }
  if (!c.host.empty()) ApplyHosts({c.host}, "CoMD Platform hostname (rank 0's)", &run);
  // The standard output and the YAML file of one run: one measurement.
  if (!c.date_time.empty())
    run.origin = std::string(kMeasurementOrigin) + "comd:" + c.name + ":" + c.date_time + ":" + c.host + ":" +
                 std::to_string(c.total_ranks);
  run.Derive();
  RequirePlausibleRecord(run, path, c.across_line);
  return run;
}

bool SniffComdOutput(const std::string&, std::string_view text) { return LooksLikeComdOutput(text); }

ReaderOutput ReadComdOutput(const ReaderInput& input) {
  return AppOutputRuns(
      input, ParseComdOutput(input.text, input.path), ComdRunUnfinished,
      [&](const ComdRun& run) { return ComdRunToRunStats(run, input.path); }, "CoMD runs did not finish");
}

}  // namespace qnm
