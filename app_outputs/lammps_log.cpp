// LAMMPS log files (lammps_log.h, docs/formats/lammps-log.md).
#include "app_outputs/lammps_log.h"

#include <cmath>
#include <string>
#include <utility>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::size_t kBannerLines = 20;  // the banner is the first line; job scripts may print a few before it

// Suffixes that name an accelerator package's version of a style (`-sf intel`, `package omp`):
// the same input run another way, a configuration, not another problem.
constexpr const char* kAcceleratorSuffixes[] = {"intel", "omp", "opt", "gpu", "kk", "kk/host", "kk/device"};

bool IsLoopTimeLine(std::string_view line) {
  return StartsWith(line, "Loop time of ") && line.find(" procs") != std::string_view::npos &&
         line.find(" steps with ") != std::string_view::npos;
}

// "Loop time of 0.490832 on 4 procs for 250 steps with 4000 atoms", or with
// "on 4 procs (1 MPI x 4 OpenMP) for" (2014).
LammpsLoop ParseLoopLine(std::string_view text, const std::string& path, int line) {
  std::vector<std::string_view> t = SplitWhitespace(text);
  auto bad = [&] { return InputError(path, line, "malformed 'Loop time of T on P procs for N steps with A atoms' line"); };
  if (t.size() < 13 || t[4] != "on" || t[6] != "procs") throw bad();
  std::size_t k = 7;
  LammpsLoop loop;
  loop.line = line;
  loop.loop_time_s = NonNegativeNumber(t[3], path, line, "Loop time");
  loop.loop_procs = WholeCount(t[5], path, line, "Loop time's procs", 1);
  if (t[7].size() > 1 && t[7][0] == '(') {  // "(1 MPI x 4 OpenMP)"
    if (t.size() < 18 || t[8] != "MPI" || t[9] != "x" || t[11] != "OpenMP)") throw bad();
    loop.mpi_tasks = WholeCount(t[7].substr(1), path, line, "MPI tasks", 1);
    loop.threads = WholeCount(t[10], path, line, "OpenMP threads", 1);
    loop.tasks_on_loop_line = true;
    k = 12;
  }
  if (t.size() < k + 6 || t[k] != "for" || t[k + 2] != "steps" || t[k + 3] != "with" || t[k + 5] != "atoms") throw bad();
  loop.steps = WholeNumber(t[k + 1], path, line, "steps", 0);
  loop.atoms = WholeNumber(t[k + 4], path, line, "atoms", 0);
  return loop;
}

// "96.7% CPU use with 4 MPI tasks x 1 OpenMP threads"
bool ParseCpuUseLine(std::string_view text, const std::string& path, int line, LammpsLoop* loop) {
  std::vector<std::string_view> t = SplitWhitespace(text);
  if (t.size() < 11 || t[1] != "CPU" || t[2] != "use" || t[5] != "MPI" || t[7] != "x" || t[9] != "OpenMP") return false;
  loop->mpi_tasks = WholeCount(t[4], path, line, "MPI tasks", 1);
  loop->threads = WholeCount(t[8], path, line, "OpenMP threads", 1);
  return true;
}

std::string CurrentSectionName(std::string_view name) {
  if (name == "Kspce") return "Kspace";
  if (name == "Outpt") return "Output";
  if (name == "Modfy") return "Modify";
  return std::string(name);
}

// "Pair    | 0.35932    | 0.37256    | 0.38746    |   1.9 | 75.90" (min and max empty for "Other").
void ParseTableRow(std::string_view text, const std::string& path, int line, LammpsLoop* loop) {
  std::vector<std::string_view> f = SplitFields(text, '|');
  if (f.size() != 6 || f[0].empty()) throw InputError(path, line, "malformed row of the MPI task timing breakdown");
  LammpsSectionTimes times;
  times.avg_s = NonNegativeNumber(f[2], path, line, "the 'avg time' column");
  if (!f[1].empty()) times.min_s = NonNegativeNumber(f[1], path, line, "the 'min time' column");
  if (!f[3].empty()) times.max_s = NonNegativeNumber(f[3], path, line, "the 'max time' column");
  loop->sections[CurrentSectionName(f[0])] = times;
  loop->has_max = true;
}

