// GROMACS mdrun logs (gromacs_log.h, docs/formats/gromacs-log.md).
#include "app_outputs/gromacs_log.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "reader/series_identity.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::size_t kSniffLines = 400;  // job scripts print their own lines before mdrun's header

// Rows of the cycle accounting table that are communication or waiting for other ranks
// (docs/formats/gromacs-log.md says why each): the model's MPI time.
constexpr const char* kCommunicationRows[] = {
    "DD comm. load",      // domain decomposition: gathering the ranks' load measurements
    "DD comm. bounds",    // domain decomposition: exchanging the cell boundaries (dynamic load balancing)
    "Send X to PME",      // PP ranks send coordinates to their PME rank
    "Comm. coord.",       // halo exchange of coordinates
    "Wait + Comm. F",     // halo exchange of forces, waits for slower neighbours included
    "Wait + Recv. PME F", // PP ranks wait for and receive the PME forces
    "Comm. energies",     // global reductions of energies and virial
    "PME wait for PP",    // separate PME ranks idle until the PP ranks send coordinates
    "PME redist. X/F",    // PME: coordinates and forces moved between the PP and PME decompositions
    "PME 3D-FFT Comm.",   // PME: the transposes of the parallel 3D FFT
};

// Options of mdrun that name files (or the step count, part of the problem): not settings of the run.
constexpr const char* kFileOptions[] = {"-s",   "-o",   "-x",     "-cpi", "-cpo",  "-c",    "-e",     "-g",
                                        "-dhdl", "-field", "-tpi", "-tpid", "-eo", "-px",   "-pf",    "-ro",
                                        "-ra",  "-rs",  "-rt",    "-mtx", "-if",   "-swap", "-deffnm", "-table",
                                        "-tablep", "-tableb", "-rerun", "-ei", "-multidir", "-membed", "-mp",
                                        "-mn",  "-plumed", "-nsteps", "-cpnum", "-cpt"};

bool IsFileOption(std::string_view word) {
  return std::any_of(std::begin(kFileOptions), std::end(kFileOptions), [&](const char* option) { return word == option; });
}

// "GROMACS:      gmx mdrun, version 2021.5"
bool IsVersionHeader(std::string_view line) {
  return StartsWith(line, "GROMACS:") && line.find("mdrun") != std::string_view::npos &&
         line.find(", version ") != std::string_view::npos;
}

// ":-) GROMACS - gmx mdrun, 2021.5 (-:"
bool IsBanner(std::string_view line) {
  return line.find(":-) GROMACS - ") != std::string_view::npos && line.find("mdrun") != std::string_view::npos;
}

// The number before a trailing '%' ("0.7%." / "10.7 %"), as the imbalance lines print it.
double Percent(const std::vector<std::string_view>& words) {
  for (std::size_t w = words.size(); w-- > 0;) {
    std::string_view word = words[w];
    while (!word.empty() && (word.back() == '.' || word.back() == '%')) word.remove_suffix(1);
    if (auto number = ParseDouble(word); number && std::isfinite(*number) && *number >= 0) return *number;
  }
  return kUnknown;
}

// What mdrun -cpi -append writes to the log before the continuing part's banner (GROMACS 2016-2021).
constexpr std::string_view kAppendMarker = "Restarting from checkpoint, appending to previous log file.";

// One execution as the lines go by; the log is one of them (ParseGromacsLog decides which).
struct Execution {
  GromacsLog log;
  int append_line = 0;       // of kAppendMarker: this execution continues the one before (-cpi -append)
  int banner_line = 0;       // ":-) GROMACS - gmx mdrun, 2021.5 (-:"
  bool in_table = false, after_total = false, pme_breakdown = false, other_breakdown = false;
  bool command_next = false;
  int error_line = 0;        // where GROMACS said why it stopped
  std::string error;
};

