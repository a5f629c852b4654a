// WRF's rsl files (wrf_rsl.h, docs/formats/wrf-rsl.md).
#include "app_outputs/wrf_rsl.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/series_identity.h"
#include "textio/compressed_file.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kSniffLines = 400;       // the banner comes after the physics suite's and namelist notes
constexpr std::size_t kHostHeadBytes = 4096;   // a rank's "taskid: N hostname: H" is its first line
constexpr std::size_t kMaxCompanionHosts = 100000;

// "WRF V4.2.1 MODEL" (WRF 3.x and 4.x print the same words; module_wrf_top / wrf_init).
bool IsBanner(const std::vector<std::string_view>& w) {
  return w.size() == 3 && w[0] == "WRF" && w[1].size() >= 2 && w[1][0] == 'V' && w[2] == "MODEL";
}

bool IsNtasksLine(std::string_view t) { return StartsWith(t, "Ntasks in X"); }

// "1:" -> "1".
std::string_view Bare(std::string_view word) {
  while (!word.empty() && (word.back() == ':' || word.back() == ',')) word.remove_suffix(1);
  return word;
}

// One "Timing for <what>: ... [on|for] domain N: <seconds> elapsed seconds" line (module_timing.F's
// end_timing prints "Timing for <what>: <seconds> elapsed seconds"; the callers put the domain in <what>).
void ReadTiming(std::string_view t, const std::vector<std::string_view>& w, int line, const std::string& path,
                WrfRslFile* f) {
  const std::size_t n = w.size();
  if (n < 5 || w[n - 1] != "seconds" || w[n - 2] != "elapsed")
    throw InputError(path, line, "malformed WRF timing line (expected 'Timing for <what>: <s> elapsed seconds')");
  const double seconds = NonNegativeNumber(w[n - 3], path, line, "'Timing for ... elapsed seconds'");
  int domain = 0;
  if (n >= 6 && w[n - 5] == "domain")
    domain = WholeCount(Bare(w[n - 4]), path, line, "'Timing for ... domain N:'", 1);
  else if (n >= 5 && StartsWith(w[n - 4], "domain") && w[n - 4].size() > 6)  // "domain1:" when the number is wide
    domain = WholeCount(Bare(w[n - 4].substr(6)), path, line, "'Timing for ... domain N:'", 1);
  ++f->timing_lines;
  if (domain > f->domains) f->domains = domain;
  const bool before_first_step = f->first_main_line == 0;
  if (StartsWith(t, "Timing for main")) {
    // "Timing for main: time 2016-08-29_09:00:15 on domain   1: ..." / "Timing for main (dt= 15.00): time ...".
    if (domain == 0) throw InputError(path, line, "WRF 'Timing for main' line without its 'on domain N:'");
    if (t.find("(dt=") != std::string_view::npos) f->adaptive_time_step = true;
    std::string time;
    for (std::size_t k = 2; k + 1 < n; ++k)
      if (Bare(w[k]) == "time") {
        time = std::string(w[k + 1]);
        break;
      }
    if (domain == 1) {
      if (f->first_main_line == 0) {
        f->first_main_line = line;
        f->first_step_s = seconds;
        f->first_time = time;
      }
      f->last_main_line = line;
      f->last_time = time;
      ++f->main_steps;
      f->main_s += seconds;
      f->after_last_step_s = 0;  // the lines after the last step are counted again from here
      return;
    }
    ++f->nest_steps;
    f->nest_main_s += seconds;
  } else if (StartsWith(t, "Timing for Writing")) {
    f->writing_s += seconds;
  } else if (StartsWith(t, "Timing for processing wrfinput") || StartsWith(t, "Timing for processing restart")) {
    f->input_s += seconds;
    if (before_first_step && domain == 1) f->initial_input_s += seconds;
  } else if (StartsWith(t, "Timing for processing lateral boundary")) {
    f->boundary_s += seconds;
  } else {
    f->other_s += seconds;
  }
  if (f->first_main_line > 0) f->after_last_step_s += seconds;
}

