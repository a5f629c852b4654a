// NWChem outputs (nwchem_output.h, docs/formats/nwchem-output.md).
#include "app_outputs/nwchem_output.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "reader/series_identity.h"
#include "textio/content_digest.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::size_t kSniffLines = 4000;  // the echo of a long input deck comes before the banner
constexpr const char* kBanner = "Northwest Computational Chemistry Package (NWChem)";
constexpr std::size_t kMaxListed = 8;      // modules, tasks and basis names kept in the class

// "Northwest Computational Chemistry Package (NWChem) 7.2.0" (nwchem.F's banner, centred), underlined
// by dashes on the next line (NWChem's LICENSE.TXT opens with the same words, not underlined).
bool IsBanner(std::string_view t) { return StartsWith(t, kBanner); }
bool IsDashes(std::string_view t, std::size_t least = 10);
bool IsBannerAt(const std::vector<std::string_view>& lines, std::size_t i) {
  return IsBanner(Trim(lines[i])) && i + 1 < lines.size() && IsDashes(Trim(lines[i + 1]), 20);
}

// "00:   Northwest ..." -> "  Northwest ...": the rank label a launcher puts before each line (POE's
// MP_LABELIO, srun --label); the line itself when it has none.
std::string_view Unlabelled(std::string_view line) {
  std::size_t k = line.find_first_not_of(' ');
  if (k == std::string_view::npos) return line;
  const std::size_t digits = k;
  while (k < line.size() && k - digits < 7 && line[k] >= '0' && line[k] <= '9') ++k;
  if (k == digits || k + 1 >= line.size() || line[k] != ':' || line[k + 1] != ' ') return line;
  return line.substr(k + 1);
}

// Lines NWChem or its libraries print before the banner when a job starts: after a job that
// finished, or one that printed its banner, they open the next job.
bool IsStartLine(std::string_view t) {
  return StartsWith(t, "argument  1 = ") || StartsWith(t, "NWChem w/ OpenMP: maximum threads") ||
         StartsWith(t, "ARMCI configured for ");
}

bool IsDashes(std::string_view t, std::size_t least) {
  return t.size() >= least && t.find_first_not_of('-') == std::string_view::npos;
}

bool IsEquals(std::string_view t) {
  return t.size() >= 20 && t.find_first_not_of('=') == std::string_view::npos;
}

// The words of `t` joined by single blanks.
std::string Collapsed(std::string_view t) {
  std::string out;
  for (std::string_view w : SplitWhitespace(t)) out += (out.empty() ? "" : " ") + std::string(w);
  if (out.size() > 200) out = out.substr(0, 200) + "...";
  return out;
}

void AddDistinct(std::vector<std::string>* list, std::string item) {
  if (std::find(list->begin(), list->end(), item) == list->end()) list->push_back(std::move(item));
}

// "     0.4s" of "cpu:     0.4s     wall:     0.4s" (Fortran f11.1 then 's'; wider values print as stars).
double TimeAfter(std::string_view t, std::string_view label, const std::string& path, int line, const char* what) {
  const std::size_t at = t.find(label);
  if (at == std::string_view::npos) throw InputError(path, line, std::string("malformed ") + what + " line: no '" +
                                                                  std::string(label) + "'");
  std::string_view rest = t.substr(at + label.size());
  const std::size_t end = rest.find('s');
  if (end == std::string_view::npos) throw InputError(path, line, std::string("malformed ") + what + " line");
  return NonNegativeNumber(Trim(rest.substr(0, end)), path, line, what);
}

// The numbers after a GA statistics row's label ("calls:", "bytes total:"). GA's counters wrap in
// real outputs ("bytes remote: -2.72e+05" in the 6.3 QA outputs): a negative value is kept as unknown
// (the record names it), text that is not a number is refused.
std::vector<double> RowNumbers(const std::vector<std::string_view>& w, std::size_t first, const std::string& path,
                               int line, const char* what) {
  std::vector<double> values;
  for (std::size_t k = first; k < w.size(); ++k) {
    const std::optional<double> value = ParseDouble(w[k]);
    if (!value || std::isnan(*value))
      throw InputError(path, line, std::string(what) + " needs a number, got '" + std::string(w[k]) + "'");
    values.push_back(*value >= 0 && std::isfinite(*value) ? *value : kUnknown);
  }
  return values;
}

