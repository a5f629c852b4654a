// AMBER mdout files (amber_mdout.h, docs/formats/amber-mdout.md).
#include "app_outputs/amber_mdout.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/series_identity.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::size_t kSniffLines = 400;  // a job script's own lines may come first

// "Amber 24 PMEMD   2024", "Amber 18 SANDER   2018" (Amber 8 to 24), "MSANDER   2021": the banner
// line between two rows of dashes that opens every run.
bool IsBanner(const std::vector<std::string_view>& w) {
  if (w.size() == 2 && w[0] == "MSANDER" && AllDigits(w[1])) return true;
  return w.size() >= 4 && w.size() <= 5 && w[0] == "Amber" && AllDigits(w[1]) &&
         (w[2] == "PMEMD" || w[2] == "SANDER") && AllDigits(w.back()) && w.back().size() == 4;
}

// A line without its leading '|' (AMBER's mark of lines that differ from run to run), trimmed.
std::string_view Unbarred(std::string_view t) {
  if (!t.empty() && t.front() == '|') t.remove_prefix(1);
  return Trim(t);
}

// The text after "<label>:" on a line that starts with it, trimmed; false when it does not start so.
bool After(std::string_view u, std::string_view label, std::string_view* rest) {
  if (!StartsWith(u, label)) return false;
  *rest = Trim(u.substr(label.size()));
  return true;
}

// Every "name = value" of a control-data line ("imin    =       0, nmropt  =       0",
// "NFFT1 =   64       NFFT2 =   64", "Tol   =0.100E-04", "rbornstat=      0"), the first kept.
void ReadPairs(std::string_view u, std::map<std::string, std::string>* control) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == ','; };
  for (std::size_t eq = u.find('='); eq != std::string_view::npos; eq = u.find('=', eq + 1)) {
    std::size_t end = eq;
    while (end > 0 && blank(u[end - 1])) --end;
    std::size_t begin = end;
    while (begin > 0 && !blank(u[begin - 1]) && u[begin - 1] != '=') --begin;
    std::size_t vbegin = eq + 1;
    while (vbegin < u.size() && (u[vbegin] == ' ' || u[vbegin] == '\t')) ++vbegin;
    std::size_t vend = vbegin;
    while (vend < u.size() && !blank(u[vend]) && u[vend] != '=') ++vend;
    if (begin == end || vbegin == vend) continue;
    control->emplace(ToLower(std::string(u.substr(begin, end - begin))), std::string(u.substr(vbegin, vend - vbegin)));
  }
}

