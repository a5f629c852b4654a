// Quantum ESPRESSO's standard output (qe_output.h, docs/formats/qe-output.md).
#include "app_outputs/qe_output.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "textio/time_stamps.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::size_t kSniffLines = 500;  // a job's own lines (a library caller's flags) come first

// "Program PWSCF v.7.2 starts on 12Jul2017 at 10: 1:27" -> {"PWSCF", "7.2"}; the 4.1 banner has
// blanks before the version ("Program PWSCF     v.4.1CVS starts ..."). Empty when not a banner.
std::pair<std::string, std::string> Banner(std::string_view trimmed) {
  if (!StartsWith(trimmed, "Program ")) return {};
  std::vector<std::string_view> w = SplitWhitespace(trimmed);
  if (w.size() < 4 || !StartsWith(w[2], "v.") || w[2].size() < 3 || !std::isdigit(static_cast<unsigned char>(w[2][2])))
    return {};
  if (std::find(w.begin() + 3, w.end(), std::string_view("starts")) == w.end()) return {};
  return {std::string(w[1]), std::string(w[2].substr(2))};
}

// Seconds of one clock of a date "28Apr2017" and a time "10:59:54" (QE pads its fields with blanks: "10: 1:27");
// unknown when they are not.
double QeStampSeconds(std::string_view date, std::string_view time) {
  std::string clock;
  for (char c : time)
    if (c != ' ') clock += c;
  const std::optional<long long> seconds = StampSeconds(std::string(Trim(date)) + " " + clock, "%d%b%Y %H:%M:%S");
  return seconds ? static_cast<double>(*seconds) : kUnknown;
}

// The whole number after the last '=' (or ':') of a line: "K-points division:     npool     =       2".
int CountAfter(std::string_view trimmed, char mark, const std::string& path, int line, const char* what) {
  const std::size_t at = trimmed.rfind(mark);
  std::vector<std::string_view> w = SplitWhitespace(trimmed.substr(at + 1));
  if (w.empty()) throw InputError(path, line, std::string(what) + " without its number");
  return WholeCount(w[0], path, line, what, 1);
}

// The number before `word` in "..., running on     4 processors".
int CountBefore(const std::vector<std::string_view>& w, std::string_view word, const std::string& path, int line,
                const char* what) {
  for (std::size_t k = 1; k < w.size(); ++k)
    if (StartsWith(w[k], word)) return WholeCount(w[k - 1], path, line, what, 1);
  throw InputError(path, line, std::string(what) + ": no count before '" + std::string(word) + "'");
}

// A whole number >= 0 of a header line, or none when it is not one (an I-field overflow prints '*').
std::optional<long long> HeaderCount(std::string_view token) {
  auto n = ParseInteger(Trim(token));
  if (!n || *n < 0 || *n > (1LL << 40)) return std::nullopt;
  return n;
}

// The text after "=" of "number of atoms/cell      =           10".
std::optional<long long> CountAfterEquals(std::string_view trimmed) {
  const std::size_t eq = trimmed.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  std::vector<std::string_view> w = SplitWhitespace(trimmed.substr(eq + 1));
  if (w.empty()) return std::nullopt;
  return HeaderCount(w[0]);
}

bool AllStars(std::string_view token) {
  return !token.empty() && token.find_first_not_of('*') == std::string_view::npos;
}

