// ReFrame performance logs (docs/formats/reframe-perflog.md): the files a
// ReFrame campaign writes under perflogs/<system>/<partition>/<test>.log,
// one line per run (ReFrame >= 4: a header line names the fields, all
// performance variables on one line as <var>_value, <var>_unit, ...) or one
// line per performance variable (ReFrame 3, and 4's compatibility mode:
// "time|reframe 3.x|<test> on <system>:<partition> using <environ>|jobid=N|
// <var>=<value>|<unit>|ref=...|<tags>"). Each job is one run; its run time is
// the performance variable measured in a time unit (or the one --metric names).
// The lines as jobs: reframe_perflog_jobs.h; here, what a job means as a run.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "job_records/job_record_readers.h"
#include "job_records/reframe_perflog_jobs.h"
#include "textio/compressed_file.h"
#include "textio/text_lines.h"
#include "textio/time_units.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

/// How strongly a performance variable's name says it is the run's wall-clock time.
int RunTimeRank(const std::string& name) {
  std::string lower = ToLower(name);
  auto has = [&](const char* word) { return lower.find(word) != std::string::npos; };
  if (has("wall") || has("clock") || has("elapsed") || has("total")) return 3;
  if (has("runtime") || has("run_time") || has("execution")) return 2;
  if (has("time")) return 1;
  return 0;
}

/// A variable that can be the run time unasked: logged in a time unit, named for a time (a latency
/// in us is a time unit but no run time).
bool IsRunTimeCandidate(const std::string& name, const std::string& unit) {
  return SecondsPerTimeUnit(ToLower(unit)) > 0 && RunTimeRank(name) > 0;
}

