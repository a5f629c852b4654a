// IBM Spectrum LSF's job report in a job's output file (lsf_job_output.h, docs/formats/lsf-job-output.md).
#include "job_records/lsf_job_output.h"

#include <cctype>
#include <cmath>
#include <optional>

#include "job_records/job_record_readers.h"
#include "launch/launch_command.h"
#include "launch/launch_layout.h"
#include "reader/file_name_info.h"
#include "reader/output_patterns.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "textio/time_stamps.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kSender = "Sender: LSF System";
constexpr std::string_view kExecuted = "Job was executed on host(s)";
constexpr std::string_view kDashes = "------------------------------------------------------------";

// The hosts "<9*polus-c2-ib>" (or "<host>", one slot) in `text`, appended to `hosts`.
void ReadHosts(std::string_view text, const std::string& path, int line,
               std::vector<std::pair<std::string, int>>* hosts) {
  std::size_t at = 0;
  while ((at = text.find('<', at)) != std::string_view::npos) {
    const std::size_t end = text.find('>', at);
    if (end == std::string_view::npos) throw InputError(path, line, "LSF: a host of the job's list without its '>'");
    const std::string_view host = text.substr(at + 1, end - at - 1);
    const std::size_t star = host.find('*');
    if (star == std::string_view::npos)
      hosts->emplace_back(std::string(host), 1);
    else
      hosts->emplace_back(std::string(host.substr(star + 1)),
                          WholeCount(host.substr(0, star), path, line, "LSF: a host's job slots (<N*host>)", 1));
    at = end + 1;
  }
}

// "Sat Nov 29 01:46:25 2025" as seconds of one clock; nullopt when it is not one.
std::optional<double> LsfTimestamp(std::string_view text) {
  const std::optional<long long> seconds = StampSeconds(Trim(text), "%a %b %d %H:%M:%S %Y");
  if (!seconds) return std::nullopt;
  return static_cast<double>(*seconds);
}

// "Run time :                                   5 sec." -> 5.
double SecondsOfSummary(std::string_view trimmed, const std::string& path, int line, const char* what) {
  std::string_view value = Trim(trimmed.substr(trimmed.find(':') + 1));
  if (EndsWith(value, "sec.")) value = Trim(value.substr(0, value.size() - 4));
  return NonNegativeNumber(value, path, line, what);
}

// The hosts a job's processes ran on: its list without a first host of one slot before hosts of more (the launch
// node of an LSF cluster that starts jobs from one, "<1*batch3> <42*a01n01> ...").
std::vector<std::pair<std::string, int>> ComputeHosts(const std::vector<std::pair<std::string, int>>& hosts) {
  if (hosts.size() >= 2 && hosts.front().second == 1) {
    bool others_larger = true;
    for (std::size_t k = 1; k < hosts.size(); ++k) others_larger = others_larger && hosts[k].second > 1;
    if (others_larger) return {hosts.begin() + 1, hosts.end()};
  }
  return hosts;
}

RunStats ToRunStats(const LsfJobReport& job, const LaunchCommand& launch, const std::string& path) {
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(job.line));
  const std::vector<std::pair<std::string, int>> hosts = ComputeHosts(job.hosts);
  int slots = 0;
  for (const auto& [host, count] : hosts) slots += count;
  // What the command does not say, from the script's #BSUB lines: the layout the script fixes. Where it fixes
  // none, the hosts are the scheduler's choice for this one job (a detail below).
  RunLayout by_script;
  by_script.procs = job.bsub_n > 0 ? SaidCount{job.bsub_n, "LSF job script's #BSUB -n"}
                                   : SaidCount{slots, "LSF: the job slots of the hosts it ran on"};
  if (job.ptile > 0) by_script.ranks_per_node = {job.ptile, "LSF job script's #BSUB -R span[ptile=N]"};
  if (job.bsub_nodes > 0) by_script.nodes = {job.bsub_nodes, "LSF job script's #BSUB -nnodes"};
  const std::string by_command = "LSF job script's command (line " + std::to_string(job.command_line) + "): ";
  ApplyLaunchLayout(launch, by_command, by_script, &run);
  std::string placed;
  for (const auto& [host, count] : hosts) placed += (placed.empty() ? "" : " ") + std::to_string(count) + "*" + host;
  if (!placed.empty()) run.details["lsf_hosts"] = placed.substr(0, 400);
  if (Known(job.run_time_s)) {
    run.wall_time_s = job.run_time_s;
    run.derivations["wall_time_s"] = "LSF 'Run time' (whole seconds: the job's, its start-up included)";
  } else {
    run.wall_time_s = job.between_s;
    run.derivations["wall_time_s"] = "LSF 'Terminated at' - 'Started at' (whole seconds: the job's)";
  }
  if (!ApplyLaunchProgram(launch, by_command, &run)) {
    run.app = ApplicationFromPath(path);
    run.derivations["app"] = "the file's name or folder (the job script runs no MPI launcher)";
  }
  if (!job.job_id.empty()) run.details["lsf_job_id"] = job.job_id;
  if (!job.queue.empty()) run.details["lsf_queue"] = job.queue;
  if (Known(job.cpu_time_s)) run.details["lsf_cpu_time_s"] = NumberText(job.cpu_time_s);
  if (!job.command.empty()) run.details["lsf_command"] = job.command.substr(0, 400);
  run.Derive();
  return run;
}

}  // namespace