// A timing report row, "     electrons    :      0.54s CPU      0.59s WALL (       1 calls)" (5X,A12,
// " : ",F9.2,"s CPU ",F9.2,"s WALL (",I8," calls)"); false when the line is not one.
bool TimingRow(std::string_view raw, const std::string& path, int line, QeTimingRow* row) {
  const std::size_t colon = raw.find(" : ");
  if (colon == std::string_view::npos) return false;
  std::vector<std::string_view> w = SplitWhitespace(raw.substr(colon + 3));
  if (w.size() != 7 || w[1] != "CPU" || w[3] != "WALL" || w[4] != "(" || w[6] != "calls)") return false;
  std::string_view name = Trim(raw.substr(0, colon));
  if (name.empty() || name.find(' ') != std::string_view::npos) return false;
  row->line = line;
  row->name = std::string(name);
  for (int k : {0, 2}) {
    std::string_view t = w[k];
    if (!EndsWith(t, "s")) return false;
    t.remove_suffix(1);
    double* out = k == 0 ? &row->cpu_s : &row->wall_s;
    if (AllStars(t)) *out = kUnknown;  // F9.2 overflowed: a million seconds or more
    else *out = NonNegativeNumber(t, path, line, k == 0 ? "the timing report's CPU time" : "the timing report's WALL time");
  }
  row->calls = AllStars(w[5]) ? -1 : WholeNumber(w[5], path, line, "the timing report's calls", 0);
  return true;
}

// "Dense  grid:    12531 G-vectors     FFT dimensions: (  24,  24,  64)" -> "24x24x64".
std::string FftDimensions(std::string_view trimmed) {
  const std::size_t fft = trimmed.find("FFT");  // 4.x: "G cutoff = ... (******* G-vectors)     FFT grid: (540,540,540)"
  const std::size_t open = trimmed.find('(', fft == std::string_view::npos ? 0 : fft), close = trimmed.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return "";
  std::vector<std::string_view> parts = SplitFields(trimmed.substr(open + 1, close - open - 1), ',');
  if (parts.size() != 3) return "";
  std::string out;
  for (std::string_view part : parts) {
    auto n = HeaderCount(part);
    if (!n || *n == 0) return "";
    out += (out.empty() ? "" : "x") + std::to_string(*n);
  }
  return out;
}

// "ELPA distributed-memory algorithm (size of sub-group:  2*  2 procs)" -> "ELPA 2*2"; the 4.1
// "ortho sub-group =   14*  14 procs" -> "distributed 14*14".
std::string SubGroup(std::string_view trimmed, const std::string& kind) {
  std::string size;
  const std::size_t star = trimmed.find('*');
  if (star == std::string_view::npos) return kind;
  std::vector<std::string_view> before = SplitWhitespace(trimmed.substr(0, star));
  std::vector<std::string_view> after = SplitWhitespace(trimmed.substr(star + 1));
  if (before.empty() || after.empty()) return kind;
  std::string_view a = before.back(), b = after.front();
  if (StartsWith(a, ":") || StartsWith(a, "=")) a.remove_prefix(1);
  return kind + " " + std::string(a) + "*" + std::string(b);
}

// The seconds of a first clock's text: "1d 2h 3m", " 2h 9m", "12m34.56s", " 12m 3.45s", "45.67s".
std::optional<double> ClockSeconds(std::string_view text) {
  std::string compact;
  for (char c : text)
    if (c != ' ') compact += c;
  if (compact.empty()) return std::nullopt;
  double total = 0;
  int parts = 0;
  std::size_t at = 0;
  const std::string units = "dhms";
  std::size_t last_unit = std::string::npos;
  while (at < compact.size()) {
    std::size_t end = at;
    while (end < compact.size() && (std::isdigit(static_cast<unsigned char>(compact[end])) || compact[end] == '.')) ++end;
    if (end == at || end == compact.size()) return std::nullopt;
    const std::size_t unit = units.find(compact[end]);
    if (unit == std::string::npos || (last_unit != std::string::npos && unit <= last_unit)) return std::nullopt;
    auto value = ParseDouble(std::string_view(compact).substr(at, end - at));
    if (!value || !std::isfinite(*value) || *value < 0) return std::nullopt;
    static const double kSeconds[] = {86400, 3600, 60, 1};
    total += *value * kSeconds[unit];
    last_unit = unit;
    ++parts;
    at = end + 1;
  }
  if (parts == 0) return std::nullopt;
  return total;
}

struct Parser {
  const std::string& path;
  std::vector<QeRun> runs;
  bool title_next = false, diagonalization_next = false, group_next = false;

