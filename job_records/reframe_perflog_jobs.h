#pragma once
// The lines of a ReFrame performance log as jobs (docs/formats/reframe-perflog.md), in
// either layout: ReFrame >= 4's header line and one line per run, or ReFrame 3's one line
// per performance variable ("<time>|reframe <version>|<test> on <system>:<partition> using
// <environ>|jobid=<id>|<var>=<value>|<unit>|ref=...|<tags>"), lines of one job merged.
// What a job means as a run (its run time, layout and series) is reframe_perflog.cpp's.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

/// One performance variable of one run: "total_time" = 322.36 "s".
struct ReframePerfValue {
  std::string name;
  std::string value;  // as written: a number, or None/null for a failed run
  std::string unit;
};

/// One job of the log, whatever the layout: its named fields and its performance variables.
struct ReframeJob {
  int line = 0;                                // the job's first line in the file (0: a run report)
  std::map<std::string, std::string> fields;   // lower-case field name -> value ("num_tasks" -> "112")
  std::vector<std::string> tags;               // bare tags ("Al3x3", "example")
  std::vector<ReframePerfValue> perf;
};

/// The fields (lower case) that carry a run's layout, each list in the order a reader believes
/// them (reframe_perflog.cpp); in a ReFrame 3 line such key=value fields and tags are the layout,
/// not the performance variable.
inline const std::vector<const char*> kReframeProcessFields = {"num_tasks", "num_procs", "procs", "nprocs",
                                                               "np",        "tasks",     "ntasks", "ranks"};
inline const std::vector<const char*> kReframeThreadFields = {"omp_num_threads", "num_threads", "threads", "omp",
                                                              "num_cpus_per_task", "cpus_per_task"};
inline const std::vector<const char*> kReframeRanksPerNodeFields = {"num_tasks_per_node", "tasks_per_node",
                                                                    "ranks_per_node"};
inline const std::vector<const char*> kReframeNodeFields = {"num_nodes", "nodes"};

/// True when the first non-empty line is a ReFrame >= 4 header or a ReFrame 3 line.
bool LooksLikeReframePerflog(std::string_view text);

/// The jobs of a log, in the order of their first lines; throws InputError (file, line) on a line
/// of neither layout, a row whose fields do not match its header, or a variable twice in one job.
std::vector<ReframeJob> ReadReframePerflogJobs(const std::string& path, std::string_view text);

/// True for a ReFrame JSON run report (reframe_run_report.cpp): a .json file with "session_info"
/// and "testcases".
bool LooksLikeReframeRunReport(const std::string& path, std::string_view text);

/// The test cases of every run of a JSON run report as jobs (line 0; field "report_case" is the
/// case's number); throws InputError on invalid JSON or a report without runs and test cases.
std::vector<ReframeJob> ReadReframeRunReportJobs(const std::string& path, std::string_view text);

/// ReFrame writes an absent value as None (Python) or null (JSON).
bool IsAbsentReframeValue(std::string_view value);

/// "name=value" with a non-empty name, both trimmed; false otherwise.
bool SplitKeyValue(std::string_view field, std::string* key, std::string* value);

}  // namespace qnm