// "Force    192    1    10001    785.713    338771.906  66.2"; "Rest    0.722   311.188   0.1".
bool ParseCycleRow(const std::vector<std::string_view>& words, const std::string& path, int line, GromacsCycleRow* row) {
  if (words.size() < 4) return false;
  const std::size_t n = words.size();
  for (std::size_t k = n - 3; k < n; ++k)
    if (!ParseDouble(words[k])) return false;
  std::size_t name_end = n - 3;
  row->line = line;
  row->wall_s = NonNegativeNumber(words[n - 3], path, line, "the cycle accounting's 'Wall time (s)'");
  NonNegativeNumber(words[n - 2], path, line, "the cycle accounting's 'Giga-Cycles'");
  if (name_end >= 4 && ParseInteger(words[name_end - 1]) && ParseInteger(words[name_end - 2]) &&
      ParseInteger(words[name_end - 3])) {
    row->ranks = WholeCount(words[name_end - 3], path, line, "the cycle accounting's 'Num Ranks'", 0);
    name_end -= 3;
  }
  std::vector<std::string> name;
  for (std::size_t k = 0; k < name_end; ++k) name.emplace_back(words[k]);
  if (!name.empty() && name.back() == "*") {
    row->on_pme_ranks = true;
    name.pop_back();
  }
  row->name = JoinNonEmpty(name, " ");
  return !row->name.empty();
}