// Days from 1970-01-01 to a civil date (proleptic Gregorian).
long long DaysFromCivil(long long y, long long m, long long d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const long long yoe = y - era * 400;
  const long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// "15:53:40.425" "05/06/2021" (sander's wallclock, month first) as whole milliseconds since 2000
// (a double holds them exactly, so differences keep AMBER's three decimals).
double ClockMilliseconds(std::string_view clock, std::string_view date, const std::string& path, int line) {
  const std::vector<std::string_view> hms = SplitFields(clock, ':');
  const std::vector<std::string_view> mdy = SplitFields(date, '/');
  if (hms.size() != 3 || mdy.size() != 3)
    throw InputError(path, line, "malformed sander clock line: expected 'at HH:MM:SS.sss  on MM/DD/YYYY'");
  const long long h = WholeNumber(hms[0], path, line, "sander clock hour", 0, 23);
  const long long mi = WholeNumber(hms[1], path, line, "sander clock minute", 0, 59);
  const double s = NonNegativeNumber(hms[2], path, line, "sander clock seconds");
  const long long mo = WholeNumber(mdy[0], path, line, "sander clock month", 1, 12);
  const long long d = WholeNumber(mdy[1], path, line, "sander clock day", 1, 31);
  const long long y = WholeNumber(mdy[2], path, line, "sander clock year", 1970, 9999);
  if (s >= 61) throw InputError(path, line, "sander clock seconds out of range");
  const long long seconds = (DaysFromCivil(y, mo, d) - DaysFromCivil(2000, 1, 1)) * 86400 + h * 3600 + mi * 60;
  return static_cast<double>(seconds * 1000 + std::llround(s * 1000));
}

// A number AMBER may print as asterisks when it overflows its field ("seconds/ns = **********") or
// as "Infinity" (per step of 0 steps): unknown then, else the number (a malformed one is an error).
double PrintedNumber(std::string_view token, const std::string& path, int line, const char* what) {
  if (token.empty() || token.find('*') != std::string_view::npos || token == "Infinity" || token == "NaN")
    return kUnknown;
  return NonNegativeNumber(token, path, line, what);
}

// The word after "= " in "Elapsed(s) =      54.36 Per Step(ms) =      13.59" for `label`.
std::string_view ValueAfter(std::string_view u, std::string_view label) {
  const std::size_t at = u.find(label);
  if (at == std::string_view::npos) return {};
  std::string_view rest = u.substr(at + label.size());
  const std::size_t eq = rest.find('=');
  if (eq == std::string_view::npos) return {};
  const std::vector<std::string_view> w = SplitWhitespace(rest.substr(eq + 1));
  return w.empty() ? std::string_view() : w[0];
}

// Lines with which pmemd or sander stops a run it cannot go on with.
bool IsErrorLine(std::string_view u) {
  return StartsWith(u, "ERROR") || u.find("Calculation halted") != std::string_view::npos ||
         u.find("SANDER BOMB") != std::string_view::npos || u.find("Terminated Abnormally") != std::string_view::npos ||
         u.find("cannot be accomplished") != std::string_view::npos || StartsWith(u, "vlimit exceeded");
}

struct ParseState {
  bool in_control = false;
  bool in_final_performance = false;
  bool all_steps = false;
  bool precision_next = false;
  bool in_defines = false;
};

void ReadLine(std::string_view t, int line, const std::string& path, ParseState* st, AmberRun* r) {
  const std::string_view u = Unbarred(t);
  if (u.empty()) return;
  std::string_view rest;
  if (st->in_defines) {  // one define a line ("| MPI", "| CUDA", "| BINTRAJ"), up to the first other line
    const std::vector<std::string_view> w = SplitWhitespace(u);
    if (w.size() == 1 && t.front() == '|' && r->defines.size() < 1000) {
      r->defines += (r->defines.empty() ? "" : " ") + std::string(w[0]);
      return;
    }
    st->in_defines = false;
  }
  if (StartsWith(u, "Conditional Compilation Defines Used")) {
    st->in_defines = true;
    return;
  }
  if (u.find("CONTROL  DATA  FOR  THE  RUN") != std::string_view::npos) {
    st->in_control = true;
    r->control_line = line;
    return;
  }
  if (u.find("ATOMIC COORDINATES AND VELOCITIES") != std::string_view::npos ||
      u.find("4.  RESULTS") != std::string_view::npos)
    st->in_control = false;
  if (st->in_control && u.find('=') != std::string_view::npos) ReadPairs(u, &r->control);
  if (st->in_control && r->thermostat.empty() &&
      (EndsWith(u, "temperature regulation:") || u.find("temperature coupling") != std::string_view::npos))
    r->thermostat = std::string(SplitWhitespace(u)[0]);  // "Langevin dynamics temperature regulation:"

  if (StartsWith(u, "PMEMD implementation of SANDER")) {
    r->pmemd_line = line;
  } else if (After(u, "Executable path:", &rest)) {
    r->executable = std::string(rest);
  } else if (After(u, "Hostname:", &rest)) {
    if (!rest.empty() && rest != "Unknown") r->host = std::string(SplitWhitespace(rest)[0]);
  } else if (After(u, "MDIN:", &rest) && r->mdin.empty()) {
    r->mdin = std::string(rest);
  } else if (After(u, "PARM:", &rest) && r->prmtop.empty()) {
    r->prmtop = std::string(rest);
  } else if (After(u, "Running AMBER/MPI version on", &rest)) {
    const std::vector<std::string_view> w = SplitWhitespace(rest);
    if (w.empty()) throw InputError(path, line, "malformed 'Running AMBER/MPI version on N' line");
    r->mpi_line = line;
    r->mpi_tasks = WholeCount(w[0], path, line, "'Running AMBER/MPI version on N'", 1);
  } else if (After(u, "Number of openmp threads per MPI task:", &rest)) {
    r->openmp_threads = WholeCount(rest, path, line, "'Number of openmp threads per MPI task'", 1);
  } else if (After(u, "MULTISANDER:", &rest)) {
    // "2 groups.    4 processors out of    8 total."
    const std::vector<std::string_view> w = SplitWhitespace(rest);
    if (w.size() >= 7 && w[4] == "out" && w[5] == "of") {
      r->multisander_groups = WholeCount(w[0], path, line, "'MULTISANDER: N groups'", 1);
      r->multisander_world = WholeCount(w[6], path, line, "'MULTISANDER: ... out of N total'", 1);
    }
  } else if (u.find("Version of PMEMD in use:") != std::string_view::npos && StartsWith(u, "GPU")) {
    r->gpu = true;
    const std::size_t open = u.find('('), close = u.find(')');
    if (open != std::string_view::npos && close != std::string_view::npos && close > open)
      r->gpu_api = ToLower(std::string(u.substr(open + 1, close - open - 1)));
  } else if (StartsWith(u, "Precision model in use:")) {
    st->precision_next = true;
  } else if (st->precision_next && StartsWith(u, "[")) {
    st->precision_next = false;
    const std::size_t close = u.find(']');
    if (close != std::string_view::npos) r->precision = std::string(u.substr(1, close - 1));
  } else if (After(u, "CUDA Capable Devices Detected:", &rest)) {
    r->gpus_detected = WholeCount(rest, path, line, "'CUDA Capable Devices Detected'", 0);
  } else if (StartsWith(u, "CUDA Device ID in use:")) {
    ++r->gpus;
    r->gpu = true;
  } else if (After(u, "CUDA Device Name:", &rest) && r->gpu_name.empty()) {
    r->gpu_name = std::string(rest);
  } else if (StartsWith(u, "NATOM") && r->natom == 0) {
    const std::vector<std::string_view> w = SplitWhitespace(u);
    if (w.size() >= 3 && w[1] == "=") r->natom = WholeNumber(w[2], path, line, "'NATOM ='", 1, 1LL << 40);
  } else if (StartsWith(u, "Final Performance Info")) {
    r->final_performance_line = line;
    st->in_final_performance = true;
  } else if (st->in_final_performance && StartsWith(u, "Average timings for all steps")) {
    st->all_steps = true;
  } else if (st->in_final_performance && StartsWith(u, "Average timings for last")) {
    st->all_steps = false;
  } else if (st->in_final_performance && st->all_steps && StartsWith(u, "Elapsed(s)")) {
    r->elapsed_all_steps_s = PrintedNumber(ValueAfter(u, "Elapsed(s)"), path, line, "'Elapsed(s) ='");
    r->per_step_ms = PrintedNumber(ValueAfter(u, "Per Step(ms)"), path, line, "'Per Step(ms) ='");
  } else if (st->in_final_performance && st->all_steps && StartsWith(u, "ns/day")) {
    r->ns_per_day = PrintedNumber(ValueAfter(u, "ns/day"), path, line, "'ns/day ='");
    r->s_per_ns = PrintedNumber(ValueAfter(u, "seconds/ns"), path, line, "'seconds/ns ='");
  } else if (u.find(" time:") != std::string_view::npos &&
             (StartsWith(u, "Master ") || StartsWith(u, "Setup ") || StartsWith(u, "NonSetup ") ||
              StartsWith(u, "Total "))) {
    // "Master Setup wall time:   2 seconds", "Total CPU time:   264.83 seconds   0.07 hours".
    std::string_view what = u;
    const bool master = StartsWith(what, "Master ");
    if (master) what.remove_prefix(7);
    const std::size_t colon = what.find(':');
    const std::string_view label = what.substr(0, colon);
    double* target = nullptr;
    if (label == "Setup wall time") target = &r->setup_wall_s;
    else if (label == "NonSetup wall time") target = &r->nonsetup_wall_s;
    else if (label == "Total wall time") target = &r->total_wall_s;
    else if (label == "Setup CPU time") target = &r->setup_cpu_s;
    else if (label == "NonSetup CPU time") target = &r->nonsetup_cpu_s;
    else if (label == "Total CPU time") target = &r->total_cpu_s;
    if (target == nullptr) return;
    const std::vector<std::string_view> w = SplitWhitespace(what.substr(colon + 1));
    if (w.empty()) throw InputError(path, line, "malformed '" + std::string(label) + ":' line: no number");
    *target = NonNegativeNumber(w[0], path, line, "AMBER's timing line");
    if (target == &r->total_wall_s) {
      r->total_wall_line = line;
      r->master_times = master;
    }
  } else if (StartsWith(u, "Job began") || StartsWith(u, "Setup done") || StartsWith(u, "Run   done") ||
             StartsWith(u, "Run done")) {
    // "Job began  at 15:53:40.425  on 05/06/2021"
    const std::vector<std::string_view> w = SplitWhitespace(u);
    if (w.size() < 6 || w[2] != "at" || w[4] != "on")
      throw InputError(path, line, "malformed sander clock line: expected '<event> at HH:MM:SS.sss  on MM/DD/YYYY'");
    const double ms = ClockMilliseconds(w[3], w[5], path, line);
    if (w[0] == "Job") r->job_began_line = line, r->job_began_ms = ms;
    else if (w[0] == "Setup") r->setup_done_line = line, r->setup_done_ms = ms;
    else r->run_done_line = line, r->run_done_ms = ms;
  } else if (IsErrorLine(u) && (r->error_line == 0 || StartsWith(r->error, "vlimit exceeded"))) {
    // The first error; sander's "vlimit exceeded for step N" is a warning the run goes on after, so a
    // later error replaces it.
    if (r->error_line == 0 || !StartsWith(u, "vlimit exceeded")) {
      r->error_line = line;
      r->error = std::string(u);
    }
  }
}

// "../full.hmr.prmtop" -> "full.hmr"; the folder is not part of the topology's name.
std::string TopologyName(const std::string& file) {
  std::string name = BaseName(file);
  for (const char* ext : {".prmtop", ".parm7", ".top", ".parm"})
    if (EndsWith(ToLower(name), ext) && name.size() > std::string(ext).size()) {
      name.resize(name.size() - std::string(ext).size());
      break;
    }
  return name;
}

// A control value as a number's text ("9.00000" -> "9", "0.00200" -> "0.002"); as printed when it
// is not a number.
std::string ControlNumber(const AmberRun& r, const std::string& name) {
  const auto it = r.control.find(name);
  if (it == r.control.end()) return {};
  if (const auto value = ParseDouble(it->second); value && std::isfinite(*value)) return NumberText(*value);
  return it->second;
}

}  // namespace

