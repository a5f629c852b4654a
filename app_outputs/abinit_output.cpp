// ABINIT's main output file (abinit_output.h, docs/formats/abinit-output.md).
#include "app_outputs/abinit_output.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::size_t kSniffLines = 400;  // a job script's lines, or ABINIT's "files" prompts, come first

// ".Version 9.11.6 of ABINIT" / ".Version 10.1.4.5 of ABINIT, released Sep 2024." -> the version;
// empty for any other line (ANADDB, OPTIC and the other programs print "of ANADDB", ...).
std::string HeaderVersion(std::string_view t) {
  if (!StartsWith(t, ".Version ")) return {};
  const std::vector<std::string_view> w = SplitWhitespace(t);
  if (w.size() < 4 || w[2] != "of") return {};
  std::string_view program = w[3];
  while (!program.empty() && (program.back() == ',' || program.back() == '.')) program.remove_suffix(1);
  if (program != "ABINIT") return {};
  return std::string(w[1]);
}

// "4," -> "4"; "1" -> "1".
std::string_view Bare(std::string_view word) {
  while (!word.empty() && (word.back() == ',' || word.back() == '>' || word.back() == '.')) word.remove_suffix(1);
  return word;
}

// A variable's name in the echo: a letter, then letters, digits, '_' and the dataset-series marks.
bool IsVariableName(std::string_view word) {
  if (word.empty() || !std::islower(static_cast<unsigned char>(word[0]))) return false;
  return std::all_of(word.begin(), word.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_' ||
           c == ':' || c == '+' || c == '?' || c == '*';
  });
}

// A row of the timing analysis: "- <name...> cpu % wall % calls gflops [speedup efficacity]"; false
// for any other line.
bool TimerRow(const std::vector<std::string_view>& w, const std::string& path, int line, AbinitTimerRow* row) {
  if (w.size() < 8 || w[0] != "-") return false;
  std::size_t numbers = 0;
  while (numbers < w.size() - 1 && ParseDouble(w[w.size() - 1 - numbers])) ++numbers;
  // 8 numbers from ABINIT 8 on (with speedup and efficacity), 6 before; a name may end in a number.
  const std::size_t fields = numbers >= 8 ? 8 : numbers >= 6 ? 6 : 0;
  if (fields == 0 || w.size() - fields < 2) return false;
  const std::size_t first = w.size() - fields;
  std::vector<std::string> name;
  for (std::size_t i = 1; i < first; ++i) name.emplace_back(w[i]);
  row->name = JoinNonEmpty(name, " ");
  // The calls are a count, or -N when ABINIT did not count them; a line whose fifth number is not whole
  // ("- subtotal  4.230 92.0  4.354 92.0  0.97 0.97") is no row. The times are checked: a damaged "nan"
  // or "-3.2" is refused, not read.
  const std::optional<long long> calls = ParseInteger(w[first + 4]);
  if (!calls || *calls < -(1LL << 40) || *calls > (1LL << 40)) return false;
  row->calls = *calls;
  row->cpu_s = NonNegativeNumber(w[first], path, line, "timing analysis cpu time");
  row->wall_s = NonNegativeNumber(w[first + 2], path, line, "timing analysis wall time");
  return true;
}

// "cpu=  1234.5  wall=  1300.2" at the end of a line: the two numbers, checked.
void CpuWall(const std::vector<std::string_view>& w, const std::string& path, int line, const char* what, double* cpu,
             double* wall) {
  std::size_t at = 0;
  while (at < w.size() && w[at] != "cpu=" && !StartsWith(w[at], "cpu=")) ++at;
  // "cpu=" and its number are usually two words; "cpu=123456.7" one, when the number fills its field.
  std::vector<std::string_view> rest;
  for (std::size_t i = at; i < w.size(); ++i) {
    std::string_view word = w[i];
    for (std::string_view key : {std::string_view("cpu="), std::string_view("wall=")})
      if (StartsWith(word, key)) {
        rest.push_back(key);
        word.remove_prefix(key.size());
      }
    if (!word.empty()) rest.push_back(word);
  }
  if (rest.size() != 4 || rest[0] != "cpu=" || rest[2] != "wall=")
    throw InputError(path, line, std::string("malformed ") + what + " line (expected 'cpu= <s>  wall= <s>')");
  *cpu = NonNegativeNumber(rest[1], path, line, what);
  *wall = NonNegativeNumber(rest[3], path, line, what);
}