void ReadLine(std::string_view raw, int line, const std::string& path, Execution* e) {
  GromacsLog& log = e->log;
  std::string_view trimmed = Trim(raw);
  if (e->command_next) {
    if (trimmed.empty()) return;
    e->command_next = false;
    log.command_line = std::string(trimmed);
    return;
  }
  std::vector<std::string_view> w = SplitWhitespace(trimmed);
  if (w.empty()) return;
  if (e->in_table) {
    if (w[0] == "Time:") {
      e->in_table = false;  // read below
    } else if (w[0] == "On" && w.size() >= 4 && w[2] == "MPI" && StartsWith(w[3], "rank")) {
      log.pp_ranks = WholeCount(w[1], path, line, "'On N MPI ranks'", 0);
      return;
    } else if (w[0] == "on" && w.size() >= 6 && w[2] == "MPI" && StartsWith(w[5], "PME")) {
      // "on 16 MPI ranks doing PME" / "on 16 MPI ranks doing PME, each using 2 OpenMP threads"
      log.pme_ranks = WholeCount(w[1], path, line, "'on N MPI ranks doing PME'", 0);
      return;
    } else if (StartsWith(trimmed, "Breakdown of")) {
      e->pme_breakdown = StartsWith(trimmed, "Breakdown of PME mesh");
      e->other_breakdown = !e->pme_breakdown;
      return;
    } else if (trimmed.find("GPU timings") != std::string_view::npos) {
      e->pme_breakdown = false;
      e->other_breakdown = true;
      return;
    } else {
      GromacsCycleRow row;
      if (!ParseCycleRow(w, path, line, &row)) return;
      if (row.name == "Total" && !e->after_total) {
        log.table_total_s = row.wall_s;
        e->after_total = true;
        return;
      }
      if (!e->after_total) {
        log.rows.push_back(row);
      } else if (e->pme_breakdown) {
        row.pme_breakdown = true;
        log.rows.push_back(row);
      }
      return;
    }
  }
  if (IsBanner(raw) || IsVersionHeader(raw)) {
    if (IsVersionHeader(raw)) {
      std::size_t comma = raw.find(", version ");
      log.program = std::string(Trim(raw.substr(8, comma - 8)));
      log.version = std::string(Trim(raw.substr(comma + 10)));
    }
    return;
  }
  if (trimmed == "Command line:") {
    e->command_next = true;
  } else if (w[0] == "GROMACS" && w.size() == 3 && w[1] == "version:" && log.version.empty()) {
    log.version = std::string(w[2]);
  } else if (w[0] == "Precision:" && w.size() == 2 && log.precision.empty()) {
    log.precision = std::string(w[1]);
  } else if (w[0] == "Running" && w.size() >= 4 && w[1] == "on" && StartsWith(w[3], "node") && log.nodes == 0) {
    log.nodes = std::max(1, WholeCount(w[2], path, line, "'Running on N nodes'", 0));
  } else if (StartsWith(trimmed, "Hardware detected on host ") && w.size() >= 5 && log.host.empty()) {
    log.host = std::string(w[4]);
  } else if (w[0] == "Brand:" && !log.host.empty() && log.cpu_brand.empty()) {  // rank 0's node's CPU info
    log.cpu_brand = std::string(Trim(trimmed.substr(6)));
  } else if (w[0] == "Using" && w.size() >= 4 && w[2] == "MPI" && (StartsWith(w[3], "process") || StartsWith(w[3], "thread"))) {
    log.mpi_ranks = WholeCount(w[1], path, line, "'Using N MPI processes'", 0);
    log.thread_mpi = StartsWith(w[3], "thread");
  } else if (w[0] == "Using" && w.size() >= 4 && w[2] == "OpenMP" && StartsWith(w[3], "thread") && log.openmp_threads == 0) {
    log.openmp_threads = WholeCount(w[1], path, line, "'Using T OpenMP threads'", 0);
  } else if (w[0] == "Using" && w.size() >= 5 && w[2] == "separate" && w[3] == "PME" && log.separate_pme_ranks < 0) {
    log.separate_pme_ranks = WholeCount(w[1], path, line, "'Using N separate PME ranks'", 0);
  } else if (StartsWith(trimmed, "Mapping of GPU IDs to") ||
             (w[0] == "Using" && w.size() >= 3 && w[1] == "GPU" && trimmed.find("kernels") != std::string_view::npos)) {
    log.gpu = true;
  } else if (w[0] == "There" && w.size() == 4 && w[1] == "are:" && w[3] == "Atoms" && log.atoms == 0) {
    auto atoms = ParseInteger(w[2]);
    if (!atoms || *atoms < 1 || *atoms > (1LL << 40))
      throw InputError(path, line, "'There are: N Atoms' needs a whole number >= 1, got '" + std::string(w[2]) + "'");
    log.atoms = *atoms;
  } else if (w.size() == 3 && w[1] == "=" && StartsWith(raw, "   ")) {  // the input parameters
    if (w[0] == "nsteps" && log.nsteps == -2) {
      auto steps = ParseInteger(w[2]);
      if (!steps || *steps < -1) throw InputError(path, line, "input parameter nsteps needs a whole number >= -1");
      log.nsteps = *steps;
    } else if (w[0] == "dt" && log.dt_ps.empty()) {
      log.dt_ps = std::string(w[2]);
    } else if (w[0] == "cutoff-scheme" && log.cutoff_scheme.empty()) {
      log.cutoff_scheme = std::string(w[2]);
    } else if (w[0] == "coulombtype" && log.coulomb_type.empty()) {
      log.coulomb_type = std::string(w[2]);
    }
  } else if (StartsWith(trimmed, "Overriding nsteps with value passed on the command line:") && w.size() >= 10) {
    auto steps = ParseInteger(w[9]);
    if (!steps || *steps < -1) throw InputError(path, line, "'Overriding nsteps' needs a whole number of steps");
    log.nsteps = *steps;
  } else if (trimmed.find("resetting all time and cycle counters") != std::string_view::npos) {
    // "step 5000: resetting all time and cycle counters"
    std::string_view step = w.size() >= 2 ? w[1] : std::string_view();
    if (!step.empty() && step.back() == ':') step.remove_suffix(1);
    auto number = ParseInteger(step);
    log.reset_step = number && *number >= 0 ? *number : 0;
  } else if (StartsWith(trimmed, "Average load imbalance:")) {
    log.load_imbalance_percent = Percent(w);
  } else if (StartsWith(trimmed, "Part of the total run time spent waiting due to load imbalance:")) {
    log.imbalance_wait_percent = Percent(w);
  } else if (StartsWith(trimmed, "Part of the total run time spent waiting due to PP/PME imbalance:")) {
    log.pp_pme_wait_percent = Percent(w);
  } else if (StartsWith(trimmed, "R E A L   C Y C L E")) {
    e->in_table = true;
    log.table_line = line;
  } else if (w[0] == "Performance:" && w.size() >= 2 && log.time_line > 0) {
    auto rate = ParseDouble(w[1]);
    if (rate && std::isfinite(*rate) && *rate >= 0) log.ns_per_day = *rate;
  } else if (w[0] == "Program:" && e->error.empty()) {
    e->error_line = -line;  // a GROMACS error block: its kind ("... error:") and message follow
  } else if (e->error_line < 0 && EndsWith(trimmed, "error:")) {
    e->error = std::string(trimmed);
    e->error_line = line;
  } else if (e->error_line > 0 && e->error.back() == ':') {
    e->error += " " + std::string(trimmed);
  } else if (w[0] == "Fatal" && w.size() >= 2 && w[1] == "error:" && e->error.empty()) {
    e->error = std::string(trimmed);
    e->error_line = line;
  } else if (w[0] == "Received" && trimmed.find("signal") != std::string_view::npos && e->error.empty()) {
    e->error = std::string(trimmed);
    e->error_line = line;
  }
  if (w[0] == "Time:" && log.time_line == 0) {
    // "       Time:   227719.994      889.544    25599.6"
    if (w.size() < 4) throw InputError(path, line, "malformed 'Time:' line (core, wall seconds and %)");
    log.core_time_s = NonNegativeNumber(w[1], path, line, "'Time:' core seconds");
    log.wall_time_s = NonNegativeNumber(w[2], path, line, "'Time:' wall seconds");
    log.time_line = line;
  }
}

