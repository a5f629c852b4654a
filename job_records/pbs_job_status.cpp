// PBS job records (pbs_job_status.h, docs/formats/pbs-qstat.md).
#include "job_records/pbs_job_status.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "job_records/job_record_readers.h"
#include "reader/batch_job_text.h"
#include "reader/host_names.h"
#include "reader/run_stats_check.h"
#include "reader/series_identity.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::size_t kSniffLines = 40;

std::size_t Indent(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return n;
}

// "    Job_Name = OPM" -> ("Job_Name", "OPM"); false when the line is no attribute.
bool SplitAttribute(std::string_view line, std::string* name, std::string* value) {
  const std::string_view text = Trim(line);
  const std::size_t eq = text.find(" = ");
  const std::size_t bare = text.size() >= 2 && text.substr(text.size() - 2) == " =" ? text.size() - 2 : std::string_view::npos;
  const std::size_t at = eq != std::string_view::npos ? eq : bare;
  if (at == std::string_view::npos || at == 0) return false;
  const std::string_view key = text.substr(0, at);
  const bool key_ok = std::all_of(key.begin(), key.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '.';
  });
  if (!key_ok || !std::isalpha(static_cast<unsigned char>(key[0]))) return false;
  *name = std::string(key);
  *value = std::string(Trim(text.substr(std::min(text.size(), at + 3))));
  return true;
}

bool IsJobIdLine(std::string_view line) { return StartsWith(line, "Job Id: ") && !Trim(line.substr(8)).empty(); }

[[noreturn]] void Fail(const std::string& path, const PbsJob& job, const std::string& attribute,
                       const std::string& why) {
  throw InputError(path, job.LineOf(attribute), "job " + job.id + ": " + why);
}

int PositiveCount(const PbsJob& job, const std::string& attribute, const std::string& path) {
  const std::string& text = job.Value(attribute);
  if (text.empty()) return 0;
  const std::optional<long long> value = ParseInteger(text);
  if (!value || *value <= 0 || *value > (1 << 30))
    Fail(path, job, attribute, attribute + " needs a positive count, got '" + text.substr(0, 40) + "'");
  return static_cast<int>(*value);
}

// One chunk of a PBS Pro select ("2:ncpus=32:mpiprocs=32:ompthreads=1") or a Torque node spec
// ("2:ppn=16"): its count and its resources.
struct Chunk {
  long long count = 1;
  std::map<std::string, std::string> resources;
};

std::vector<Chunk> Chunks(const std::string& spec) {
  std::vector<Chunk> chunks;
  for (std::string_view part : SplitFields(spec, '+')) {
    Chunk chunk;
    bool first = true;
    for (std::string_view field : SplitFields(part, ':')) {
      const std::size_t eq = field.find('=');
      if (first && eq == std::string_view::npos) {
        const std::optional<long long> n = ParseInteger(field);
        chunk.count = n && *n > 0 ? *n : 1;
      } else if (eq != std::string_view::npos) {
        chunk.resources[std::string(field.substr(0, eq))] = std::string(field.substr(eq + 1));
      }
      first = false;
    }
    chunks.push_back(std::move(chunk));
  }
  return chunks;
}

// The sum over chunks of count x resource `name`; 0 when a chunk does not name it.
long long ChunkTotal(const std::vector<Chunk>& chunks, const std::string& name) {
  long long total = 0;
  for (const Chunk& chunk : chunks) {
    const auto it = chunk.resources.find(name);
    const std::optional<long long> value = it == chunk.resources.end() ? std::nullopt : ParseInteger(it->second);
    if (!value || *value <= 0) return 0;
    total += chunk.count * *value;
  }
  return total;
}

}  // namespace

const std::string& PbsJob::Value(const std::string& name) const {
  static const std::string kNone;
  const auto it = attributes.find(name);
  return it == attributes.end() ? kNone : it->second;
}

int PbsJob::LineOf(const std::string& name) const {
  const auto it = lines.find(name);
  return it == lines.end() ? line : it->second;
}

bool LooksLikePbsJobStatus(std::string_view text) {
  // qstat's output saved as it is, or after the prompt line that ran it ("$ qstat -fx 8"): a record
  // a job's own script printed among its output is of a running job, whose walltime is no run's.
  std::size_t count = 0, content = 0;
  bool job_id = false;
  for (std::string_view line : SplitLines(text.substr(0, std::min<std::size_t>(text.size(), 16384)))) {
    if (++count > kSniffLines) break;
    if (Trim(line).empty()) continue;
    ++content;
    if (!job_id) {
      if (IsJobIdLine(line)) {
        job_id = true;
        continue;
      }
      if (content == 1 && line.find("qstat") != std::string_view::npos) continue;  // the prompt line
      return false;
    }
    std::string name, value;
    return Indent(line) > 0 && SplitAttribute(line, &name, &value) &&
           (name == "Job_Name" || name == "job_state" || name == "Job_Owner");
  }
  return false;
}