void ReadLine(std::string_view t, int line, const std::string& path, WrfRslFile* f) {
  const std::vector<std::string_view> w = SplitWhitespace(t);
  if (w.empty()) return;
  f->last_line = line;
  f->last_text = std::string(t.substr(0, 160));
  if (StartsWith(t, "Timing for ")) {
    // A damaged timing line is said once the run is known to be a finished wrf.exe run (real.exe prints
    // timing lines of its own; an unfinished run is refused for that first).
    try {
      ReadTiming(t, w, line, path, f);
    } catch (const InputError& error) {
      if (f->malformed_line == 0) f->malformed_line = line, f->malformed = error.message();
    }
  } else if (w[0] == "taskid:" && w.size() >= 4 && w[2] == "hostname:" && f->host_line == 0) {
    f->host_line = line;
    f->host = std::string(w[3]);
  } else if (IsNtasksLine(t) && f->ntasks_line == 0) {
    // " Ntasks in X           10 , ntasks in Y           16" (WRF 4.x, module_dm.F's list-directed WRITE);
    // WRF 3.8 prints the comma against the number: " Ntasks in X            1, ntasks in Y            1".
    std::size_t y = 4;
    while (y < w.size() && w[y] != "Y") ++y;
    if (w.size() < 8 || y + 1 >= w.size() || w[y - 1] != "in" || w[y - 2] != "ntasks")
      throw InputError(path, line, "malformed 'Ntasks in X N , ntasks in Y M' line");
    f->ntasks_line = line;
    f->ntasks_x = WholeCount(Bare(w[3]), path, line, "'Ntasks in X'", 1);
    f->ntasks_y = WholeCount(w[y + 1], path, line, "'ntasks in Y'", 1);
  } else if (IsBanner(w) && f->banner_line == 0) {
    f->banner_line = line;
    f->version = std::string(w[1].substr(1));
  } else if (StartsWith(t, "Equivalent WRF version:") && w.size() == 6 && f->banner_line == 0 &&
             IsBanner({w[3], w[4], w[5]})) {
    // TempoQuest's AceCAST (WRF on GPUs): "Equivalent WRF version: WRF V4.6.0 MODEL".
    f->banner_line = line;
    f->version = std::string(w[4].substr(1));
    f->acecast = true;
  } else if (t.find("AceCAST") != std::string_view::npos) {
    f->acecast = true;  // "Checking out AceCAST Licenses."
  } else if (w[0] == "git" && w.size() >= 3 && w[1] == "commit" && f->git_commit.empty() && f->banner_line > 0) {
    f->git_commit = std::string(w[2]);
  } else if (StartsWith(t, "WRF NUMBER OF TILES FROM OMP_GET_MAX_THREADS") && f->omp_line == 0) {
    if (w.size() < 8) throw InputError(path, line, "malformed 'WRF NUMBER OF TILES FROM OMP_GET_MAX_THREADS = N' line");
    f->omp_line = line;
    f->omp_threads = WholeCount(w[7], path, line, "'OMP_GET_MAX_THREADS = N'", 1);
  } else if (StartsWith(t, "WRF NUMBER OF TILES =") && f->tiles == 0) {
    if (w.size() < 6) throw InputError(path, line, "malformed 'WRF NUMBER OF TILES = N' line");
    f->tiles = WholeCount(w[5], path, line, "'WRF NUMBER OF TILES = N'", 1);
  } else if (w[0] == "ids,ide,jds,jde" && f->parent_line == 0) {
    // The first one is the parent domain's (" Parent domain" comes before it; nests follow "Nesting domain").
    if (w.size() < 5) throw InputError(path, line, "malformed 'ids,ide,jds,jde' line");
    f->parent_line = line;
    f->e_we = WholeCount(w[2], path, line, "'ids,ide,jds,jde' ide", 1);
    f->e_sn = WholeCount(w[4], path, line, "'ids,ide,jds,jde' jde", 1);
  } else if (w[0] == "D01:" && w.size() >= 6 && w[1] == "Time" && w[2] == "step" && f->time_step_s.empty()) {
    f->time_step_s = NumberText(NonNegativeNumber(w[4], path, line, "'D01: Time step'"));
  } else if (StartsWith(t, "Domain # 1: dx =") && w.size() >= 6 && f->dx_m.empty()) {
    f->dx_m = NumberText(NonNegativeNumber(w[5], path, line, "'Domain # 1: dx ='"));
  } else if (t.find("wrf: SUCCESS COMPLETE WRF") != std::string_view::npos) {
    if (f->success_line == 0) f->success_line = line;
  } else if (t.find("real_em:") != std::string_view::npos || t.find("SUCCESS COMPLETE REAL_EM") != std::string_view::npos) {
    if (f->real_line == 0) f->real_line = line;
  } else if (StartsWith(t, "FATAL CALLED FROM FILE") && f->fatal.empty()) {
    f->fatal_line = line;
  } else if (StartsWith(t, "--------------") && t.find("FATAL CALLED") != std::string_view::npos && f->fatal_line == 0) {
    f->fatal_line = line;
  } else if (f->fatal_line > 0 && f->fatal.empty() && !StartsWith(t, "FATAL CALLED") && !StartsWith(t, "-----")) {
    f->fatal = std::string(t.substr(0, 160));  // WRF's message after "FATAL CALLED FROM FILE: <file> LINE: N"
  }
}