// errquit's message: the line between two dashed lines above "current input line :" (or above
// "For further details see manual section:"), "detci: cannot create CI vector   0".
bool ErrquitMessage(const std::vector<std::string_view>& lines, std::size_t at, std::string* message, int* line) {
  std::size_t from = at;
  for (std::size_t back = 0; back < 80 && back < at; ++back)
    if (StartsWith(Trim(lines[at - back]), "current input line :")) {
      from = at - back;
      break;
    }
  for (std::size_t back = 2; back < 40 && back <= from; ++back) {
    const std::size_t k = from - back;
    if (k + 2 >= lines.size()) continue;
    const std::string_view msg = Trim(lines[k + 1]);
    if (IsDashes(Trim(lines[k]), 20) && !msg.empty() && !IsDashes(msg, 1) && IsDashes(Trim(lines[k + 2]), 20)) {
      *message = Collapsed(msg);
      *line = static_cast<int>(k + 2);
      return true;
    }
  }
  return false;
}

// Lines that say a process or the job was aborted (GA's ga_error, ARMCI, MPI launchers, a crash).
bool IsAbortLine(std::string_view t) {
  for (const char* mark : {"ARMCI aborting", "Received an Error in Communication", "MPI_ABORT was invoked",
                           "application called MPI_Abort", "BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES",
                           "forrtl: error", "Segmentation fault", "ga_error", "GA_Error", "ARMCI DASSERT fail"})
    if (t.find(mark) != std::string_view::npos) return true;
  // "nwchem: src/g2e.c:110: CINTinit_int2e_EnvVars: Assertion `...' failed." (glibc's assert)
  return t.find(": Assertion `") != std::string_view::npos && EndsWith(t, "failed.");
}

struct ParseState {
  bool in_echo = false;
  bool in_job_information = false;
  int ga_rows_left = 0;  // the GA statistics rows follow their heading within a few lines
};

