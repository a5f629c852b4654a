#include "tables/document_tables.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "tables/latex_tables.h"
#include "tables/statistics_table.h"
#include "tables/table_column_aliases.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr int kPassedOverListed = 3;  // tables a note names one by one

bool IsRowLine(std::string_view trimmed) { return !trimmed.empty() && trimmed.front() == '|'; }

// A rule: '|' and '-' with ':' (Markdown's alignment) or '+' (Org's crossings) and blanks, one '-' at least.
bool IsRuleLine(std::string_view trimmed) {
  if (!IsRowLine(trimmed) || trimmed.find('-') == std::string_view::npos) return false;
  return std::all_of(trimmed.begin(), trimmed.end(),
                     [](char c) { return c == '|' || c == '-' || c == ':' || c == '+' || c == ' ' || c == '\t'; });
}

// A cell's text without the emphasis or code marks that wrap all of it ("**12.5**", "`np`"; Org's "=np=", "~np~").
std::string PlainCell(std::string_view cell) {
  cell = Trim(cell);
  for (std::string_view mark : {"**", "__", "`", "*", "_", "~~", "=", "~"}) {
    if (cell.size() > 2 * mark.size() && StartsWith(cell, mark) && EndsWith(cell, mark)) {
      cell = Trim(cell.substr(mark.size(), cell.size() - 2 * mark.size()));
      break;
    }
  }
  return std::string(cell);
}

// The cells of a row: between its '|'s, each without the marks around it.
std::vector<std::string> RowCells(std::string_view trimmed) {
  std::vector<std::string> cells = PipeRowCells(trimmed);
  for (std::string& cell : cells) cell = PlainCell(cell);
  return cells;
}

// The text of a heading line, or empty when the line is none: Markdown's "## Results ##", Org's "** Results".
std::string HeadingText(std::string_view trimmed, DocumentKind kind) {
  const char mark = kind == DocumentKind::kMarkdown ? '#' : '*';
  std::size_t level = 0;
  while (level < trimmed.size() && trimmed[level] == mark) ++level;
  if (level == 0 || level >= trimmed.size() || (trimmed[level] != ' ' && trimmed[level] != '\t')) return "";
  if (kind == DocumentKind::kMarkdown && level > 6) return "";
  std::string_view text = Trim(trimmed.substr(level));
  if (kind == DocumentKind::kMarkdown)
    while (!text.empty() && text.back() == '#') text = Trim(text.substr(0, text.size() - 1));
  return std::string(text);
}

// Org's "#+caption: ..." or "#+name: ..." (any case): its text into `*value`, the keyword into `*keyword`.
bool OrgKeyword(std::string_view trimmed, std::string* keyword, std::string* value) {
  if (!StartsWith(trimmed, "#+")) return false;
  std::string_view key, rest;
  if (!SplitAtFirstColon(trimmed.substr(2), &key, &rest)) return false;
  *keyword = ToLower(Trim(key));
  *value = std::string(Trim(rest));
  return true;
}

// True when the line opens or closes a block whose lines are not the document's text (code, examples).
bool TogglesBlock(std::string_view trimmed, DocumentKind kind, bool inside) {
  if (kind == DocumentKind::kMarkdown) return StartsWith(trimmed, "```") || StartsWith(trimmed, "~~~");
  const std::string lower = ToLower(trimmed.substr(0, 10));
  return inside ? StartsWith(lower, "#+end_") : StartsWith(lower, "#+begin_");
}

// The name of a table's series when it has no series column: the document's, and the table's heading.
std::string TableSeriesName(const std::string& path, const DocumentTable& table) {
  const std::string document = SeriesNameOfTableFile(path);
  return table.heading.empty() ? document : document + ": " + table.heading;
}

