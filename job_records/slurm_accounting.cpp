// Slurm accounting tables (slurm_accounting.h, docs/formats/slurm-sacct.md).
#include "job_records/slurm_accounting.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "job_records/job_record_readers.h"
#include "job_records/slurm_accounting_json.h"
#include "launch/launch_command.h"
#include "reader/batch_job_text.h"
#include "reader/host_names.h"
#include "reader/run_stats_check.h"
#include "reader/series_identity.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

// Fields whose presence says a header is sacct's (its --helpformat names, lower case).
const std::set<std::string>& TimeOrStateFields() {
  static const std::set<std::string> fields = {"elapsed", "elapsedraw", "state"};
  return fields;
}

// Step names of MPI launchers' daemons: mpirun (Open MPI's orted/prted, MPICH's and Intel MPI's
// hydra proxies) starts one per node with srun, so the step's tasks are nodes, not processes.
bool IsLauncherDaemon(const std::string& name) {
  static const std::set<std::string> daemons = {"orted", "prted", "hydra_bstrap_proxy", "hydra_pmi_proxy",
                                                "pmi_proxy", "mpispawn"};
  return daemons.count(name) > 0;
}

std::string_view FirstLine(std::string_view text, std::size_t* next) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!Trim(line).empty()) {
      if (next) *next = end + 1;
      return line;
    }
    start = end + 1;
  }
  if (next) *next = text.size();
  return {};
}

std::vector<std::string> BarFields(std::string_view line) {
  std::vector<std::string> fields;
  for (std::string_view field : SplitFields(line, '|')) fields.push_back(ToLower(std::string(Trim(field))));
  return fields;
}

bool IsDashLine(std::string_view line) {
  line = Trim(line);
  return !line.empty() && line.find('-') != std::string_view::npos &&
         line.find_first_not_of("- ") == std::string_view::npos;
}

bool IsSacctHeader(const std::vector<std::string>& fields) {
  const bool job_id = std::find(fields.begin(), fields.end(), "jobid") != fields.end() ||
                      std::find(fields.begin(), fields.end(), "jobidraw") != fields.end();
  const bool time_or_state = std::any_of(fields.begin(), fields.end(), [](const std::string& f) {
    return TimeOrStateFields().count(f) > 0;
  });
  return job_id && time_or_state;
}

std::vector<std::string> WhitespaceFields(std::string_view line) {
  std::vector<std::string> fields;
  for (std::string_view word : SplitWhitespace(line)) fields.push_back(ToLower(std::string(word)));
  return fields;
}

// A job id: "1234", "1234_7", "1234_[1-5]" (an array's pending tasks), "1234+1", each with an
// optional ".step". Splits it into the allocation's id and the step; false when it is none.
bool SplitJobId(const std::string& id, std::string* job, std::string* step) {
  const std::size_t dot = id.find('.');
  *job = id.substr(0, dot);
  *step = dot == std::string::npos ? "" : id.substr(dot + 1);
  std::size_t digits = 0;
  while (digits < job->size() && std::isdigit(static_cast<unsigned char>((*job)[digits]))) ++digits;
  if (digits == 0) return false;
  const std::string rest = job->substr(digits);
  const bool rest_ok = rest.empty() || ((rest[0] == '_' || rest[0] == '+') &&
                                        (AllDigits(std::string_view(rest).substr(1)) ||
                                         (rest.size() > 3 && rest[1] == '[' && rest.back() == ']')));
  const bool step_ok = dot == std::string::npos ||
                       (!step->empty() && std::all_of(step->begin(), step->end(), [](unsigned char c) {
                         return std::isalnum(c) || c == '_' || c == '+';
                       }));
  return rest_ok && step_ok;
}

[[noreturn]] void Fail(const std::string& path, const SacctRow& row, const std::string& why) {
  throw InputError(path, row.line, "job " + row.job_id + ": " + why);
}

// A positive count of `field` (NTasks, NNodes, AllocCPUS), or 0 when the row leaves it empty.
int Count(const SacctRow& row, const std::string& field, const std::string& path) {
  const std::string& text = row.Value(field);
  if (text.empty()) return 0;
  const std::optional<long long> value = ParseInteger(text);
  if (!value || *value <= 0 || *value > (1 << 30))
    Fail(path, row, "field " + field + " needs a positive count, got '" + text.substr(0, 40) + "'");
  return static_cast<int>(*value);
}

