#pragma once
// Slurm accounting tables: what `sacct` prints of a user's jobs (docs/formats/slurm-sacct.md), the
// history every user of a Slurm cluster already has. Read in sacct's three text layouts:
//   --parsable2 (-P):  "JobID|JobName|NTasks|Elapsed|State" then "1234.0|lmp|64|00:10:12|COMPLETED";
//   --parsable (-p):   the same with a '|' closing every line;
//   the default table: a header, a line of dashes that sets each column's width, then rows whose
//                      values sacct right-aligns and cuts to the width with a closing '+'.
// A job's rows are its allocation ("1234", "1234_7" of an array, "1234+1" of a heterogeneous job)
// and its steps ("1234.batch", "1234.extern", "1234.0", "1234.1", ...). Every srun step of a
// program is a run: its tasks are the processes, its elapsed time the run's time. A job launched
// by mpirun has a step of mpirun's daemons (orted, prted, hydra_bstrap_proxy), which hides the task
// count; such a job, and one with no step at all, is a run of its allocated CPUs. Runs that did not
// complete (FAILED, CANCELLED, TIMEOUT, OUT_OF_MEMORY, RUNNING, ...) are counted, not read.
// Slurm times no MPI call: the records are runtime only. Checked on what Slurm 22.05.8's sacct prints.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "reader/batch_job_text.h"  // JobNameWithoutCounts, ProgramArguments
#include "record/run_stats.h"

namespace qnm {

/// One row of a sacct table: a job's allocation or one of its steps.
struct SacctRow {
  int line = 0;            // 1-based
  std::string job_id;      // "1234.0", "1234_7.batch", "1234+1"
  std::string job;         // the allocation's id: "1234", "1234_7", "1234+1"
  std::string step;        // "" (the allocation), "batch", "extern", "interactive", "0", "1", ...
  std::map<std::string, std::string> values;  // by sacct's field name in lower case ("ntasks", "elapsed")
  bool cut = false;        // a value of the default table ends in '+': sacct cut it to its column

  /// The value of field `name` (lower case), or empty.
  const std::string& Value(const std::string& name) const;
};

/// A sacct table as printed.
struct SacctTable {
  enum class Layout { kParsable, kFixedWidth, kJson };  // kJson: sacct --json (slurm_accounting_json.h)
  Layout layout = Layout::kParsable;
  int header_line = 0;
  std::vector<std::string> fields;  // sacct's field names in lower case, in the table's order
  std::vector<SacctRow> rows;

  bool Has(const std::string& field) const;
};

/// True when the first line of `text` is a sacct header: a JobID (or JobIDRaw) field among sacct's
/// field names, '|'-separated or above a line of dashes, with an elapsed time or a state.
bool LooksLikeSacctTable(std::string_view text);

/// Every row of the table; throws InputError naming `path` (and the line) when the header names no
/// JobID field, a row has more or fewer fields than the header, or a job id is malformed.
SacctTable ParseSacctTable(std::string_view text, const std::string& path);

/// One run of a job: the step (or the allocation) that stands for it.
struct SacctRun {
  const SacctRow* row = nullptr;        // the step, or the allocation of a job without program steps
  const SacctRow* allocation = nullptr;  // the job's allocation row, or null when the table has none
  bool launcher_step = false;            // `row` is mpirun's daemons: the tasks are not the processes
};

/// The runs of a table, in its order, finished or not.
std::vector<SacctRun> SacctRuns(const SacctTable& table);

/// Why `run` cannot be read ("job 1234 step 0: FAILED, exit code 1:0"), or empty when it completed.
std::string SacctRunNotRead(const SacctRun& run);

/// The run-statistics record of a completed run: app the step's program (else the job's name),
/// the class the job's name and the program's arguments (SubmitLine), each without the run's own
/// process or node count, procs the step's tasks
/// (else the allocated CPUs, noted), nodes, hosts and cluster, the elapsed time as the run's time.
/// Throws InputError naming `path` and the row's line when a value sacct printed is malformed.
RunStats SacctRunToRunStats(const SacctRun& run, const SacctTable& table, const std::string& path);

}  // namespace qnm