void ReadLine(const std::vector<std::string_view>& lines, std::size_t i, const std::string& path, ParseState* s,
              NwchemJob* j) {
  const std::string_view t = Trim(lines[i]);
  const int line = static_cast<int>(i + 1);
  if (s->in_echo) {  // the input deck as NWChem echoes it, between lines of '='
    if (IsEquals(t)) {
      s->in_echo = false;
      return;
    }
    std::string_view deck = t.substr(0, t.find('#'));
    std::vector<std::string_view> w = SplitWhitespace(deck);
    if (!w.empty()) {
      // The deck as the class's digest sees it: lower case, single blanks, no comments, without the
      // lines that name files or memory rather than the problem (they change from run to run).
      const std::string first = ToLower(std::string(w[0]));
      if (first == "start" || first == "restart") {
        j->input_deck += first + "\n";
      } else if (first != "memory" && first != "scratch_dir" && first != "permanent_dir" && first != "echo") {
        j->input_deck += ToLower(Collapsed(deck)) + "\n";
      }
    }
    if (w.size() >= 2 && ToLower(std::string(w[0])) == "task") {
      std::string task = ToLower(std::string(w[1]));
      if (w.size() >= 3) task += " " + ToLower(std::string(w[2]));
      j->echoed_tasks.push_back(task);
    }
    return;
  }
  if (t.empty()) return;
  const std::vector<std::string_view> w = SplitWhitespace(t);
  if (t.find("echo of input deck") != std::string_view::npos && StartsWith(t, "=====")) {
    s->in_echo = true;
  } else if (IsBannerAt(lines, i)) {
    j->banner_line = line;
    if (w.size() >= 6) j->version = std::string(w[5]);
  } else if (StartsWith(t, "argument  1 = ") && j->argument.empty()) {
    j->argument = std::string(Trim(t.substr(14)));
  } else if (StartsWith(t, "NWChem w/ OpenMP: maximum threads")) {
    j->omp_threads = WholeCount(w.back(), path, line, "'NWChem w/ OpenMP: maximum threads ='", 1);
  } else if (StartsWith(t, "ARMCI configured for ") && w.size() >= 5) {
    j->armci_nodes = WholeCount(w[3], path, line, "'ARMCI configured for N cluster nodes'", 1);
    const std::size_t open = t.find('\''), close = t.rfind('\'');
    if (open != std::string_view::npos && close > open) j->armci_network = std::string(t.substr(open + 1, close - open - 1));
  } else if (t == "Job information") {
    s->in_job_information = true;
    j->job_information_line = line;
  } else if (s->in_job_information && (t == "Memory information" || t == "Directory information")) {
    s->in_job_information = false;
  } else if (s->in_job_information && t.find('=') != std::string_view::npos && !IsDashes(t, 1)) {
    const std::size_t eq = t.find('=');
    const std::string key(Trim(t.substr(0, eq)));
    const std::string value(Trim(t.substr(eq + 1)));
    if (key == "hostname") j->hostname = value;
    else if (key == "program") j->program = value;
    else if (key == "date") j->date = value;
    else if (key == "compiled") j->compiled = value;
    else if (key == "source") j->source = value;
    else if (key == "nwchem branch") j->branch = value;
    else if (key == "nwchem revision") j->revision = value;
    else if (key == "ga revision") j->ga_revision = value;
    else if (key == "use scalapack") j->use_scalapack = value;
    else if (key == "input") j->input = value;
    else if (key == "prefix") j->prefix = value;
    else if (key == "data base") j->data_base = value;
    else if (key == "status") j->status = value;
    else if (key == "time left") j->time_left = value;
    else if (key == "batch job id") j->batch_job_id = value;
    else if (key == "nproc") {
      j->nproc_line = line;
      j->nproc = WholeCount(value, path, line, "'nproc ='", 1);  // i8: stars when wider
    }
  } else if (StartsWith(t, "NWChem ") && i + 1 < lines.size() && IsDashes(Trim(lines[i + 1]), 5) &&
             Trim(lines[i + 1]).size() + 2 >= t.size() && t.size() + 2 >= Trim(lines[i + 1]).size()) {
    // A module's header, underlined: "NWChem SCF Module", "NWChem Geometry Optimization".
    if (t != "NWChem Input Module") AddDistinct(&j->modules, Collapsed(t));
  } else if (w.size() >= 3 && w[0] == "No." && w[1] == "Tag" && w[2] == "Charge" && j->geometry_atoms == 0) {
    // The first geometry's table: a dashed line, then one row per atom ("1 na 11.0000 0.0 0.0 0.0").
    int atoms = 0;
    for (std::size_t k = i + 2; k < lines.size(); ++k) {
      const std::vector<std::string_view> row = SplitWhitespace(lines[k]);
      if (row.size() < 6 || !ParseInteger(row[0])) break;
      ++atoms;
    }
    j->geometry_atoms = atoms;
  } else if (StartsWith(t, "Summary of \"ao basis\"")) {
    // Then a dashed line, "Tag Description Shells Functions and Types", a dashed line and one row per
    // tag: "na  6-31g*  8  19  4s3p1d" (a description may hold blanks: "user specified").
    for (std::size_t k = i + 4; k < lines.size() && k < i + 4 + 10000; ++k) {
      const std::vector<std::string_view> row = SplitWhitespace(lines[k]);
      if (row.size() < 5 || !ParseInteger(row[row.size() - 3]) || !ParseInteger(row[row.size() - 2])) break;
      std::string description;
      for (std::size_t c = 1; c + 3 < row.size(); ++c) description += (description.empty() ? "" : " ") + std::string(row[c]);
      if (j->basis_names.size() < 64) AddDistinct(&j->basis_names, description);
    }
  } else if (w.size() == 3 && w[0] == "functions" && w[1] == "=" && j->basis_functions == 0) {
    j->basis_functions = WholeNumber(w[2], path, line, "'functions ='", 0);
  } else if (StartsWith(t, "AO basis - number of functions:") && w.size() == 7 && j->basis_functions == 0) {
    j->basis_functions = WholeNumber(w[6], path, line, "'AO basis - number of functions:'", 0);
  } else if (w.size() == 3 && w[0] == "atoms" && w[1] == "=" && j->module_atoms == 0) {
    j->module_atoms = WholeCount(w[2], path, line, "'atoms ='", 0);
  } else if (StartsWith(t, "No. of atoms") && w.size() == 5 && w[3] == ":" && j->module_atoms == 0) {
    j->module_atoms = WholeCount(w[4], path, line, "'No. of atoms :'", 0);
  } else if (StartsWith(t, "Task  times  cpu:")) {
    j->task_lines.push_back(line);
    j->task_cpu_s.push_back(TimeAfter(t, "cpu:", path, line, "'Task  times  cpu:'"));
    j->task_wall_s.push_back(TimeAfter(t, "wall:", path, line, "'Task  times ... wall:'"));
  } else if (StartsWith(t, "Total times  cpu:") && j->total_line == 0) {
    j->total_line = line;
    j->total_cpu_s = TimeAfter(t, "cpu:", path, line, "'Total times  cpu:'");
    j->total_wall_s = TimeAfter(t, "wall:", path, line, "'Total times ... wall:'");
  } else if (StartsWith(t, "GA Statistics for process") && j->ga_stats_line == 0) {
    j->ga_stats_line = line;
    s->ga_rows_left = 12;
  } else if (s->ga_rows_left > 0 && w[0] == "calls:") {
    j->ga_calls = RowNumbers(w, 1, path, line, "GA statistics 'calls:'");
  } else if (s->ga_rows_left > 0 && w.size() >= 2 && w[0] == "bytes" && w[1] == "total:") {
    j->ga_bytes_total = RowNumbers(w, 2, path, line, "GA statistics 'bytes total:'");
  } else if (s->ga_rows_left > 0 && w.size() >= 2 && w[0] == "bytes" && w[1] == "remote:") {
    j->ga_bytes_remote = RowNumbers(w, 2, path, line, "GA statistics 'bytes remote:'");
  } else if (StartsWith(t, "Max memory consumed for GA by this process:") && w.size() >= 9) {
    j->ga_max_memory_bytes = NonNegativeNumber(w[8], path, line, "'Max memory consumed for GA'");
  } else if (StartsWith(t, "maximum total bytes") && w.size() == 5) {
    j->ma_max_heap_bytes = NonNegativeNumber(w[3], path, line, "MA 'maximum total bytes' (heap)");
    j->ma_max_stack_bytes = NonNegativeNumber(w[4], path, line, "MA 'maximum total bytes' (stack)");
  } else if (StartsWith(t, "For further details see manual section:")) {
    std::string message;
    int at = 0;
    if (ErrquitMessage(lines, i, &message, &at)) {
      j->error = message;
      j->error_line = at;
    } else {
      j->error = "an error (errquit) without its message";
      j->error_line = line;
    }
  } else if (j->error_line == 0 && IsAbortLine(t)) {
    j->error = Collapsed(t);
    j->error_line = line;
  }
  if (s->ga_rows_left > 0) --s->ga_rows_left;
}