// The cycle accounting's rows of the PP ranks (not '*', not the PME breakdown) add up to its Total,
// or more: on most CPU runs to the millisecond, but real logs' rows also exceed it (by 0.6-3% on
// CPU runs of the UK benchmark suite, by up to 19% on GPU runs, whose waits for the GPU overlap).
// Less than the Total is a row missing; far more, a damaged number.
constexpr double kRowsOverTotal = 1.25;

void CheckTable(GromacsLog* log_out, const std::string& path) {
  GromacsLog& log = *log_out;
  if (!Known(log.table_total_s)) throw InputError(path, log.table_line, "the cycle accounting table has no 'Total' row");
  double sum_s = 0;
  int rows = 0;
  for (const GromacsCycleRow& row : log.rows)
    if (!row.on_pme_ranks && !row.pme_breakdown) {
      sum_s += row.wall_s;
      ++rows;
    }
  // Each row is rounded to 1 ms; 0.5% more for a row GROMACS prints but leaves out of the sum.
  const double tolerance_s = 0.0005 * (rows + 1) + 0.005 * log.table_total_s;
  if (rows == 0 || sum_s < log.table_total_s - tolerance_s || sum_s > kRowsOverTotal * log.table_total_s + tolerance_s)
    throw InputError(path, log.table_line, "the cycle accounting's rows add up to " + NumberText(sum_s) +
                                               " s, not its Total " + NumberText(log.table_total_s) +
                                               " s: a row is missing or damaged");
  log.pp_rows_sum_s = sum_s;
  log.rows_exceed_total = sum_s > log.table_total_s + tolerance_s;
  if (log.pp_ranks <= 0) throw InputError(path, log.table_line, "the cycle accounting table has no 'On N MPI ranks' line");
}

}  // namespace

bool IsGromacsCommunicationRow(const std::string& name) {
  return std::any_of(std::begin(kCommunicationRows), std::end(kCommunicationRows),
                     [&](const char* row) { return name == row; });
}