std::vector<PbsJob> ParsePbsJobStatus(std::string_view text, const std::string& path) {
  std::vector<PbsJob> jobs;
  const std::vector<std::string_view> lines = SplitLines(text);
  std::size_t attribute_indent = 0;
  std::string last;        // the attribute a wrapped line continues
  bool in_record = false;  // false before the first record and after a record's last attribute
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line_no = static_cast<int>(i + 1);
    const std::string_view line = lines[i];
    if (Trim(line).empty()) {
      last.clear();
      if (in_record && !jobs.back().attributes.empty()) in_record = false;
      continue;
    }
    if (IsJobIdLine(line)) {
      if (!jobs.empty() && jobs.back().attributes.empty())
        throw InputError(path, jobs.back().line, "'Job Id:' without an attribute under it");
      PbsJob job;
      job.line = line_no;
      job.id = std::string(Trim(line.substr(8)));
      jobs.push_back(std::move(job));
      attribute_indent = 0;
      last.clear();
      in_record = true;
      continue;
    }
    if (!in_record) continue;  // a shell prompt, or the job's own output around a record its script printed
    PbsJob& job = jobs.back();
    std::string name, value;
    const std::size_t indent = Indent(line);
    const bool wrapped = !last.empty() && (line[0] == '\t' || (attribute_indent > 0 && indent > attribute_indent));
    if (!wrapped && indent > 0 && SplitAttribute(line, &name, &value)) {
      if (attribute_indent == 0) attribute_indent = indent;
      job.attributes[name] = value;
      job.lines[name] = line_no;
      last = name;
    } else if (wrapped) {
      job.attributes[last] += std::string(Trim(line));
    } else if (!job.attributes.empty() && indent == 0) {
      last.clear();  // the record ended: what follows is the job's other output
      in_record = false;
    } else {
      throw InputError(path, line_no, "a line of job " + job.id + "'s qstat record that is no 'name = value'");
    }
  }
  if (jobs.empty()) throw InputError(path, 0, "no 'Job Id:' line: not a qstat -f record");
  if (jobs.back().attributes.empty())
    throw InputError(path, jobs.back().line, "'Job Id:' without an attribute under it");
  return jobs;
}

std::string PbsJobNotRead(const PbsJob& job) {
  const std::string where = "job " + job.id;
  const std::string& state = job.Value("job_state");
  if (state.empty()) return where + ": no job_state";
  if (state != "F" && state != "C") {
    static const std::map<std::string, std::string> kStates = {
        {"Q", "queued"}, {"R", "running"}, {"E", "exiting"}, {"H", "held"}, {"W", "waiting"},
        {"S", "suspended"}, {"B", "an array job"}, {"X", "a finished subjob"}, {"M", "moved"}, {"T", "in transit"}};
    const auto it = kStates.find(state);
    return where + ": job_state " + state + (it == kStates.end() ? "" : " (" + it->second + ")") +
           ", not a finished job";
  }
  const std::string& exit_status = job.Value("Exit_status").empty() ? job.Value("exit_status") : job.Value("Exit_status");
  if (!exit_status.empty() && exit_status != "0") return where + ": exit status " + exit_status + ", not a completed run";
  if (job.Value("resources_used.walltime").empty()) return where + ": no resources_used.walltime";
  const std::optional<double> seconds = ClockTimeSeconds(job.Value("resources_used.walltime"));
  if (seconds && *seconds == 0)
    return where + ": resources_used.walltime 00:00:00, shorter than qstat's resolution of one second";
  return {};
}

