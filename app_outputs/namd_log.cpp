// NAMD logs (namd_log.h, docs/formats/namd-log.md).
#include "app_outputs/namd_log.h"

#include <algorithm>
#include <cmath>
#include <numeric>
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

constexpr std::size_t kSniffLines = 400;  // a job script's own lines and Charm++'s start-up come first

// "Info: NAMD 2.14 for Linux-x86_64-MPI" (NAMD's main.C prints "NAMD <version> for <platform>").
bool IsBanner(const std::vector<std::string_view>& w) {
  return w.size() >= 5 && w[0] == "Info:" && w[1] == "NAMD" && w[3] == "for";
}

// Lines Charm++ or charmrun print first when an execution starts: after a banner they open the next one.
bool IsStartLine(std::string_view t) {
  return StartsWith(t, "Charm++: standalone mode") || StartsWith(t, "Charm++> Running in ") ||
         StartsWith(t, "Charmrun>") || StartsWith(t, "charmrun>") || StartsWith(t, "Charm++> No provisioning");
}

// "4," -> "4"; "nodes." -> "nodes".
std::string_view Bare(std::string_view word) {
  while (!word.empty() && (word.back() == ',' || word.back() == '.' || word.back() == ':')) word.remove_suffix(1);
  return word;
}

// The network layers Charm++ builds name first in their machine name ("ucx-linux-x86_64-ompipmix-smp").
constexpr const char* kLayers[] = {"mpi", "verbs", "ucx", "ofi", "netlrts", "net", "multicore", "gni", "pamilrts", "lapi"};

std::string LayerOfWord(std::string word) {
  word = ToLower(word);
  if (word == "ibverbs") return "verbs";
  for (const char* layer : kLayers)
    if (word == layer) return layer;
  return {};
}