// The table as CSV text: its header on line 1, its rows on the lines after (DocumentLine maps them back).
std::string CsvOfTable(const DocumentTable& table) {
  auto quoted = [](const std::string& cell) {
    std::string out = "\"";
    for (char c : cell) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
  };
  auto csv_line = [&](const std::vector<std::string>& cells, std::size_t width) {
    std::string line;
    for (std::size_t c = 0; c < width; ++c) line += (c ? "," : "") + quoted(c < cells.size() ? cells[c] : "");
    // Cells past the header's: kept, so the reader refuses the row ("too many columns") rather than dropping them.
    for (std::size_t c = width; c < cells.size(); ++c) line += "," + quoted(cells[c]);
    return line;
  };
  std::string csv = csv_line(table.header, table.header.size()) + "\n";
  for (const auto& row : table.rows) csv += csv_line(row.second, table.header.size()) + "\n";
  return csv;
}

// The document's line of line `csv_line` of CsvOfTable(table); 0 stays 0 (no line).
int DocumentLine(const DocumentTable& table, int csv_line) {
  if (csv_line <= 0) return 0;
  if (csv_line == 1 || table.rows.empty()) return table.header_line;
  const std::size_t row = std::min(static_cast<std::size_t>(csv_line - 2), table.rows.size() - 1);
  return table.rows[row].first;
}

std::string ColumnList(const std::vector<std::string>& header) {
  std::string list;
  for (const std::string& name : header) list += (list.empty() ? "'" : ", '") + name + "'";
  return list;
}

}  // namespace

bool DocumentKindOfPath(const std::string& path, DocumentKind* kind) {
  const std::string extension = ToLower(std::filesystem::path(path).extension().string());
  if (extension == ".md" || extension == ".markdown")
    *kind = DocumentKind::kMarkdown;
  else if (extension == ".org")
    *kind = DocumentKind::kOrg;
  else if (extension == ".tex")
    *kind = DocumentKind::kLatex;
  else
    return false;
  return true;
}

