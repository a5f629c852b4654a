#include "tables/statistics_table.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <stdexcept>
#include <type_traits>
#include <utility>

#define CSV_IO_NO_THREAD  // one small table per call: no reader thread
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#endif
#include <csv.h>
#pragma GCC diagnostic pop
#include <nlohmann/json.hpp>

#include "launch/launch_command.h"
#include "reader/experiment_factors.h"
#include "reader/run_stats_check.h"
#include "reader/series_identity.h"
#include "record/run_stats_fields.h"
#include "tables/table_column_aliases.h"
#include "tables/table_setting_columns.h"
#include "textio/line_reader.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/json_input.h"

namespace qnm {
namespace {

// A measured value with its spread, "12.3 ± 0.4" ("+-", "+/-"; hyperfine's tables, users' reports): the value,
// when what follows the sign is a number too; else the cell as it is (refused as no number by the caller).
std::string_view ValueBeforeDeviation(std::string_view cell) {
  for (std::string_view sign : {"\u00b1", "+/-", "+-"}) {
    const std::size_t at = cell.find(sign);
    if (at == std::string_view::npos || at == 0) continue;
    const std::optional<double> deviation = ParseDouble(Trim(cell.substr(at + sign.size())));
    if (deviation && *deviation >= 0) return Trim(cell.substr(0, at));
    return cell;
  }
  return cell;
}

// The columns are the rows of the record's field table (record/run_stats_fields.h);
// libfccp needs their number at compile time.
constexpr std::size_t kColumnCount = 30;

const std::array<const char*, kColumnCount>& Columns() {
  static const std::array<const char*, kColumnCount> columns = [] {
    const std::vector<RunStatsField>& fields = RunStatsFields();
    if (fields.size() != kColumnCount)
      throw std::logic_error("statistics_table.cpp: kColumnCount differs from RunStatsFields()");
    std::array<const char*, kColumnCount> names{};
    for (std::size_t c = 0; c < kColumnCount; ++c) names[c] = fields[c].column;
    return names;
  }();
  return columns;
}

// Sets one column of `run` from its text; empty text leaves the field unknown.
class RowBuilder {
 public:
  RowBuilder(const std::string& path, int line) : path_(path), line_(line) {
    run_.sources.push_back(path + ":" + std::to_string(line));
    run_.derivations["wall_time_s"] = "statistics table column time_s";
  }

  void Set(const std::string& column, const std::string& raw) {
    std::string value(Trim(raw));
    if (value.empty()) return;
    seen_.push_back(column);
    const RunStatsField* field = FindRunStatsField(column);
    if (!field) Fail("unknown column '" + column + "'");
    switch (field->kind) {
      case RunStatsField::Kind::kText: run_.*field->text = value; break;
      case RunStatsField::Kind::kCount:
      case RunStatsField::Kind::kCountOrNone: run_.*field->count = PositiveInt(column, value); break;
      case RunStatsField::Kind::kSeconds:
        run_.*field->number = NonNegative(column, value) * (column == "time_s" ? seconds_per_time_unit_ : 1.0);
        break;
      case RunStatsField::Kind::kSources: run_.sources.push_back(value); break;
      case RunStatsField::Kind::kRunLabel: run_.details["run"] = value; break;
      case RunStatsField::Kind::kDetail: run_.details[field->detail] = value; break;
    }
    ApplyTableIdentity(column, value, &run_);  // where identity keys came from; `system` is a description
  }

  /// The table's own names of our columns (table_column_aliases.h; it outlives the row), for the
  /// time column's unit and the messages; `time_derivation` is the wall time's derivation then.
  void SetAliases(const TableColumnAliases& aliases, const std::string& time_derivation) {
    aliases_ = &aliases;
    if (aliases.HeaderOf("time_s").empty()) return;
    seconds_per_time_unit_ = aliases.seconds_per_time_unit;
    run_.derivations["wall_time_s"] = time_derivation;
  }
  /// The run time from one of the columns repeating it ("Time 3" of "Time 1".."Time 5"): its unit and name.
  void SetRepeatedTime(const std::string& header, double seconds_per_unit) {
    seconds_per_time_unit_ = seconds_per_unit;
    repeated_header_ = header;
    run_.derivations["wall_time_s"] = "statistics table column '" + header + "' (one repetition of the run)";
    run_.details["run"] = header;
  }
  /// A ';'-separated table's numbers may use ',' as their decimal mark (1,5 = 1.5).
  void AcceptDecimalComma() { decimal_comma_ = true; }
  /// The series of every row when the table has no series or application column.
  void SetFileSeries(const std::string& name) { file_series_ = name; }

  RunStats Finish() {
    if (!file_series_.empty() && run_.series.empty() && run_.app.empty()) {
      run_.series = file_series_;
      ApplyTableIdentity("series", file_series_, &run_);
    }
    // No process count but the layout's two columns (`nodes,ppn,time`): their product.
    run_.SetProcsFromLayout("statistics table columns nodes x ranks_per_node (the row gives no procs)");
    if (run_.procs <= 0) Fail("missing value for the required column 'procs'");
    if (!Known(run_.TotalTimeSeconds())) Fail("missing value for the required column 'time_s'");
    if (run_.series.empty() && run_.app.empty())
      Fail("a row needs 'series' (or 'app'/'benchmark') to name its series");
    static const std::pair<const char*, const char*> kFieldOf[] = {
        {"app_time_s", "app_time_mean_s"}, {"mpi_time_s", "mpi_time_mean_s"},
        {"messages", "messages_per_rank"}, {"bytes", "bytes_sent_per_rank"}};
    for (const auto& [column, field] : kFieldOf)
      if (std::find(seen_.begin(), seen_.end(), column) != seen_.end())
        run_.derivations.emplace(field, std::string("statistics table column ") + column);
    // The layout from whichever of the two columns the table gives.
    if (run_.ranks_per_node == 0 && run_.nodes > 0) {
      run_.SetNodes(run_.nodes, "statistics table column nodes");
    } else if (run_.nodes == 0 && run_.ranks_per_node > 0) {
      run_.SetRanksPerNode(run_.ranks_per_node, "statistics table column ranks_per_node");
    }
    run_.Derive();
    RequirePlausibleRecord(run_, path_, line_);
    return std::move(run_);
  }