void ReadLine(std::string_view t, int line, const std::string& path, NamdExecution* e) {
  const std::vector<std::string_view> w = SplitWhitespace(t);
  if (w.empty()) return;
  if (IsBanner(w)) {
    e->banner_line = line;
    e->version = std::string(w[2]);
    e->platform = std::string(w[4]);
    if (ToLower(e->platform).find("cuda") != std::string::npos) e->cuda = true;
    if (ToLower(e->platform).find("hip") != std::string::npos) e->hip = true;
  } else if (StartsWith(t, "Info: Based on Charm++/Converse") && w.size() >= 7 && w[5] == "for") {
    e->charm_machine = std::string(w[6]);
  } else if (StartsWith(t, "Charm++> Running on MPI version:") && w.size() >= 6) {
    e->mpi_version = std::string(w[5]);
  } else if (StartsWith(t, "Charm++> Running in SMP mode:") && w.size() >= 8) {
    // "4 processes, 31 worker threads (PEs) + 1 comm threads per process, 124 PEs total" (Charm++ 6.9 on),
    // "numNodes 4,  31 worker threads per process" (before).
    const bool old_form = w[5] == "numNodes";
    if (old_form && w.size() < 9) return;
    e->smp_processes = WholeCount(Bare(w[old_form ? 6 : 5]), path, line, "'Running in SMP mode: P processes'", 1);
    e->smp_worker_threads = WholeCount(w[7], path, line, "'T worker threads'", 1);
  } else if (StartsWith(t, "Charm++> Running in Multicore mode:") && w.size() >= 6) {
    e->multicore_pes = WholeCount(w[5], path, line, "'Running in Multicore mode: N threads'", 1);
  } else if (StartsWith(t, "Charm++> Running in non-SMP mode:") && w.size() >= 6) {
    const bool old_form = w[5] == "numPes";
    if (old_form && w.size() < 7) return;
    e->non_smp_pes = WholeCount(w[old_form ? 6 : 5], path, line, "'Running in non-SMP mode: N processes'", 1);
  } else if (StartsWith(t, "Charm++> Running on ") && w.size() >= 5 &&
             (StartsWith(w[4], "host") || w[4] == "unique")) {
    e->hosts = WholeCount(w[3], path, line, "'Running on N hosts'", 1);
  } else if (StartsWith(t, "Info: Running on ") && w.size() >= 9 && StartsWith(w[4], "processors") &&
             StartsWith(w[6], "nodes") && w[8] == "physical") {
    e->running_line = line;
    e->pes = WholeCount(w[3], path, line, "'Info: Running on N processors'", 1);
    e->charm_nodes = WholeCount(w[5], path, line, "'Info: Running on ... M nodes'", 1);
    e->physical_nodes = WholeCount(w[7], path, line, "'Info: Running on ... K physical nodes'", 1);
  } else if (w.size() == 8 && w[0] == "Info:" && w[2] == "NAMD" && ParseInteger(w[1]) && e->host.empty()) {
    e->host = std::string(w[6]);  // "Info: 1 NAMD  3.0.2  Linux-x86_64-multicore  24  <host>  <user>"
  } else if (t.find("will use CUDA device") != std::string_view::npos ||
             t.find("binding to CUDA device") != std::string_view::npos) {
    e->cuda = true;
  } else if (t.find("binding to HIP device") != std::string_view::npos ||
             t.find("will use HIP device") != std::string_view::npos) {
    e->hip = true;
  } else if (StartsWith(t, "Info: Configuration file is ") && e->config_file.empty()) {
    e->config_file = std::string(Trim(t.substr(28)));
  } else if (w.size() == 3 && w[0] == "Info:" && w[2] == "ATOMS" && e->atoms == 0) {
    e->atoms = WholeNumber(w[1], path, line, "'Info: N ATOMS'", 1);
  } else if (w.size() == 3 && w[0] == "Info:" && w[1] == "TIMESTEP" && e->timestep_fs.empty()) {
    NonNegativeNumber(w[2], path, line, "'Info: TIMESTEP'");
    e->timestep_fs = std::string(w[2]);
  } else if (w.size() == 5 && StartsWith(t, "Info: NUMBER OF STEPS") && e->number_of_steps < 0) {
    e->number_of_steps = WholeNumber(w[4], path, line, "'Info: NUMBER OF STEPS'", 0);
  } else if (w.size() == 5 && StartsWith(t, "Info: FIRST LDB TIMESTEP") && e->first_ldb_step < 0) {
    e->first_ldb_step = WholeNumber(w[4], path, line, "'Info: FIRST LDB TIMESTEP'", 0);
  } else if (w.size() == 7 && StartsWith(t, "Info: PME GRID DIMENSIONS") && e->pme_grid.empty()) {
    e->pme_grid = std::string(w[4]) + " " + std::string(w[5]) + " " + std::string(w[6]);
  } else if (w.size() == 3 && w[0] == "Info:" && w[1] == "CUTOFF" && e->cutoff.empty()) {
    e->cutoff = std::string(w[2]);
  } else if (w.size() >= 5 && w[0] == "TCL:" && (w[1] == "Running" || w[1] == "Minimizing") && w[2] == "for") {
    long long& sum = w[1] == "Running" ? e->tcl_run_steps : e->minimize_steps;
    sum = std::max(0LL, sum) + WholeNumber(w[3], path, line, "'TCL: Running for N steps'", 0);
  } else if (StartsWith(t, "Info: Benchmark time:") && w.size() >= 9) {
    e->benchmark_s_per_step.push_back(NonNegativeNumber(w[5], path, line, "'Benchmark time' s/step"));
    const double rate = NonNegativeNumber(w[7], path, line, "'Benchmark time' days/ns");
    if (w[8] == "days/ns") e->benchmark_days_per_ns.push_back(rate);
    else if (w[8] == "ns/day" && rate > 0) e->benchmark_days_per_ns.push_back(1 / rate);
  } else if (w[0] == "WallClock:" && e->wallclock_line == 0) {
    if (w.size() < 4 || w[2] != "CPUTime:") throw InputError(path, line, "malformed 'WallClock: <s>  CPUTime: <s>' line");
    e->wallclock_line = line;
    e->wallclock_s = NonNegativeNumber(w[1], path, line, "'WallClock:'");
    e->cpu_time_s = NonNegativeNumber(w[3], path, line, "'CPUTime:'");
    if (w.size() >= 6 && w[4] == "Memory:") e->memory_mb = NonNegativeNumber(w[5], path, line, "'Memory:'");
  } else if (t.find("End of program") != std::string_view::npos) {
    e->end_of_program = true;
  } else if (StartsWith(t, "FATAL ERROR:") && e->fatal_line == 0) {
    e->fatal_line = line;
    e->fatal = std::string(Trim(t.substr(12)));
  } else if (t.find("Exiting: Called CmiAbort") != std::string_view::npos) {
    e->cmi_abort = true;
  } else if (e->cmi_abort && StartsWith(t, "Reason:") && e->fatal_line == 0) {
    e->fatal_line = line;
    e->fatal = std::string(Trim(t.substr(7)));
  } else if (StartsWith(t, "[") && EndsWith(t, "Stack Traceback:") && e->traceback_line == 0) {
    e->traceback_line = line;
  }
}