struct Parser {
  const std::string& path;
  std::vector<AbinitRun> runs;
  enum class Section { kNone, kVariables, kWorldTimer, kError } section = Section::kNone;
  bool timer_rows_started = false;

  void Line(std::string_view raw, int line) {
    const std::string_view t = Trim(raw);
    if (const std::string version = HeaderVersion(t); !version.empty()) {
      runs.emplace_back();
      runs.back().line = line;
      runs.back().version = version;
      section = Section::kNone;
    }
    if (runs.empty()) return;  // a job script's lines, or ABINIT's prompts, before its header
    AbinitRun& r = runs.back();
    if (!t.empty()) r.last_line = line;
    const std::vector<std::string_view> w = SplitWhitespace(t);
    if (w.empty()) {
      if (section == Section::kWorldTimer && timer_rows_started) section = Section::kNone;
      return;
    }
    switch (section) {
      case Section::kVariables:
        if (StartsWith(t, "=====")) {
          section = Section::kNone;
          return;
        }
        Variable(w);
        return;
      case Section::kWorldTimer:
        if (StartsWith(t, "-<END_TIMER")) {
          section = Section::kNone;
          return;
        }
        if (StartsWith(t, "- cpu_time =") && w.size() >= 7) {
          // "- cpu_time =           4.6, wall_time =           4.7"
          r.world_timer_cpu_s = NonNegativeNumber(Bare(w[3]), path, line, "'cpu_time ='");
          r.world_timer_wall_s = NonNegativeNumber(w[6], path, line, "'wall_time ='");
          return;
        }
        if (AbinitTimerRow row; TimerRow(w, path, line, &row)) {
          row.line = line;
          r.world_timer.push_back(std::move(row));
          timer_rows_started = true;
          return;
        }
        if (timer_rows_started) section = Section::kNone;  // "- subtotal", "- Total cpu time" and on
        break;
      case Section::kError:
        if (t == "...") {
          section = Section::kNone;
          return;
        }
        if (!StartsWith(t, "src_file:") && !StartsWith(t, "src_line:") && !StartsWith(t, "message:") &&
            r.error_message.size() < 300)
          r.error_message = JoinNonEmpty({r.error_message, std::string(t)}, " ");
        return;
      case Section::kNone:
        break;
    }
    Header(t, w, line, &r);
  }

  void Variable(const std::vector<std::string_view>& w) {
    // "            natom           2", "P           mkmem          15", "-          fftalg         512",
    // "            ngfft          16      16      16"; continuation lines hold values only.
    std::size_t at = (w[0] == "-" || w[0] == "P") ? 1 : 0;
    if (at >= w.size() || !IsVariableName(w[at]) || at + 1 >= w.size() || !ParseDouble(w[at + 1])) return;
    std::vector<std::string> values;
    for (std::size_t i = at + 1; i < w.size(); ++i) values.emplace_back(w[i]);
    runs.back().variables.emplace(std::string(w[at]), JoinNonEmpty(values, " "));
  }

