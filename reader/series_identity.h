#pragma once
// Series identity: which runs form one strong-scaling series, decided from
// what the files say — application and problem class (NPB banner, mpiP
// command line, a table's columns), threads per process (NPB banner, an
// `info`/`env` file beside the run), machine (mpiP MPI Task Assignment host
// names, the uname/HOSTNAME line of an `info`/`env` file, a table's `machine`
// or `system` column) and the run configuration words of the file name
// ("eth O3"). Folder names and data-set prefixes of file names key a series
// only when the user asks for it (GroupBy). Every key records where it came
// from in RunStats::derivations, so `ingest --series` can say why runs were grouped.
#include <string>
#include <vector>

#include "reader/run_info_file.h"
#include "record/run_stats.h"

namespace qnm {

/// What besides the content keys a series: nothing (default), the folder the
/// run's files are in, or the data-set prefix of its file names ("tpatki-npbmz__").
enum class GroupBy { kContent, kFolder, kFilePrefix };
const char* ToString(GroupBy group_by);
/// Parses "content" | "folder" | "file-prefix"; false if unknown.
bool ParseGroupBy(const std::string& text, GroupBy* group_by);

/// Sets run->hosts and, when no machine is known yet, the machine named by
/// their stem (host_names.h); `where` names the source ("mpiP MPI Task Assignment").
/// A stem that names only a node (IsGenericNodeStem: "nid") is qualified by the
/// processor model when the file gives its brand (`cpu_brand`): "nid EPYC 7742".
void ApplyHosts(const std::vector<std::string>& hosts, const std::string& where, RunStats* run,
                const std::string& cpu_brand = "");

/// ApplyHosts for the host of every rank (`hosts[r]` of rank r, none empty), and
/// the nodes: the distinct host names (TAU metadata, IPM <host>).
void ApplyRankHosts(const std::vector<std::string>& hosts, const std::string& where, RunStats* run);

/// Applies what an info/env/hostfile beside the run says: hosts (machine) and
/// threads per process (OMP_NUM_THREADS, or threads/node x nodes / procs),
/// each only where the run's own files said nothing.
void ApplyRunInfo(const RunInfoFile& info, RunStats* run);

/// After a statistics-table column set its field: records where the identity
/// keys came from (app, class, threads, machine), turns a `system` description
/// into its machine (MachineFromSystemText; the text goes to details["system"])
/// and splits a `source` of several files ("a;b", as ingest's CSV writes them).
void ApplyTableIdentity(const std::string& column, const std::string& value, RunStats* run);

/// The machine a table's free-text `system` column names: its `cluster=<name>`
/// field, else its first ';'-separated field without parenthesised remarks
/// ("LLNL cab (Sandy Bridge …);NPB3.3.1-MZ…" -> "LLNL cab").
std::string MachineFromSystemText(const std::string& system);

/// Makes a machine described in free text name the machine the same way host
/// names do: when exactly one of its words equals the host-name stem of other
/// runs read ("LLNL cab" beside runs on cab183… -> "cab"), it becomes that stem.
void ReconcileMachineNames(std::vector<RunStats>* runs);

/// The configuration a `system` description gives besides its machine: its
/// other ';' fields, without `key=<integer>` counts that change with P
/// ("hosts=8", "threads_total=128") and the run's verification outcome.
std::string ConfigurationFromSystemText(const std::string& system);

/// The series key of `run` under `group_by` (KeyOf plus the folder or prefix).
SeriesKey IdentityKey(const RunStats& run, GroupBy group_by);

/// Groups runs into series by IdentityKey(), then by procs (run_stats.h GroupIntoSeries).
std::vector<Series> GroupIntoSeries(std::vector<RunStats> runs, GroupBy group_by);

/// Why the runs of `series` were grouped: one line per identity key with its
/// value and where it came from over the series' runs
/// ("machine cab: mpiP MPI Task Assignment cab183 cab194 … (5 runs)").
std::vector<std::string> ExplainSeriesIdentity(const Series& series);

}  // namespace qnm
