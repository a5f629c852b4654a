#pragma once
// Other tools' names for the columns every statistics table needs. A table of
// `nprocs,runtime` or `ranks,time [ms]` is what users already have; the record's
// names (procs, time_s, series) are ours (docs/statistics-table.md). Where a
// table lacks one of ours, the one header of its own that names the same
// quantity stands in for it, its unit read from the name (`_ms`, `[min]`, `(s)`)
// (the layout's columns too: `ppn`, `nnodes`, `omp_threads`, so node awareness
// reaches such tables);
// two candidates for one column are refused, not guessed between. A table with
// no series or application column is one series named after its file.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qnm {

struct TableColumnAliases {
  // (our column, the table's header that stands for it), in the order of our columns: procs,
  // time_s, series or app, threads, nodes, ranks_per_node, machine.
  std::vector<std::pair<std::string, std::string>> renamed;
  double seconds_per_time_unit = 1.0;  // the time column's unit: 0.001 for milliseconds
  std::string time_unit = "s";         // as written in the note
  bool time_named_by_user = false;     // the time column is the one --metric named

  /// The table's header read as our `column`; empty when the table has ours or none.
  const std::string& HeaderOf(std::string_view column) const;
  /// Our column the table's `header` stands for; empty when it stands for none.
  const std::string& OursOf(const std::string& header) const;
  /// The record's derivation of its wall time when the time column is an alias: "statistics
  /// table column 'runtime_ms' (ms)"; empty otherwise.
  std::string TimeDerivation() const;
  /// One line for the reader's notes ("t.csv: column 'nprocs' read as procs, 'runtime_ms' read as
  /// time_s (ms) ..."); empty when nothing was read under another name.
  std::string Note(const std::string& path) const;
};

/// A header name as the aliases compare it: lower case, blanks and '-' as '_' ("Wall time" and
/// "wall-time" are "wall_time").
std::string NormalizedColumnName(std::string_view name);

/// Resolves the aliases of a header (the table's column names, as written). Canonical names win:
/// an alias is looked for only where the header lacks the column itself. Returns false with
/// `error` when two header names could each be the same column. `time_column`, when not empty, is the column the
/// user named the run time (`--metric`; compared as the aliases are, with or without its unit: `t_sim` names
/// `t_sim [ms]`): it is the run time whatever the other columns are called, and its absence is the error.
bool ResolveTableColumnAliases(const std::vector<std::string>& header, TableColumnAliases* aliases,
                               std::string* error, const std::string& time_column = "");

/// The axis (0, 1, 2) of a column counting the processes along one axis of a process grid (`npx`, `npy`,
/// `npz`, as HPCG names them; `px`, `iproc`, `jproc`, `nprow`, `npcol`); -1 for any other column.
int ProcessGridAxis(const std::string& header);

/// The seconds per unit of a header naming one repetition of the run time, a table whose measurements
/// of one run are columns ("Time 1", "time_2 [ms]", "Exec time 10 (s)", "Run 3 (s)": a run time's name, or
/// a repetition's with a time unit, and its number, into `*repetition`); 0 when it names none.
double RepeatedTimeColumnSeconds(const std::string& header, int* repetition);

/// The columns of `header` that are numbered repetitions of the run time (RepeatedTimeColumnSeconds), the first of
/// each number: their indices and seconds per unit. None when fewer than two: one such column is no repetition.
struct RepeatedTimeColumns {
  std::vector<std::size_t> at;           // index in the header
  std::vector<double> seconds_per_unit;  // of each
};
RepeatedTimeColumns FindRepeatedTimeColumns(const std::vector<std::string>& header);

/// The series name of a table without a series or application column: its file name without
/// folders and extension ("runs/lulesh.csv" -> "lulesh").
std::string SeriesNameOfTableFile(const std::string& path);

}  // namespace qnm