bool LooksLikeLsfJobOutput(std::string_view text) {
  // At the head of the file (LSF writing the report first), or after the program's output (the report appended).
  for (std::size_t at = text.find(kSender); at != std::string_view::npos; at = text.find(kSender, at + 1)) {
    if (at > 0 && text[at - 1] != '\n') continue;
    const std::string_view after = text.substr(at, 400);
    if (after.find("\nSubject: Job ") != std::string_view::npos) return true;
  }
  for (std::size_t at = text.find(kExecuted); at != std::string_view::npos; at = text.find(kExecuted, at + 1))
    if ((at == 0 || text[at - 1] == '\n') && text.find("Resource usage summary:", at) != std::string_view::npos)
      return true;
  return false;
}

std::vector<LsfJobReport> ParseLsfJobOutput(std::string_view text, const std::string& path) {
  std::vector<LsfJobReport> jobs;
  const std::vector<std::string_view> lines = SplitLines(text);
  enum class Part { kHead, kHosts, kScript, kRest } part = Part::kRest;
  bool script_open = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    const std::string_view trimmed = Trim(lines[i]);
    const bool sender = StartsWith(trimmed, kSender);
    if (sender || (StartsWith(trimmed, kExecuted) && (jobs.empty() || !jobs.back().hosts.empty()))) {
      jobs.emplace_back();
      jobs.back().line = line;
      part = Part::kHead;
      script_open = false;
      if (sender) continue;
    }
    if (jobs.empty()) continue;
    LsfJobReport& job = jobs.back();
    if (part == Part::kHosts) {
      if (StartsWith(trimmed, "<") && EndsWith(trimmed, ">")) {
        ReadHosts(trimmed, path, line, &job.hosts);
        continue;
      }
      part = Part::kHead;
    }
    if (part == Part::kScript) {
      if (trimmed == kDashes) {
        if (script_open) part = Part::kHead;
        script_open = true;
        continue;
      }
      if (StartsWith(trimmed, "#BSUB")) {
        const std::vector<std::string_view> words = SplitWhitespace(trimmed.substr(5));
        if (words.size() >= 2 && words[0] == "-n") {
          const std::string_view count = words[1].substr(0, words[1].find(','));  // -n min,max: its min
          job.bsub_n = WholeCount(count, path, line, "LSF job script's #BSUB -n", 1);
        } else if (words.size() >= 2 && words[0] == "-nnodes") {
          job.bsub_nodes = WholeCount(words[1], path, line, "LSF job script's #BSUB -nnodes", 1);
        } else if (const std::size_t ptile = trimmed.find("ptile=");
                   ptile != std::string_view::npos && words[0] == "-R") {
          std::size_t end = ptile + 6;
          while (end < trimmed.size() && std::isdigit(static_cast<unsigned char>(trimmed[end]))) ++end;
          job.ptile = WholeCount(trimmed.substr(ptile + 6, end - ptile - 6), path, line, "LSF span[ptile=N]", 1);
        }
      } else if (job.command.empty() && !trimmed.empty() && trimmed[0] != '#' &&
                 !ParseLaunchCommand(trimmed).launcher.empty()) {
        job.command = std::string(trimmed);
        job.command_line = line;
      }
      continue;
    }
    if (part != Part::kHead) continue;
    if (StartsWith(trimmed, "Subject: Job ")) {
      const std::string_view rest = trimmed.substr(13);
      job.job_id = std::string(rest.substr(0, rest.find(':')));
    } else if (StartsWith(trimmed, kExecuted)) {
      const std::size_t queue = trimmed.find(", in queue <");
      ReadHosts(trimmed.substr(kExecuted.size(),
                               queue == std::string_view::npos ? std::string_view::npos : queue - kExecuted.size()),
                path, line, &job.hosts);
      if (queue != std::string_view::npos) {
        const std::string_view rest = trimmed.substr(queue + 12);
        job.queue = std::string(rest.substr(0, rest.find('>')));
      }
      part = Part::kHosts;
    } else if (StartsWith(trimmed, "Started at ")) {
      const std::optional<double> started = LsfTimestamp(trimmed.substr(11));
      for (std::size_t k = i + 1; k < lines.size() && k < i + 4 && started; ++k)
        if (StartsWith(Trim(lines[k]), "Terminated at "))
          if (const std::optional<double> ended = LsfTimestamp(Trim(lines[k]).substr(14)); ended && *ended >= *started)
            job.between_s = *ended - *started;
    } else if (StartsWith(trimmed, "Your job looked like:")) {
      part = Part::kScript;
    } else if (trimmed == "Successfully completed." || StartsWith(trimmed, "Exited with") ||
               StartsWith(trimmed, "TERM_")) {
      if (job.outcome.empty()) {
        job.outcome = std::string(trimmed.substr(0, 160));
        job.outcome_line = line;
        job.completed = trimmed == "Successfully completed.";
      }
    } else if (StartsWith(trimmed, "Run time :")) {
      job.run_time_s = SecondsOfSummary(trimmed, path, line, "LSF 'Run time'");
    } else if (StartsWith(trimmed, "CPU time :")) {
      job.cpu_time_s = SecondsOfSummary(trimmed, path, line, "LSF 'CPU time'");
    } else if (StartsWith(trimmed, "The output (if any) follows:")) {
      part = Part::kRest;
    }
  }
  return jobs;
}