// "Pair  time (%) = 0.767155 (77.9869)" (before 2016: the average over the ranks).
bool ParseOldTimeRow(std::string_view text, const std::string& path, int line, LammpsLoop* loop) {
  std::vector<std::string_view> t = SplitWhitespace(text);
  if (t.size() != 6 || t[1] != "time" || t[2] != "(%)" || t[3] != "=") return false;
  LammpsSectionTimes times;
  times.avg_s = NonNegativeNumber(t[4], path, line, "a 'time (%)' row");
  loop->sections[CurrentSectionName(t[0])] = times;
  return true;
}

// "0:00:01" / "1:02:03" -> seconds; NaN when it is not one.
double WallClockSeconds(std::string_view text) {
  std::vector<std::string_view> parts = SplitFields(text, ':');
  if (parts.size() != 3) return kUnknown;
  double seconds = 0;
  for (std::string_view part : parts) {
    auto number = ParseInteger(part);
    if (!number || *number < 0) return kUnknown;
    seconds = seconds * 60 + static_cast<double>(*number);
  }
  return seconds;
}

}  // namespace

bool LooksLikeLammpsLog(std::string_view text) {
  std::size_t start = 0;
  for (std::size_t n = 0; n < kBannerLines && start < text.size(); ++n) {
    std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (StartsWith(line, "LAMMPS (") && line.find(')') != std::string_view::npos) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  for (std::size_t at = text.find("Loop time of "); at != std::string_view::npos; at = text.find("Loop time of ", at + 1)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    std::size_t end = text.find('\n', at);
    if (IsLoopTimeLine(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at))) return true;
  }
  return false;
}