std::string StateOf(const SacctRow& row) { return row.Value("state"); }

}  // namespace

const std::string& SacctRow::Value(const std::string& name) const {
  static const std::string kNone;
  const auto it = values.find(name);
  return it == values.end() ? kNone : it->second;
}

bool SacctTable::Has(const std::string& field) const {
  return std::find(fields.begin(), fields.end(), field) != fields.end();
}

bool LooksLikeSacctTable(std::string_view text) {
  std::size_t next = 0;
  const std::string_view header = FirstLine(text, &next);
  if (header.size() > 4096) return false;
  if (header.find('|') != std::string_view::npos) return IsSacctHeader(BarFields(header));
  if (!IsSacctHeader(WhitespaceFields(header))) return false;
  return IsDashLine(FirstLine(text.substr(std::min(next, text.size())), nullptr));
}

SacctTable ParseSacctTable(std::string_view text, const std::string& path) {
  SacctTable table;
  const std::vector<std::string_view> lines = SplitLines(text);
  std::size_t i = 0;
  while (i < lines.size() && Trim(lines[i]).empty()) ++i;
  if (i == lines.size()) throw InputError(path, 0, "empty file: no sacct table");
  table.header_line = static_cast<int>(i + 1);
  const std::string_view header = lines[i];
  std::vector<std::pair<std::size_t, std::size_t>> columns;  // the default table's [begin, end)
  bool closing_bar = false;
  if (header.find('|') != std::string_view::npos) {
    table.fields = BarFields(header);
    if (table.fields.size() > 1 && table.fields.back().empty()) {  // --parsable closes every line with '|'
      closing_bar = true;
      table.fields.pop_back();
    }
  } else {
    table.layout = SacctTable::Layout::kFixedWidth;
    table.fields = WhitespaceFields(header);
    ++i;
    while (i < lines.size() && Trim(lines[i]).empty()) ++i;
    if (i == lines.size() || !IsDashLine(lines[i]))
      throw InputError(path, table.header_line, "a sacct header without its line of dashes under it");
    const std::string_view dashes = lines[i];
    for (std::size_t c = 0; c < dashes.size();) {
      if (dashes[c] != '-') {
        ++c;
        continue;
      }
      const std::size_t begin = c;
      while (c < dashes.size() && dashes[c] == '-') ++c;
      columns.emplace_back(begin, c);
    }
    if (columns.size() != table.fields.size())
      throw InputError(path, static_cast<int>(i + 1),
                       std::to_string(columns.size()) + " columns of dashes under a header of " +
                           std::to_string(table.fields.size()) + " field names");
  }
  if (!IsSacctHeader(table.fields))
    throw InputError(path, table.header_line, "not a sacct header: it needs JobID and Elapsed or State");
  const std::string id_field = table.Has("jobid") ? "jobid" : "jobidraw";

  for (++i; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (Trim(line).empty()) continue;
    SacctRow row;
    row.line = static_cast<int>(i + 1);
    std::vector<std::string> values;
    if (table.layout == SacctTable::Layout::kParsable) {
      for (std::string_view field : SplitFields(line, '|')) values.emplace_back(Trim(field));
      if (closing_bar) {
        if (values.empty() || !values.back().empty())
          throw InputError(path, row.line, "a row without the closing '|' of sacct --parsable");
        values.pop_back();
      }
      if (values.size() != table.fields.size())
        throw InputError(path, row.line,
                         std::to_string(values.size()) + " fields where the header at line " +
                             std::to_string(table.header_line) + " names " + std::to_string(table.fields.size()));
    } else {
      if (line.size() > columns.back().second + 1 && !Trim(line.substr(columns.back().second)).empty())
        throw InputError(path, row.line, "text beyond the last column of the sacct table");
      for (const auto& [begin, end] : columns) {
        std::string value(begin < line.size() ? Trim(line.substr(begin, end - begin)) : std::string_view());
        if (value.size() == end - begin && value.back() == '+') row.cut = true;  // sacct cut it to the column
        values.push_back(std::move(value));
      }
    }
    for (std::size_t f = 0; f < table.fields.size(); ++f)
      if (!table.fields[f].empty()) row.values.emplace(table.fields[f], values[f]);
    row.job_id = row.Value(id_field);
    if (row.job_id.empty()) throw InputError(path, row.line, "a row without its job id");
    if (!SplitJobId(row.job_id, &row.job, &row.step))
      throw InputError(path, row.line, "'" + row.job_id.substr(0, 40) + "' is not a Slurm job id");
    table.rows.push_back(std::move(row));
  }
  if (table.rows.empty()) throw InputError(path, table.header_line, "a sacct header without a job under it");
  return table;
}