  [[noreturn]] void Fail(const std::string& message) const { throw InputError(path_, line_, message); }
  RunStats& run() { return run_; }

 private:
  /// 'time_s', or 'runtime_ms' (time_s) when the table names it otherwise.
  std::string Named(const std::string& column) const {
    if (column == "time_s" && !repeated_header_.empty()) return "'" + repeated_header_ + "' (time_s)";
    const std::string* header = aliases_ ? &aliases_->HeaderOf(column) : nullptr;
    return header && !header->empty() ? "'" + *header + "' (" + column + ")" : "'" + column + "'";
  }
  double NonNegative(const std::string& column, const std::string& value) const {
    auto number = ParseDouble(ValueBeforeDeviation(value));
    if (!number && decimal_comma_ && std::count(value.begin(), value.end(), ',') == 1) {
      std::string dotted(ValueBeforeDeviation(value));
      std::replace(dotted.begin(), dotted.end(), ',', '.');
      number = ParseDouble(dotted);
    }
    if (!number || !(*number >= 0) || std::isinf(*number))
      Fail("column " + Named(column) + " needs a non-negative number, got '" + value.substr(0, 40) + "'");
    return *number;
  }
  int PositiveInt(const std::string& column, const std::string& value) const {
    auto number = ParseInteger(value);
    if (!number || *number <= 0 || *number > (1 << 30))
      Fail("column " + Named(column) + " needs a positive integer, got '" + value.substr(0, 40) + "'");
    return static_cast<int>(*number);
  }

  const std::string& path_;
  int line_;
  RunStats run_;
  std::vector<std::string> seen_;
  double seconds_per_time_unit_ = 1.0;
  bool decimal_comma_ = false;
  std::string file_series_;
  std::string repeated_header_;
  const TableColumnAliases* aliases_ = nullptr;
};

// A column counting cores or CPUs (`cores`, `CPUs`, `num_cores`, `ncpus`).
bool IsCoreCountName(const std::string& name) {
  const std::string normal = NormalizedColumnName(Trim(name));
  for (std::string_view count : {"cores", "cpus", "ncores", "ncpus", "n_cores", "n_cpus", "num_cores", "num_cpus",
                                 "number_of_cores", "number_of_cpus", "core_count", "cpu_count"})
    if (normal == count) return true;
  return false;
}

// TableRowFilter: a row that cannot be in the filter's series (TableRowMayBeInSeries) is dropped.
bool Kept(const RunStats& run, TableRowFilter* filter) {
  if (!filter || filter->series.empty() || TableRowMayBeInSeries(run, ToLower(filter->series))) return true;
  ++filter->dropped;
  return false;
}

// The rows a table keeps, their derivations, details and identity texts held once per distinct
// content (a million rows of one series share them).
struct KeptRows {
  std::vector<RunStats> runs;
  TextMapPool shared;
  SharedTextPool texts;