bool LooksLikeAmberMdout(std::string_view text) {
  std::size_t start = 0;
  for (std::size_t n = 0; n < kSniffLines && start < text.size(); ++n) {
    const std::size_t end = text.find('\n', start);
    const std::string_view line =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    const std::string_view t = Trim(line);
    if ((StartsWith(t, "Amber ") || StartsWith(t, "MSANDER")) && IsBanner(SplitWhitespace(t))) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

std::vector<AmberRun> ParseAmberMdout(std::string_view text, const std::string& path) {
  std::vector<AmberRun> runs;
  ParseState state;
  const std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    if ((StartsWith(t, "Amber ") || StartsWith(t, "MSANDER")) && IsBanner(SplitWhitespace(t))) {
      const std::vector<std::string_view> w = SplitWhitespace(t);
      runs.emplace_back();
      state = ParseState();
      AmberRun& r = runs.back();
      r.line = line;
      for (std::string_view word : w) r.banner += (r.banner.empty() ? "" : " ") + std::string(word);
      if (w[0] == "MSANDER") {
        r.program = "msander";
        r.version = std::string(w[1]);
      } else {
        r.program = ToLower(std::string(w[2]));
        r.version = std::string(w[1]);
      }
      continue;
    }
    if (runs.empty()) continue;  // a job script's own lines before AMBER's
    ReadLine(t, line, path, &state, &runs.back());
    if (runs.back().pmemd_line == line) runs.back().program = "pmemd";  // Amber 11-14's "Amber 14 SANDER" pmemd
  }
  if (runs.empty()) throw InputError(path, 0, "AMBER mdout without AMBER's banner ('Amber 20 PMEMD 2020')");
  return runs;
}

bool AmberRunFinished(const AmberRun& r) { return r.total_wall_line > 0 || r.run_done_line > 0; }

RunStats AmberRunToRunStats(const AmberRun& r, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  run.app = "amber";
  run.tool_version = r.banner;
  run.derivations["app"] = "AMBER banner '" + r.banner + "' (line " + std::to_string(r.line) + ")" +
                           (r.pmemd_line > 0 ? ", 'PMEMD implementation of SANDER' (line " +
                                                   std::to_string(r.pmemd_line) + ")"
                                             : "");
  if (r.mpi_tasks > 0) {
    run.procs = r.mpi_tasks;
    run.derivations["procs"] = "AMBER 'Running AMBER/MPI version on N " +
                               std::string(r.program == "pmemd" ? "MPI task" : "nodes") + "' line " +
                               std::to_string(r.mpi_line) + " (MPI tasks)";
  } else {
    run.procs = 1;
    run.derivations["procs"] = "AMBER mdout without a 'Running AMBER/MPI version' line: a serial run" +
                               std::string(r.gpu ? " (one GPU)" : "");
  }
  if (r.openmp_threads > 0) {
    run.threads_per_proc = r.openmp_threads;
    run.derivations["threads_per_proc"] = "pmemd 'Number of openmp threads per MPI task'";
  } else {
    run.derivations["threads_per_proc"] = "AMBER prints no threads per MPI task: 1";
  }
  if (!r.host.empty()) ApplyHosts({r.host}, "AMBER 'Hostname:' line (the master's host)", &run);

  // The run's time: the whole run, start-up included.
  const bool clock = r.job_began_line > 0 && r.run_done_line > 0;
  if (clock) {
    const double wall = (r.run_done_ms - r.job_began_ms) / 1000;
    if (wall < 0 || wall > 366.0 * 86400)
      throw InputError(path, r.run_done_line, "sander's 'Run done at' is before its 'Job began at' (or a year after)");
    run.wall_time_s = wall;
    run.derivations["wall_time_s"] = "sander 'Run done at' (line " + std::to_string(r.run_done_line) +
                                     ") minus 'Job began at' (line " + std::to_string(r.job_began_line) +
                                     "), to the millisecond; the whole run, setup included";
  } else if (r.total_wall_line > 0) {
    run.wall_time_s = r.total_wall_s;
    run.derivations["wall_time_s"] = std::string("pmemd '") + (r.master_times ? "Master " : "") +
                                     "Total wall time' line " + std::to_string(r.total_wall_line) +
                                     ", in whole seconds (within 1 s); the whole run, setup included";
    if (Known(r.elapsed_all_steps_s) && r.elapsed_all_steps_s > r.total_wall_s) {
      run.wall_time_s = r.elapsed_all_steps_s;
      run.derivations["wall_time_s"] += "; the 'Final Performance Info' all-steps Elapsed(s), longer than the "
                                        "whole seconds, taken instead";
    }
  } else {
    throw InputError(path, r.line, "AMBER run without its closing timings");
  }
  run.app_time_mean_s = run.wall_time_s;
  run.derivations["app_time_mean_s"] = "AMBER's wall time, as wall_time_s (the master's)";

  const std::string imin = ControlNumber(r, "imin");
  const bool minimization = !imin.empty() && imin != "0";
  const std::string steps = ControlNumber(r, minimization ? "maxcyc" : "nstlim");
  if (const auto n = ParseInteger(steps); n && *n >= 0)
    run.iterations = static_cast<int>(std::min<long long>(*n, 1LL << 30));

  run.details["amber_program"] = r.program;
  run.details["amber_version"] = r.version;
  if (!r.executable.empty()) run.details["amber_executable"] = r.executable;
  if (!r.defines.empty()) run.details["amber_defines"] = r.defines;
  if (!r.mdin.empty()) run.details["amber_mdin"] = r.mdin;
  if (!r.prmtop.empty()) run.details["amber_prmtop"] = r.prmtop;
  if (r.mpi_tasks > 0) run.details["amber_mpi_tasks"] = std::to_string(r.mpi_tasks);
  if (r.multisander_groups > 0) {
    run.details["amber_multisander_groups"] = std::to_string(r.multisander_groups);
    run.details["amber_multisander_processes"] = std::to_string(r.multisander_world);
  }
  if (r.gpu) {
    run.details["amber_gpu"] = r.gpu_api.empty() ? "yes" : r.gpu_api;
    if (r.gpus > 0) run.details["amber_gpus"] = std::to_string(r.gpus);
    if (r.gpus_detected > 0) run.details["amber_gpus_detected"] = std::to_string(r.gpus_detected);
    if (!r.gpu_name.empty()) run.details["amber_gpu_name"] = r.gpu_name;
    if (!r.precision.empty()) run.details["amber_precision"] = r.precision;
  }
  if (Known(r.total_wall_s)) run.details["amber_total_wall_s"] = NumberText(r.total_wall_s);
  if (Known(r.setup_wall_s)) run.details["amber_setup_wall_s"] = NumberText(r.setup_wall_s);
  if (Known(r.nonsetup_wall_s)) run.details["amber_nonsetup_wall_s"] = NumberText(r.nonsetup_wall_s);
  if (Known(r.total_cpu_s)) run.details["amber_total_cpu_s"] = NumberText(r.total_cpu_s);
  if (Known(r.setup_cpu_s)) run.details["amber_setup_cpu_s"] = NumberText(r.setup_cpu_s);
  if (Known(r.nonsetup_cpu_s)) run.details["amber_nonsetup_cpu_s"] = NumberText(r.nonsetup_cpu_s);
  if (clock && r.setup_done_line > 0) {
    const double setup = (r.setup_done_ms - r.job_began_ms) / 1000, nonsetup = (r.run_done_ms - r.setup_done_ms) / 1000;
    if (setup >= 0 && nonsetup >= 0) {
      run.details["amber_setup_wall_s"] = NumberText(setup);
      run.details["amber_nonsetup_wall_s"] = NumberText(nonsetup);
      run.derivations["amber_setup_wall_s"] = "sander 'Setup done at' minus 'Job began at'";
    }
  }
  if (Known(r.elapsed_all_steps_s)) run.details["amber_elapsed_all_steps_s"] = NumberText(r.elapsed_all_steps_s);
  if (Known(r.per_step_ms)) run.details["amber_ms_per_step"] = NumberText(r.per_step_ms);
  if (Known(r.ns_per_day)) run.details["amber_ns_per_day"] = NumberText(r.ns_per_day);
  if (Known(r.s_per_ns)) run.details["amber_seconds_per_ns"] = NumberText(r.s_per_ns);
  if (r.final_performance_line > 0)
    run.derivations["amber_ns_per_day"] = "'Final Performance Info' (line " +
                                          std::to_string(r.final_performance_line) +
                                          "), 'Average timings for all steps': the MD steps only, setup excluded";

  // The problem: the topology and what the control data say of the run, so that one system run for
  // one length at several P is one series, and an equilibration and a production run are two.
  std::vector<std::string> words;
  if (!r.prmtop.empty()) words.push_back(TopologyName(r.prmtop));
  if (r.natom > 0) words.push_back(std::to_string(r.natom) + " atoms");
  words.push_back(minimization ? "minimization" : "md");
  if (!steps.empty()) words.push_back(steps + (minimization ? " cycles" : " steps"));
  if (!minimization) {
    if (const std::string dt = ControlNumber(r, "dt"); !dt.empty()) words.push_back("dt " + dt + " ps");
  }
  if (const std::string cut = ControlNumber(r, "cut"); !cut.empty()) words.push_back("cut " + cut);
  // Boundaries and solvent model; for dynamics also the thermostat, barostat and SHAKE.
  const std::vector<std::string> names = minimization ? std::vector<std::string>{"ntb", "igb"}
                                                      : std::vector<std::string>{"ntb", "igb", "ntp", "ntc"};
  for (const std::string& name : names)
    if (const std::string value = ControlNumber(r, name); !value.empty()) words.push_back(name + " " + value);
  if (!minimization && !r.thermostat.empty()) words.push_back(r.thermostat);
  const std::string n1 = ControlNumber(r, "nfft1"), n2 = ControlNumber(r, "nfft2"), n3 = ControlNumber(r, "nfft3");
  if (!n1.empty() && !n2.empty() && !n3.empty()) words.push_back("PME " + n1 + "x" + n2 + "x" + n3);
  run.problem_class = JoinNonEmpty(words, " ");
  run.derivations["problem_class"] =
      "AMBER mdout: the topology of 'PARM:', 'NATOM', and of '2. CONTROL DATA FOR THE RUN' imin, nstlim "
      "(maxcyc of a minimization), dt, cut, ntb, igb, ntp, ntc, the thermostat's heading and NFFT1-3";
  // The configuration: the program and its release, and a GPU build's API and precision model.
  const std::string configuration =
      JoinNonEmpty({r.program + r.version, r.gpu ? (r.gpu_api.empty() ? "gpu" : r.gpu_api) : "",
                    r.gpu ? ToLower(r.precision) : ""},
                   " ");
  run.details["amber_configuration"] = configuration;
  run.derivations["variant"] = "AMBER banner (program and release)" +
                               std::string(r.gpu ? ", the GPU version line and its precision model" : "");
  run.Derive();
  return run;
}

bool SniffAmberMdout(const std::string&, std::string_view text) { return LooksLikeAmberMdout(text); }

namespace {

// Why a run did not finish, and the line that shows it; empty when it finished.
std::string AmberRunUnfinished(const AmberRun& r, int* line) {
  if (AmberRunFinished(r)) return {};
  if (r.error_line > 0) {
    *line = r.error_line;
    return "AMBER stopped before it finished (no closing timings): '" + r.error + "'";
  }
  *line = r.line;
  return "AMBER run without its closing timings ('Total wall time' / 'Run done at'): it did not finish "
         "(killed, out of time, or the file was cut)";
}

}  // namespace

ReaderOutput ReadAmberMdout(const ReaderInput& input) {
  return FinishedRunsOutput(
      input, ParseAmberMdout(input.text, input.path), AmberRunUnfinished,
      [&](const AmberRun& r) { return AmberRunToRunStats(r, input.path); },
      [](const AmberRun&, RunStats* run) { AppendConfiguration(run->details.at("amber_configuration"), run); },
      "AMBER runs did not finish");
}

}  // namespace qnm