LammpsLog ParseLammpsLog(std::string_view text, const std::string& path) {
  LammpsLog log;
  std::vector<std::string_view> lines = SplitLines(text);
  enum class Table { kNone, kHeader, kRows } table = Table::kNone;
  int table_line = 0;
  std::string echoed_pair_style;  // the input's; the neighbor list's name has the accelerator suffix
  LammpsLoop* loop = nullptr;  // the run whose results the lines below belong to
  int kspace_open = 0;         // 0: no long-range initialization seen, 1: reading its block, 2: read
  std::string kspace_words;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    std::string_view raw = lines[i];
    std::string_view trimmed = Trim(raw);
    if (table != Table::kNone) {
      if (table == Table::kHeader) {  // the "Section | min time | ..." line, then a line of dashes
        if (StartsWith(trimmed, "Section") || StartsWith(trimmed, "----")) continue;
        table = Table::kRows;
      }
      if (trimmed.find('|') != std::string_view::npos) {
        ParseTableRow(trimmed, path, line, loop);
        continue;
      }
      if (!loop->sections.count("Other"))
        throw InputError(path, table_line, "the MPI task timing breakdown ends before its 'Other' row");
      table = Table::kNone;
    }
    if (log.version.empty() && i < kBannerLines && StartsWith(raw, "LAMMPS (")) {
      std::size_t close = raw.rfind(')');
      log.version = std::string(Trim(raw.substr(8, close == std::string_view::npos ? std::string_view::npos : close - 8)));
      continue;
    }
    if (IsLoopTimeLine(raw)) {
      log.loops.push_back(ParseLoopLine(raw, path, line));
      loop = &log.loops.back();
      continue;
    }
    std::vector<std::string_view> words = SplitWhitespace(trimmed);
    if (words.empty()) continue;
    if (loop) {
      if (trimmed == "MPI task timing breakdown:") {
        table = Table::kHeader;
        table_line = line;
        continue;
      }
      if (trimmed == "Minimization stats:") {
        loop->minimize = true;
        continue;
      }
      if (words.size() > 1 && words[1] == "CPU" && ParseCpuUseLine(trimmed, path, line, loop)) continue;
      if (ParseOldTimeRow(trimmed, path, line, loop)) continue;
    }
    // The long-range solver's settings, printed at its initialization (the first run's).
    if (words.size() >= 2 && words[1] == "initialization" && kspace_open == 0 && log.kspace_settings.empty()) {
      kspace_open = 1;
      kspace_words = ToLower(words[0]);
      continue;
    }
    if (kspace_open == 1) {
      if (StartsWith(trimmed, "G vector (1/distance) =") && words.size() == 5) {
        kspace_words += " G " + std::string(words[4]);
        continue;
      }
      if (words[0] == "grid" && words.size() >= 3 && words[1] == "=") {
        kspace_words += " grid";
        for (std::size_t w = 2; w < words.size(); ++w) kspace_words += " " + std::string(words[w]);
        continue;
      }
      if (StartsWith(trimmed, "stencil order =") && words.size() == 4) {
        kspace_words += " order " + std::string(words[3]);
        continue;
      }
      if (!StartsWith(raw, " ")) {  // the indented block ended
        log.kspace_settings = kspace_words;
        kspace_open = 2;
      }
    }
    // Identity: the echoed commands (first of each), or what LAMMPS prints of them.
    if (words[0] == "using" && words.size() >= 6 && words[2] == "OpenMP" && log.banner_threads == 0) {
      auto threads = ParseInteger(words[1]);
      if (threads && *threads >= 1 && *threads <= (1 << 20)) log.banner_threads = static_cast<int>(*threads);
    } else if (words[0] == "units" && words.size() == 2 && log.units.empty()) {
      log.units = std::string(words[1]);
    } else if (words[0] == "Unit" && words.size() == 4 && words[1] == "style" && words[2] == ":" && log.units.empty()) {
      log.units = std::string(words[3]);
    } else if (words[0] == "atom_style" && words.size() >= 2 && log.atom_style.empty()) {
      log.atom_style = std::string(words[1]);
    } else if (words[0] == "(1)" && words.size() >= 3 && words[1] == "pair" && log.pair_style.empty()) {
      std::string_view style = words[2];
      if (!style.empty() && style.back() == ',') style.remove_suffix(1);
      log.pair_style = std::string(style);
    } else if (words[0] == "pair_style" && words.size() >= 2 && echoed_pair_style.empty()) {
      echoed_pair_style = std::string(words[1]);
    } else if (words[0] == "Precision:" && words.size() == 2 && log.precision.empty()) {
      log.precision = std::string(words[1]);
    } else if (StartsWith(trimmed, "Total wall time:") && words.size() == 4) {
      log.total_wall_time = std::string(words[3]);
      log.total_wall_time_s = WallClockSeconds(words[3]);
    }
  }
  if (table != Table::kNone && !loop->sections.count("Other"))
    throw InputError(path, table_line, "the MPI task timing breakdown ends before its 'Other' row");
  if (log.pair_style.empty()) log.pair_style = echoed_pair_style;
  if (kspace_open == 1) log.kspace_settings = kspace_words;
  if (log.loops.empty())
    throw InputError(path, 0, "LAMMPS log without a completed run (no 'Loop time of' line): the run crashed or the log was cut short");
  for (const LammpsLoop& other : log.loops) {
    const LammpsLoop& first = log.loops.front();
    if (other.loop_procs != first.loop_procs || other.mpi_tasks != first.mpi_tasks || other.threads != first.threads)
      throw InputError(path, other.line, "a run on " + std::to_string(other.loop_procs) + " procs after one on " +
                                             std::to_string(first.loop_procs) + " (line " + std::to_string(first.line) +
                                             "): one log holds one execution");
  }
  return log;
}