// "/home/u/h2o.nw" -> "h2o"; the folder is not part of the input's name.
std::string InputName(const std::string& file) {
  std::string name = BaseName(file);
  for (const char* ext : {".nw", ".nwi", ".inp", ".in"})
    if (EndsWith(ToLower(name), ext) && name.size() > std::string(ext).size()) {
      name.resize(name.size() - std::string(ext).size());
      break;
    }
  return name;
}

// "NWChem DFT Gradient Module" -> "dft gradient"; "NWChem Geometry Optimization" -> "geometry optimization".
std::string ModuleWord(std::string name) {
  if (StartsWith(name, "NWChem ")) name = name.substr(7);
  if (EndsWith(name, " Module")) name.resize(name.size() - 7);
  return ToLower(name);
}

// Runs of one item collapsed: {"dft gradient" x8} -> "dft gradient x8" (a job repeating a task).
std::vector<std::string> Runs(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < items.size();) {
    std::size_t n = 1;
    while (k + n < items.size() && items[k + n] == items[k]) ++n;
    out.push_back(n > 1 ? items[k] + " x" + std::to_string(n) : items[k]);
    k += n;
  }
  return out;
}

// The first `kMaxListed` items joined by `separator`, "+N more" after them.
std::string Listed(const std::vector<std::string>& items, const char* separator) {
  std::vector<std::string> kept(items.begin(), items.begin() + std::min(items.size(), kMaxListed));
  std::string out = JoinNonEmpty(kept, separator);
  if (items.size() > kMaxListed) out += std::string(separator) + "+" + std::to_string(items.size() - kMaxListed) + " more";
  return out;
}