bool IsDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "rsl.error.0000" -> rank 0, error file; "rsl.out.0000.cpu" too (a renamed copy) with `*tagged`.
bool ParseRslName(const std::string& path, int* rank, bool* error_file, bool* tagged) {
  const std::string name = BaseName(WithoutCompressionSuffix(path));
  std::string_view rest;
  if (StartsWith(name, "rsl.error.")) {
    *error_file = true;
    rest = std::string_view(name).substr(10);
  } else if (StartsWith(name, "rsl.out.")) {
    *error_file = false;
    rest = std::string_view(name).substr(8);
  } else {
    return false;
  }
  const std::size_t dot = rest.find('.');
  const std::string_view digits = rest.substr(0, dot);
  if (!IsDigits(digits) || digits.size() < 4 || digits.size() > 7) return false;
  *tagged = dot != std::string_view::npos;
  *rank = static_cast<int>(*ParseInteger(digits));
  return true;
}

// The file of process 0 of this kind in `folder`, plain or compressed, or empty.
std::string ProcessZeroFile(const fs::path& folder, const char* kind) {
  for (const char* suffix : {"", ".gz", ".bz2", ".xz", ".zst", ".lz4", ".Z"}) {
    const fs::path candidate = folder / (std::string("rsl.") + kind + ".0000" + suffix);
    std::error_code error;
    if (fs::is_regular_file(candidate, error)) return candidate.string();
  }
  return {};
}

// What the other ranks' files beside process 0's say: how many there are and their hosts.
struct Companions {
  int files = -1;                             // rsl.<kind>.NNNN of process 0's kind, process 0's included;
                                              // -1: the folder is not on disk (a file of an archive)
  std::map<int, std::string> hosts;           // rank -> host, from "taskid: N hostname: H"
  double bytes = 0;
};

Companions ReadCompanions(const std::string& path, bool error_file) {
  Companions c;
  const fs::path folder = fs::path(path).parent_path();
  std::error_code error;
  fs::directory_iterator it(folder.empty() ? fs::path(".") : folder, error), end;
  if (error) return c;
  c.files = 0;
  for (; !error && it != end; it.increment(error)) {
    int rank = 0;
    bool is_error = false, tagged = false;
    if (!ParseRslName(it->path().string(), &rank, &is_error, &tagged) || tagged || is_error != error_file) continue;
    std::error_code status_error;
    if (!it->is_regular_file(status_error)) continue;
    ++c.files;
    if (!error_file || c.hosts.size() >= kMaxCompanionHosts) continue;
    try {
      std::string head = ReadFileHead(it->path().string(), kHostHeadBytes);
      c.bytes += static_cast<double>(head.size());
      if (!CompressionOf(head).empty()) head = UnpackedHead(head, kHostHeadBytes);
      for (std::string_view line : SplitLines(head)) {
        const std::vector<std::string_view> w = SplitWhitespace(line);
        if (w.size() >= 4 && w[0] == "taskid:" && w[2] == "hostname:") {
          if (auto task = ParseInteger(w[1]); task && *task == rank) c.hosts[rank] = std::string(w[3]);
          break;
        }
      }
    } catch (const InputError&) {
      // A rank's file that cannot be read names no host: process 0's host stands for the run.
    }
  }
  return c;
}