bool LooksLikeGromacsLog(std::string_view text) {
  std::size_t start = 0;
  for (std::size_t n = 0; n < kSniffLines && start < text.size(); ++n) {
    std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (IsBanner(line) || IsVersionHeader(line)) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

namespace {

// The line that names a part in messages: its banner (an appended part has no version header), else
// its version header, else the append marker.
int PartLine(const Execution& e) {
  return e.banner_line > 0 ? e.banner_line : e.log.header_line > 0 ? e.log.header_line : e.append_line;
}

bool Finished(const Execution& e) { return e.log.time_line > 0 && e.log.table_line > 0; }

// Executions grouped into runs: each with the parts appended to it (-cpi -append), in file order.
using Parts = std::vector<const Execution*>;
std::vector<Parts> ContinuedRuns(const std::vector<Execution>& executions) {
  std::vector<Parts> runs;
  for (const Execution& e : executions) {
    if (e.append_line > 0 && !runs.empty()) runs.back().push_back(&e);
    else runs.push_back({&e});
  }
  return runs;
}

// Every part of a continued run must have its own timing, or the run's total time is unknown. GROMACS
// appends the next part at the previous part's last checkpoint, so a part it continued has lost what
// it wrote after that checkpoint, its Time: line and cycle table included (docs/formats/gromacs-log.md).
void CheckPartsFinished(const Parts& parts, const std::string& path) {
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const Execution& part = *parts[k];
    if (Finished(part)) continue;
    const std::string which = "part " + std::to_string(k + 1) + " of " + std::to_string(parts.size()) +
                              " of a run continued with -cpi -append was cut short: no 'Time:' line";
    const std::string why = k + 1 < parts.size() ? " (the next part was appended at its last checkpoint)"
                                                 : (part.error.empty() ? "" : " ('" + part.error + "')");
    throw InputError(path, PartLine(part), which + why + ", so the run's total time is unknown; -noappend writes one log per part");
  }
}

// One part's log, checked as a log of its own is.
GromacsLog CheckedLog(const GromacsLog& part, const std::string& path) {
  GromacsLog log = part;
  CheckTable(&log, path);
  const int table_ranks = log.pp_ranks + log.pme_ranks;
  if (log.mpi_ranks > 0 && log.mpi_ranks != table_ranks)
    throw InputError(path, log.table_line, "the cycle accounting's " + std::to_string(table_ranks) +
                                               " ranks differ from the header's 'Using " +
                                               std::to_string(log.mpi_ranks) + " MPI processes'");
  return log;
}

}  // namespace

GromacsLog ParseGromacsLog(std::string_view text, const std::string& path) {
  std::vector<Execution> executions(1);
  std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    // The append marker starts a continuing part; a second version header starts another execution
    // (the first may have had only its banner).
    const bool header = IsVersionHeader(lines[i]);
    if (Trim(lines[i]) == kAppendMarker) {
      executions.emplace_back();
      executions.back().append_line = line;
    } else if (header && executions.back().log.header_line > 0) {
      executions.emplace_back();
    }
    Execution& e = executions.back();
    if (header) e.log.header_line = line;
    if (e.banner_line == 0 && IsBanner(lines[i])) e.banner_line = line;
    ReadLine(lines[i], line, path, &e);
  }
  const std::vector<Parts> runs = ContinuedRuns(executions);
  for (const Parts& parts : runs)
    if (parts.size() > 1) CheckPartsFinished(parts, path);
  // mdrun's terminal output (a job's stdout holding it before `cat md.log`) has a Time: line but no
  // cycle accounting: it is the same execution as the log beside it, and is not read.
  std::vector<const Parts*> logs;
  std::vector<const Execution*> unfinished;
  const Execution* terminal = nullptr;
  for (const Parts& parts : runs) {
    const Execution& e = *parts.front();
    if (parts.size() > 1 || Finished(e)) logs.push_back(&parts);
    else if (e.log.time_line > 0) terminal = &e;
    else if (e.log.header_line > 0 || &e == &executions.front()) unfinished.push_back(&e);
  }
  const int first_header = logs.empty() ? 0 : logs.front()->front()->log.header_line;
  if (logs.size() > 1 || (logs.size() == 1 && !unfinished.empty() && unfinished.back()->log.header_line > 0 &&
                          unfinished.back()->log.header_line > first_header)) {
    const Execution& second = logs.size() > 1 ? *logs[1]->front() : *unfinished.back();
    throw InputError(path, second.log.header_line,
                     "a second mdrun execution in one log (logs put together, not continued with -cpi -append: "
                     "no 'Restarting from checkpoint' line before it): one execution per file");
  }
  if (logs.empty()) {
    if (terminal)
      throw InputError(path, terminal->log.time_line,
                       "mdrun's terminal output, not its log: no cycle accounting table (read the md.log that -g names)");
    const Execution& last = executions.back();
    if (!last.error.empty())
      throw InputError(path, last.error_line, "mdrun stopped before it finished (no 'Time:' line): '" + last.error + "'");
    throw InputError(path, 0, "GROMACS log without a finished run (no 'Time:' line): the run crashed, was killed, "
                              "or the log was cut short");
  }
  if (logs.front()->size() > 1)
    throw InputError(path, PartLine(*(*logs.front())[1]),
                     "a second part of a run continued with -cpi -append: its parts are not summed; one execution per file");
  return CheckedLog(logs.front()->front()->log, path);
}