bool SniffLsfJobOutput(const std::string&, std::string_view text) { return LooksLikeLsfJobOutput(text); }

ReaderOutput ReadLsfJobOutput(const ReaderInput& input) {
  if (const OutputPattern* time = input.selection ? input.selection->RunTimePattern() : nullptr)
    throw InputError(input.path, 0, "an LSF job's output, left to the --pattern " + time->name + " of the run time");
  const std::vector<LsfJobReport> jobs = ParseLsfJobOutput(input.text, input.path);
  if (jobs.empty()) throw InputError(input.path, 0, "LSF job output without its job report");
  ReaderOutput output;
  UnfinishedRuns not_read;
  for (const LsfJobReport& job : jobs) {
    const LaunchCommand launch = ParseLaunchCommand(job.command);
    if (!launch.error.empty())
      throw InputError(input.path, job.command_line,
                       "LSF job script's command '" + job.command.substr(0, 120) + "': " + launch.error);
    if (!job.completed) {
      not_read.Add(job.outcome_line ? job.outcome_line : job.line,
                   job.outcome.empty() ? "the LSF job report says no outcome (no 'Successfully completed.')"
                                       : "the LSF job did not complete: " + job.outcome);
      continue;
    }
    if (!Known(job.run_time_s) && !Known(job.between_s)) {
      not_read.Add(job.line, "the LSF job report gives no 'Run time' and no 'Started at' / 'Terminated at'");
      continue;
    }
    if (job.hosts.empty() && launch.procs == 0 && job.bsub_n == 0) {
      not_read.Add(job.line, "the LSF job report names no host, no #BSUB -n and no launch command's processes");
      continue;
    }
    RunStats run = ToRunStats(job, launch, input.path);
    if (!(run.wall_time_s > 0)) {
      not_read.Add(job.line, "an LSF 'Run time' of 0 s (the job's time in whole seconds: too short to read)");
      continue;
    }
    ApplyFileName(input.name, &run);
    output.runs.push_back(std::move(run));
  }
  not_read.Finish(input.path, jobs.size(), "LSF jobs", &output);
  output.readings.push_back(input.path + ": " + std::to_string(jobs.size()) + " LSF job report" +
                            (jobs.size() == 1 ? "" : "s") + " (the jobs' run time in whole seconds)");
  return output;
}

}  // namespace qnm
