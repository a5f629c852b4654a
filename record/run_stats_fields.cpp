#include "record/run_stats_fields.h"

#include <cstring>

namespace qnm {
namespace {

using Kind = RunStatsField::Kind;

RunStatsField Text(const char* column, const char* member, SharedText RunStats::*field,
                   const char* description, bool written = true) {
  RunStatsField row{column, member, "", description, Kind::kText};
  row.text = field;
  row.written = written;
  return row;
}

RunStatsField Count(const char* column, const char* member, int RunStats::*field, const char* unit,
                    const char* description, Kind kind = Kind::kCount) {
  RunStatsField row{column, member, unit, description, kind};
  row.count = field;
  return row;
}

RunStatsField Number(const char* column, const char* member, double RunStats::*field,
                     const char* unit, const char* description) {
  RunStatsField row{column, member, unit, description, Kind::kSeconds};
  row.number = field;
  return row;
}

RunStatsField Detail(const char* column, const char* key, const char* description) {
  RunStatsField row{column, "details[\"metric\"]", "", description, Kind::kDetail};
  row.detail = key;
  return row;
}

std::vector<RunStatsField> MakeFields() {
  // Column names "benchmark" and "system" are those of the NPB data set's
  // npb_runs.csv for app and machine; they are read, never written.
  std::vector<RunStatsField> fields = {
      Text("series", "series", &RunStats::series,
           "explicit series name; rows with the same name (and threads) form one strong-scaling series"),
      Text("app", "app", &RunStats::app, "application name, e.g. lu, bt-mz"),
      Text("class", "problem_class", &RunStats::problem_class, "NPB class letter or another size label"),
      Text("size", "problem_size", &RunStats::problem_size, "problem-size text"),
      Text("machine", "machine", &RunStats::machine,
           "machine name (cab, graphene); part of the series key (reader/series_identity.h)"),
      Text("allocation", "allocation", &RunStats::allocation, "block, cyclic, one-per-node"),
      Count("procs", "procs", &RunStats::procs, "count", "MPI processes (required)"),
      Count("threads", "threads_per_proc", &RunStats::threads_per_proc, "count",
            "OpenMP threads per process (default 1)"),
      Count("ranks_per_node", "ranks_per_node", &RunStats::ranks_per_node, "count",
            "MPI processes per node (empty = unknown)", Kind::kCountOrNone),
      Count("nodes", "nodes", &RunStats::nodes, "count", "nodes the run used (empty = unknown)",
            Kind::kCountOrNone),
      Detail("metric", "metric",
             "what time_s measures (wall_time, solve, ...); kept with the run, not part of the series key"),
      Number("time_s", "wall_time_s", &RunStats::wall_time_s, "s",
             "run time (the application's own timer; required)"),
      Number("app_time_s", "app_time_mean_s", &RunStats::app_time_mean_s, "s",
             "mean per rank of the profiled application time"),
      Number("app_time_max_s", "app_time_max_s", &RunStats::app_time_max_s, "s",
             "max per rank of the profiled application time"),
      Number("mpi_time_s", "mpi_time_mean_s", &RunStats::mpi_time_mean_s, "s",
             "mean per rank of the time inside MPI"),
      Number("mpi_time_max_s", "mpi_time_max_s", &RunStats::mpi_time_max_s, "s",
             "max per rank of the time inside MPI"),
      Number("compute_time_s", "compute_time_mean_s", &RunStats::compute_time_mean_s, "s",
             "mean per rank of app - MPI time (derived when absent)"),
      Number("messages", "messages_per_rank", &RunStats::messages_per_rank, "count",
             "messages sent per rank (point-to-point sends + collectives)"),
      Number("bytes", "bytes_sent_per_rank", &RunStats::bytes_sent_per_rank, "bytes",
             "bytes sent per rank"),
      Number("bytes_per_message", "bytes_per_message", &RunStats::bytes_per_message, "bytes",
             "bytes per message (derived from bytes / messages when absent)"),
      Number("mpi_calls", "mpi_calls_per_rank", &RunStats::mpi_calls_per_rank, "count",
             "all MPI calls per rank"),
      Number("mops", "mops_total", &RunStats::mops_total, "Mop/s", "NPB Mop/s total"),
      Number("mops_per_proc", "mops_per_proc", &RunStats::mops_per_proc, "Mop/s",
             "NPB Mop/s per process"),
      Count("iterations", "iterations", &RunStats::iterations, "count", "iterations / time steps",
            Kind::kCountOrNone),
      Text("verification", "verification", &RunStats::verification, "SUCCESSFUL, UNSUCCESSFUL, ..."),
      Text("version", "npb_version", &RunStats::npb_version, "application version"),
      RunStatsField{"source", "sources", "", "where the numbers come from (kept beside file:line)",
                    Kind::kSources},
      Text("benchmark", "app", &RunStats::app, "alias of app", false),
      Text("system", "machine", &RunStats::machine,
           "description of the system; the machine is its cluster= field or first ';' field", false),
      RunStatsField{"run", "details[\"run\"]", "", "free-text run label (repeat id, job id)",
                    Kind::kRunLabel},
  };
  fields.back().written = false;
  return fields;
}

}  // namespace

const std::vector<RunStatsField>& RunStatsFields() {
  static const std::vector<RunStatsField> fields = MakeFields();
  return fields;
}

const RunStatsField* FindRunStatsField(const std::string& column) {
  for (const RunStatsField& field : RunStatsFields())
    if (column == field.column) return &field;
  return nullptr;
}

double WrittenNumber(const RunStatsField& field, const RunStats& run) {
  if (std::strcmp(field.column, "time_s") == 0) return run.TotalTimeSeconds();
  return run.*field.number;
}

}  // namespace qnm
