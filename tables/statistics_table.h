#pragma once
// Statistics tables from other tools: CSV (libfccp) or JSON (nlohmann) with
// one run per row/object. Minimal columns: series (or app), procs, time_s;
// optional columns fill the other fields of the record (docs/statistics-table.md).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "reader/reader.h"
#include "record/run_stats.h"

namespace qnm {

/// The accepted column names, in documentation order.
const std::vector<std::string>& StatisticsTableColumns();

/// How ReadStatisticsCsv reports what it read, and where its text stands in the file `path` names.
struct StatisticsTableOptions {
  /// When given, gets one line naming the columns that are no record field (other tools' extras).
  std::vector<std::string>* notes = nullptr;
  /// When given, keeps only the rows it selects (reader/reader.h).
  TableRowFilter* filter = nullptr;
  /// When given, gets the lines that say how the table was read: columns under other names
  /// (table_column_aliases.h), a table that is one series named after its file; else `notes` does.
  std::vector<std::string>* readings = nullptr;
  /// When not empty, names the series of a table without a series column instead of its file's name: a
  /// table that is one of several in a document (tables/document_tables.h).
  std::string rows_series;
  /// When set, the line of `path` that holds line n (1-based) of the text: errors and each run's source name
  /// it. A table taken out of a document is read as CSV text whose lines are not the document's.
  std::function<int(int)> file_line;
  /// When not empty, the column that is the run time, as the user named it (--metric): read whatever the table's
  /// other columns are called (a table of `t_init, t_sim` has no run time by its names).
  std::string time_column;

  /// Where the lines that say how the table was read go: `readings`, else `notes`, else nowhere.
  std::vector<std::string>* ReadingsOrNotes() const { return readings ? readings : notes; }
};

/// The options of a table read for ingest: notes and readings into `output`, the row filter (--series) and the run
/// time's column (--metric) from `input`.
StatisticsTableOptions TableOptionsFor(const ReaderInput& input, ReaderOutput* output);

/// Reads a CSV table. Throws InputError(path, line, ...) for a missing
/// required column or a value that does not parse. Columns that are no record
/// field (other tools' extras) are ignored, with a note (options.notes).
std::vector<RunStats> ReadStatisticsCsv(std::string_view text, const std::string& path,
                                        const StatisticsTableOptions& options);

/// The same, with only the note lists and the row filter (the readings go to `notes` when not given).
std::vector<RunStats> ReadStatisticsCsv(std::string_view text, const std::string& path,
                                        std::vector<std::string>* notes = nullptr, TableRowFilter* filter = nullptr,
                                        std::vector<std::string>* readings = nullptr);

/// True when a header (a table's column names, as written) names a run's processes (or its nodes and
/// ranks per node) and its time, itself or under another name (table_column_aliases.h): the columns
/// ReadStatisticsCsv requires. A header whose names are ambiguous counts as one (its reader says why).
bool NamesProcsAndTime(const std::vector<std::string>& header);

/// Reads a JSON table: an array of objects, or {"runs": [...]}, keys as the CSV
/// columns; other keys are ignored with one note, as in the CSV reader.
std::vector<RunStats> ReadStatisticsJson(std::string_view text, const std::string& path,
                                         const StatisticsTableOptions& options);

/// The same, with only the note lists and the row filter.
std::vector<RunStats> ReadStatisticsJson(std::string_view text, const std::string& path,
                                         std::vector<std::string>* notes = nullptr, TableRowFilter* filter = nullptr,
                                         std::vector<std::string>* readings = nullptr);

}  // namespace qnm