// The mean of the values; unknown when there are none or they overflow (a damaged log's huge numbers).
double Mean(const std::vector<double>& values) {
  if (values.empty()) return kUnknown;
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  return std::isfinite(mean) ? mean : kUnknown;
}

// "06-00-md-NPT.namd" -> "06-00-md-NPT"; the folder is not part of the input's name.
std::string ConfigName(const std::string& file) {
  std::string name = BaseName(file);
  for (const char* ext : {".namd", ".conf", ".inp", ".config"})
    if (EndsWith(ToLower(name), ext) && name.size() > std::string(ext).size()) {
      name.resize(name.size() - std::string(ext).size());
      break;
    }
  return name;
}

}  // namespace

std::string NamdNetworkLayer(const NamdExecution& e) {
  if (!e.charm_machine.empty()) {
    const std::string layer = LayerOfWord(e.charm_machine.substr(0, e.charm_machine.find('-')));
    if (!layer.empty()) return layer;
  }
  for (std::string_view word : SplitFields(e.platform, '-'))
    if (std::string layer = LayerOfWord(std::string(word)); !layer.empty()) return layer;
  if (e.multicore_pes > 0) return "multicore";
  if (!e.mpi_version.empty()) return "mpi";
  return {};
}

bool NamdSmpBuild(const NamdExecution& e) {
  if (e.smp_processes > 0) return true;
  if (e.multicore_pes > 0 || e.non_smp_pes > 0) return false;
  const std::string words = ToLower(e.charm_machine + " " + e.platform);
  return words.find("-smp") != std::string::npos;
}