  void Header(std::string_view t, const std::vector<std::string_view>& w, int line, AbinitRun* r) {
    if (StartsWith(t, ".(") && t.find("version, prepared for a") != std::string_view::npos && r->build.empty()) {
      // ".(MPI version, prepared for a x86_64_linux_gnu9.3 computer)"
      r->build = std::string(w[0].substr(2));
      for (std::size_t i = 0; i + 1 < w.size(); ++i)
        if (w[i] == "a") r->build_target = std::string(w[i + 1]);
    } else if (StartsWith(t, ".Starting date :") && r->start_date.empty()) {
      std::string_view date = Trim(t.substr(16));
      if (EndsWith(date, ".")) date.remove_suffix(1);
      r->start_date = std::string(date);
    } else if (StartsWith(t, "- ( at ") && r->start_time.empty() && w.size() >= 4) {
      r->start_time = std::string(w[3]);  // "- ( at 19h29 )"
    } else if (StartsWith(t, "- input  file    ->") && r->input_file.empty()) {
      r->input_file = std::string(Trim(t.substr(19)));
    } else if (StartsWith(t, "-outvars: echo values of preprocessed input variables") && r->variables_line == 0) {
      r->variables_line = static_cast<int>(line);
      section = Section::kVariables;
    } else if (StartsWith(t, "== DATASET ")) {
      ++r->datasets;
    } else if (w.size() >= 4 && w[0] == "-" && w[1] == "nproc" && w[2] == "=") {
      // "-   nproc =    4" (ABINIT 7 to 9)
      const int n = WholeCount(w[3], path, line, "'nproc ='", 1);
      if (r->nproc_line == 0) r->nproc_line = line, r->nproc = n;
    } else if (w.size() >= 5 && w[0] == "-" && w[1] == "mpi_nproc:" && w[3] == "omp_nthreads:") {
      // "-   mpi_nproc: 16, omp_nthreads: 1 (-1 if OMP is not activated)" (late 9.x on)
      const int n = WholeCount(Bare(w[2]), path, line, "'mpi_nproc:'", 1);
      const std::optional<long long> threads = ParseInteger(Bare(w[4]));
      if (!threads || *threads < -1 || *threads > (1 << 24))
        throw InputError(path, line, "'omp_nthreads:' needs a thread count (or -1), got '" + std::string(w[4]) + "'");
      if (r->nproc_line == 0) r->nproc_line = line, r->nproc = n, r->omp_threads = static_cast<int>(*threads);
    } else if (StartsWith(t, "-<BEGIN_TIMER mpi_nprocs =") && w.size() >= 10) {
      // "-<BEGIN_TIMER mpi_nprocs = 4, omp_nthreads = 1, mpi_rank = world>"
      r->timer_procs = WholeCount(Bare(w[3]), path, line, "'BEGIN_TIMER mpi_nprocs ='", 1);
      r->timer_threads = WholeCount(Bare(w[6]), path, line, "'BEGIN_TIMER omp_nthreads ='", 1);
      if (Bare(w[9]) == "world" && r->world_timer_line == 0) {
        r->world_timer_line = line;
        section = Section::kWorldTimer;
        timer_rows_started = false;
      }
    } else if (StartsWith(t, "- Timing analysis has been suppressed")) {
      r->timing_suppressed = true;
    } else if (StartsWith(t, "- Total cpu        time (s,m,h):") && w.size() >= 6) {
      // "- Total cpu        time (s,m,h):         10.2        0.17      0.003": the seconds
      r->total_cpu_s = NonNegativeNumber(w[5], path, line, "'Total cpu time'");
    } else if (StartsWith(t, "- Total wall clock time (s,m,h):") && w.size() >= 7) {
      r->total_wall_s = NonNegativeNumber(w[6], path, line, "'Total wall clock time'");
    } else if (StartsWith(t, "- Proc.") && t.find("individual time (sec):") != std::string_view::npos) {
      if (r->proc0_line == 0 && w.size() >= 3 && w[2] == "0") {
        r->proc0_line = line;
        CpuWall(w, path, line, "'Proc. 0 individual time'", &r->proc0_cpu_s, &r->proc0_wall_s);
      }
    } else if (t == "Calculation completed.") {
      r->completed = true;
    } else if (StartsWith(t, "+Overall time at end (sec) :")) {
      r->overall_line = line;
      CpuWall(w, path, line, "'Overall time at end'", &r->overall_cpu_s, &r->overall_wall_s);
    } else if ((t == "--- !ERROR" || t == "--- !BUG") && r->error_line == 0) {
      r->error_line = line;
      section = Section::kError;
    } else if (t.find("=> will skip driver") != std::string_view::npos && r->skipped_driver_line == 0) {
      r->skipped_driver_line = line;
    }
  }
};