RunStats GromacsLogToRunStats(const GromacsLog& log, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  run.app = "gromacs";
  const std::string program = log.program.empty() ? "mdrun" : log.program;
  run.derivations["app"] = "GROMACS log version header (" + program + ", version " + log.version + ")";
  run.tool_version = log.version.empty() ? "GROMACS" : "GROMACS " + log.version;

  run.procs = log.pp_ranks + log.pme_ranks;
  run.derivations["procs"] = log.mpi_ranks > 0 ? (log.thread_mpi ? "GROMACS log 'Using N MPI threads' (thread-MPI ranks)"
                                                                 : "GROMACS log 'Using N MPI processes'")
                                               : "GROMACS cycle accounting 'On N MPI ranks'";
  if (log.pme_ranks > 0) run.derivations["procs"] += " (" + std::to_string(log.pp_ranks) + " PP + " +
                                                     std::to_string(log.pme_ranks) + " separate PME ranks)";
  if (log.openmp_threads > 0) {
    run.threads_per_proc = log.openmp_threads;
    run.derivations["threads_per_proc"] = "GROMACS log 'Using T OpenMP threads per MPI process'";
  }
  if (log.nodes > 0) run.SetNodes(log.nodes, "GROMACS log 'Running on N nodes'");
  // The host of rank 0 names the machine, as IPM's banner does (series_identity.h).
  if (!log.host.empty())
    ApplyHosts({log.host}, "GROMACS log 'Hardware detected on host' (rank 0's)", &run, log.cpu_brand);

  run.wall_time_s = log.wall_time_s;
  run.app_time_mean_s = log.wall_time_s;
  const bool reset = log.reset_step >= 0 || log.command_line.find("-resethway") != std::string::npos ||
                     log.command_line.find("-resetstep") != std::string::npos;
  run.derivations["wall_time_s"] = "GROMACS log 'Time:' line, 'Wall t (s)' (line " + std::to_string(log.time_line) + ")" +
                                   (reset ? "; the counters were reset during the run (-resethway/-resetstep): the "
                                            "time covers only the steps after the reset"
                                          : "; start-up before the first step is not in it");
  run.derivations["app_time_mean_s"] = "GROMACS: the wall time, as wall_time_s (every rank runs until the end)";
  if (reset) {
    run.details["gromacs_counters_reset"] =
        log.reset_step > 0 ? "at step " + std::to_string(log.reset_step) : "yes (-resethway or -resetstep)";
  }
  if (log.nsteps >= 0) run.iterations = static_cast<int>(std::min<long long>(log.nsteps, 1LL << 30));

  // MPI time: the communication and waiting rows, each the average over its ranks, weighted by them.
  double pp_mpi_s = 0, pme_mpi_s = 0;
  std::vector<std::string> mpi_rows;
  for (const GromacsCycleRow& row : log.rows) {
    if (!IsGromacsCommunicationRow(row.name)) continue;
    const bool on_pme = row.on_pme_ranks || (row.pme_breakdown && log.pme_ranks > 0);
    (on_pme ? pme_mpi_s : pp_mpi_s) += row.wall_s;
    mpi_rows.push_back(row.name);
    run.details["gromacs_" + DetailKey(row.name) + "_s"] = NumberText(row.wall_s);
  }
  const double procs = static_cast<double>(run.procs);
  run.mpi_time_mean_s = (log.pp_ranks * pp_mpi_s + log.pme_ranks * pme_mpi_s) / procs;
  run.compute_time_mean_s = std::max(0.0, log.table_total_s - run.mpi_time_mean_s);
  run.derivations["mpi_time_mean_s"] =
      "GROMACS cycle accounting, 'Wall time (s)' of the communication and waiting rows (" + JoinNonEmpty(mpi_rows, ", ") +
      ")" + (log.pme_ranks > 0 ? ", the PP ranks' and the PME ranks' weighted by their ranks" : "");
  run.derivations["compute_time_mean_s"] = "GROMACS cycle accounting: the Total row's wall time less the MPI time";
  if (log.rows_exceed_total) {
    run.derivations["mpi_time_mean_s"] += "; the PP rows add up to " + NumberText(log.pp_rows_sum_s) +
                                          " s, more than the Total (" + NumberText(log.table_total_s) +
                                          " s): rows overlap (GPU waits) or average differently over the ranks";
    run.details["gromacs_pp_rows_sum_s"] = NumberText(log.pp_rows_sum_s);
  }
  run.details["gromacs_pp_ranks"] = std::to_string(log.pp_ranks);
  run.details["gromacs_pme_ranks"] = std::to_string(log.pme_ranks);
  run.details["gromacs_pp_mpi_s"] = NumberText(pp_mpi_s);
  if (log.pme_ranks > 0) run.details["gromacs_pme_mpi_s"] = NumberText(pme_mpi_s);
  run.details["gromacs_core_time_s"] = NumberText(log.core_time_s);
  if (Known(log.ns_per_day)) run.details["gromacs_ns_per_day"] = NumberText(log.ns_per_day);
  // Load imbalance as mdrun measured it: the PP ranks' waits for the slowest, already inside
  // "Wait + Comm. F" (so inside the MPI time); a bound of what balancing could gain.
  if (Known(log.load_imbalance_percent))
    run.details["gromacs_load_imbalance_percent"] = NumberText(log.load_imbalance_percent);
  if (Known(log.imbalance_wait_percent)) {
    run.details["gromacs_imbalance_wait_percent"] = NumberText(log.imbalance_wait_percent);
    run.details["gromacs_imbalance_wait_s"] = NumberText(log.imbalance_wait_percent / 100 * log.wall_time_s);
  }
  if (Known(log.pp_pme_wait_percent)) run.details["gromacs_pp_pme_wait_percent"] = NumberText(log.pp_pme_wait_percent);
  if (log.atoms > 0) run.details["gromacs_atoms"] = std::to_string(log.atoms);
  if (log.nsteps >= -1) run.details["gromacs_nsteps"] = std::to_string(log.nsteps);
  if (!log.command_line.empty()) run.details["command"] = log.command_line;

  // The problem: the run input (.tpr) and what the log prints of it.
  std::string tpr = "topol";
  std::vector<std::string_view> words = SplitWhitespace(log.command_line);
  std::vector<std::string> options;
  for (std::size_t k = 0; k < words.size(); ++k) {
    if ((words[k] == "-s" || words[k] == "-deffnm") && k + 1 < words.size()) {
      if (words[k] == "-s" || tpr == "topol") tpr = BaseName(std::string(words[k + 1]));
      if (EndsWith(tpr, ".tpr")) tpr.resize(tpr.size() - 4);
    }
    if (k == 0 || !StartsWith(words[k], "-")) continue;
    if (IsFileOption(words[k])) {
      ++k;  // and its value
      continue;
    }
    std::string option(words[k]);
    if (k + 1 < words.size() && !StartsWith(words[k + 1], "-")) option += " " + std::string(words[++k]);
    options.push_back(option);
  }
  run.problem_class = JoinNonEmpty({tpr, log.atoms > 0 ? std::to_string(log.atoms) + " atoms" : "",
                            log.nsteps >= -1 ? std::to_string(log.nsteps) + " steps" : "",
                            log.dt_ps.empty() ? "" : "dt " + log.dt_ps, log.cutoff_scheme, log.coulomb_type},
                           " ");
  run.derivations["problem_class"] =
      "GROMACS log: the run input (-s), 'There are: N Atoms', nsteps (or the command line's override), dt, "
      "cutoff-scheme, coulombtype";
  // The configuration: GPUs, double precision. mdrun's own options (-npme, -nb gpu, -dlb no) and the
  // release are settings: they split a series only when the campaign varies them (experiment_factors.h).
  const std::string configuration = JoinNonEmpty({log.gpu ? "gpu" : "", log.precision == "double" ? "double" : ""}, " ");
  if (!configuration.empty()) {
    run.details["gromacs_configuration"] = configuration;
    run.derivations["variant"] = JoinNonEmpty({log.gpu ? "GROMACS log: mdrun mapped GPU tasks ('Mapping of GPU IDs', 'Using GPU ... kernels')" : "",
                                       log.precision == "double" ? "GROMACS log 'Precision: double'" : ""},
                                      "; ");
  }
  run.details[std::string(kDeclaredSettingPrefix) + "mdrun_options"] = options.empty() ? "none" : JoinNonEmpty(options, " ");
  if (!log.version.empty())
    run.details[std::string(kDeclaredSettingPrefix) + "gromacs_release"] = log.version.substr(0, log.version.find('.'));
  run.Derive();
  return run;
}

bool SniffGromacsLog(const std::string&, std::string_view text) { return LooksLikeGromacsLog(text); }

ReaderOutput ReadGromacsLog(const ReaderInput& input) {
  const GromacsLog log = ParseGromacsLog(input.text, input.path);
  ReaderOutput output = OneRunOutput(GromacsLogToRunStats(log, input.path), input.name);
  RunStats& run = output.runs.front();
  if (auto configuration = run.details.find("gromacs_configuration"); configuration != run.details.end())
    AppendConfiguration(configuration->second, &run);
  return output;
}

}  // namespace qnm
