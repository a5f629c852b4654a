#pragma once
// Runs that the series key would take as repetitions of one point, whose own
// files say they ran different problems. A campaign of Caliper profiles keeps
// its input size and type in Adiak (`InputSize`, `InputType`; RAJAPerf's
// `ProblemSizeRunParam`) and nothing else tells the runs apart: without this
// step, the 147 profiles of a sorting campaign (four input types, four sizes)
// became one "series" whose 16 repetitions at P = 16 ran from 1.9 s to
// 7,299 s, and its prediction at P = 2048 an interval of 2,560x. Thicket
// (LLNL's analysis tool for these profiles) holds each profile's Adiak values
// as metadata columns and separates an ensemble by them (`Thicket.groupby`).
//
// A setting (IsRunSetting: a detail the program declared about its run, not a
// per-run value; and the record's problem size, which a table's `size` column
// gives: two sizes in one table without a series column were one series too)
// is an experiment factor of a series when
//   - at one process count at least two of its runs hold different values
//     (a run without the setting does not count: its value is unknown, as the
//     size of an mpiP report read without its NPB output), and
//   - at least two of its values each recur at two or more process counts
//     (a date or job id, one per run, never does).
// Factors that split the runs alike (a table's `scale` and `unknowns` naming the same grids) count
// once, by the first. The runs are then kept apart by the values of every factor: each run's
// `variant` (the run configuration, part of the series key) gains
// "<setting>=<value> ...", or, when a table names the run's series (its series
// column, or the file's name), that name gains " (<setting>=<value> ...)"; the
// derivation says why. A run that knows none of the factors keeps its key.
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// True for details that differ between runs of one configuration anyway: dates, times, process
/// and job ids, host and node lists, and the results a run reports (NPB's Mop/s, ReFrame's other
/// performance variables, a figure of merit, elapsed times, memory used).
bool VariesPerRun(const std::string& key);

/// Prefixes of the details that are the run's settings as its program declared them: Caliper's
/// Adiak values (caliper_profile.h), the program's command-line arguments and the settings a
/// reader finds printed (below). Other
/// details mix results with settings (Arm Performance Reports' MPI shares, mpiP's header fields
/// such as its nodes), which would split a series by noise or by layout.
inline constexpr const char* kSettingPrefixes[] = {"adiak.", "command.", "setting."};

/// The prefix under which a reader keeps what its format prints of the input's settings (a LAMMPS
/// log's long-range solver: `setting.kspace`).
inline constexpr char kDeclaredSettingPrefix[] = "setting.";

/// The detail holding the arguments after argv[0] that a run's files give (an mpiP report's
/// Command line, TAU's "Command Line" metadata): the same program on two inputs in one folder is
/// two series.
inline constexpr char kCommandArgumentsSetting[] = "command.arguments";

/// The detail holding where the program's binary lives, when its files give an absolute path
/// (an mpiP report's `@ Command`): the last two folders of that path with its "." and ".." resolved
/// (`/g/.../NAS-MZ/BT-MZ/mpip/<run>/../../../bin/bt-mz.C.16` -> `NAS-MZ/bin`). Two builds of one code
/// installed in two trees (an icc and a gcc campaign of NPB-MZ) are two series, not repetitions.
inline constexpr char kProgramFolderSetting[] = "command.program_folder";

/// Sets run->details[kCommandArgumentsSetting] to the words of `command` after the first (joined by
/// single spaces), nothing when it has none; and run->details[kProgramFolderSetting] when the first
/// word is an absolute path with a folder.
void SetCommandArguments(std::string_view command, RunStats* run);

/// The record's own problem size (RunStats::problem_size: NPB's banner, a table's `size` column,
/// Adiak's `problem_size`) is a setting too, under this name.
inline constexpr char kProblemSizeSetting[] = "problem_size";

/// So is the run's layout, the ranks it ran per node (RunStats::ranks_per_node, when known): runs
/// of one input at one process count on 1, 2 and 4 nodes are three layouts, not repetitions.
inline constexpr char kRanksPerNodeSetting[] = "ranks_per_node";

/// A detail with a setting prefix that does not vary per run (VariesPerRun).
bool IsRunSetting(const std::string& key);

/// Whether a table row stays when a --series filter (lower-cased) drops other series' rows as a table is read
/// (a large table's other series are not held): a row without a series name or citing several files, a row whose
/// name holds the filter, and a row that may end in a series that does once SplitByExperimentFactors adds its
/// factors ("mpi_np_strong (op=add)" for a row of "mpi_np_strong"): every row with a setting of its input (the
/// split needs all of the setting's values), and a row with a known layout when the filter may name one ("rpn=",
/// '(' or '='). The one rule of the table readers' filter (TableRowFilter) and of ingest's.
bool TableRowMayBeInSeries(const RunStats& run, const std::string& filter_lower);

/// Splits the series whose runs differ in experiment factors (above), by setting their runs'
/// variant. Returns one note per series split: its key, the factors and how many series it became.
std::vector<std::string> SplitByExperimentFactors(std::vector<RunStats>* runs);

}  // namespace qnm