// "/home/x/paral_t01_MPI4/t01.abi" -> "t01"; the folder is not part of the input's name.
std::string InputName(const std::string& file) {
  std::string name = BaseName(file);
  for (const char* ext : {".abi", ".in", ".inp"})
    if (EndsWith(ToLower(name), ext) && name.size() > std::string(ext).size()) {
      name.resize(name.size() - std::string(ext).size());
      break;
    }
  return name;
}

// "5.80000000E+00 Hartree" -> "5.8 Ha"; other text as printed.
std::string EnergyText(const std::string& values) {
  const std::vector<std::string_view> w = SplitWhitespace(values);
  if (w.empty()) return values;
  const std::optional<double> value = ParseDouble(w[0]);
  if (!value) return values;
  char text[32];
  std::snprintf(text, sizeof text, "%g", *value);
  std::string unit = w.size() > 1 ? std::string(w[1]) : "";
  if (unit == "Hartree") unit = "Ha";
  return JoinNonEmpty({text, unit}, " ");
}

// The values over the datasets, joined by '/' ("29/260"), each with blanks as 'x' ("16x16x16").
std::string DatasetValues(const std::vector<std::string>& values, bool energy = false) {
  std::vector<std::string> words;
  for (const std::string& v : values) {
    if (energy) {
      words.push_back(EnergyText(v));
      continue;
    }
    std::string word;
    for (std::string_view part : SplitWhitespace(v)) word += (word.empty() ? "" : "x") + std::string(part);
    words.push_back(word);
  }
  return JoinNonEmpty(words, "/");
}

}  // namespace

bool LooksLikeAbinitOutput(std::string_view text) {
  std::size_t start = 0;
  for (std::size_t n = 0; n < kSniffLines && start < text.size(); ++n) {
    std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!HeaderVersion(Trim(line)).empty()) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

std::vector<AbinitRun> ParseAbinitOutput(std::string_view text, const std::string& path) {
  Parser parser{path, {}};
  const std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) parser.Line(lines[i], static_cast<int>(i + 1));
  if (parser.runs.empty()) throw InputError(path, 0, "ABINIT output without its header ('.Version N of ABINIT')");
  return std::move(parser.runs);
}

std::vector<std::string> AbinitVariable(const AbinitRun& run, const std::string& name) {
  std::vector<std::pair<int, std::string>> values;
  for (const auto& [key, value] : run.variables) {
    if (key.compare(0, name.size(), name) != 0) continue;
    const std::string suffix = key.substr(name.size());
    if (suffix.empty()) return {value};
    if (!AllDigits(suffix) || suffix.size() > 6)
      continue;
    values.emplace_back(std::stoi(suffix), value);
  }
  std::sort(values.begin(), values.end());
  std::vector<std::string> out;
  for (auto& v : values) out.push_back(std::move(v.second));
  return out;
}

std::string AbinitRunUnfinished(const AbinitRun& run, int* line) {
  if (run.overall_line == 0 || !run.completed) {
    if (run.error_line > 0) {
      *line = run.error_line;
      return "ABINIT stopped with an error: '" + (run.error_message.empty() ? std::string("(no message)")
                                                                            : run.error_message) + "'";
    }
    *line = run.last_line > 0 ? run.last_line : run.line;
    return "ABINIT output without ' Calculation completed.' and its '+Overall time at end' line: the run did not "
           "finish (killed, out of time or memory, or the file was cut; its last line with text is " +
           std::to_string(*line) + "), or this is ABINIT's log (its standard output), which the main output file "
           "(.abo) completes";
  }
  if (run.skipped_driver_line > 0) {
    *line = run.skipped_driver_line;
    return "ABINIT skipped its driver (a dry run in debugging mode): nothing was computed";
  }
  if (run.nproc == 0 && run.timer_procs == 0 && run.build != "sequential") {
    *line = run.line;
    return "ABINIT output without a process count ('-   nproc =', '-   mpi_nproc:' or 'BEGIN_TIMER mpi_nprocs')";
  }
  return "";
}