RunStats PbsJobToRunStats(const PbsJob& job, const std::string& path) {
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(job.line));
  const std::string& walltime = job.Value("resources_used.walltime");
  const std::optional<double> seconds = ClockTimeSeconds(walltime);
  if (!seconds) Fail(path, job, "resources_used.walltime", "resources_used.walltime needs HH:MM:SS, got '" +
                                                               walltime.substr(0, 40) + "'");
  run.wall_time_s = *seconds;
  run.derivations["wall_time_s"] =
      "qstat resources_used.walltime of job " + job.id + " (whole seconds: the whole job script)";

  // The processes: PBS Pro's mpiprocs where the select names them; Torque's nodes=N:ppn=P; else the CPUs.
  const std::string& select = job.Value("Resource_List.select");
  const std::vector<Chunk> chunks = Chunks(select);
  const int mpiprocs = PositiveCount(job, "Resource_List.mpiprocs", path);
  const int ncpus = PositiveCount(job, "Resource_List.ncpus", path);
  const std::string& torque_nodes = job.Value("Resource_List.nodes");
  if (!select.empty() && select.find("mpiprocs=") != std::string::npos && mpiprocs > 0) {
    run.procs = mpiprocs;
    run.derivations["procs"] = "qstat Resource_List.mpiprocs (the select names mpiprocs: " + select + ")";
  } else if (const long long ppn = ChunkTotal(Chunks(torque_nodes), "ppn"); ppn > 0 && ppn <= (1 << 30)) {
    run.procs = static_cast<int>(ppn);
    run.derivations["procs"] = "qstat Resource_List.nodes " + torque_nodes +
                               ": nodes x ppn, one process per allocated core";
    run.details["pbs_procs_from"] = "allocated cores";
  } else if (ncpus > 0) {
    run.procs = ncpus;
    run.derivations["procs"] = "qstat Resource_List.ncpus: the job names no MPI processes (no mpiprocs in its "
                               "select); taken as one process per allocated CPU";
    run.details["pbs_procs_from"] = "allocated CPUs";
  } else {
    Fail(path, job, "Resource_List.select", "no Resource_List.mpiprocs, nodes or ncpus: the processes are unknown");
  }
  if (const long long threads = ChunkTotal(chunks, "ompthreads"); threads > 0 && !chunks.empty()) {
    const long long chunk_count = std::max<long long>(1, ChunkTotal(chunks, "mpiprocs"));
    if (threads % chunk_count == 0 || chunks.size() == 1) {
      const auto it = chunks[0].resources.find("ompthreads");
      const std::optional<long long> per_process = ParseInteger(it->second);
      if (per_process && *per_process > 0 && *per_process < 1 << 20) {
        run.threads_per_proc = static_cast<int>(*per_process);
        run.derivations["threads_per_proc"] = "qstat Resource_List.select ompthreads";
      }
    }
  }

  // The nodes and hosts: exec_host "node1/0*32+node2/0*32" (PBS Pro) or "node1/0+node1/1+..." (Torque).
  std::vector<std::string> hosts;
  for (std::string_view slot : SplitFields(job.Value("exec_host"), '+')) {
    const std::string host(Trim(slot.substr(0, slot.find('/'))));
    if (!host.empty() && std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
  }
  int nodes = PositiveCount(job, "Resource_List.nodect", path);
  if (nodes > 0) {
    run.SetNodes(nodes, "qstat Resource_List.nodect");
  } else if (!hosts.empty()) {
    nodes = static_cast<int>(hosts.size());
    run.SetNodes(nodes, "qstat exec_host: its distinct hosts");
  }
  if (!hosts.empty()) ApplyHosts(hosts, "qstat exec_host", &run);

  // The program and the experiment: the job's name and its script's, without the run's own counts.
  const std::string& job_name = job.Value("Job_Name");
  if (job_name.empty()) Fail(path, job, "Job_Name", "no Job_Name");
  const std::string app = JobNameWithoutCounts(job_name, run.procs, nodes);
  run.app = app.empty() ? job_name : app;
  run.derivations["app"] = "qstat Job_Name, without the words naming the run's process or node count";
  const std::string& arguments = job.Value("Submit_arguments");
  const std::vector<std::string_view> words = SplitWhitespace(arguments);
  if (!words.empty()) {
    const std::string script = JobNameWithoutCounts(BaseName(std::string(words.back())), run.procs, nodes);
    if (!script.empty() && script != std::string(run.app)) {
      run.problem_class = script;
      run.derivations["problem_class"] =
          "qstat Submit_arguments: the job script's name, without the words naming the run's process or node count";
    }
  }

  run.origin = std::string(kMeasurementOrigin) + "pbs:" + job.id;
  run.details["pbs_job_id"] = job.id;
  for (const auto& [attribute, key] : std::initializer_list<std::pair<const char*, const char*>>{
           {"queue", "pbs_queue"}, {"server", "pbs_server"}, {"stime", "pbs_start"}, {"mtime", "pbs_modified"},
           {"Exit_status", "pbs_exit_status"}, {"Resource_List.select", "pbs_select"},
           {"Resource_List.nodes", "pbs_nodes"}, {"Resource_List.walltime", "pbs_walltime_requested"},
           {"resources_used.cput", "pbs_cput"}, {"resources_used.mem", "pbs_mem"},
           {"Submit_arguments", "pbs_submit_arguments"}, {"exec_host", "pbs_exec_host"}}) {
    if (const std::string& value = job.Value(attribute); !value.empty()) run.details[key] = value.substr(0, 400);
  }
  run.Derive();
  RequirePlausibleRecord(run, path, job.line);
  return run;
}

bool SniffPbsJobStatus(const std::string&, std::string_view text) { return LooksLikePbsJobStatus(text); }

ReaderOutput ReadPbsJobStatus(const ReaderInput& input) {
  const std::vector<PbsJob> jobs = ParsePbsJobStatus(input.text, input.path);
  ReaderOutput output;
  UnfinishedRuns not_read;
  int from_cpus = 0;
  for (const PbsJob& job : jobs) {
    if (const std::string why = PbsJobNotRead(job); !why.empty()) {
      not_read.Add(job.line, why);
      continue;
    }
    RunStats run = PbsJobToRunStats(job, input.path);
    if (run.details.count("pbs_procs_from")) ++from_cpus;
    ApplyFileName(input.name, &run);
    output.runs.push_back(std::move(run));
  }
  not_read.Finish(input.path, jobs.size(), "jobs", &output);
  std::string reading = "qstat -f records: " + std::to_string(jobs.size()) + " jobs, " +
                        std::to_string(output.runs.size()) + " finished";
  if (from_cpus > 0)
    reading += "; " + std::to_string(from_cpus) + " without MPI processes named, read as one process per CPU";
  output.readings.push_back(reading);
  return output;
}

}  // namespace qnm