  void Line(std::string_view raw, int line) {
    std::string_view trimmed = Trim(raw);
    if (trimmed.empty()) return;
    auto [program, version] = Banner(trimmed);
    if (!program.empty()) {
      runs.emplace_back();
      runs.back().line = line;
      runs.back().program = program;
      runs.back().version = version;
      if (const std::size_t on = trimmed.find("starts on "); on != std::string_view::npos) {
        const std::string_view rest = trimmed.substr(on + 10);
        if (const std::size_t at = rest.find(" at "); at != std::string_view::npos)
          runs.back().started_s = QeStampSeconds(rest.substr(0, at), rest.substr(at + 4));
      }
      title_next = diagonalization_next = group_next = false;
      return;
    }
    if (runs.empty()) return;
    QeRun& run = runs.back();
    run.last_line = line;
    if (title_next) {
      title_next = false;
      run.title = std::string(trimmed);
      return;
    }
    if (diagonalization_next) {  // the line(s) under "Subspace diagonalization ...:"
      if (StartsWith(trimmed, "a serial algorithm")) {
        run.diagonalization = "serial";
        diagonalization_next = false;
      } else if (trimmed.find("distributed-memory algorithm") != std::string_view::npos) {
        run.diagonalization = SubGroup(trimmed, std::string(SplitWhitespace(trimmed)[0]));
        diagonalization_next = false;
      } else if (StartsWith(trimmed, "ortho sub-group")) {  // 4.x
        run.diagonalization = SubGroup(trimmed, "distributed");
        diagonalization_next = false;
      } else if (!StartsWith(trimmed, "one sub-group") && !StartsWith(trimmed, "a parallel") &&
                 !StartsWith(trimmed, "eigenstates matrixes")) {
        diagonalization_next = false;
      }
      if (diagonalization_next) return;
    }
    if (group_next) {  // "#TG    x Z-proc =  2  2" under the task-group line
      group_next = false;
      if (StartsWith(trimmed, "#TG")) {
        std::vector<std::string_view> w = SplitWhitespace(trimmed.substr(trimmed.find('=') + 1));
        if (!w.empty()) run.task_groups = WholeCount(w[0], path, line, "'#TG x Z-proc'", 1);
        return;
      }
    }

    // The clock of the program itself: its name, " : ", the CPU and WALL (4.1: "wall time") times.
    const std::size_t colon = raw.find(" : ");
    if (colon != std::string_view::npos && Trim(raw.substr(0, colon)) == run.program &&
        trimmed.find("CPU") != std::string_view::npos) {
      std::string_view rest = raw.substr(colon + 3);
      const std::size_t cpu = rest.find("CPU");
      std::size_t wall = rest.find("WALL");
      if (wall == std::string_view::npos) wall = rest.find("wall time");
      if (wall == std::string_view::npos || wall < cpu)
        throw InputError(path, line, "malformed '" + run.program + " :' clock line (no WALL time after CPU)");
      std::string_view wall_text = rest.substr(cpu + 3, wall - cpu - 3);
      if (StartsWith(Trim(wall_text), "time,")) wall_text = Trim(wall_text).substr(5);
      auto cpu_s = ClockSeconds(rest.substr(0, cpu));
      auto wall_s = ClockSeconds(wall_text);
      if (!wall_s)
        throw InputError(path, line, "'" + run.program + " :' clock line with a malformed WALL time '" +
                                         std::string(Trim(wall_text)) + "'");
      run.cpu_s = cpu_s ? *cpu_s : kUnknown;
      run.wall_s = *wall_s;
      run.wall_whole_minutes = Trim(wall_text).find('s') == std::string_view::npos;
      run.total_line = line;
      return;
    }
    if (run.total_line > 0) {
      if (trimmed == "JOB DONE.") run.job_done = true;
      if (StartsWith(trimmed, "This run was terminated on:")) {
        const std::string_view rest = Trim(trimmed.substr(27));
        const std::size_t date = rest.find_last_of(' ');
        if (date != std::string_view::npos)
          run.terminated_s = QeStampSeconds(rest.substr(date + 1), rest.substr(0, date));
      }
      return;
    }
    QeTimingRow row;
    if (TimingRow(raw, path, line, &row)) {
      run.timing.push_back(std::move(row));
      return;
    }
    std::vector<std::string_view> w = SplitWhitespace(trimmed);
    if (StartsWith(trimmed, "Parallel version")) {
      run.environment_line = line;
      if (trimmed.find("running on") != std::string_view::npos) {
        if (trimmed.find("OpenMP") != std::string_view::npos && trimmed.find("MPI") != std::string_view::npos)
          run.cores = CountBefore(w, "processor", path, line, "'running on N processor cores'");
        else if (trimmed.find("(MPI)") != std::string_view::npos)
          run.processes = CountBefore(w, "processor", path, line, "'running on N processors'");
        else  // OpenMP only
          run.threads = CountBefore(w, "processor", path, line, "'running on N processor cores'");
        if (trimmed.find("(OpenMP)") != std::string_view::npos) run.processes = 1;
      }
    } else if (StartsWith(trimmed, "Serial multi-threaded version")) {
      run.environment_line = line;
      run.serial = true;
      run.threads = CountBefore(w, "processor", path, line, "'running on N processor cores'");
    } else if (StartsWith(trimmed, "Serial version")) {
      run.environment_line = line;
      run.serial = true;
    } else if (StartsWith(trimmed, "Number of MPI processes:")) {
      run.processes = CountAfter(trimmed, ':', path, line, "'Number of MPI processes'");
    } else if (StartsWith(trimmed, "Number of processors in use:")) {  // 4.x
      run.processes = CountAfter(trimmed, ':', path, line, "'Number of processors in use'");
    } else if (StartsWith(trimmed, "Threads/MPI process:")) {
      run.threads = CountAfter(trimmed, ':', path, line, "'Threads/MPI process'");
    } else if (StartsWith(trimmed, "MPI processes distributed on")) {
      run.nodes = CountBefore(w, "node", path, line, "'MPI processes distributed on N nodes'");
    } else if (StartsWith(trimmed, "path-images division:")) {
      run.images = CountAfter(trimmed, '=', path, line, "'path-images division: nimage'");
    } else if (StartsWith(trimmed, "K-points division:")) {
      run.pools = CountAfter(trimmed, '=', path, line, "'K-points division: npool'");
    } else if (StartsWith(trimmed, "band groups division:")) {
      run.band_groups = CountAfter(trimmed, '=', path, line, "'band groups division: nbgrp'");
    } else if (StartsWith(trimmed, "R & G space division:")) {
      run.rg_processes = CountAfter(trimmed, '=', path, line, "'R & G space division'");
    } else if (StartsWith(trimmed, "wavefunctions fft division:")) {
      if (trimmed.find("task group") != std::string_view::npos) {
        group_next = true;
      } else if (trimmed.find("Y-proc") != std::string_view::npos) {
        std::vector<std::string_view> v = SplitWhitespace(trimmed.substr(trimmed.rfind('=') + 1));
        if (!v.empty()) run.yfft = WholeCount(v[0], path, line, "'wavefunctions fft division: Y-proc'", 1);
      } else if (trimmed.find("fft/group") != std::string_view::npos) {  // 4.x task groups
        run.task_groups = CountAfter(trimmed, '=', path, line, "'wavefunctions fft division: fft/group'");
      }
    } else if (StartsWith(ToLower(std::string(trimmed.substr(0, 18))), "fft bands division")) {
      run.fft_bands = CountAfter(trimmed, '=', path, line, "'FFT bands division: nmany'");
    } else if (StartsWith(trimmed, "Subspace diagonalization")) {
      diagonalization_next = true;
    } else if (StartsWith(trimmed, "GPU acceleration is ACTIVE")) {
      run.gpu = true;
    } else if (trimmed.find("MiB available memory") != std::string_view::npos && !w.empty()) {
      if (auto n = ParseDouble(w[0]); n && std::isfinite(*n) && *n >= 0) run.memory_mib = *n;
    } else if (trimmed == "Title:") {
      title_next = true;
    } else if (StartsWith(trimmed, "Job Title:") && run.title.empty()) {  // cp.x
      run.title = std::string(Trim(trimmed.substr(10)));
    } else if (StartsWith(trimmed, "number of atoms/cell") && run.atoms == 0) {
      if (auto n = CountAfterEquals(trimmed)) run.atoms = *n;
    } else if (StartsWith(trimmed, "Species") && w.size() >= 5 && w[2] == "atoms" && w[3] == "=") {  // cp.x
      if (auto n = HeaderCount(w[4])) run.atoms += *n;
    } else if (StartsWith(trimmed, "number of Kohn-Sham states") && run.states == 0) {
      if (auto n = CountAfterEquals(trimmed)) run.states = *n;
    } else if (StartsWith(trimmed, "Number of Electrons=") && run.states == 0) {  // cp.x
      if (auto n = HeaderCount(Trim(trimmed.substr(20, trimmed.find(',') - 20)))) run.electrons = *n;
      if (auto n = CountAfterEquals(trimmed.substr(trimmed.find(',') + 1))) run.states = *n;
    } else if (StartsWith(trimmed, "kinetic-energy cutoff") || (StartsWith(trimmed, "Ecutwfc =") && run.cutoff_ry.empty())) {
      std::vector<std::string_view> v = SplitWhitespace(trimmed.substr(trimmed.find('=') + 1));
      if (!v.empty() && run.cutoff_ry.empty()) {
        std::string_view number = v[0];
        if (EndsWith(number, ",")) number.remove_suffix(1);
        if (auto e = ParseDouble(number); e && std::isfinite(*e) && *e > 0) run.cutoff_ry = FormatDouble("%g", *e);
      }
    } else if (StartsWith(trimmed, "number of k points=") && run.kpoints == 0) {
      std::vector<std::string_view> v = SplitWhitespace(trimmed.substr(19));
      if (!v.empty())
        if (auto n = HeaderCount(v[0])) run.kpoints = *n;
    } else if (StartsWith(trimmed, "Number of MD Steps =") && run.md_steps < 0) {  // cp.x
      if (auto n = CountAfterEquals(trimmed)) run.md_steps = *n;
    } else if ((StartsWith(trimmed, "Dense  grid:") || StartsWith(trimmed, "G cutoff =")) &&
               trimmed.find("FFT") != std::string_view::npos && run.fft_dimensions.empty()) {
      run.fft_dimensions = FftDimensions(trimmed);
    } else if (trimmed == "Self-consistent Calculation") {
      if (run.calculation.empty()) run.calculation = "scf";
    } else if (trimmed == "Band Structure Calculation") {
      if (run.calculation.empty() || run.calculation == "scf") run.calculation = "bands";
    } else if (StartsWith(trimmed, "BFGS Geometry Optimization") || trimmed == "Damped Dynamics Calculation") {
      if (run.calculation != "md") run.calculation = "relax";
    } else if (trimmed == "Molecular Dynamics Calculation") {
      run.calculation = "md";
    } else if (StartsWith(trimmed, "Error in routine") && run.error_line == 0) {
      run.error_line = line;
      run.error_message = std::string(trimmed);
    } else if (run.error_line > 0 && run.error_message.find(':') == run.error_message.size() - 1) {
      run.error_message += " " + std::string(trimmed);
    }
  }
};

