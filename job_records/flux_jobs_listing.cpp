// `flux jobs --json` (flux_jobs_listing.h, docs/formats/flux-job.md).
#include "job_records/flux_jobs_listing.h"

#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "job_records/flux_job_record.h"
#include "job_records/job_record_readers.h"
#include "reader/host_names.h"
#include "reader/series_identity.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/json_input.h"
#include "util/plausible_range.h"

namespace qnm {
namespace {

using Json = nlohmann::json;

std::optional<double> Number(const Json& job, const char* key) {
  const Json* value = JsonMember(job, key);
  if (!value || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

// A count Flux lists ("ntasks": 96); job-list leaves a count it does not know out, the Python
// listing writes "" in its place.
int Count(const Json& job, const char* key, const std::string& path, int line, const std::string& what) {
  const Json* value = JsonMember(job, key);
  if (!value || (value->is_string() && value->get<std::string>().empty())) return 0;
  if (!value->is_number_integer() || value->get<long long>() < 1 || value->get<long long>() > 10000000)
    throw InputError(path, line, what + ": \"" + key + "\" is not a positive whole number");
  return static_cast<int>(value->get<long long>());
}

std::string Text(const Json& job, const char* key) {
  const Json* value = JsonMember(job, key);
  if (!value) return "";
  if (value->is_string()) return value->get<std::string>();
  if (value->is_number_integer()) return std::to_string(value->get<long long>());
  return "";
}

// The job's result as flux jobs names it: the listing's text, or job-list's number (RFC 21's
// FLUX_JOB_RESULT_*: 1 COMPLETED, 2 FAILED, 4 CANCELED, 8 TIMEOUT).
std::string ResultOf(const Json& job) {
  const Json* result = JsonMember(job, "result");
  if (!result) return "";
  if (result->is_string()) return result->get<std::string>();
  if (result->is_number_integer()) {
    switch (result->get<long long>()) {
      case 1:
        return "COMPLETED";
      case 2:
        return "FAILED";
      case 4:
        return "CANCELED";
      case 8:
        return "TIMEOUT";
      default:
        return "result " + std::to_string(result->get<long long>());
    }
  }
  return "";
}

// Why a job of the listing is no finished run, or "" when it is one.
std::string NotARun(const Json& job, const std::string& what) {
  const std::string result = ResultOf(job);
  if (result.empty() || !Number(job, "t_cleanup") || !Number(job, "t_run"))
    return what + ": still active (no result, no t_cleanup), not a finished run";
  if (result != "COMPLETED") {
    std::string why = what + ": " + result;
    if (const Json* waitstatus = JsonMember(job, "waitstatus"); waitstatus && waitstatus->is_number_integer())
      why += " (" + DescribeWaitStatus(static_cast<int>(waitstatus->get<long long>())) + ")";
    const Json* exception = JsonMember(job, "exception");
    if (exception && exception->is_object()) {
      const std::string type = Text(*exception, "type"), note = Text(*exception, "note");
      if (!type.empty()) why += ", exception " + type + (note.empty() ? "" : ": " + note.substr(0, 120));
    }
    return why + ", not a completed run";
  }
  return "";
}

// The run of a completed job; `id` is its f58 "jobid", else its "id", and `what` names it in messages.
RunStats JobToRunStats(const Json& job, const std::string& path, int line, const std::string& id,
                       const std::string& what) {
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(line));
  run.procs = Count(job, "ntasks", path, line, what);
  if (run.procs == 0) throw InputError(path, line, what + ": no \"ntasks\": its processes are unknown");
  run.derivations["procs"] = "flux jobs: ntasks";
  const double begin = *Number(job, "t_run"), end = *Number(job, "t_cleanup");
  if (!(end >= begin)) throw InputError(path, line, what + ": t_cleanup is before t_run");
  run.wall_time_s = end - begin;
  run.derivations["wall_time_s"] = "flux jobs: t_cleanup - t_run, its RUNTIME (RUN entered at alloc, left at finish)";
  RequirePlausible(run.wall_time_s, kRunTimeS, what + " RUNTIME", path, line);
  if (const int nodes = Count(job, "nnodes", path, line, what); nodes > 0) run.SetNodes(nodes, "flux jobs: nnodes");
  if (const int cores = Count(job, "ncores", path, line, what); cores > run.procs && cores % run.procs == 0) {
    run.threads_per_proc = cores / run.procs;
    run.derivations["threads_per_proc"] = "flux jobs: ncores / ntasks, the cores of each task";
  }
  run.app = Text(job, "name");
  if (run.app.empty()) throw InputError(path, line, what + ": no \"name\": the job's program is unknown");
  run.derivations["app"] = "flux jobs: name (the command's program unless the job was named)";
  if (const std::string nodelist = Text(job, "nodelist"); !nodelist.empty()) {
    const std::vector<std::string> hosts = ExpandNodeList(nodelist, 100000);
    if (!hosts.empty()) ApplyHosts(hosts, "flux jobs: nodelist", &run);
  }
  // The job's id is the measurement's identity (the same job in two listings is one run); a job
  // without one has none, and ingest tells it apart by its file and place in it.
  if (!id.empty()) {
    run.origin = std::string(kMeasurementOrigin) + "flux:" + id;
    run.details["flux_job_id"] = id;
  }
  for (const char* key : {"queue", "cwd", "project", "bank"})
    if (const std::string value = Text(job, key); !value.empty()) run.details[std::string("flux_") + key] = value;
  run.Derive();
  return run;
}

}  // namespace

bool LooksLikeFluxJobsListing(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i == text.size() || text[i] != '{') return false;
  const std::string_view head = text.substr(0, 65536);
  return head.find("\"t_submit\"") != std::string_view::npos && head.find("\"ntasks\"") != std::string_view::npos &&
         head.find("\"job_id\"") == std::string_view::npos;  // (sacct --json's)
}

ReaderOutput ReadFluxJobsListing(const ReaderInput& input) {
  const Json document = ParseJsonDocument(input.text, input.path);
  if (!document.is_object()) throw InputError(input.path, 1, "a flux jobs --json document is one JSON object");
  std::vector<const Json*> jobs;
  std::vector<int> lines;
  if (const Json* list = JsonMember(document, "jobs")) {
    if (!list->is_array()) throw InputError(input.path, 1, "flux jobs --json: \"jobs\" is not an array");
    lines = JsonArrayObjectLines(input.text, "jobs");
    for (const Json& job : *list) jobs.push_back(&job);
  } else {
    jobs.push_back(&document);  // flux jobs --json ID: the one job
    lines.push_back(1);
  }
  if (jobs.empty()) throw InputError(input.path, 1, "a flux jobs --json listing without a job");
  ReaderOutput output;
  UnfinishedRuns not_read;
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    const int line = k < lines.size() ? lines[k] : 1;
    if (!jobs[k]->is_object())
      throw InputError(input.path, line, "flux jobs --json: job " + std::to_string(k + 1) + " is not an object");
    const Json& job = *jobs[k];
    const std::string id = !Text(job, "jobid").empty() ? Text(job, "jobid") : Text(job, "id");
    const std::string what = "job " + (id.empty() ? std::to_string(k + 1) : id);
    if (const std::string why = NotARun(job, what); !why.empty()) {
      not_read.Add(line, why);
      continue;
    }
    RunStats run = JobToRunStats(job, input.path, line, id, what);
    ApplyFileName(input.name, &run);
    output.runs.push_back(std::move(run));
  }
  not_read.Finish(input.path, jobs.size(), "jobs", &output);
  output.readings.push_back("flux jobs --json: " + std::to_string(jobs.size()) + " jobs, " +
                            std::to_string(output.runs.size()) + " completed");
  return output;
}

bool SniffFluxJobsListing(const std::string&, std::string_view text) { return LooksLikeFluxJobsListing(text); }

}  // namespace qnm