std::vector<SacctRun> SacctRuns(const SacctTable& table) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const SacctRow*>> rows_of;
  for (const SacctRow& row : table.rows) {
    auto& rows = rows_of[row.job];
    if (rows.empty()) order.push_back(row.job);
    rows.push_back(&row);
  }
  std::vector<SacctRun> runs;
  for (const std::string& job : order) {
    const std::vector<const SacctRow*>& rows = rows_of[job];
    const SacctRow* allocation = nullptr;
    const SacctRow* batch = nullptr;
    for (const SacctRow* row : rows) {
      if (row->step.empty() && !allocation) allocation = row;
      if (row->step == "batch" && !batch) batch = row;
    }
    bool any_step = false;
    for (const SacctRow* row : rows)
      if (AllDigits(row->step)) {
        any_step = true;
        runs.push_back({row, allocation, IsLauncherDaemon(row->Value("jobname"))});
      }
    if (!any_step && (allocation || batch)) runs.push_back({allocation ? allocation : batch, allocation, false});
  }
  return runs;
}

std::string SacctRunNotRead(const SacctRun& run) {
  const SacctRow& row = *run.row;
  const std::string where = "job " + row.job + (row.step.empty() ? "" : " step " + row.step);
  const std::string state = StateOf(row);
  if (!state.empty() && state != "COMPLETED") {
    const std::string& exit_code = row.Value("exitcode");
    const std::string job_state = run.allocation && run.allocation != run.row ? StateOf(*run.allocation) : "";
    return where + ": " + state + (exit_code.empty() ? "" : " (exit code " + exit_code + ")") +
           (job_state.empty() || job_state == state ? "" : " in a job that ended " + job_state) +
           ", not a completed run";
  }
  const std::string& raw = row.Value("elapsedraw");
  const std::string& elapsed = row.Value("elapsed");
  if ((!raw.empty() && raw == "0") || (raw.empty() && !elapsed.empty() && ClockTimeSeconds(elapsed) == 0.0))
    return where + ": elapsed " + (raw.empty() ? elapsed : raw + " s") +
           ", shorter than sacct's resolution of one second";
  return {};
}