// The version as a configuration word: "7.2" -> "qe7.2", "6.7GPU" -> "qe6.7GPU".
std::string VersionWord(const QeRun& run) {
  std::string word = "qe" + run.version;
  if (run.gpu && ToLower(run.version).find("gpu") == std::string::npos) word += "-gpu";
  return word;
}

}  // namespace

std::optional<double> QeClockSeconds(std::string_view text) { return ClockSeconds(text); }

bool LooksLikeQeOutput(std::string_view text) {
  std::size_t start = 0;
  for (std::size_t n = 0; n < kSniffLines && start < text.size(); ++n) {
    std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!Banner(Trim(line)).first.empty()) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

std::vector<QeRun> ParseQeOutput(std::string_view text, const std::string& path) {
  Parser parser{path, {}};
  std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) parser.Line(lines[i], static_cast<int>(i + 1));
  if (parser.runs.empty())
    throw InputError(path, 0, "Quantum ESPRESSO output without its banner ('Program PWSCF v.N starts on')");
  return std::move(parser.runs);
}

std::string QeRunUnfinished(const QeRun& run, int* line) {
  if (run.total_line == 0) {
    if (run.error_line > 0) {
      *line = run.error_line;
      return "Quantum ESPRESSO stopped with an error: '" + run.error_message + "'";
    }
    *line = run.last_line > 0 ? run.last_line : run.line;
    return "Quantum ESPRESSO output without its closing '" + run.program +
           " :' clock: the run did not finish (killed, out of time or memory, or the file was cut; its last line "
           "with text is " + std::to_string(*line) + ")";
  }
  if (run.environment_line == 0) {
    *line = run.line;
    return "Quantum ESPRESSO header without its parallel environment ('Parallel version ...' or 'Serial "
           "version'): the process count is unknown";
  }
  if (!run.serial && run.processes == 0) {
    *line = run.environment_line;
    return "Quantum ESPRESSO header without a process count ('Number of MPI processes', 'running on N "
           "processors')";
  }
  return "";
}