std::vector<std::string> PipeRowCells(std::string_view row) {
  row = Trim(row);
  std::vector<std::string> cells;
  if (!StartsWith(row, "|")) return cells;
  std::string cell;
  for (std::size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (row[i] == '|') {
      cells.emplace_back(Trim(cell));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  if (!Trim(cell).empty()) cells.emplace_back(Trim(cell));  // a row without its closing '|'
  return cells;
}

std::vector<DocumentTable> FindDocumentTables(std::string_view text, DocumentKind kind) {
  if (kind == DocumentKind::kLatex) return FindLatexTables(text);
  const std::vector<std::string_view> lines = SplitLines(text);
  std::vector<DocumentTable> tables;
  std::string heading, caption, name;  // caption and name: Org's, for the table right under them
  bool in_block = false;
  std::size_t i = 0;
  while (i < lines.size()) {
    const std::string_view trimmed = Trim(lines[i]);
    if (TogglesBlock(trimmed, kind, in_block)) {
      in_block = !in_block;
      ++i;
      continue;
    }
    if (in_block) {
      ++i;
      continue;
    }
    if (!IsRowLine(trimmed)) {
      std::string keyword, value;
      if (const std::string text_of_heading = HeadingText(trimmed, kind); !text_of_heading.empty()) {
        heading = text_of_heading;
        caption.clear();
        name.clear();
      } else if (kind == DocumentKind::kOrg && OrgKeyword(trimmed, &keyword, &value)) {
        if (keyword == "caption")
          caption = value;
        else if (keyword == "name")
          name = value;
      } else if (!trimmed.empty()) {
        caption.clear();  // a keyword belongs to the element right under it
        name.clear();
      }
      ++i;
      continue;
    }
    // A run of rows: a table when its second line is a rule.
    std::size_t end = i;
    while (end < lines.size() && IsRowLine(Trim(lines[end]))) ++end;
    if (end - i >= 2 && !IsRuleLine(trimmed) && IsRuleLine(Trim(lines[i + 1]))) {
      DocumentTable table;
      table.header_line = static_cast<int>(i) + 1;
      table.heading = !caption.empty() ? caption : !name.empty() ? name : heading;
      table.header = RowCells(trimmed);
      for (std::size_t k = i + 2; k < end; ++k) {
        const std::string_view row = Trim(lines[k]);
        if (!IsRuleLine(row)) table.rows.emplace_back(static_cast<int>(k) + 1, RowCells(row));
      }
      tables.push_back(std::move(table));
    }
    caption.clear();
    name.clear();
    i = end;
  }
  return tables;
}

std::vector<RunStats> ReadDocumentTable(const DocumentTable& table, const std::string& path,
                                        StatisticsTableOptions options) {
  options.file_line = [&table](int csv_line) { return DocumentLine(table, csv_line); };
  return ReadStatisticsCsv(CsvOfTable(table), path, options);
}

bool HasStatisticsTable(std::string_view text, DocumentKind kind) {
  const std::vector<DocumentTable> tables = FindDocumentTables(text, kind);
  return std::any_of(tables.begin(), tables.end(), [](const DocumentTable& t) { return NamesProcsAndTime(t.header); });
}

std::vector<RunStats> ReadDocumentTables(std::string_view text, const std::string& path, DocumentKind kind,
                                         const StatisticsTableOptions& options) {
  std::vector<std::string>* notes = options.notes;
  std::vector<std::string>* readings = options.ReadingsOrNotes();
  TableRowFilter* filter = options.filter;
  const std::vector<DocumentTable> tables = FindDocumentTables(text, kind);
  std::vector<bool> of_runs;  // NamesProcsAndTime of each table's header, asked once
  for (const DocumentTable& table : tables) of_runs.push_back(NamesProcsAndTime(table.header));
  if (std::find(of_runs.begin(), of_runs.end(), true) == of_runs.end())
    throw InputError(path, 0, "no table whose header names a run's processes and time");
  const char* kind_name = kind == DocumentKind::kMarkdown ? "Markdown" : kind == DocumentKind::kOrg ? "Org" : "LaTeX";
  const char* article = kind == DocumentKind::kOrg ? "an " : "a ";
  // Names for the series of tables without a series column; two tables under one heading are told
  // apart by their lines.
  std::map<std::string, int> tables_named;
  for (std::size_t t = 0; t < tables.size(); ++t)
    if (of_runs[t]) ++tables_named[TableSeriesName(path, tables[t])];
  std::vector<RunStats> runs;
  std::vector<const DocumentTable*> passed_over;
  const DocumentTable* first_empty = nullptr;
  for (std::size_t t = 0; t < tables.size(); ++t) {
    const DocumentTable& table = tables[t];
    if (!of_runs[t]) {
      passed_over.push_back(&table);
      continue;
    }
    std::string series = TableSeriesName(path, table);
    if (tables_named[series] > 1) series += " (line " + std::to_string(table.header_line) + ")";
    if (table.rows.empty()) {  // a template to fill in: no run, refused only when the document has no other
      if (!first_empty) first_empty = &table;
      continue;
    }
    if (readings)
      readings->push_back(path + ":" + std::to_string(table.header_line) + ": " + article + kind_name + " table" +
                          (table.heading.empty() ? "" : " under '" + table.heading + "'") +
                          " read as a statistics table");
    StatisticsTableOptions table_options = options;
    table_options.rows_series = series;
    std::vector<RunStats> read = ReadDocumentTable(table, path, table_options);
    runs.insert(runs.end(), std::make_move_iterator(read.begin()), std::make_move_iterator(read.end()));
  }
  if (first_empty && runs.empty() && (!filter || filter->dropped == 0))
    throw InputError(path, first_empty->header_line, "the table has a header but no rows");
  if (first_empty && notes)
    notes->push_back(path + ":" + std::to_string(first_empty->header_line) +
                     ": a table of runs without rows passed over (a template to fill in)");
  if (!passed_over.empty() && notes) {
    std::string list;
    for (std::size_t k = 0; k < passed_over.size() && k < kPassedOverListed; ++k)
      list += std::string(k ? "; " : "") + "line " + std::to_string(passed_over[k]->header_line) + " (" +
              ColumnList(passed_over[k]->header) + ")";
    if (passed_over.size() > kPassedOverListed)
      list += "; " + std::to_string(passed_over.size() - kPassedOverListed) + " more";
    notes->push_back(path + ": " + std::to_string(passed_over.size()) + " " + kind_name + " table" +
                     (passed_over.size() > 1 ? "s" : "") +
                     " passed over (no columns of a run's processes and time): " + list);
  }
  return runs;
}

}  // namespace qnm