RunStats SacctRunToRunStats(const SacctRun& run, const SacctTable& table, const std::string& path) {
  const SacctRow& row = *run.row;
  const SacctRow* allocation = run.allocation;
  const bool program_step = AllDigits(row.step) && !run.launcher_step;
  RunStats run_stats;
  run_stats.sources.push_back(path + ":" + std::to_string(row.line));

  // The time: sacct's elapsed time of the step (of the allocation for a job without program steps).
  double seconds = -1;
  std::string time_field;
  if (const std::string& raw = row.Value("elapsedraw"); !raw.empty()) {
    const std::optional<long long> value = ParseInteger(raw);
    if (!value || *value < 0) Fail(path, row, "field ElapsedRaw needs whole seconds, got '" + raw.substr(0, 40) + "'");
    seconds = static_cast<double>(*value);
    time_field = "ElapsedRaw";
  } else if (const std::string& elapsed = row.Value("elapsed"); !elapsed.empty()) {
    const std::optional<double> value = ClockTimeSeconds(elapsed);
    if (!value) Fail(path, row, "field Elapsed needs [D-]HH:MM:SS, got '" + elapsed.substr(0, 40) + "'");
    seconds = *value;
    time_field = "Elapsed";
  } else if (!table.Has("elapsed") && !table.Has("elapsedraw")) {
    throw InputError(path, table.header_line,
                     "a sacct table without Elapsed or ElapsedRaw: run sacct with --format including Elapsed");
  } else {
    Fail(path, row, "no elapsed time");
  }
  const std::string what = row.step.empty() ? "job " + row.job : "step " + row.job_id;
  run_stats.wall_time_s = seconds;
  run_stats.derivations["wall_time_s"] =
      "sacct " + time_field + " of " + what + " (whole seconds: " +
      (program_step         ? "the srun step, from its start to its end)"
       : run.launcher_step ? "mpirun's daemon step, from its start to its end)"
                           : "the job's allocation, the job script included)");

  // The processes: the step's tasks, else the CPUs the job was allocated.
  const int tasks = program_step ? Count(row, "ntasks", path) : 0;
  if (tasks > 0) {
    run_stats.procs = tasks;
    run_stats.derivations["procs"] = "sacct NTasks of step " + row.job_id;
  } else {
    // mpirun's daemon step runs on the nodes other than the job script's: the job's allocation counts.
    const SacctRow& counted = run.launcher_step && allocation ? *allocation : row;
    int cpus = Count(counted, "alloccpus", path);
    if (cpus == 0) cpus = Count(counted, "ncpus", path);
    if (cpus == 0 && allocation) cpus = std::max(Count(*allocation, "alloccpus", path), Count(*allocation, "ncpus", path));
    if (cpus == 0)
      Fail(path, row, program_step ? "no NTasks and no AllocCPUS: run sacct with --format including NTasks"
                                   : "no AllocCPUS: run sacct with --format including AllocCPUS");
    run_stats.procs = cpus;
    run_stats.derivations["procs"] =
        "sacct AllocCPUS of job " + row.job + ": " +
        (run.launcher_step ? "the job ran its program with mpirun, whose step '" + row.Value("jobname") +
                                 "' counts daemons, not processes; taken as one process per allocated CPU"
         : program_step    ? "the table has no NTasks; taken as one process per allocated CPU"
                           : "the job has no srun step (its program started by the job script, e.g. by "
                             "mpirun); taken as one process per allocated CPU");
    run_stats.details["slurm_procs_from"] = "allocated CPUs";
  }
  const SacctRow& placed = run.launcher_step && allocation ? *allocation : row;  // its nodes and hosts
  const std::string placed_what = &placed == &row ? what : "job " + row.job;
  int nodes = Count(placed, "nnodes", path);
  if (nodes == 0) nodes = Count(placed, "allocnodes", path);
  if (nodes > 0) run_stats.SetNodes(nodes, "sacct NNodes of " + placed_what);
  if (const std::string& node_list = placed.Value("nodelist"); !node_list.empty() && node_list != "None assigned") {
    std::vector<std::string> hosts = ExpandNodeList(node_list, 4096);
    if (!hosts.empty()) ApplyHosts(hosts, "sacct NodeList of " + placed_what, &run_stats);
  }
  const std::string& cluster = row.Value("cluster").empty() && allocation ? allocation->Value("cluster")
                                                                          : row.Value("cluster");
  if (!cluster.empty()) {
    run_stats.machine = cluster;
    run_stats.derivations["machine"] = "sacct Cluster";
  }

  // The program and the problem: the step's name is the program srun started; the job's name, the
  // experiment (without the run's own counts, which differ from run to run of one campaign).
  const std::string job_name = allocation ? allocation->Value("jobname") : std::string();
  const std::string step_name = program_step ? row.Value("jobname") : std::string();
  run_stats.app = !step_name.empty() ? step_name : !job_name.empty() ? job_name : row.Value("jobname");
  run_stats.derivations["app"] = !step_name.empty() ? "sacct JobName of step " + row.job_id
                                                    : "sacct JobName of job " + row.job;
  if (run_stats.app.empty()) Fail(path, row, "no JobName: run sacct with --format including JobName");
  if (!step_name.empty()) {
    // Threads: the CPUs per task srun was given (a hybrid run's OpenMP threads; its step's AllocCPUS
    // are no count of them: an `srun -n 1` in a 4-CPU job is allocated all 4).
    const LaunchCommand srun = ParseLaunchCommand(row.Value("submitline"));
    if (srun.launcher == "srun" && srun.program == step_name && srun.cpus_per_proc > 1) {
      run_stats.threads_per_proc = srun.cpus_per_proc;
      run_stats.derivations["threads_per_proc"] = "sacct SubmitLine of step " + row.job_id + ": srun's --cpus-per-task";
    }
    std::vector<std::string> words, from;
    const std::string experiment =
        job_name != step_name ? JobNameWithoutCounts(job_name, run_stats.procs, nodes) : std::string();
    if (!experiment.empty() && experiment != step_name) {
      words.push_back(experiment);
      from.push_back("the JobName of job " + row.job);
    }
    const std::string arguments = ProgramArguments(row.Value("submitline"), step_name, run_stats.procs, nodes);
    if (!arguments.empty()) {
      words.push_back(arguments);
      from.push_back("the program's arguments in the SubmitLine of step " + row.job_id);
    }
    if (!words.empty()) {
      run_stats.problem_class = JoinNonEmpty(words, " ");
      run_stats.derivations["problem_class"] =
          "sacct: " + JoinNonEmpty(from, " and ") + ", without the words naming the run's process or node count";
    }
  } else {
    const std::string experiment = JobNameWithoutCounts(std::string(run_stats.app), run_stats.procs, nodes);
    if (!experiment.empty() && experiment != std::string(run_stats.app)) {
      run_stats.app = experiment;
      run_stats.derivations["app"] += ", without the words naming its process or node count";
    }
  }

  run_stats.origin = std::string(kMeasurementOrigin) + "slurm:" + cluster + ":" + row.job_id;
  run_stats.details["slurm_job_id"] = row.job_id;
  for (const auto& [field, key] : std::initializer_list<std::pair<const char*, const char*>>{
           {"partition", "slurm_partition"}, {"account", "slurm_account"}, {"start", "slurm_start"},
           {"end", "slurm_end"}, {"exitcode", "slurm_exit_code"}, {"totalcpu", "slurm_total_cpu"},
           {"maxrss", "slurm_max_rss"}, {"submitline", "slurm_submit_line"}, {"workdir", "slurm_work_dir"},
           {"alloctres", "slurm_alloc_tres"}}) {
    const std::string& value = !row.Value(field).empty() || !allocation ? row.Value(field) : allocation->Value(field);
    if (!value.empty()) run_stats.details[key] = value;
  }
  if (row.cut || (allocation && allocation->cut))
    run_stats.details["slurm_cut_values"] = "sacct cut a value of this row to its column ('+'): widen it with %N";
  run_stats.Derive();
  RequirePlausibleRecord(run_stats, path, row.line);
  return run_stats;
}