RunStats AbinitRunToRunStats(const AbinitRun& a, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  run.app = "abinit";
  run.tool_version = "ABINIT " + a.version;
  run.derivations["app"] = "ABINIT header '.Version " + a.version + " of ABINIT' (line " + std::to_string(a.line) + ")";
  if (a.nproc > 0) {
    run.procs = a.nproc;
    run.derivations["procs"] = "ABINIT '" + std::string(a.omp_threads != 0 ? "mpi_nproc:" : "nproc =") +
                               "' line of the first dataset (line " + std::to_string(a.nproc_line) + ")";
  } else if (a.timer_procs > 0) {
    run.procs = a.timer_procs;
    run.derivations["procs"] = "ABINIT timing analysis 'BEGIN_TIMER mpi_nprocs'";
  } else {
    run.procs = 1;
    run.derivations["procs"] = "ABINIT '(sequential version' build: one process";
  }
  if (a.omp_threads > 0) {
    run.threads_per_proc = a.omp_threads;
    run.derivations["threads_per_proc"] = "ABINIT 'omp_nthreads:' of the 'mpi_nproc:' line";
  } else if (a.omp_threads == 0 && a.timer_threads > 0) {
    run.threads_per_proc = a.timer_threads;
    run.derivations["threads_per_proc"] = "ABINIT timing analysis 'BEGIN_TIMER omp_nthreads'";
  } else {
    run.derivations["threads_per_proc"] = a.omp_threads == -1 ? "ABINIT 'omp_nthreads: -1': OpenMP not activated"
                                                              : "ABINIT prints no thread count: one per process";
  }

  // The time: process 0's own wall time; ABINIT's overall time adds every process's.
  if (a.proc0_line > 0) {
    run.wall_time_s = a.proc0_wall_s;
    run.derivations["wall_time_s"] = "ABINIT 'Proc.   0 individual time (sec)' line " + std::to_string(a.proc0_line) +
                                     ", its wall time (process 0, from ABINIT's start to its end)";
  } else {
    run.wall_time_s = a.overall_wall_s / run.procs;
    run.derivations["wall_time_s"] = "ABINIT '+Overall time at end' wall time (the sum over the processes) / procs: "
                                     "no 'Proc. 0 individual time' line";
  }
  run.app_time_mean_s = a.overall_wall_s / run.procs;
  run.derivations["app_time_mean_s"] = "ABINIT '+Overall time at end' wall time (line " +
                                       std::to_string(a.overall_line) +
                                       "), which sums every process's wall time, / procs: the mean over the processes";
  run.derivations["mpi_time_mean_s"] =
      "not read: ABINIT times no MPI call as such (its timing analysis rows such as 'vtorho(MPI)' time communication "
      "with the work around it; kept as details)";
  run.details["abinit_overall_cpu_s"] = NumberText(a.overall_cpu_s);
  run.details["abinit_overall_wall_s"] = NumberText(a.overall_wall_s);
  if (a.proc0_line > 0) {
    run.details["abinit_proc0_cpu_s"] = NumberText(a.proc0_cpu_s);
    run.details["abinit_proc0_wall_s"] = NumberText(a.proc0_wall_s);
  }
  if (Known(a.total_cpu_s)) run.details["abinit_total_cpu_s"] = NumberText(a.total_cpu_s);
  if (Known(a.total_wall_s)) run.details["abinit_total_wall_s"] = NumberText(a.total_wall_s);
  if (a.timing_suppressed) run.details["abinit_timing_analysis"] = "suppressed (timopt=0)";
  else if (a.world_timer_line > 0) run.details["abinit_timing_analysis"] = "world timer, summed over the processes";
  else run.details["abinit_timing_analysis"] = "none printed";
  if (Known(a.world_timer_wall_s)) run.details["abinit_timer_world_wall_s"] = NumberText(a.world_timer_wall_s);
  for (const AbinitTimerRow& row : a.world_timer) {
    std::string key;
    for (char c : row.name) key += std::isspace(static_cast<unsigned char>(c)) ? '_' : c;
    run.details["abinit_timer_" + key + "_wall_s"] = NumberText(row.wall_s);
    run.details["abinit_timer_" + key + "_calls"] = std::to_string(row.calls);
  }
  if (!a.world_timer.empty()) {
    run.details["abinit_timer_rows"] = std::to_string(a.world_timer.size());
    run.derivations["abinit_timer_rows"] =
        "ABINIT timing analysis, its 'mpi_rank = world' table (line " + std::to_string(a.world_timer_line) +
        "): each routine's wall time summed over the processes, and its calls";
  }
  run.details["abinit_build"] = a.build;
  if (!a.build_target.empty()) run.details["abinit_build_target"] = a.build_target;
  if (!a.start_date.empty())
    run.details["abinit_start"] = JoinNonEmpty({a.start_date, a.start_time}, " ");
  if (!a.input_file.empty()) run.details["abinit_input_file"] = a.input_file;
  run.details["abinit_datasets"] = std::to_string(a.datasets);
  if (a.omp_threads != 0) run.details["abinit_omp_nthreads"] = std::to_string(a.omp_threads);
  run.details["abinit_run_line"] = std::to_string(a.line);

  // The distribution over k-points, bands, FFT, spinors, images and Fock (paral_kgb, autoparal, the np*
  // variables; npkpt was renamed np_spkpt in 9.x): settings of the run, so a sweep of them at one
  // process count is several series, not repetitions. The echo prints a variable only when it is not
  // at its default (paral_kgb and autoparal 0, the others 1); with several datasets each keeps its own.
  const std::string prefix = kDeclaredSettingPrefix;
  const std::pair<const char*, const char*> kDistribution[] = {
      {"paral_kgb", "0"}, {"autoparal", "0"}, {"np_spkpt", "1"}, {"npband", "1"}, {"npfft", "1"},
      {"npspinor", "1"},  {"bandpp", "1"},    {"npimage", "1"},  {"nphf", "1"}};
  for (const auto& [name, fallback] : kDistribution) {
    std::vector<std::string> values = AbinitVariable(a, name);
    if (values.empty() && std::string(name) == "np_spkpt") values = AbinitVariable(a, "npkpt");
    run.details[prefix + "abinit_" + name] = values.empty() ? fallback : DatasetValues(values);
  }
  run.derivations["abinit_distribution"] =
      "ABINIT echo of the preprocessed input variables (line " + std::to_string(a.variables_line) +
      "): paral_kgb, autoparal, np_spkpt (npkpt), npband, npfft, npspinor, bandpp, npimage, nphf; their defaults "
      "where the echo leaves them out";

  // The problem: the input file's name and the input's key sizes.
  std::vector<std::string> words;
  if (!a.input_file.empty()) words.push_back(InputName(a.input_file));
  for (const char* name : {"natom", "nkpt", "nband", "ecut", "ngfft", "nsppol", "nspinor", "ndtset"}) {
    const std::vector<std::string> values = AbinitVariable(a, name);
    if (values.empty()) continue;
    words.push_back(std::string(name) + " " + DatasetValues(values, std::string(name) == "ecut"));
  }
  run.problem_class = JoinNonEmpty(words, " ");
  run.derivations["problem_class"] =
      "ABINIT: the input file's name, and natom, nkpt, nband, ecut, ngfft, nsppol, nspinor, ndtset of the echo of "
      "the preprocessed input variables (as printed: one value per dataset joined by '/')";
  run.Derive();
  return run;
}

bool SniffAbinitOutput(const std::string&, std::string_view text) { return LooksLikeAbinitOutput(text); }

ReaderOutput ReadAbinitOutput(const ReaderInput& input) {
  return FinishedRunsOutput(
      input, ParseAbinitOutput(input.text, input.path), AbinitRunUnfinished,
      [&](const AbinitRun& a) { return AbinitRunToRunStats(a, input.path); },
      [](const AbinitRun& a, RunStats* run) {
        // The configuration: the release and the build (its target names the compiler).
        AppendConfiguration(
            JoinNonEmpty({"abinit" + a.version, a.build_target, a.build == "sequential" ? "seq" : ""}, " "), run);
        run->derivations["variant"] = "ABINIT header: the version and the build target ('prepared for a ... computer')";
      },
      "ABINIT runs did not finish");
}

}  // namespace qnm