RunStats LammpsLogToRunStats(const LammpsLog& log, const std::string& path) {
  const LammpsLoop& first = log.loops.front();
  RunStats run;
  run.sources.push_back(path);
  run.app = "lammps";
  run.derivations["app"] = log.version.empty() ? "LAMMPS 'Loop time of' lines" : "LAMMPS banner 'LAMMPS (" + log.version + ")'";
  run.tool_version = log.version.empty() ? "LAMMPS" : "LAMMPS " + log.version;

  if (first.mpi_tasks > 0) {
    run.procs = first.mpi_tasks;
    run.threads_per_proc = first.threads;
    run.derivations["procs"] = run.derivations["threads_per_proc"] =
        first.tasks_on_loop_line ? "LAMMPS 'Loop time of ... on N procs (P MPI x T OpenMP)'"
                                 : "LAMMPS 'CPU use with P MPI tasks x T OpenMP threads'";
  } else {
    run.procs = first.loop_procs;
    run.derivations["procs"] = "LAMMPS 'Loop time of ... on P procs'";
    if (log.banner_threads > 0 && first.loop_procs % log.banner_threads == 0 && log.banner_threads > 1) {
      run.threads_per_proc = log.banner_threads;
      run.derivations["threads_per_proc"] = "LAMMPS 'using T OpenMP thread(s) per MPI task'";
    }
  }

  // The time of the run: every run and minimize the log completed, as LAMMPS timed them.
  double loop_sum_s = 0;
  long long steps_sum = 0;
  std::vector<std::string> steps;
  for (const LammpsLoop& loop : log.loops) {
    loop_sum_s += loop.loop_time_s;
    steps_sum += loop.steps;
    // A minimization stops at its tolerance, after a number of iterations that differs with P.
    steps.push_back(loop.minimize ? "minimize" : std::to_string(loop.steps) + " steps");
  }
  run.wall_time_s = loop_sum_s;
  run.app_time_mean_s = loop_sum_s;
  const std::string loops_text = std::to_string(log.loops.size()) + (log.loops.size() == 1 ? " 'Loop time of' line" : " 'Loop time of' lines (every run and minimize)");
  run.derivations["wall_time_s"] = "LAMMPS: the sum of the " + loops_text +
                                   "; setup between runs is not in it ('Total wall time' in details, whole seconds)";
  run.derivations["app_time_mean_s"] = "LAMMPS: the Loop times summed, as wall_time_s (every rank is in the loop)";
  run.iterations = static_cast<int>(std::min<long long>(steps_sum, 1LL << 30));
  run.details["lammps_runs"] = std::to_string(log.loops.size());
  run.details["lammps_steps"] = std::to_string(steps_sum);
  run.details["lammps_atoms"] = std::to_string(first.atoms);
  run.details["lammps_loop_times_s"] = [&] {
    std::vector<std::string> times;
    for (const LammpsLoop& loop : log.loops) times.push_back(NumberText(loop.loop_time_s));
    return JoinNonEmpty(times, " ");
  }();
  if (!log.total_wall_time.empty()) {
    run.details["lammps_total_wall_time"] = log.total_wall_time;
    if (Known(log.total_wall_time_s)) run.details["lammps_total_wall_time_s"] = NumberText(log.total_wall_time_s);
  } else {
    run.details["lammps_total_wall_time"] = "not printed (the log ends without 'Total wall time')";
  }

  // The problem: what the log says of the input, so logs of different inputs do not merge.
  std::string pair = log.pair_style, accelerator;
  for (const char* suffix : kAcceleratorSuffixes) {
    const std::string tail = std::string("/") + suffix;
    if (EndsWith(pair, tail) && pair.size() > tail.size()) {
      accelerator = suffix;
      pair.resize(pair.size() - tail.size());
      break;
    }
  }
  bool bonds = false, kspace = false;
  for (const LammpsLoop& loop : log.loops) {
    bonds = bonds || loop.sections.count("Bond");
    kspace = kspace || loop.sections.count("Kspace");
  }
  run.problem_class = JoinNonEmpty({log.units, log.atom_style, pair, bonds ? "+bond" : "", kspace ? "+kspace" : "",
                            std::to_string(first.atoms) + " atoms", JoinNonEmpty(steps, " + ")},
                           " ");
  run.derivations["problem_class"] =
      "LAMMPS log: units, atom style, pair style, Bond/Kspace rows, atoms and steps per run";
  const std::string configuration = JoinNonEmpty({accelerator, log.precision}, " ");
  if (!configuration.empty()) {
    run.details["lammps_configuration"] = configuration;
    run.derivations["variant"] = "LAMMPS accelerator suffix of the pair style and INTEL package 'Precision:'";
  }
  if (!log.pair_style.empty()) run.details["lammps_pair_style"] = log.pair_style;
  // A setting of the input (reader/experiment_factors.h): one system at several accuracies of its
  // long-range solver is several series when the runs at one P differ in it.
  if (!log.kspace_settings.empty()) run.details[std::string(kDeclaredSettingPrefix) + "kspace"] = log.kspace_settings;

  // Mean MPI and compute time from the timing breakdowns, summed over the runs (every run must have one).
  bool every_table = true, every_max = true;
  double comm_avg_s = 0, comm_max_s = 0, compute_avg_s = 0, compute_max_bound_s = 0;
  std::map<std::string, double> section_avg_s;
  for (const LammpsLoop& loop : log.loops) {
    if (!loop.sections.count("Comm")) {
      every_table = false;
      continue;
    }
    every_max = every_max && loop.has_max;
    for (const auto& [name, times] : loop.sections) {
      section_avg_s[name] += times.avg_s;
      if (name == "Comm") {
        comm_avg_s += times.avg_s;
        comm_max_s += times.max_s;
      } else {
        compute_avg_s += times.avg_s;
        compute_max_bound_s += Known(times.max_s) ? times.max_s : times.avg_s;  // "Other" has no max
      }
    }
  }
  if (every_table) {
    run.mpi_time_mean_s = comm_avg_s;
    run.compute_time_mean_s = compute_avg_s;
    run.derivations["mpi_time_mean_s"] =
        "LAMMPS timing breakdown: Comm 'avg time' (halo exchange, waits included), summed over the runs; "
        "Kspace's FFT transposes and Output's gathers are in their own rows, counted as compute";
    run.derivations["compute_time_mean_s"] =
        "LAMMPS timing breakdown: 'avg time' of every row but Comm (Pair, Bond, Kspace, Neigh, Output, Modify, Other), "
        "summed over the runs";
    for (const auto& [name, seconds] : section_avg_s) run.details["lammps_" + ToLower(name) + "_avg_s"] = NumberText(seconds);
    if (every_max) {
      run.mpi_time_max_s = comm_max_s;
      run.derivations["mpi_time_max_s"] = log.loops.size() == 1
                                              ? "LAMMPS timing breakdown: Comm 'max time'"
                                              : "LAMMPS timing breakdown: Comm 'max time' summed over the runs "
                                                "(an upper bound of the busiest rank's total)";
      // Each row's max may be another rank's, so their sum bounds the slowest rank's compute from above.
      run.details["lammps_compute_max_bound_s"] = NumberText(compute_max_bound_s);
      run.details["lammps_imbalance_bound_s"] = NumberText(std::max(0.0, compute_max_bound_s - compute_avg_s));
    }
  } else {
    run.derivations["mpi_time_mean_s"] = "unknown: a run without its MPI task timing breakdown ('timer off' or 'timer loop')";
  }
  run.Derive();
  return run;
}

bool SniffLammpsLog(const std::string&, std::string_view text) { return LooksLikeLammpsLog(text); }

ReaderOutput ReadLammpsLog(const ReaderInput& input) {
  const LammpsLog log = ParseLammpsLog(input.text, input.path);
  ReaderOutput output = OneRunOutput(LammpsLogToRunStats(log, input.path), input.name);
  RunStats& run = output.runs.front();
  // The file name's configuration words, then the log's (the accelerator and precision it ran with).
  if (auto configuration = run.details.find("lammps_configuration"); configuration != run.details.end())
    AppendConfiguration(configuration->second, &run);
  return output;
}

}  // namespace qnm