std::string Quoted(const std::string& text) { return "'" + text + "'"; }

}  // namespace

bool WrfRslName(const std::string& path, int* rank, bool* error_file) {
  bool tagged = false;
  return ParseRslName(path, rank, error_file, &tagged);
}

bool IsWrfRslCompanion(const std::string& path, const std::function<bool(const std::string&)>& beside) {
  int rank = 0;
  bool error_file = false, tagged = false;
  if (!ParseRslName(path, &rank, &error_file, &tagged) || tagged) return false;
  if (rank != 0) return beside("rsl.error.0000") || beside("rsl.out.0000");
  return !error_file && beside("rsl.error.0000");
}

bool IsWrfRslOfAnchor(const std::string& path) {
  const fs::path folder = fs::path(path).parent_path();
  return IsWrfRslCompanion(path, [&](const std::string& name) {
    return !ProcessZeroFile(folder, name == "rsl.error.0000" ? "error" : "out").empty();
  });
}

bool LooksLikeWrfRsl(std::string_view text) {
  std::size_t start = 0;
  for (std::size_t n = 0; n < kSniffLines && start < text.size(); ++n) {
    const std::size_t end = text.find('\n', start);
    const std::string_view line =
        Trim(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (IsNtasksLine(line) || (StartsWith(line, "WRF V") && IsBanner(SplitWhitespace(line)))) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

WrfRslFile ParseWrfRsl(std::string_view text, const std::string& path) {
  WrfRslFile f;
  const std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) ReadLine(Trim(lines[i]), static_cast<int>(i + 1), path, &f);
  return f;
}

std::string WrfRslRefusal(const WrfRslFile& f, int* line) {
  if (f.real_line > 0 && f.success_line == 0 && f.main_steps == 0) {
    *line = f.real_line;
    return "an rsl file of real.exe (WRF's initialisation program, 'real_em: ...'), not of a model run: only "
           "wrf.exe's rsl files are read";
  }
  if (f.success_line > 0) return {};
  if (f.fatal_line > 0) {
    *line = f.fatal_line;
    return "WRF stopped before it finished (no 'wrf: SUCCESS COMPLETE WRF'): FATAL CALLED" +
           (f.fatal.empty() ? std::string() : ": " + Quoted(f.fatal));
  }
  *line = f.last_line;
  if (f.last_line == 0) return "empty rsl file: the run did not finish (no 'wrf: SUCCESS COMPLETE WRF')";
  return "the run did not finish (no 'wrf: SUCCESS COMPLETE WRF'; killed, out of time, or the file was cut); its "
         "last line: " + Quoted(f.last_text);
}

RunStats WrfRslToRunStats(const WrfRslFile& f, const std::string& path, const std::vector<std::string>& task_hosts) {
  if (f.ntasks_line == 0)
    throw InputError(path, 0, "WRF rsl file without 'Ntasks in X N , ntasks in Y M' (no MPI task count)");
  if (f.main_steps == 0)
    throw InputError(path, f.success_line, "WRF rsl file without a 'Timing for main ... on domain 1' line");
  RunStats run;
  run.sources.push_back(path);
  run.app = "wrf";
  run.tool_version = "WRF " + (f.version.empty() ? std::string("(no banner)") : f.version);
  run.derivations["app"] = f.banner_line > 0 ? "WRF banner 'WRF V" + f.version + " MODEL' (line " +
                                                   std::to_string(f.banner_line) + ")"
                                             : "WRF 'Ntasks in X' and 'SUCCESS COMPLETE WRF' lines (no banner)";
  const long long tasks = static_cast<long long>(f.ntasks_x) * f.ntasks_y;
  if (tasks > (1LL << 24)) throw InputError(path, f.ntasks_line, "'Ntasks in X N , ntasks in Y M': too many tasks");
  run.procs = static_cast<int>(tasks);
  run.derivations["procs"] = "WRF 'Ntasks in X " + std::to_string(f.ntasks_x) + " , ntasks in Y " +
                             std::to_string(f.ntasks_y) + "' (line " + std::to_string(f.ntasks_line) +
                             "): the MPI tasks of the domain decomposition";
  if (f.omp_line > 0) {
    run.threads_per_proc = f.omp_threads;
    run.derivations["threads_per_proc"] = "WRF 'NUMBER OF TILES FROM OMP_GET_MAX_THREADS' line " +
                                          std::to_string(f.omp_line) + ", an OpenMP (dm+sm) build's threads";
  } else {
    run.derivations["threads_per_proc"] = "WRF rsl without an 'OMP_GET_MAX_THREADS' line, one thread per task";
  }

  // The timed part of the run: domain 1's input in wrf_init, its steps (each covers its history writes,
  // boundary reads and its nests), and the lines after its last step (the final writes).
  const double timed = f.initial_input_s + f.main_s + f.after_last_step_s;
  if (!std::isfinite(timed) || !std::isfinite(f.writing_s + f.input_s + f.boundary_s + f.other_s + f.nest_main_s))
    throw InputError(path, f.last_main_line, "WRF timing lines sum beyond any run's time");
  run.wall_time_s = timed;
  run.app_time_mean_s = timed;
  run.derivations["wall_time_s"] =
      "WRF rsl timing lines of process 0: domain 1's initial input, its " + std::to_string(f.main_steps) +
      " 'Timing for main' steps (each with the writes, boundary reads and nests inside it) and the lines after "
      "its last step; start-up before the first step and the wrap-up after the last line are not timed";
  run.derivations["app_time_mean_s"] = "as wall_time_s";
  run.iterations = static_cast<int>(std::min<long long>(f.main_steps, 1LL << 30));

  auto& d = run.details;
  d["wrf_main_steps"] = std::to_string(f.main_steps);
  d["wrf_main_s"] = NumberText(f.main_s);
  d["wrf_mean_step_s"] = NumberText(f.main_s / static_cast<double>(f.main_steps));
  d["wrf_first_step_s"] = NumberText(f.first_step_s);
  if (f.main_steps > 1)
    d["wrf_mean_step_after_first_s"] =
        NumberText((f.main_s - f.first_step_s) / static_cast<double>(f.main_steps - 1));
  d["wrf_initial_input_s"] = NumberText(f.initial_input_s);
  d["wrf_after_last_step_s"] = NumberText(f.after_last_step_s);
  d["wrf_writing_s"] = NumberText(f.writing_s);
  d["wrf_input_s"] = NumberText(f.input_s);
  d["wrf_boundary_s"] = NumberText(f.boundary_s);
  if (f.other_s > 0) d["wrf_other_timing_s"] = NumberText(f.other_s);
  d["wrf_domains"] = std::to_string(f.domains);
  if (f.nest_steps > 0) {
    d["wrf_nest_steps"] = std::to_string(f.nest_steps);
    d["wrf_nest_main_s"] = NumberText(f.nest_main_s);
  }
  d["wrf_first_time"] = f.first_time;
  d["wrf_last_time"] = f.last_time;
  d["wrf_ntasks_x"] = std::to_string(f.ntasks_x);
  d["wrf_ntasks_y"] = std::to_string(f.ntasks_y);
  if (f.tiles > 0) d["wrf_tiles"] = std::to_string(f.tiles);
  if (!f.git_commit.empty()) d["wrf_git_commit"] = f.git_commit;
  if (!f.time_step_s.empty()) d["wrf_time_step_s"] = f.time_step_s;
  if (f.adaptive_time_step) d["wrf_adaptive_time_step"] = "yes";
  if (!f.dx_m.empty()) d["wrf_dx_m"] = f.dx_m;
  run.derivations["wrf_mean_step_s"] = "WRF: domain 1's 'Timing for main' lines, their mean";

  if (!task_hosts.empty() && static_cast<int>(task_hosts.size()) == run.procs)
    ApplyRankHosts(task_hosts, "WRF rsl.error.NNNN lines 'taskid N hostname <host>' of every task", &run);
  else if (!f.host.empty())
    ApplyHosts({f.host}, "WRF rsl line 'taskid 0 hostname <host>' of process 0", &run);

  // The class: the parent domain's grid, the domains, the time step and the simulated period.
  std::vector<std::string> words;
  if (f.e_we > 0) words.push_back("d01 " + std::to_string(f.e_we) + "x" + std::to_string(f.e_sn));
  if (!f.dx_m.empty()) words.push_back("dx " + f.dx_m + " m");
  words.push_back(std::to_string(f.domains) + (f.domains == 1 ? " domain" : " domains"));
  if (!f.time_step_s.empty()) words.push_back("dt " + f.time_step_s + " s");
  if (f.adaptive_time_step) words.push_back("adaptive dt");
  words.push_back(std::to_string(f.main_steps) + " steps");
  if (!f.first_time.empty()) words.push_back(f.first_time + " to " + f.last_time);
  run.problem_class = JoinNonEmpty(words, " ");
  run.derivations["problem_class"] =
      "WRF rsl: the parent domain's 'ids,ide,jds,jde' (e_we x e_sn), 'Domain # 1: dx', the highest domain of a "
      "timing line, 'D01: Time step', and domain 1's 'Timing for main' steps with their first and last model time";
  const std::string configuration =
      JoinNonEmpty({"wrf" + f.version, f.omp_line > 0 ? "dm+sm" : "", f.acecast ? "acecast" : ""}, " ");
  run.details["wrf_configuration"] = configuration;
  run.derivations["variant"] = "WRF banner's version" + std::string(f.omp_line > 0 ? ", dm+sm (OpenMP lines)" : "") +
                               (f.acecast ? ", AceCAST (its licence lines)" : "");
  run.Derive();
  return run;
}

bool SniffWrfRsl(const std::string& path, std::string_view text) {
  int rank = 0;
  bool error_file = false;
  return WrfRslName(path, &rank, &error_file) || LooksLikeWrfRsl(text);
}

ReaderOutput ReadWrfRsl(const ReaderInput& input) {
  int rank = 0;
  bool error_file = true, tagged = false;
  const bool named = ParseRslName(input.path, &rank, &error_file, &tagged);
  if (named && rank != 0)
    throw InputError(input.path, 0, "rsl file of MPI task " + std::to_string(rank) +
                                        ": WRF prints its timing in process 0's file (rsl.error.0000); give that, "
                                        "or the run's folder");
  const WrfRslFile f = ParseWrfRsl(input.text, input.path);
  if (f.ntasks_line == 0 && f.banner_line == 0 && f.success_line == 0 && f.real_line == 0)
    throw InputError(input.path, 0, "rsl file without WRF's lines ('Ntasks in X', 'WRF V<version> MODEL')");
  int line = 0;
  if (const std::string why = WrfRslRefusal(f, &line); !why.empty()) throw InputError(input.path, line, why);
  if (f.malformed_line > 0) throw InputError(input.path, f.malformed_line, f.malformed);
  // The other tasks' files beside process 0's: a cross-check of the task count, and every task's host.
  Companions c;
  std::vector<std::string> task_hosts;
  const long long tasks = static_cast<long long>(f.ntasks_x) * f.ntasks_y;
  if (named && !tagged) {
    c = ReadCompanions(input.path, error_file);
    if (tasks > 0 && static_cast<long long>(c.hosts.size()) == tasks && c.hosts.rbegin()->first == tasks - 1)
      for (const auto& [r, host] : c.hosts) task_hosts.push_back(host);
  }
  RunStats run = WrfRslToRunStats(f, input.path, task_hosts);
  ReaderOutput output;
  output.bytes_beside = c.bytes;
  if (c.files >= 0) {
    run.details["wrf_rsl_files"] = std::to_string(c.files);
    if (c.files != run.procs)
      output.notes.push_back(input.path + ": " + std::to_string(c.files) + " rsl." +
                             (error_file ? "error" : "out") + ".NNNN files beside it for " +
                             std::to_string(run.procs) +
                             " MPI tasks ('Ntasks in X ... Y'): the task count is the run's own line");
  }
  ApplyFileName(input.name, &run);
  AppendConfiguration(run.details.at("wrf_configuration"), &run);
  output.runs.push_back(std::move(run));
  return output;
}

}  // namespace qnm