bool SniffSacctTable(const std::string&, std::string_view text) { return LooksLikeSacctTable(text); }

bool SniffSacctJson(const std::string&, std::string_view text) { return LooksLikeSacctJson(text); }

namespace {

// The runs of a table, whichever layout filled it.
ReaderOutput ReadSacctRuns(const SacctTable& table, const ReaderInput& input) {
  const std::vector<SacctRun> runs = SacctRuns(table);
  ReaderOutput output;
  UnfinishedRuns not_read;
  int from_cpus = 0;
  for (const SacctRun& run : runs) {
    if (const std::string why = SacctRunNotRead(run); !why.empty()) {
      not_read.Add(run.row->line, why);
      continue;
    }
    RunStats record = SacctRunToRunStats(run, table, input.path);
    if (record.details.count("slurm_procs_from")) ++from_cpus;
    ApplyFileName(input.name, &record);
    output.runs.push_back(std::move(record));
  }
  if (runs.empty()) throw InputError(input.path, table.header_line, "a sacct table without a job");
  not_read.Finish(input.path, runs.size(), "runs", &output);
  const char* layout = table.layout == SacctTable::Layout::kParsable ? "sacct --parsable table"
                       : table.layout == SacctTable::Layout::kJson   ? "sacct --json"
                                                                     : "sacct table";
  std::string reading = std::string(layout) + ": " + std::to_string(runs.size()) + " runs (srun steps, else jobs), " +
                        std::to_string(output.runs.size()) + " completed";
  if (from_cpus > 0)
    reading += "; " + std::to_string(from_cpus) + " without a task count, read as one process per allocated CPU";
  if (!table.Has("state")) reading += "; no State field: every run taken as completed";
  output.readings.push_back(reading);
  return output;
}

}  // namespace

ReaderOutput ReadSacctTable(const ReaderInput& input) {
  return ReadSacctRuns(ParseSacctTable(input.text, input.path), input);
}

ReaderOutput ReadSacctJson(const ReaderInput& input) {
  return ReadSacctRuns(ParseSacctJson(input.text, input.path), input);
}

}  // namespace qnm