RunStats QeRunToRunStats(const QeRun& q, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  std::string program = ToLower(q.program);
  run.app = "qe-" + (program == "pwscf" ? std::string("pw") : program);
  run.tool_version = "Quantum ESPRESSO " + q.version;
  run.derivations["app"] = "Quantum ESPRESSO banner 'Program " + q.program + " v." + q.version + "'";
  run.procs = q.serial ? 1 : q.processes;
  run.derivations["procs"] = q.serial ? "Quantum ESPRESSO 'Serial version': one process"
                                      : "Quantum ESPRESSO 'Number of MPI processes' / 'running on N processors'";
  if (q.threads > 0) {
    run.threads_per_proc = q.threads;
    run.derivations["threads_per_proc"] = q.serial ? "Quantum ESPRESSO 'Serial multi-threaded version, running on N "
                                                     "processor cores'"
                                                   : "Quantum ESPRESSO 'Threads/MPI process'";
  }
  if (q.nodes > 0) run.SetNodes(q.nodes, "Quantum ESPRESSO 'MPI processes distributed on N nodes'");

  // A WALL time of whole minutes ("1h35m"), to the second from the run's start and end stamps when they agree.
  const double stamped = q.terminated_s - q.started_s;
  const bool to_second = q.wall_whole_minutes && Known(q.started_s) && Known(q.terminated_s) &&
                         std::abs(stamped - q.wall_s) <= 60;
  run.wall_time_s = to_second ? stamped : q.wall_s;
  run.app_time_mean_s = run.wall_time_s;
  const std::string clock =
      to_second ? "Quantum ESPRESSO's start ('starts on ... at') to its end ('This run was terminated on'), to the "
                  "second: its '" + q.program + " :' clock printed whole minutes (line " +
                      std::to_string(q.total_line) + ")"
                : "Quantum ESPRESSO '" + q.program + " :' clock, its WALL time (process 0's, from the program's "
                  "start; line " + std::to_string(q.total_line) + ")";
  run.derivations["wall_time_s"] = clock;
  run.derivations["app_time_mean_s"] = clock + ", as wall_time_s";
  run.derivations["mpi_time_mean_s"] =
      "not read: Quantum ESPRESSO times no MPI call as such (its 'Parallel routines' clocks, fft_scatter and the "
      "like, time communication with the work around it; kept as details)";
  if (Known(q.cpu_s)) run.details["qe_cpu_time_s"] = NumberText(q.cpu_s);
  run.details["qe_job_done"] = q.job_done ? "yes" : "no";
  for (const QeTimingRow& row : q.timing) {
    if (Known(row.wall_s)) run.details["qe_time_" + row.name + "_s"] = NumberText(row.wall_s);
    if (row.calls >= 0) run.details["qe_calls_" + row.name] = std::to_string(row.calls);
  }
  if (!q.timing.empty()) run.details["qe_timing_rows"] = std::to_string(q.timing.size());
  if (!q.diagonalization.empty()) run.details["qe_diagonalization"] = q.diagonalization;
  if (q.rg_processes > 0) run.details["qe_rg_processes"] = std::to_string(q.rg_processes);
  if (Known(q.memory_mib)) run.details["qe_available_memory_mib"] = NumberText(q.memory_mib);
  if (q.cores > 0) run.details["qe_processor_cores"] = std::to_string(q.cores);
  run.details["qe_run_line"] = std::to_string(q.line);
  // The distribution the command line asked for (-ni, -nk, -nb, -nt, -nyfft, -nmany): settings of the
  // run, so a sweep of -nk at one process count is several series, not repetitions. QE prints each only
  // when it is above 1. The diagonalization group (-nd) is left out: by default QE sizes it from the
  // process count, so it changes along any campaign.
  const std::string prefix = kDeclaredSettingPrefix;
  run.details[prefix + "qe_nimage"] = std::to_string(q.images);
  run.details[prefix + "qe_npool"] = std::to_string(q.pools);
  run.details[prefix + "qe_nbgrp"] = std::to_string(q.band_groups);
  run.details[prefix + "qe_ntg"] = std::to_string(q.task_groups);
  run.details[prefix + "qe_nyfft"] = std::to_string(q.yfft);
  run.details[prefix + "qe_nmany"] = std::to_string(q.fft_bands);

  // The problem: the title and what the input holds.
  std::vector<std::string> words;
  if (!q.title.empty()) words.push_back("'" + q.title + "'");
  if (!q.calculation.empty()) words.push_back(q.calculation);
  if (q.atoms > 0) words.push_back(std::to_string(q.atoms) + " atoms");
  if (q.electrons > 0) words.push_back(std::to_string(q.electrons) + " electrons");
  if (q.states > 0) words.push_back(std::to_string(q.states) + " states");
  if (q.kpoints > 0) words.push_back(std::to_string(q.kpoints) + " k-points");
  if (!q.cutoff_ry.empty()) words.push_back("ecutwfc " + q.cutoff_ry + " Ry");
  if (!q.fft_dimensions.empty()) words.push_back("FFT " + q.fft_dimensions);
  if (q.md_steps >= 0) words.push_back(std::to_string(q.md_steps) + " MD steps");
  run.problem_class = JoinNonEmpty(words, " ");
  run.derivations["problem_class"] =
      "Quantum ESPRESSO: title, calculation (from its headings), atoms/cell, Kohn-Sham states, k points, "
      "kinetic-energy cutoff, dense FFT grid (cp.x: electrons, states, Ecutwfc, MD steps)";
  run.Derive();
  return run;
}

bool SniffQeOutput(const std::string&, std::string_view text) { return LooksLikeQeOutput(text); }

ReaderOutput ReadQeOutput(const ReaderInput& input) {
  return FinishedRunsOutput(
      input, ParseQeOutput(input.text, input.path), QeRunUnfinished,
      [&](const QeRun& q) { return QeRunToRunStats(q, input.path); },
      [](const QeRun& q, RunStats* run) {
        AppendConfiguration(VersionWord(q), run);
        run->derivations["variant"] = q.gpu ? "Quantum ESPRESSO banner's version, and 'GPU acceleration is ACTIVE'"
                                            : "Quantum ESPRESSO banner's version";
      },
      "Quantum ESPRESSO runs did not finish");
}

}  // namespace qnm