/// Names compared as a user types them: case, blanks, '-' and '_' aside.
std::string Comparable(const std::string& name) {
  std::string out;
  for (char c : name)
    if (c != ' ' && c != '_' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// The performance variable that is the run time: the one --metric names, else the one
/// logged in a time unit whose name says wall-clock time most clearly.
std::string ChooseRunTimeVariable(const std::string& path, const std::vector<ReframeJob>& jobs,
                                  const std::string& metric) {
  std::vector<std::pair<std::string, std::string>> variables;  // (name, unit), first seen order
  for (const ReframeJob& job : jobs)
    for (const ReframePerfValue& perf : job.perf)
      if (std::none_of(variables.begin(), variables.end(), [&](const auto& v) { return v.first == perf.name; }))
        variables.emplace_back(perf.name, perf.unit);
  auto list = [&](bool time_only) {
    std::string out;
    for (const auto& [name, unit] : variables)
      if (!time_only || IsRunTimeCandidate(name, unit))
        out += (out.empty() ? "" : ", ") + name + " [" + unit + "]";
    return out;
  };
  if (!metric.empty()) {
    for (const auto& [name, unit] : variables)
      if (Comparable(name) == Comparable(metric)) return name;
    throw InputError(path, 0, "no performance variable '" + metric + "' (the log has " + list(false) + ")");
  }
  int best_rank = -1;
  std::vector<std::string> best;
  for (const auto& [name, unit] : variables) {
    if (!IsRunTimeCandidate(name, unit)) continue;
    const int rank = RunTimeRank(name);
    if (rank > best_rank) best.clear(), best_rank = rank;
    if (rank == best_rank) best.push_back(name);
  }
  if (best.empty())
    throw InputError(path, 0, "no performance variable names a run time in a time unit (the log has " + list(false) +
                                  "); name the run time with --metric");
  if (best.size() > 1)
    throw InputError(path, 0, "several performance variables could be the run time (" + list(true) +
                                  "); name one with --metric");
  return best.front();
}

std::optional<long long> PositiveInteger(const ReframeJob& job, const std::vector<const char*>& keys,
                                         std::string* which) {
  for (const char* key : keys) {
    auto it = job.fields.find(key);
    if (it == job.fields.end() || IsAbsentReframeValue(it->second)) continue;
    auto number = ParseInteger(it->second);
    if (number && *number > 0) {
      *which = key;
      return number;
    }
  }
  return std::nullopt;
}

/// A word of a ReFrame >= 4 display name that is a parameter, "%tasks=16": its key and value.
bool DisplayNameParameter(std::string_view word, std::string* key, std::string* value) {
  return StartsWith(word, "%") && SplitKeyValue(word.substr(1), key, value);
}

/// "%tasks=16 %cpus_per_task=2" parameters of a ReFrame >= 4 display name, keys in lower case.
std::map<std::string, std::string> DisplayNameParameters(const std::string& display_name) {
  std::map<std::string, std::string> out;
  for (std::string_view word : SplitWhitespace(display_name)) {
    std::string key, value;
    if (DisplayNameParameter(word, &key, &value)) out.emplace(ToLower(key), value);
  }
  return out;
}

bool IsProcessCountKey(const std::string& key) {
  return IsProcessCountName(key) || key == "num_tasks" || key == "tasks" || key == "ntasks" || key == "mpi";
}
bool IsThreadCountKey(const std::string& key) {
  return key == "num_cpus_per_task" || key == "cpus_per_task" || key == "omp_num_threads" || key == "num_threads" ||
         key == "threads" || key == "omp";
}
bool IsNodeCountKey(const std::string& key) { return key == "num_nodes" || key == "nodes"; }

/// The number after a word of a '_'-separated name: "N_1_MPI_16_OMP_1" -> N = 1, MPI = 16.
std::optional<long long> NumberAfterWord(const std::vector<std::string_view>& words, std::string_view word) {
  for (std::size_t k = 0; k + 1 < words.size(); ++k)
    if (words[k] == word) return ParseInteger(words[k + 1]);
  return std::nullopt;
}

/// The test's name without what changes from run to run of a scaling study: the display
/// name's numeric process, thread and node parameters and its implicit ones (%$repeat_no);
/// in a ReFrame 3 name the N_/MPI_/OMP_ words with their numbers (N_1_MPI_16_OMP_1), else a
/// closing run size (Castep_.._112_56: processes and ranks per node).
std::string SeriesName(const std::string& name, const RunStats& run) {
  std::string out;
  if (name.find(" %") != std::string::npos) {  // ReFrame >= 4 display name
    for (std::string_view word : SplitWhitespace(name)) {
      std::string key, value;
      if (DisplayNameParameter(word, &key, &value) &&
          (((IsProcessCountKey(ToLower(key)) || IsThreadCountKey(ToLower(key)) || IsNodeCountKey(ToLower(key))) &&
            ParseInteger(value)) ||  // %tasks=16 (a %mpi=openmpi is a configuration: it stays)
           (!key.empty() && !std::isalpha(static_cast<unsigned char>(key[0])) && key[0] != '_')))
        continue;  // implicit parameters of --repeat, --distribute: %$repeat_no=1 (ReFrame <= 4.6), %.repeat_no
      out += (out.empty() ? "" : " ") + std::string(word);
    }
    return out;
  }
  std::vector<std::string_view> words;
  std::vector<std::string_view> all = SplitFields(name, '_');
  for (std::size_t k = 0; k < all.size(); ++k) {
    std::string lower = ToLower(all[k]);
    if ((lower == "n" || lower == "mpi" || lower == "omp") && k + 1 < all.size() && ParseInteger(all[k + 1])) {
      ++k;  // N_1_MPI_16_OMP_1: the hackathon naming of a run's layout
      continue;
    }
    words.push_back(all[k]);
  }
  auto is = [&](std::size_t k, int count) {
    auto number = ParseInteger(words[k]);
    return count > 0 && number && *number == count;
  };
  // The run's size closes the name as "_<procs>", "_<nodes>", "_<procs>_<ranks per node>" or
  // "_<nodes>_<ranks per node>" (Castep_Al3x3_.._112_56, Openfoam_Mbike_16). Only these: in
  // Cp2k_H2O_256_8 at 8 nodes and P = 256, the 256 is the molecule count every run shares.
  std::size_t end = words.size();
  if (words.size() < all.size()) {
    // the layout is named by N_/MPI_/OMP_ words: a number closing the name is the name's own
  } else if (end >= 3 && is(end - 1, run.ranks_per_node) && (is(end - 2, run.procs) || is(end - 2, run.nodes)))
    end -= 2;
  else if (end >= 2 && (is(end - 1, run.procs) || is(end - 1, run.nodes)))
    end -= 1;
  for (std::size_t k = 0; k < end; ++k) out += (out.empty() ? "" : "_") + std::string(words[k]);
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? name : out;
}

/// What a performance variable's unit makes of its value as a run time: a time ("s", "ms"), a time
/// per unit of work ("hour/ns"), or a rate whose inverse is one ("ns/day", "Gflop/s", "/s"): in a
/// strong-scaling series every run does the same work, so time per unit of work scales as the run
/// time does. Empty when the unit is none of these.
std::string UnitMeaning(const std::string& unit) {
  std::string lower = ToLower(unit);
  if (lower.empty()) return "no unit: seconds assumed";
  if (SecondsPerTimeUnit(lower) > 0) return unit;
  std::size_t slash = lower.find('/');
  if (slash == std::string::npos) return "";
  std::string per = unit.substr(slash + 1), of = unit.substr(0, slash);
  if (SecondsPerTimeUnit(lower.substr(0, slash)) > 0) return unit + ": time per " + per + ", scales as the run time";
  if (SecondsPerTimeUnit(lower.substr(slash + 1)) > 0)
    return unit + ", a rate: its inverse, seconds per " + (of.empty() ? std::string("unit of work") : of) +
           ", scales as the run time";
  return "";
}

/// The value in seconds (of the run, or per unit of work) by UnitMeaning; nullopt when it is none.
std::optional<double> SecondsOf(const std::string& unit, double value) {
  std::string lower = ToLower(unit);
  if (!std::isfinite(value) || value < 0 || UnitMeaning(unit).empty()) return std::nullopt;
  if (lower.empty()) return value;
  if (double s = SecondsPerTimeUnit(lower); s > 0) return value * s;
  std::size_t slash = lower.find('/');
  if (double s = SecondsPerTimeUnit(lower.substr(0, slash)); s > 0) return value * s;
  if (value <= 0) return std::nullopt;  // a rate of zero: no time
  return SecondsPerTimeUnit(lower.substr(slash + 1)) / value;
}

/// "test case 7: " for a run report's job (no line to name), else nothing (the line says where).
std::string Where(const ReframeJob& job) {
  return job.line > 0 ? std::string() : "test case " + job.fields.at("report_case") + ": ";
}

RunStats JobToRun(const std::string& path, const ReframeJob& job, const ReframePerfValue& time) {
  RunStats run;
  run.sources.push_back(path);
  run.origin = job.line > 0 ? "line " + std::to_string(job.line) : "case " + job.fields.at("report_case");
  auto field = [&](const char* key) {
    auto it = job.fields.find(key);
    return it == job.fields.end() || IsAbsentReframeValue(it->second) ? std::string() : it->second;
  };
  std::string name = field("display_name");
  if (name.empty()) name = field("name");
  if (name.empty()) name = field("short_name");
  if (name.empty()) {  // a format without the test's name: ReFrame names the file after the test
    name = BaseName(WithoutCompressionSuffix(path));
    if (EndsWith(name, ".log")) name.resize(name.size() - 4);
  }
  if (std::string jobid = field("jobid"); !jobid.empty())  // the batch job of this test: one measurement,
    run.origin = std::string(kMeasurementOrigin) + "reframe|" + field("system") + ":" + field("partition") + "|" +
                 field("environ") + "|" + name + "|" + jobid;  // whichever file (perflog, run report) holds it
  const std::map<std::string, std::string> parameters = DisplayNameParameters(name);
  std::vector<std::string_view> words = SplitFields(name, '_');

  // Processes: ReFrame's num_tasks, a key=value field or tag, a display-name parameter, the name.
  std::string which;
  std::optional<long long> procs =
      PositiveInteger(job, kReframeProcessFields, &which);
  std::string how = "ReFrame field " + which;
  if (!procs)
    for (const auto& [key, value] : parameters)
      if (IsProcessCountKey(key) && (procs = ParseInteger(value)) && *procs > 0) {
        how = "ReFrame display name parameter %" + key;
        break;
      }
  std::optional<long long> name_nodes = NumberAfterWord(words, "N"), name_mpi = NumberAfterWord(words, "MPI");
  if (!procs && name_mpi && *name_mpi > 0) {
    if (name_nodes && *name_nodes > 1)
      throw InputError(path, job.line, Where(job) + "the test name says N_" + std::to_string(*name_nodes) + "_MPI_" +
                                           std::to_string(*name_mpi) + " but not whether MPI counts processes in all "
                                           "or per node; give the runs as a table (procs, nodes)");
    procs = name_mpi;
    how = "ReFrame test name MPI_" + std::to_string(*name_mpi) + " on one node";
  }
  if (!procs || *procs > (1LL << 30))
    throw InputError(path, job.line,
                     Where(job) + "no process count: no num_tasks field, num_procs tag or %tasks parameter");
  run.procs = static_cast<int>(*procs);
  run.derivations["procs"] = how;

  // Threads per process: OMP_NUM_THREADS (env_vars, a tag), num_cpus_per_task, a parameter, OMP_<k>.
  std::optional<long long> threads;
  std::string env = field("env_vars");
  std::size_t omp = env.find("OMP_NUM_THREADS");
  if (omp != std::string::npos) {
    std::size_t digit = env.find_first_of("0123456789", omp + 15);
    if (digit != std::string::npos && digit < omp + 22) {
      threads = ParseInteger(std::string_view(env).substr(digit, env.find_first_not_of("0123456789", digit) - digit));
      which = "env_vars OMP_NUM_THREADS";
    }
  }
  if (!threads || *threads <= 0)
    if ((threads = PositiveInteger(job, kReframeThreadFields, &which)))
      which = "field " + which;
  if (!threads)
    for (const auto& [key, value] : parameters)
      if (IsThreadCountKey(key) && (threads = ParseInteger(value)) && *threads > 0) {
        which = "display name parameter %" + key;
        break;
      }
  if (!threads) {
    threads = NumberAfterWord(words, "OMP");
    which = "test name OMP_<k>";
  }
  if (threads && *threads > 0 && *threads <= 1 << 20) {
    run.threads_per_proc = static_cast<int>(*threads);
    run.derivations["threads_per_proc"] = "ReFrame " + which;
  }

  // Nodes: num_nodes, the job's node list, N_<n> of the name; ranks per node: num_tasks_per_node.
  // ReFrame joins a list with ',' ("nid001,nid002"); a Python list repr is read too.
  if (std::string list = field("job_nodelist"); !list.empty()) {
    std::string_view inner = list;
    if (inner.size() >= 2 && inner.front() == '[' && inner.back() == ']') inner = inner.substr(1, inner.size() - 2);
    for (std::string_view host : SplitFields(inner, ',')) {
      if (host.size() >= 2 && (host.front() == '\'' || host.front() == '"')) host = host.substr(1, host.size() - 2);
      if (!host.empty() && host.find_first_of(" \t") == std::string_view::npos) run.hosts.emplace_back(host);
    }
  }
  std::optional<long long> per_node = PositiveInteger(job, kReframeRanksPerNodeFields, &which);
  if (per_node && *per_node <= run.procs) {
    run.SetRanksPerNode(static_cast<int>(*per_node), "ReFrame field " + which);
  } else if (auto nodes = PositiveInteger(job, kReframeNodeFields, &which); nodes && *nodes <= run.procs) {
    run.SetNodes(static_cast<int>(*nodes), "ReFrame field " + which);
  } else if (!run.hosts.empty() && static_cast<long long>(run.hosts.size()) <= run.procs) {
    run.SetNodes(static_cast<int>(run.hosts.size()), "ReFrame job_nodelist");
  } else if (name_nodes && *name_nodes > 0 && *name_nodes <= run.procs) {
    run.SetNodes(static_cast<int>(*name_nodes), "ReFrame test name N_<n>");
  }

  run.app = SeriesName(name, run);
  run.derivations["app"] = "ReFrame test name without its process, thread and node counts";
  std::string system = field("system"), partition = field("partition");
  if (system.empty()) system = field("system:partition");  // '%(check_system)s:%(check_partition)s' as one field
  if (!system.empty()) {
    run.machine = partition.empty() ? system : system + ":" + partition;
    run.derivations["machine"] = "ReFrame system:partition";
  }
  if (std::string environ = field("environ"); !environ.empty()) {
    run.variant = environ;
    run.derivations["variant"] = "ReFrame programming environment";
  }

  auto value = ParseDouble(time.value);
  std::optional<double> seconds = value ? SecondsOf(time.unit, *value) : std::nullopt;
  if (!seconds)
    throw InputError(path, job.line,
                     Where(job) + "performance variable '" + time.name + "' = '" + time.value + "' " + time.unit +
                         " is not a non-negative time" +
                         (UnitMeaning(time.unit).empty() ? "" : " (nor a positive rate)"));
  run.wall_time_s = *seconds;
  run.derivations["wall_time_s"] = "ReFrame performance variable '" + time.name + "' (" + UnitMeaning(time.unit) + ")";
  // "reframe 3.2-dev1 (rev: 774134ee)" -> "3.2-dev1"; ReFrame 4's default format has no version.
  std::string version = field("version");
  if (version.empty()) version = field("reframe version");
  if (StartsWith(version, "reframe ")) version = version.substr(8);
  version = version.substr(0, version.find(' '));
  run.tool_version = "ReFrame " + (version.empty() ? std::string(">= 4") : version);
  for (const char* key : {"jobid", "job_completion_time", "result", "job_nodelist"})
    if (std::string text = field(key); !text.empty()) run.details[std::string("reframe_") + key] = text;
  for (const ReframePerfValue& perf : job.perf)
    if (perf.name != time.name && !IsAbsentReframeValue(perf.value))
      run.details["reframe_perf_" + perf.name] = perf.value + (perf.unit.empty() ? "" : " " + perf.unit);
  if (!job.tags.empty()) {
    std::string tags;
    for (const std::string& tag : job.tags) tags += (tags.empty() ? "" : ",") + tag;
    run.details["reframe_tags"] = tags;
  }
  run.Derive();
  return run;
}

}  // namespace

bool SniffReframePerflog(const std::string&, std::string_view text) { return LooksLikeReframePerflog(text); }

namespace {

/// The runs of a log's or report's jobs: each job with a value of the run-time variable is a run.
/// Its runs share their equal derivations and identity texts (record/text_map.h, shared_text.h).
ReaderOutput RunsOfJobs(const ReaderInput& input, std::vector<ReframeJob> jobs, const char* what) {
  const std::string& path = input.path;
  if (jobs.empty()) throw InputError(path, 0, std::string("a ") + what + " without runs");
  const std::string metric = input.selection ? input.selection->metric : std::string();
  const std::string variable = ChooseRunTimeVariable(path, jobs, metric);

  ReaderOutput output;
  int without_value = 0;
  const std::size_t job_count = jobs.size();
  std::string unit;
  TextMapPool shared_maps;
  SharedTextPool shared_texts;
  for (ReframeJob& job : jobs) {
    auto perf = std::find_if(job.perf.begin(), job.perf.end(),
                             [&](const ReframePerfValue& p) { return p.name == variable; });
    if (perf == job.perf.end() || IsAbsentReframeValue(perf->value)) {
      ++without_value;  // a failed run (ReFrame logs None) or a job that logged other variables only
      continue;
    }
    output.runs.push_back(JobToRun(path, job, *perf));
    output.runs.back().derivations.ShareWith(&shared_maps);
    ShareIdentityTexts(&output.runs.back(), &shared_texts);
    unit = perf->unit;
    job = ReframeJob();  // its memory goes back as the runs grow (a 60 MB log holds 220,000 jobs)
  }
  if (output.runs.empty())
    throw InputError(path, 0, "no run with a value of '" + variable + "' (" + std::to_string(without_value) +
                                  " jobs logged it as None: failed runs)");
  output.readings.push_back(std::string(what) + ": run time from performance variable '" + variable + "' [" +
                            UnitMeaning(unit) + "]" + (metric.empty() ? "; --metric names another" : ""));
  if (without_value > 0)
    output.notes.push_back(path + ": " + std::to_string(without_value) + " of " + std::to_string(job_count) +
                           " ReFrame jobs without a value of '" + variable + "' (failed runs) left out");
  return output;
}

}  // namespace

ReaderOutput ReadReframePerflog(const ReaderInput& input) {
  return RunsOfJobs(input, ReadReframePerflogJobs(input.path, input.text), "ReFrame perflog");
}

bool SniffReframeRunReport(const std::string& path, std::string_view text) {
  return LooksLikeReframeRunReport(path, text);
}

ReaderOutput ReadReframeRunReport(const ReaderInput& input) {
  return RunsOfJobs(input, ReadReframeRunReportJobs(input.path, input.text), "ReFrame run report");
}

}  // namespace qnm