bool LooksLikeNamdLog(std::string_view text) {
  std::size_t start = 0;
  for (std::size_t n = 0; n < kSniffLines && start < text.size(); ++n) {
    std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (StartsWith(Trim(line), "Info: NAMD ") && IsBanner(SplitWhitespace(line))) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

std::vector<NamdExecution> ParseNamdLog(std::string_view text, const std::string& path) {
  std::vector<NamdExecution> executions;
  const std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    const bool banner = StartsWith(t, "Info: NAMD ") && IsBanner(SplitWhitespace(t));
    if (banner || IsStartLine(t)) {
      // The next execution: the first, or one after a finished one or after a banner (the one before
      // stopped without its WallClock line).
      if (executions.empty() || executions.back().wallclock_line > 0 || executions.back().banner_line > 0) {
        executions.emplace_back();
        executions.back().line = line;
      }
    }
    if (executions.empty()) continue;  // a job script's own lines before NAMD's
    ReadLine(t, line, path, &executions.back());
  }
  executions.erase(std::remove_if(executions.begin(), executions.end(),
                                  [](const NamdExecution& e) { return e.banner_line == 0; }),
                   executions.end());
  if (executions.empty()) throw InputError(path, 0, "NAMD log without NAMD's banner ('Info: NAMD <version> for <platform>')");
  return executions;
}

RunStats NamdExecutionToRunStats(const NamdExecution& e, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  run.app = "namd";
  run.tool_version = "NAMD " + e.version;
  run.derivations["app"] = "NAMD banner: NAMD " + e.version + " for " + e.platform + " (line " +
                           std::to_string(e.banner_line) + ")";
  const int pes = e.pes > 0 ? e.pes
                  : e.multicore_pes > 0 ? e.multicore_pes
                  : e.non_smp_pes > 0 ? e.non_smp_pes
                                      : e.smp_processes * e.smp_worker_threads;
  if (pes <= 0)
    throw InputError(path, e.banner_line, "NAMD log without a process count (no 'Info: Running on N processors' line)");
  const std::string layer = NamdNetworkLayer(e);
  const bool smp = NamdSmpBuild(e);
  const int processes = e.smp_processes > 0 ? e.smp_processes : e.charm_nodes;
  if (smp && processes > 0 && processes <= pes) {
    run.procs = processes;
    run.threads_per_proc = e.smp_worker_threads > 0 ? e.smp_worker_threads : std::max(1, pes / processes);
    run.derivations["procs"] = e.smp_processes > 0 ? "Charm++ 'Running in SMP mode' line, its P processes (an SMP build)"
                                                   : "NAMD 'Running on N processors, M nodes' line, its M processes (an SMP build)";
    run.derivations["threads_per_proc"] =
        e.smp_worker_threads > 0 ? "Charm++ 'T worker threads (PEs)' per process (the comm thread not counted)"
                                 : "NAMD PEs / processes";
  } else if (layer == "multicore" || e.multicore_pes > 0) {
    run.procs = pes;
    run.derivations["procs"] = "NAMD 'Running on N processors' line, its N PEs (worker threads of one multicore process)";
    run.derivations["threads_per_proc"] = "NAMD multicore build, each PE counted as a process";
  } else {
    run.procs = pes;
    run.derivations["procs"] = "NAMD 'Running on N processors' line, its N PEs, one process each" +
                               std::string(layer == "mpi" ? " (MPI ranks)" : "");
    run.derivations["threads_per_proc"] = "NAMD non-SMP build, one PE per process";
  }
  if (e.physical_nodes > 0) run.SetNodes(e.physical_nodes, "NAMD 'Running on ... K physical nodes' line");
  else if (e.hosts > 0) run.SetNodes(e.hosts, "Charm++ 'Running on N hosts'");
  if (!e.host.empty())
    ApplyHosts({e.host}, "NAMD start-up line '1 NAMD <version> <platform> <PEs> <host> <user>' (process 0's host)", &run);

  run.wall_time_s = e.wallclock_s;
  run.app_time_mean_s = e.wallclock_s;
  run.derivations["wall_time_s"] = "NAMD WallClock line " + std::to_string(e.wallclock_line) +
                                   ", from NAMD's start to its exit, start-up and file reading included";
  run.derivations["app_time_mean_s"] = "NAMD WallClock line, as wall_time_s";
  const long long steps = e.tcl_run_steps >= 0 ? e.tcl_run_steps : e.number_of_steps;
  if (steps >= 0) run.iterations = static_cast<int>(std::min<long long>(steps, 1LL << 30));

  run.details["namd_cpu_time_s"] = NumberText(e.cpu_time_s);
  if (Known(e.memory_mb)) run.details["namd_memory_mb"] = NumberText(e.memory_mb);
  run.details["namd_end_of_program"] = e.end_of_program ? "yes" : "no";
  run.details["namd_platform"] = e.platform;
  if (!e.charm_machine.empty()) run.details["namd_charm_machine"] = e.charm_machine;
  if (!layer.empty()) run.details["namd_network"] = layer + (smp ? "-smp" : "");
  run.details["namd_pes"] = std::to_string(pes);
  if (e.charm_nodes > 0) run.details["namd_charm_nodes"] = std::to_string(e.charm_nodes);
  if (e.hosts > 0) run.details["namd_hosts"] = std::to_string(e.hosts);
  if (!e.config_file.empty()) run.details["namd_config_file"] = e.config_file;
  if (steps >= 0) run.details["namd_steps"] = std::to_string(steps);
  if (Known(Mean(e.benchmark_s_per_step))) {
    run.details["namd_benchmark_lines"] = std::to_string(e.benchmark_s_per_step.size());
    run.details["namd_benchmark_s_per_step"] = NumberText(Mean(e.benchmark_s_per_step));
    if (const double days_per_ns = Mean(e.benchmark_days_per_ns); Known(days_per_ns)) {
      run.details["namd_benchmark_days_per_ns"] = NumberText(days_per_ns);
      if (days_per_ns > 0) run.details["namd_benchmark_ns_per_day"] = NumberText(1 / days_per_ns);
    }
    const std::string window = e.first_ldb_step > 0 ? std::to_string(e.first_ldb_step) : "'FIRST LDB TIMESTEP'";
    run.derivations["namd_benchmark_s_per_step"] =
        "NAMD 'Benchmark time' lines, their mean; each times the " + window +
        " steps before it; they follow the three 'Initial time:' windows, from step 3x" + window +
        " to 9x" + window + " of each run command, after the first load balancing";
  }

  // The problem: the configuration file's name and what the log prints of the system and the run.
  std::vector<std::string> words;
  if (!e.config_file.empty()) words.push_back(ConfigName(e.config_file));
  if (e.atoms > 0) words.push_back(std::to_string(e.atoms) + " atoms");
  if (steps >= 0) words.push_back(std::to_string(steps) + " steps");
  if (e.minimize_steps >= 0) words.push_back(std::to_string(e.minimize_steps) + " minimization steps");
  if (!e.timestep_fs.empty()) words.push_back("dt " + e.timestep_fs + " fs");
  if (!e.pme_grid.empty()) words.push_back("PME " + e.pme_grid);
  if (!e.cutoff.empty()) words.push_back("cutoff " + e.cutoff);
  run.problem_class = JoinNonEmpty(words, " ");
  run.derivations["problem_class"] =
      "NAMD log: 'Configuration file is', 'N ATOMS', the steps of 'Running for' (else 'NUMBER OF STEPS'), "
      "'Minimizing for', 'TIMESTEP', 'PME GRID DIMENSIONS', 'CUTOFF'";
  // The configuration: the release and its build (network layer, SMP, GPUs): one input run by two builds
  // is two series.
  const std::string configuration =
      JoinNonEmpty({"namd" + e.version, layer.empty() ? "" : layer + (smp ? "-smp" : ""), e.cuda ? "cuda" : "",
                    e.hip ? "hip" : ""},
                   " ");
  run.details["namd_configuration"] = configuration;
  run.derivations["variant"] = "NAMD banner: the version and platform, the Charm++ machine name (network layer, SMP)" +
                               std::string(e.cuda || e.hip ? ", the GPU devices NAMD bound" : "");
  run.Derive();
  return run;
}

bool SniffNamdLog(const std::string&, std::string_view text) { return LooksLikeNamdLog(text); }

namespace {

// Why an execution did not finish, and the line that shows it; empty when it finished.
std::string NamdExecutionUnfinished(const NamdExecution& e, int* line) {
  if (e.wallclock_line > 0) return {};
  if (e.fatal_line > 0) {
    *line = e.fatal_line;
    return "NAMD stopped before it finished (no 'WallClock:' line): '" + e.fatal + "'";
  }
  if (e.traceback_line > 0) {
    *line = e.traceback_line;
    return "NAMD crashed before it finished: a process printed Charm++'s stack traceback (no 'WallClock:' line)";
  }
  *line = e.line;
  return "NAMD execution without its closing 'WallClock:' line: it did not finish (killed, out of time, or the log "
         "was cut)";
}

}  // namespace

ReaderOutput ReadNamdLog(const ReaderInput& input) {
  return FinishedRunsOutput(
      input, ParseNamdLog(input.text, input.path), NamdExecutionUnfinished,
      [&](const NamdExecution& e) { return NamdExecutionToRunStats(e, input.path); },
      [](const NamdExecution&, RunStats* run) { AppendConfiguration(run->details.at("namd_configuration"), run); },
      "NAMD executions did not finish");
}

}  // namespace qnm
