// ReFrame's JSON run report (`reframe --report-file`, by default
// ~/.reframe/reports/run-report-<n>.json; schema reframe/schemas/runreport.json):
// every test case of every run (retries are runs too) as a ReframeJob, the same
// jobs its perflogs hold (docs/formats/reframe-perflog.md, "The run report").
#include <string>
#include <vector>

#include "job_records/reframe_perflog_jobs.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/json_input.h"

namespace qnm {
namespace {

/// A JSON scalar as the perflog would print it: strings bare, null as "None".
std::string Text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "None";
  return value.dump();
}

ReframeJob JobOfTestCase(const nlohmann::json& tc, int index) {
  ReframeJob job;
  job.line = 0;
  job.fields.emplace("report_case", std::to_string(index));
  for (const char* key : {"display_name", "name", "unique_name", "environment", "jobid", "result",
                          "job_completion_time", "fail_reason"})
    if (tc.contains(key) && !tc[key].is_null() && !tc[key].is_object() && !tc[key].is_array())
      job.fields.emplace(key == std::string("environment") ? "environ" : key, Text(tc[key]));
  // "system" is "<system>:<partition>" (ReFrame 4), or the system alone beside "partition" (3).
  if (tc.contains("system") && tc["system"].is_string()) {
    std::string system = tc["system"].get<std::string>();
    std::size_t colon = system.find(':');
    job.fields.emplace("system", system.substr(0, colon));
    if (colon != std::string::npos) job.fields.emplace("partition", system.substr(colon + 1));
  }
  if (tc.contains("partition") && tc["partition"].is_string()) job.fields.emplace("partition", Text(tc["partition"]));
  if (tc.contains("nodelist") && tc["nodelist"].is_array()) {
    std::string hosts;
    for (const nlohmann::json& host : tc["nodelist"])
      if (host.is_string()) hosts += (hosts.empty() ? "" : ",") + host.get<std::string>();
    if (!hosts.empty()) job.fields.emplace("job_nodelist", hosts);
  }
  // The test's variables (ReFrame 4: num_tasks, num_tasks_per_node, num_cpus_per_task, env_vars)
  // and parameters, as the perflog's columns.
  for (const char* group : {"check_vars", "check_params"})
    if (tc.contains(group) && tc[group].is_object())
      for (const auto& [key, value] : tc[group].items()) {
        if (key == "env_vars" && value.is_object()) job.fields.emplace("env_vars", value.dump());
        else if (value.is_number_integer() || value.is_string()) job.fields.emplace(key, Text(value));
      }
  if (tc.contains("perfvars") && tc["perfvars"].is_array())
    for (const nlohmann::json& var : tc["perfvars"]) {
      if (!var.is_object() || !var.contains("name") || !var["name"].is_string()) continue;
      job.perf.push_back({var["name"].get<std::string>(), var.contains("value") ? Text(var["value"]) : "None",
                          var.contains("unit") && var["unit"].is_string() ? var["unit"].get<std::string>() : ""});
    }
  return job;
}

}  // namespace

bool LooksLikeReframeRunReport(const std::string& path, std::string_view text) {
  std::string_view head = text.substr(0, std::min<std::size_t>(text.size(), 1 << 16));
  return EndsWith(path, ".json") && head.find("\"session_info\"") != std::string_view::npos &&
         text.find("\"testcases\"") != std::string_view::npos;
}

std::vector<ReframeJob> ReadReframeRunReportJobs(const std::string& path, std::string_view text) {
  nlohmann::json report = ParseJsonDocument(text, path);
  if (!report.is_object() || !report.contains("runs") || !report["runs"].is_array())
    throw InputError(path, 0, "a ReFrame run report without its 'runs' array");
  std::vector<ReframeJob> jobs;
  int index = 0;
  for (const nlohmann::json& run : report["runs"]) {
    if (!run.is_object() || !run.contains("testcases") || !run["testcases"].is_array())
      throw InputError(path, 0, "a ReFrame run report run without its 'testcases' array");
    for (const nlohmann::json& tc : run["testcases"]) {
      ++index;
      if (!tc.is_object()) throw InputError(path, 0, "test case " + std::to_string(index) + " is not an object");
      ReframeJob job = JobOfTestCase(tc, index);
      if (report.contains("session_info") && report["session_info"].is_object() &&
          report["session_info"].contains("version"))
        job.fields.emplace("version", "reframe " + Text(report["session_info"]["version"]));
      jobs.push_back(std::move(job));
    }
  }
  return jobs;
}

}  // namespace qnm