const char* const kGaCallNames[] = {"create", "destroy", "get", "put", "acc", "scatter", "gather", "read_inc"};
const char* const kGaByteNames[] = {"get", "put", "acc", "scatter", "gather", "read_inc"};

}  // namespace

std::string NwchemConfiguration(const NwchemJob& j) {
  std::vector<std::string> words = {"nwchem" + j.version};
  const std::string branch = ToLower(Collapsed(j.branch));
  if (!branch.empty() && branch != j.version)
    words.push_back(std::isdigit(static_cast<unsigned char>(branch[0])) ? "branch" + branch : branch);
  const std::string ga = Collapsed(j.ga_revision);
  if (!ga.empty() && ToLower(ga) != "n/a") words.push_back("ga" + ga);
  if (!j.armci_network.empty()) words.push_back(ToLower(Collapsed(j.armci_network)));
  std::string out = JoinNonEmpty(words, " ");
  std::replace(out.begin(), out.end(), ' ', '-');
  return out;
}

bool LooksLikeNwchemOutput(std::string_view text) {
  std::size_t start = 0;
  bool banner = false;  // the line before was the banner: this one must underline it
  for (std::size_t n = 0; n < kSniffLines && start < text.size(); ++n) {
    std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (banner && IsDashes(Trim(Unlabelled(line)), 20)) return true;
    banner = IsBanner(Trim(line)) || IsBanner(Trim(Unlabelled(line)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

std::vector<NwchemJob> ParseNwchemOutput(std::string_view text, const std::string& path) {
  std::vector<NwchemJob> jobs;
  std::vector<std::string_view> lines = SplitLines(text);
  // An output whose banner carries a rank label ("00:") has every line labelled: the labels go.
  for (std::string_view line : lines)
    if (line.find(kBanner) != std::string_view::npos) {
      if (!IsBanner(Trim(line)) && IsBanner(Trim(Unlabelled(line))))
        for (std::string_view& each : lines) each = Unlabelled(each);
      break;
    }
  ParseState state;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view t = Trim(lines[i]);
    if (!state.in_echo && (IsBannerAt(lines, i) || IsStartLine(t))) {
      // The next job: the first, or one after a finished one or after a banner (the one before
      // stopped without its Total times line).
      if (jobs.empty() || jobs.back().total_line > 0 || jobs.back().banner_line > 0) {
        jobs.emplace_back();
        jobs.back().line = static_cast<int>(i + 1);
        state = ParseState();
      }
    }
    if (jobs.empty()) continue;  // a job script's own lines before NWChem's
    ReadLine(lines, i, path, &state, &jobs.back());
  }
  jobs.erase(std::remove_if(jobs.begin(), jobs.end(), [](const NwchemJob& j) { return j.banner_line == 0; }),
             jobs.end());
  if (jobs.empty())
    throw InputError(path, 0, "NWChem output without NWChem's banner ('Northwest Computational Chemistry Package (NWChem) <version>')");
  return jobs;
}

RunStats NwchemJobToRunStats(const NwchemJob& j, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  run.app = "nwchem";
  run.tool_version = "NWChem " + j.version;
  run.derivations["app"] = "NWChem banner: (NWChem) " + j.version + " (line " + std::to_string(j.banner_line) + ")";
  if (j.nproc <= 0)
    throw InputError(path, j.banner_line, "NWChem output without a process count (no 'nproc =' in its Job information)");
  run.procs = j.nproc;
  run.derivations["procs"] = "NWChem Job information 'nproc' (line " + std::to_string(j.nproc_line) +
                             "): GA's process count (ga_nnodes), the processes that compute; a GA build over MPI-PR "
                             "keeps one more MPI rank per node for communication, which it does not count";
  if (j.omp_threads > 0) {
    run.threads_per_proc = j.omp_threads;
    run.derivations["threads_per_proc"] = "NWChem OpenMP line: 'maximum threads =', omp_get_max_threads of process 0";
  } else {
    run.derivations["threads_per_proc"] = "NWChem output: no OpenMP line (a build without OpenMP), 1";
  }
  if (j.armci_nodes > 0) run.SetNodes(j.armci_nodes, "ARMCI 'configured for N cluster nodes'");
  if (!j.hostname.empty()) ApplyHosts({j.hostname}, "NWChem Job information 'hostname' (process 0's host)", &run);

  run.wall_time_s = j.total_wall_s;
  run.app_time_mean_s = j.total_wall_s;
  run.derivations["wall_time_s"] = "NWChem 'Total times ... wall:' line " + std::to_string(j.total_line) +
                                   ", process 0's wall time from NWChem's start to its end (util_wallsec), "
                                   "start-up and every task included";
  run.derivations["app_time_mean_s"] = "NWChem 'Total times' line, as wall_time_s";

  run.details["nwchem_cpu_time_s"] = NumberText(j.total_cpu_s);
  run.details["nwchem_tasks"] = std::to_string(j.task_lines.size());
  if (!j.task_wall_s.empty()) {
    double wall = 0, cpu = 0;
    std::vector<std::string> walls;
    for (std::size_t k = 0; k < j.task_wall_s.size(); ++k) {
      wall += j.task_wall_s[k];
      cpu += j.task_cpu_s[k];
      if (k < 64) walls.push_back(NumberText(j.task_wall_s[k]));
    }
    run.details["nwchem_task_wall_s"] = JoinNonEmpty(walls, " ") + (j.task_wall_s.size() > 64 ? " ..." : "");
    run.details["nwchem_task_wall_sum_s"] = NumberText(wall);
    run.details["nwchem_task_cpu_sum_s"] = NumberText(cpu);
    run.derivations["nwchem_task_wall_s"] =
        "NWChem 'Task  times  cpu: ...s  wall: ...s' lines, one per task run, in order (the first 64)";
  }
  if (!j.echoed_tasks.empty()) run.details["nwchem_input_tasks"] = Listed(Runs(j.echoed_tasks), ", ");
  if (!j.modules.empty()) run.details["nwchem_modules"] = Listed(j.modules, ", ");
  for (const auto& [key, value] :
       {std::pair<const char*, const std::string*>{"nwchem_branch", &j.branch}, {"nwchem_revision", &j.revision},
        {"nwchem_program", &j.program}, {"nwchem_input", &j.input}, {"nwchem_compiled", &j.compiled},
        {"nwchem_date", &j.date}, {"nwchem_time_left", &j.time_left}, {"nwchem_batch_job_id", &j.batch_job_id},
        {"nwchem_prefix", &j.prefix}, {"nwchem_status", &j.status}})
    if (!value->empty()) run.details[key] = *value;
  if (!j.ga_revision.empty()) run.details["nwchem_ga_revision"] = j.ga_revision;
  if (!j.armci_network.empty()) run.details["nwchem_armci_network"] = j.armci_network;
  if (j.armci_nodes > 0) run.details["nwchem_armci_nodes"] = std::to_string(j.armci_nodes);
  // ScaLAPACK's use is a setting of the build: it splits a series only when a campaign varies it at one P.
  if (!j.use_scalapack.empty()) run.details[std::string(kDeclaredSettingPrefix) + "nwchem_scalapack"] = j.use_scalapack;

  // Process 0's Global Arrays statistics: one-sided GA operations, not MPI messages.
  if (j.ga_stats_line > 0) {
    std::vector<std::string> wrapped;  // GA's negative (wrapped) counters, named instead of kept
    const auto keep = [&](const std::string& key, double value) {
      if (Known(value)) run.details[key] = NumberText(value);
      else wrapped.push_back(key);
    };
    for (std::size_t k = 0; k < j.ga_calls.size() && k < 8; ++k)
      keep(std::string("nwchem_ga0_calls_") + kGaCallNames[k], j.ga_calls[k]);
    for (std::size_t k = 0; k < j.ga_bytes_total.size() && k < 6; ++k)
      keep(std::string("nwchem_ga0_bytes_") + kGaByteNames[k], j.ga_bytes_total[k]);
    for (std::size_t k = 0; k < j.ga_bytes_remote.size() && k < 6; ++k)
      keep(std::string("nwchem_ga0_remote_bytes_") + kGaByteNames[k], j.ga_bytes_remote[k]);
    if (!wrapped.empty()) run.details["nwchem_ga0_negative"] = JoinNonEmpty(wrapped, " ");
    run.derivations["nwchem_ga0_calls_get"] =
        "NWChem's 'GA Statistics for process 0' (line " + std::to_string(j.ga_stats_line) +
        "): process 0's one-sided Global Arrays calls and bytes (all targets, and those of other processes' "
        "memory); not MPI messages, and not the other processes'";
  }
  if (Known(j.ga_max_memory_bytes)) run.details["nwchem_ga0_max_memory_bytes"] = NumberText(j.ga_max_memory_bytes);
  if (Known(j.ma_max_heap_bytes)) run.details["nwchem_ma0_max_heap_bytes"] = NumberText(j.ma_max_heap_bytes);
  if (Known(j.ma_max_stack_bytes)) run.details["nwchem_ma0_max_stack_bytes"] = NumberText(j.ma_max_stack_bytes);

  // The problem: the input's name and what NWChem made of it.
  std::vector<std::string> words;
  const std::string input = !j.input.empty() ? j.input : j.argument;
  if (!input.empty()) words.push_back(InputName(input));
  if (!j.echoed_tasks.empty()) {
    words.push_back(Listed(Runs(j.echoed_tasks), " + "));
  } else if (!j.modules.empty()) {
    std::vector<std::string> modules;
    for (const std::string& m : j.modules) modules.push_back(ModuleWord(m));
    words.push_back(Listed(modules, " + "));
  }
  const int atoms = j.geometry_atoms > 0 ? j.geometry_atoms : j.module_atoms;
  if (atoms > 0) words.push_back(std::to_string(atoms) + " atoms");
  if (!j.basis_names.empty()) words.push_back(Listed(j.basis_names, "/"));
  if (j.basis_functions > 0) words.push_back(std::to_string(j.basis_functions) + " functions");
  // Two inputs of one name, tasks, molecule and basis (another functional, another property) are two
  // problems: the echoed deck's digest tells them apart.
  if (!j.input_deck.empty()) {
    run.details["nwchem_input_deck_digest"] = ContentDigest(j.input_deck);
    words.push_back("deck " + ContentDigest(j.input_deck).substr(0, 8));
  }
  run.problem_class = JoinNonEmpty(words, " ");
  run.derivations["problem_class"] =
      "NWChem: the Job information 'input' (else 'argument  1 ='), its name less .nw; the task lines of the echoed "
      "input deck (else the module headers); the rows of the first geometry table (else 'atoms ='); the "
      "descriptions of the 'Summary of \"ao basis\"' tables; the first 'functions =' / 'AO basis - number of "
      "functions:'; the first 8 hex digits of the echoed input deck's digest (lower case, blanks collapsed, "
      "comments and the memory, scratch_dir, permanent_dir and echo lines dropped, start/restart without their "
      "names)";
  run.details["nwchem_configuration"] = NwchemConfiguration(j);
  run.derivations["variant"] =
      "NWChem banner's version, the Job information's 'nwchem branch' (when it is not the version) and 'ga "
      "revision', ARMCI's network protocol";
  run.Derive();
  return run;
}

bool SniffNwchemOutput(const std::string&, std::string_view text) { return LooksLikeNwchemOutput(text); }

namespace {

// Why a job did not finish, and the line that shows it; empty when it finished.
std::string NwchemJobUnfinished(const NwchemJob& j, int* line) {
  if (j.total_line > 0) return {};
  if (j.error_line > 0) {
    *line = j.error_line;
    return "NWChem stopped before it finished (no 'Total times' line): '" + j.error + "'";
  }
  *line = j.line;
  return "NWChem job without its closing 'Total times' line: it did not finish (killed, out of time, or the output "
         "was cut)";
}

}  // namespace

ReaderOutput ReadNwchemOutput(const ReaderInput& input) {
  return FinishedRunsOutput(
      input, ParseNwchemOutput(input.text, input.path), NwchemJobUnfinished,
      [&](const NwchemJob& j) { return NwchemJobToRunStats(j, input.path); },
      [](const NwchemJob&, RunStats* run) { AppendConfiguration(run->details.at("nwchem_configuration"), run); },
      "NWChem jobs did not finish");
}

}  // namespace qnm