  void Add(RunStats run, TableRowFilter* filter) {
    if (!Kept(run, filter)) return;
    runs.push_back(std::move(run));
    runs.back().derivations.ShareWith(&shared);
    runs.back().details.ShareWith(&shared);
    ShareIdentityTexts(&runs.back(), &texts);
  }
  /// The rows kept; a table without one (whose filter dropped none either) is refused.
  std::vector<RunStats> Take(const std::string& path, int header_line, const TableRowFilter* filter) {
    if (runs.empty() && !(filter && filter->dropped > 0))
      throw InputError(path, header_line, "statistics table has no rows");
    return std::move(runs);
  }
};

// One reader type per separator: ',' (ours), ';' (spreadsheets of locales whose decimal mark is
// ','), tab; a tab-separated table trims spaces only. Lines starting with '#' and blank lines are
// skipped (a file ending in an empty line was refused: "too few columns in line 402").
template <char Separator>
using CsvReader = io::CSVReader<kColumnCount,
                                std::conditional_t<Separator == '\t', io::trim_chars<' '>, io::trim_chars<' ', '\t'>>,
                                io::double_quote_escape<Separator, '"'>, io::throw_on_overflow,
                                io::single_and_empty_line_comment<'#'>>;

template <typename Reader, std::size_t... I>
void ReadHeader(Reader& reader, const std::array<const char*, kColumnCount>& names, std::index_sequence<I...>) {
  // Extra columns are other tools' (n_runs, a second time): ignored, with a note.
  reader.read_header(io::ignore_missing_column | io::ignore_extra_column, names[I]...);
}

// The first line that is neither empty nor a comment.
std::string_view HeaderLine(std::string_view text) {
  for (std::string_view line : SplitLines(text)) {
    std::string_view trimmed = Trim(line);
    if (!trimmed.empty() && trimmed.front() != '#') return trimmed;
  }
  return {};
}

// The header's separator: ',' when it has one outside double quotes, else ';', else a tab.
char Separator(std::string_view header) {
  bool quoted = false, semicolon = false, tab = false;
  for (char c : header) {
    if (c == '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c == ',') return ',';
    else if (c == ';') semicolon = true;
    else if (c == '\t') tab = true;
  }
  return semicolon ? ';' : tab ? '\t' : ',';
}

// The header's column names.
std::vector<std::string> CsvHeader(std::string_view text, char separator) {
  std::string_view line = HeaderLine(text);
  if (line.empty()) return {};
  return SplitCsvCells(line, separator);
}

// A header written as a comment, as gnuplot's data files have it ("# Processes,# Elements,Time [s]" over
// rows of numbers): the offset of the '#' of the last comment line before the first row, when that row
// is numbers only (no header is) and the comment has as many cells; npos otherwise.
std::size_t CommentedHeader(std::string_view text) {
  std::string_view comment;  // the last comment line so far, trimmed (a view into `text`)
  LineReader lines(text);    // lazily: a million-row table is not split for its first lines
  std::string_view line;
  while (lines.Next(&line)) {
    const std::string_view trimmed = Trim(line);
    if (trimmed.empty()) continue;
    if (trimmed.front() == '#') {
      comment = trimmed;
      continue;
    }
    if (comment.empty()) return std::string_view::npos;
    const char separator = Separator(trimmed);
    const std::vector<std::string> cells = SplitCsvCells(trimmed, separator);
    for (const std::string& cell : cells)
      if (!ParseDouble(cell)) return std::string_view::npos;
    std::string_view header = comment;
    while (!header.empty() && header.front() == '#') header.remove_prefix(1);
    const std::vector<std::string> names = SplitCsvCells(header, separator);
    const bool named = std::any_of(names.begin(), names.end(), [](const std::string& name) {
      return std::any_of(name.begin(), name.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
    });
    const bool header_like = names.size() == cells.size() && cells.size() >= 2 && named;
    return header_like ? static_cast<std::size_t>(comment.data() - text.data()) : std::string_view::npos;
  }
  return std::string_view::npos;
}

// The end of the header line when every row (of the first 20) ends in a separator the header does not: a script
// printing a separator after each value ("45000,1,60.714821," under "size, procs, static_mean"). Such rows have
// one cell more than the header, an empty last one. npos otherwise.
std::size_t TrailingSeparatorRows(std::string_view text) {
  LineReader lines(text);
  std::string_view line;
  std::size_t header_end = std::string_view::npos, header_cells = 0;
  char separator = ',';
  int rows = 0;
  while (lines.Next(&line) && rows < 20) {
    const std::string_view trimmed = Trim(line);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    if (header_end == std::string_view::npos) {
      separator = Separator(trimmed);
      if (trimmed.back() == separator) return std::string_view::npos;
      header_end = static_cast<std::size_t>(trimmed.data() + trimmed.size() - text.data());
      header_cells = SplitCsvCells(trimmed, separator).size();
      continue;
    }
    const std::vector<std::string> cells = SplitCsvCells(trimmed, separator);
    if (trimmed.back() != separator || cells.size() != header_cells + 1 || !Trim(cells.back()).empty())
      return std::string_view::npos;
    ++rows;
  }
  return rows > 0 ? header_end : std::string_view::npos;
}

// Columns the CSV reader's fixed set does not hold (the problem's settings, repetitions of the run time,
// a process grid) are read from the cells of the row's own line (ReadCsvSeparatedBy splits the text's
// lines once, views into the text: a million rows cost 16 MB, not a copy of their cells).

// Takes the header's columns at `at` out of `ignored` (they are read, not extra).
void TakeOutOfIgnored(const std::vector<std::string>& header, const std::vector<std::size_t>& at,
                      std::vector<std::string>* ignored) {
  for (std::size_t c : at) {
    auto named = std::find(ignored->begin(), ignored->end(), header[c]);
    if (named != ignored->end()) ignored->erase(named);
  }
}

// The columns of a table that name the problem a run solved (table_setting_columns.h) and hold a
// value in some row (an empty one is as good as absent).
struct ProblemColumns {
  std::vector<std::size_t> at;          // index in the header
  std::vector<std::string> keys;        // the detail each column's values go under
  std::vector<std::string_view> lines;  // the text's lines, [file line - 1], when `at` is not empty

  /// Sets `run`'s problem settings from the row's cells.
  void Read(const std::vector<std::string>& cells, RunStats* run) const {
    for (std::size_t k = 0; k < at.size(); ++k)
      if (at[k] < cells.size() && !cells[at[k]].empty()) run->details[keys[k]] = cells[at[k]];
  }
};

// The problem columns of `header`, taken out of `ignored`.
ProblemColumns FindProblemColumns(std::string_view text, char separator, const std::vector<std::string>& header,
                                  std::vector<std::string>* ignored) {
  std::vector<std::size_t> named;
  for (std::size_t c = 0; c < header.size(); ++c)
    if (IsProblemSettingColumn(header[c]) && std::find(ignored->begin(), ignored->end(), header[c]) != ignored->end())
      named.push_back(c);
  ProblemColumns found;
  if (named.empty()) return found;
  found.lines = SplitLines(text);
  std::vector<bool> held(named.size(), false);
  bool past_header = false;
  for (std::string_view line : found.lines) {
    const std::string_view trimmed = Trim(line);
    if (trimmed.empty() || trimmed.front() == '#' || !std::exchange(past_header, true)) continue;
    const std::vector<std::string> cells = SplitCsvCells(line, separator);
    for (std::size_t k = 0; k < named.size(); ++k)
      held[k] = held[k] || (named[k] < cells.size() && !cells[named[k]].empty());
  }
  for (std::size_t k = 0; k < named.size(); ++k) {
    if (!held[k]) continue;
    found.at.push_back(named[k]);
    found.keys.push_back(ProblemSettingKey(header[named[k]]));
  }
  TakeOutOfIgnored(header, found.at, ignored);
  if (found.at.empty()) found.lines = {};  // nothing to read: the views go
  return found;
}

// Columns that repeat the run time, one per measurement of the run ("Time 1", "Time 2", ...; table_column_aliases.h):
// each row is as many runs. Those of `header` (FindRepeatedTimeColumns), taken out of `ignored`.
RepeatedTimeColumns FindRepetitionColumns(const std::vector<std::string>& header, std::vector<std::string>* ignored) {
  RepeatedTimeColumns found = FindRepeatedTimeColumns(header);
  TakeOutOfIgnored(header, found.at, ignored);
  return found;
}

// Columns of a process grid (ProcessGridAxis): a row's processes are their product when the table has no
// procs column (`npx,npy,npz,time`). Two axes at least, one column each.
struct GridColumns {
  std::vector<std::size_t> at;  // index in the header

  /// The product of the row's grid cells; 0 when there is no grid, or a cell is missing or no positive integer.
  long long Procs(const std::vector<std::string>& cells) const {
    if (at.empty()) return 0;
    long long procs = 1;
    for (std::size_t c : at) {
      const auto count = c < cells.size() ? ParseInteger(cells[c]) : std::nullopt;
      if (!count || *count <= 0 || *count > (1 << 30)) return 0;
      procs *= *count;
      if (procs > (1 << 30)) return 0;
    }
    return procs;
  }
};

GridColumns FindGridColumns(const std::vector<std::string>& header, std::vector<std::string>* ignored) {
  GridColumns found;
  int axes[3] = {0, 0, 0};
  for (std::size_t c = 0; c < header.size(); ++c)
    if (const int axis = ProcessGridAxis(header[c]); axis >= 0 && ++axes[axis] == 1) found.at.push_back(c);
  if (found.at.size() < 2 || axes[0] > 1 || axes[1] > 1 || axes[2] > 1) return {};
  TakeOutOfIgnored(header, found.at, ignored);
  return found;
}

// A column holding each run's launch command ("mpirun -np 16 ./app in.dat": a benchmark script's log of what it
// ran), read for the processes of a table that has no other column giving them (launch/launch_command.h).
struct CommandColumn {
  std::size_t at = std::string::npos;  // index in the header; npos: none
  std::string name;

  /// The row's command's layout into `run` (procs, and the threads, nodes and ranks per node the table's own
  /// columns left unset); throws InputError at `line` for a count that is none.
  void Read(const std::vector<std::string>& cells, const std::string& path, int line, RunStats* run) const {
    if (at < cells.size()) Read(cells[at], path, line, run);
  }
  /// The same for the command `text` (a JSON table's key).
  void Read(const std::string& text, const std::string& path, int line, RunStats* run) const {
    const LaunchCommand launch = ParseLaunchCommand(text);
    if (!launch.error.empty())
      throw InputError(path, line, "column '" + name + "': '" + text.substr(0, 120) + "': " + launch.error);
    const std::string from = "statistics table column '" + name + "': ";
    if (launch.procs > 0) {
      run->procs = launch.procs;
      run->derivations["procs"] = from + LaunchDerivation(launch, launch.procs_from);
    }
    if (launch.threads > 0 && run->threads_per_proc == 1 && !run->derivations.count("threads_per_proc")) {
      run->threads_per_proc = launch.threads;
      run->derivations["threads_per_proc"] = from + LaunchDerivation(launch, launch.threads_from);
    }
    if (launch.ranks_per_node > 0 && run->ranks_per_node == 0)
      run->SetRanksPerNode(launch.ranks_per_node, from + LaunchDerivation(launch, launch.ranks_per_node_from));
    if (launch.nodes > 0 && run->nodes == 0)
      run->SetNodes(launch.nodes, from + LaunchDerivation(launch, launch.nodes_from));
  }
};

CommandColumn FindCommandColumn(const std::vector<std::string>& header, std::vector<std::string>* ignored) {
  static const char* const kNames[] = {"command", "cmd", "command_line", "commandline", "cmdline",
                                       "launch_command", "run_command", "job_command"};
  CommandColumn found;
  for (std::size_t c = 0; c < header.size(); ++c)
    for (const char* name : kNames)
      if (NormalizedColumnName(Trim(header[c])) == name) {
        if (found.at != std::string::npos) return {};  // two commands: neither is the run's alone
        found.at = c;
        found.name = std::string(Trim(header[c]));
      }
  if (found.at != std::string::npos) TakeOutOfIgnored(header, {found.at}, ignored);
  return found;
}

// True when the header names our `column`, itself or under another name.
bool HeaderNames(const std::vector<std::string>& header, const TableColumnAliases& aliases, std::string_view column) {
  return !aliases.HeaderOf(column).empty() ||
         std::any_of(header.begin(), header.end(), [&](const std::string& name) { return Trim(name) == column; });
}

// 'a', 'b', 'c': the columns a note names.
std::string QuotedList(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "'" : ", '") + name + "'";
  return list;
}

std::string ProblemSettingsNote(const std::string& path, const std::vector<std::string>& names) {
  return path + ": column" + (names.size() > 1 ? "s " : " ") + QuotedList(names) + " read as the problem's " +
         "settings (runs that differ in them at one process count are kept apart as series, not taken as repetitions)";
}

// The header's names that are no record field and stand for none (for the note).
std::vector<std::string> UnknownColumns(const std::vector<std::string>& header, const TableColumnAliases& aliases) {
  std::vector<std::string> unknown;
  for (const std::string& name : header)
    if (!name.empty() && !FindRunStatsField(name) && aliases.OursOf(name).empty() &&
        std::find(unknown.begin(), unknown.end(), name) == unknown.end())
      unknown.push_back(name);
  return unknown;
}

std::string IgnoredColumnsNote(const std::string& path, const std::vector<std::string>& columns) {
  return path + ": column" + (columns.size() > 1 ? "s " : " ") + QuotedList(columns) +
         " ignored (not a record field; docs/statistics-table.md lists them)";
}

template <typename Reader, std::size_t... I>
bool ReadRow(Reader& reader, std::array<std::string, kColumnCount>& values, std::index_sequence<I...>) {
  return reader.read_row(values[I]...);
}

// Keys that `ingest --format json` writes beside the table columns, so its
// output reads back as the same records (per-rank data included).
constexpr std::array<const char*, 14> kRecordKeys = {
    "series_key", "data_set", "variant", "procs_requested", "wall_time_s", "tool_version",
    "per_rank_complete", "sources", "hosts", "per_rank", "call_sites", "details", "derivations",
    "comm_matrix_bytes"};

bool IsRecordKey(const std::string& key) {
  return key == "comm_matrix_messages" ||
         std::find(kRecordKeys.begin(), kRecordKeys.end(), key) != kRecordKeys.end();
}

std::vector<double> NumberArray(const nlohmann::json& value, const std::string& key, const RowBuilder& row) {
  if (!value.is_array()) row.Fail("'" + key + "' needs an array of numbers");
  std::vector<double> out;
  out.reserve(value.size());
  for (const nlohmann::json& element : value) {
    if (element.is_null()) out.push_back(kUnknown);
    else if (element.is_number()) out.push_back(element.get<double>());
    else row.Fail("'" + key + "' needs an array of numbers");
  }
  return out;
}

double NumberOrUnknown(const nlohmann::json& value, const std::string& key, const RowBuilder& row) {
  if (value.is_null()) return kUnknown;
  if (!value.is_number()) row.Fail("'" + key + "' needs a number");
  return value.get<double>();
}

int IntOf(const nlohmann::json& value, const std::string& key, const RowBuilder& row) {
  double number = NumberOrUnknown(value, key, row);
  if (!(number >= -(1 << 30) && number <= (1 << 30))) row.Fail("'" + key + "' needs an integer");
  return static_cast<int>(number);
}

std::string Text(const nlohmann::json& value, const std::string& key, const RowBuilder& row) {
  if (!value.is_string()) row.Fail("'" + key + "' needs a string");
  return value.get<std::string>();
}

std::map<std::string, std::string> TextsOf(const nlohmann::json& value, const std::string& key,
                                           const RowBuilder& row) {
  if (!value.is_object()) row.Fail("'" + key + "' needs an object of strings");
  std::map<std::string, std::string> out;
  for (const auto& [name, text] : value.items()) out[name] = Text(text, key + "." + name, row);
  return out;
}

CallSiteStats CallSiteFromJson(const nlohmann::json& value, RowBuilder& row) {
  if (!value.is_object()) row.Fail("'call_sites' needs an array of objects");
  CallSiteStats site;
  for (const auto& [key, field] : value.items()) {
    if (key == "id") site.id = IntOf(field, key, row);
    else if (key == "mpi_function") site.mpi_function = Text(field, key, row);
    else if (key == "source_location") site.source_location = Text(field, key, row);
    else if (key == "activity") continue;  // re-derived from the MPI function
    else if (key == "time_s_per_rank") site.time_s_per_rank = NumberArray(field, key, row);
    else if (key == "calls_per_rank") site.calls_per_rank = NumberArray(field, key, row);
    else if (key == "bytes_sent_per_rank") site.bytes_sent_per_rank = NumberArray(field, key, row);
    else if (key == "total_time_s") site.total_time_s = NumberOrUnknown(field, key, row);
    else if (key == "total_calls") site.total_calls = NumberOrUnknown(field, key, row);
    else if (key == "total_bytes_sent") site.total_bytes_sent = NumberOrUnknown(field, key, row);
    else if (key == "ranks_complete") site.ranks_complete = field.is_boolean() && field.get<bool>();
    else row.Fail("unknown call-site key '" + key + "'");
  }
  site.activity = ClassifyMpiCall(site.mpi_function);
  return site;
}

void SetRecordKey(const std::string& key, const nlohmann::json& value, RowBuilder& row) {
  RunStats& run = row.run();
  if (key == "series_key") return;  // derived from the other keys
  if (key == "data_set") run.data_set = Text(value, key, row);
  else if (key == "variant") run.variant = Text(value, key, row);
  else if (key == "tool_version") run.tool_version = Text(value, key, row);
  else if (key == "procs_requested") run.procs_requested = IntOf(value, key, row);
  else if (key == "wall_time_s") run.wall_time_s = NumberOrUnknown(value, key, row);
  else if (key == "per_rank_complete") run.per_rank_complete = value.is_boolean() && value.get<bool>();
  else if (key == "details") run.details = TextsOf(value, key, row);
  else if (key == "derivations") run.derivations = TextsOf(value, key, row);
  else if (key == "comm_matrix_bytes") run.comm_matrix_bytes = NumberArray(value, key, row);
  else if (key == "comm_matrix_messages") run.comm_matrix_messages = NumberArray(value, key, row);
  else if (key == "sources" || key == "hosts") {
    if (!value.is_array()) row.Fail("'" + key + "' needs an array of strings");
    for (const nlohmann::json& text : value) (key == "hosts" ? run.hosts : run.sources).push_back(Text(text, key, row));
  } else if (key == "call_sites") {
    if (!value.is_array()) row.Fail("'call_sites' needs an array of objects");
    for (const nlohmann::json& site : value) run.call_sites.push_back(CallSiteFromJson(site, row));
  } else if (key == "per_rank") {
    if (!value.is_object()) row.Fail("'per_rank' needs an object of arrays");
    for (const auto& [name, values] : value.items()) {
      std::vector<double> numbers = NumberArray(values, "per_rank." + name, row);
      if (name == "app_time_s") run.app_time_s_per_rank = numbers;
      else if (name == "mpi_time_s") run.mpi_time_s_per_rank = numbers;
      else if (name == "p2p_calls") run.p2p_calls_per_rank = numbers;
      else if (name == "p2p_bytes_sent") run.p2p_bytes_sent_per_rank = numbers;
      else if (name == "collective_calls") run.collective_calls_per_rank = numbers;
      else if (name == "collective_bytes_sent") run.collective_bytes_sent_per_rank = numbers;
      else row.Fail("unknown per-rank key '" + name + "'");
    }
  }
}

}  // namespace

const std::vector<std::string>& StatisticsTableColumns() {
  static const std::vector<std::string> columns(Columns().begin(), Columns().end());
  return columns;
}

namespace {

// The options of the readers' pointer forms: the note lists and the row filter only.
StatisticsTableOptions ListsAndFilter(std::vector<std::string>* notes, TableRowFilter* filter,
                                      std::vector<std::string>* readings) {
  StatisticsTableOptions options;
  options.notes = notes;
  options.filter = filter;
  options.readings = readings;
  return options;
}

// The line of the file that holds line n of the text (a document's table is read as CSV text of its own);
// 0 stays 0 (no line).
int FileLine(const StatisticsTableOptions& options, long long n) {
  return options.file_line && n > 0 ? options.file_line(static_cast<int>(n)) : static_cast<int>(n);
}

template <char Separator>
std::vector<RunStats> ReadCsvSeparatedBy(std::string_view text, const std::string& path,
                                         const StatisticsTableOptions& options) {
  std::vector<std::string>* notes = options.notes;
  std::vector<std::string>* readings = options.ReadingsOrNotes();
  TableRowFilter* filter = options.filter;
  const std::string& rows_series = options.rows_series;
  auto file_line = [&](long long n) { return FileLine(options, n); };
  KeptRows kept;
  const std::vector<std::string> header = CsvHeader(text, Separator);
  if constexpr (Separator != ',')
    if (readings)
      readings->push_back(path + ": separated by " + (Separator == ';' ? "';' (a decimal ',' read as '.')" : "tabs"));
  TableColumnAliases aliases;
  if (std::string error; !ResolveTableColumnAliases(header, &aliases, &error, options.time_column))
    throw InputError(path, file_line(1), error);
  // The table's own name for each column: ours, or the alias that stands for it.
  std::array<const char*, kColumnCount> names = Columns();
  for (std::size_t c = 0; c < kColumnCount; ++c) {
    const std::string_view column = Columns()[c];
    const std::string& alias = aliases.HeaderOf(column);
    if (!alias.empty()) names[c] = alias.c_str();
  }
  if (std::string note = aliases.Note(path); !note.empty() && readings) readings->push_back(std::move(note));
  const std::string time_derivation = aliases.TimeDerivation();
  std::vector<std::string> ignored = UnknownColumns(header, aliases);
  ProblemColumns problem = FindProblemColumns(text, Separator, header, &ignored);
  auto header_has = [&](std::string_view column) { return HeaderNames(header, aliases, column); };
  const RepeatedTimeColumns repeated =
      header_has("time_s") ? RepeatedTimeColumns{} : FindRepetitionColumns(header, &ignored);
  const GridColumns grid = header_has("procs") || (header_has("nodes") && header_has("ranks_per_node"))
                               ? GridColumns{}
                               : FindGridColumns(header, &ignored);
  const CommandColumn command = header_has("procs") || (header_has("nodes") && header_has("ranks_per_node")) ||
                                        !grid.at.empty()
                                    ? CommandColumn{}
                                    : FindCommandColumn(header, &ignored);
  const bool command_procs = command.at != std::string::npos;
  // The text's lines, split once for every column read from a row's own line.
  std::vector<std::string_view> lines = std::move(problem.lines);
  if (lines.empty() && !(repeated.at.empty() && grid.at.empty() && !command_procs)) lines = SplitLines(text);
  std::string grid_names;
  for (std::size_t c : grid.at) grid_names += (grid_names.empty() ? "" : " x ") + header[c];
  if (!repeated.at.empty() && readings) {
    std::vector<std::string> names;
    for (std::size_t c : repeated.at) names.push_back(header[c]);
    readings->push_back(path + ": columns " + QuotedList(names) + " read as repetitions of each row's run time (" +
                        std::to_string(names.size()) + " runs a row)");
  }
  if (!problem.at.empty() && readings) {
    std::vector<std::string> settings;
    for (std::size_t c : problem.at) settings.push_back(header[c]);
    readings->push_back(ProblemSettingsNote(path, settings));
  }
  if (!ignored.empty() && notes) notes->push_back(IgnoredColumnsNote(path, ignored));
  try {
    CsvReader<Separator> reader(path, text.data(), text.data() + text.size());
    ReadHeader(reader, names, std::make_index_sequence<kColumnCount>());
    auto has = [&](const char* column) {  // ours, under the table's name for it
      const std::string& alias = aliases.HeaderOf(column);
      return reader.has_column(alias.empty() ? column : alias.c_str());
    };
    // Without a procs column, nodes and ranks per node give it (RowBuilder::Finish).
    const bool layout_procs = !has("procs") && has("nodes") && has("ranks_per_node");
    if (layout_procs && readings)
      readings->push_back(path + ": no procs column: each row's processes are its nodes x ranks_per_node");
    if (!grid.at.empty() && readings)
      readings->push_back(path + ": no procs column: each row's processes are its process grid, " + grid_names);
    if (command_procs && readings)
      readings->push_back(path + ": no procs column: each row's processes are what its launch command in column '" +
                          command.name + "' asks for (mpirun -np, srun -n, ...)");
    if ((!has("procs") && !layout_procs && grid.at.empty() && !command_procs) ||
        (!has("time_s") && repeated.at.empty())) {
      // A count of cores or CPUs counts threads too in a hybrid run: never read as procs, but named when it is
      // the reason (`cores`; CMAQ's timing tables' `CPUs`).
      std::string cores;
      if (!has("procs"))
        for (const std::string& name : header)
          if (cores.empty() && IsCoreCountName(name)) cores = std::string(Trim(name));
      // Columns that name a time, none of them the run's by its name ("npb_time_s", "mpip_apptime_max_s"):
      // named, so the user can say which one is.
      std::string times;
      if (!has("time_s"))
        for (const std::string& name : header)
          if (ToLower(name).find("time") != std::string::npos)
            times += (times.empty() ? "'" : ", '") + std::string(Trim(name)) + "'";
      throw InputError(path, file_line(1),
                       std::string("a statistics table needs the columns procs and time_s (or names such as "
                                   "nprocs, ranks, np; runtime, time [ms], elapsed_s: docs/statistics-table.md; "
                                   "--metric COLUMN names the run time's)") +
                           (cores.empty() ? ""
                                          : "; its column '" + cores + "' is not read as procs (in a hybrid "
                                            "run it counts threads too): rename it procs if each core ran "
                                            "one MPI process") +
                           (times.empty() ? ""
                                          : "; its columns " + times + " name times, none of them the run's by its "
                                            "name: rename the one that is the run time to time_s"));
    }
    const bool file_series = !has("series") && !has("app") && !has("benchmark");
    const std::string file_series_name =
        !file_series ? "" : rows_series.empty() ? SeriesNameOfTableFile(path) : rows_series;
    if (file_series && readings)
      readings->push_back(path + ": no series or application column: its rows are one series, '" +
                          file_series_name + (rows_series.empty() ? "' (the file's name)" : "'"));
    std::array<std::string, kColumnCount> values;
    // At most one record per line: no doubling of a million records as they come.
    kept.runs.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
    while (true) {
      for (std::string& value : values) value.clear();
      if (!ReadRow(reader, values, std::make_index_sequence<kColumnCount>())) break;
      const auto line = reader.get_file_line();
      const std::vector<std::string> cells =
          line >= 1 && line <= lines.size() ? SplitCsvCells(lines[line - 1], Separator) : std::vector<std::string>{};
      auto fill = [&](RowBuilder& row) {
        row.SetAliases(aliases, time_derivation);
        if constexpr (Separator == ';') row.AcceptDecimalComma();
        if (file_series) row.SetFileSeries(file_series_name);
        for (std::size_t c = 0; c < kColumnCount; ++c)
          if (reader.has_column(names[c])) row.Set(Columns()[c], values[c]);
        problem.Read(cells, &row.run());
        if (const long long procs = grid.Procs(cells); procs > 0) {
          row.run().procs = static_cast<int>(procs);
          row.run().derivations["procs"] = "statistics table columns " + grid_names + " (the process grid)";
        }
        command.Read(cells, path, file_line(line), &row.run());
      };
      if (repeated.at.empty()) {
        RowBuilder row(path, file_line(line));
        fill(row);
        kept.Add(row.Finish(), filter);
        continue;
      }
      // One run per repetition the row holds (an empty cell: a repetition not made at this row's size).
      int runs_of_row = 0;
      for (std::size_t k = 0; k < repeated.at.size(); ++k) {
        if (repeated.at[k] >= cells.size() || Trim(cells[repeated.at[k]]).empty()) continue;
        RowBuilder row(path, file_line(line));
        fill(row);
        row.SetRepeatedTime(header[repeated.at[k]], repeated.seconds_per_unit[k]);
        row.Set("time_s", cells[repeated.at[k]]);
        kept.Add(row.Finish(), filter);
        ++runs_of_row;
      }
      if (runs_of_row == 0)
        throw InputError(path, file_line(line), "no value in any of the run-time columns");
    }
  } catch (const io::error::extra_column_in_header& error) {
    throw InputError(path, file_line(1), std::string("unknown column '") + error.column_name +
                                  "' (accepted: see docs/statistics-table.md)");
  } catch (const io::error::base& error) {
    int line = 0;
    if (auto* with_line = dynamic_cast<const io::error::with_file_line*>(&error)) line = with_line->file_line;
    std::string message = error.what();
    throw InputError(path, file_line(line), "CSV: " + message);
  }
  return kept.Take(path, file_line(1), filter);
}

}  // namespace

std::vector<RunStats> ReadStatisticsCsv(std::string_view text, const std::string& path,
                                        const StatisticsTableOptions& options) {
  std::vector<std::string>* readings = options.ReadingsOrNotes();
  // A spreadsheet's "CSV UTF-8" export starts with a byte-order mark; it is no part of the first
  // column's name (`\xEF\xBB\xBFnprocs` was no column of ours, and the table was refused).
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  // A commented header is read as the header: a copy of the text without its '#'s (such files are small).
  std::string uncommented;
  if (const std::size_t at = CommentedHeader(text); at != std::string_view::npos) {
    uncommented = std::string(text);
    for (std::size_t i = at; i < uncommented.size() && uncommented[i] == '#'; ++i) uncommented[i] = ' ';
    if (readings)
      readings->push_back(path + ":" +
                          std::to_string(FileLine(options, std::count(text.begin(), text.begin() + at, '\n') + 1)) +
                          ": its header is this comment line (its rows are numbers only)");
    text = uncommented;
  }
  // Rows that end in a separator: the header gets the empty column they end in (a copy of the text: such
  // tables are a script's own prints, small).
  std::string with_column;
  if (const std::size_t header_end = TrailingSeparatorRows(text); header_end != std::string_view::npos) {
    with_column = std::string(text.substr(0, header_end)) + Separator(HeaderLine(text)) + "(empty)" +
                  std::string(text.substr(header_end));
    if (readings)
      readings->push_back(path + ": its rows end in a separator its header does not: an empty last column, "
                          "'(empty)'");
    text = with_column;
  }
  switch (Separator(HeaderLine(text))) {
    case ';': return ReadCsvSeparatedBy<';'>(text, path, options);
    case '\t': return ReadCsvSeparatedBy<'\t'>(text, path, options);
    default: return ReadCsvSeparatedBy<','>(text, path, options);
  }
}

std::vector<RunStats> ReadStatisticsCsv(std::string_view text, const std::string& path,
                                        std::vector<std::string>* notes, TableRowFilter* filter,
                                        std::vector<std::string>* readings) {
  return ReadStatisticsCsv(text, path, ListsAndFilter(notes, filter, readings));
}

StatisticsTableOptions TableOptionsFor(const ReaderInput& input, ReaderOutput* output) {
  StatisticsTableOptions options;
  options.notes = &output->notes;
  options.readings = &output->readings;
  options.filter = input.table_filter;
  if (input.selection) options.time_column = input.selection->metric;
  return options;
}

bool NamesProcsAndTime(const std::vector<std::string>& header) {
  TableColumnAliases aliases;
  if (std::string error; !ResolveTableColumnAliases(header, &aliases, &error)) return true;
  auto has = [&](std::string_view column) { return HeaderNames(header, aliases, column); };
  std::vector<std::string> ignored;
  const bool grid = !FindGridColumns(header, &ignored).at.empty();
  const bool command = FindCommandColumn(header, &ignored).at != std::string::npos;
  return (has("procs") || (has("nodes") && has("ranks_per_node")) || grid || command) &&
         (has("time_s") || !FindRepetitionColumns(header, &ignored).at.empty());
}

std::vector<RunStats> ReadStatisticsJson(std::string_view text, const std::string& path,
                                         std::vector<std::string>* notes, TableRowFilter* filter,
                                         std::vector<std::string>* readings) {
  return ReadStatisticsJson(text, path, ListsAndFilter(notes, filter, readings));
}

std::vector<RunStats> ReadStatisticsJson(std::string_view text, const std::string& path,
                                         const StatisticsTableOptions& options) {
  std::vector<std::string>* notes = options.notes;
  std::vector<std::string>* readings = options.ReadingsOrNotes();
  TableRowFilter* filter = options.filter;
  std::vector<std::string> ignored, problem_keys;
  nlohmann::json document = ParseJsonDocument(text, path);
  const nlohmann::json* rows = &document;
  std::string_view rows_key;  // the document itself, else its "runs"
  if (document.is_object() && document.contains("runs")) {
    rows = &document["runs"];
    rows_key = "runs";
    if (document.size() != 1) throw InputError(path, 1, "a JSON table object may only hold \"runs\"");
  }
  if (!rows->is_array()) throw InputError(path, 1, "a JSON table is an array of objects or {\"runs\": [...]}");
  std::vector<int> lines = JsonArrayObjectLines(text, rows_key);
  // Other names for procs, time_s, series and app, resolved over every object's keys.
  std::vector<std::string> keys;
  for (const nlohmann::json& object : *rows)
    if (object.is_object())
      for (const auto& item : object.items())
        if (std::find(keys.begin(), keys.end(), item.key()) == keys.end()) keys.push_back(item.key());
  TableColumnAliases aliases;
  if (std::string error; !ResolveTableColumnAliases(keys, &aliases, &error, options.time_column))
    throw InputError(path, 1, error);
  auto canonical = [&](const std::string& key) -> std::string {
    const std::string& ours = aliases.OursOf(key);
    return ours.empty() ? key : ours;
  };
  const std::string time_derivation = aliases.TimeDerivation();
  const bool file_series = !keys.empty() && std::none_of(keys.begin(), keys.end(), [&](const std::string& key) {
    const std::string c = canonical(key);
    return c == "series" || c == "app" || c == "benchmark";
  });
  if (std::string note = aliases.Note(path); !note.empty() && readings) readings->push_back(std::move(note));
  const std::string file_series_name = file_series ? SeriesNameOfTableFile(path) : "";
  if (file_series && readings)
    readings->push_back(path + ": no series or application key: its objects are one series, '" +
                        file_series_name + "' (the file's name)");
  // Without a key of processes, a key of launch commands gives them, as a CSV table's column does.
  auto keys_name = [&](std::string_view column) { return HeaderNames(keys, aliases, column); };
  const CommandColumn command = keys_name("procs") || (keys_name("nodes") && keys_name("ranks_per_node"))
                                    ? CommandColumn{}
                                    : FindCommandColumn(keys, &ignored);
  if (command.at != std::string::npos && readings)
    readings->push_back(path + ": no procs key: each object's processes are what its launch command in key '" +
                        command.name + "' asks for (mpirun -np, srun -n, ...)");
  KeptRows kept;
  kept.runs.reserve(rows->size());
  for (std::size_t k = 0; k < rows->size(); ++k) {
    int line = k < lines.size() ? lines[k] : 1;
    const nlohmann::json& object = (*rows)[k];
    if (!object.is_object()) throw InputError(path, line, "JSON table element is not an object");
    RowBuilder row(path, line);
    row.SetAliases(aliases, time_derivation);
    if (file_series) row.SetFileSeries(file_series_name);
    for (const auto& [original, value] : object.items()) {
      const std::string key = canonical(original);
      if (IsRecordKey(key)) continue;  // applied after the columns (wall_time_s overrides time_s)
      if (command.at != std::string::npos && original == command.name) continue;  // read after the other keys
      if (!FindRunStatsField(key)) {
        const bool held = (value.is_string() && !value.get_ref<const std::string&>().empty()) || value.is_number();
        if (IsProblemSettingColumn(original) && held) {
          row.run().details[ProblemSettingKey(original)] = value.is_string() ? value.get<std::string>() : value.dump();
          if (std::find(problem_keys.begin(), problem_keys.end(), original) == problem_keys.end())
            problem_keys.push_back(original);
        } else if (std::find(ignored.begin(), ignored.end(), key) == ignored.end()) {
          ignored.push_back(key);  // a problem key without a value here: dropped below if another object has one
        }
        continue;
      }
      if (value.is_null()) continue;
      if (value.is_string()) row.Set(key, value.get<std::string>());
      else if (value.is_number_integer()) row.Set(key, std::to_string(value.get<long long>()));
      else if (value.is_number()) {
        char buffer[40];
        std::snprintf(buffer, sizeof buffer, "%.17g", value.get<double>());
        row.Set(key, buffer);
      } else {
        row.Fail("column '" + key + "' needs a number or a string");
      }
    }
    if (const auto given = object.find(command.name); command.at != std::string::npos && given != object.end()) {
      if (given->is_string())
        command.Read(given->get<std::string>(), path, line, &row.run());
      else if (!given->is_null())
        row.Fail("key '" + command.name + "' needs a command line (a string)");
    }
    for (const auto& [key, value] : object.items())
      if (IsRecordKey(key)) SetRecordKey(key, value, row);
    kept.Add(row.Finish(), filter);
  }
  std::vector<RunStats> runs = kept.Take(path, 1, filter);
  for (const std::string& key : problem_keys)
    ignored.erase(std::remove(ignored.begin(), ignored.end(), key), ignored.end());
  if (!problem_keys.empty() && readings) readings->push_back(ProblemSettingsNote(path, problem_keys));
  if (!ignored.empty() && notes) notes->push_back(IgnoredColumnsNote(path, ignored));
  return runs;
}

}  // namespace qnm
