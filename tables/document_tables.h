#pragma once
// Tables kept in documents: the pipe tables of Markdown (GitHub's tables) and of Emacs Org mode, and
// LaTeX's tabulars, as users write a study's results into a README, an Org notebook or a report. Each table whose
// header names a run's processes and its time (NamesProcsAndTime) is read as a statistics table
// (statistics_table.h), its error lines the document's; a table without its own series column is one
// series named after the document and the heading (or Org #+caption / #+name) it sits under. Other
// tables (a grid's settings, a list of figures) are passed over with a note naming them
// (docs/statistics-table.md, "Tables in documents").
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reader/reader.h"
#include "record/run_stats.h"
#include "tables/statistics_table.h"

namespace qnm {

enum class DocumentKind { kMarkdown, kOrg, kLatex };

/// One pipe table of a document.
struct DocumentTable {
  int header_line = 0;  // 1-based line of its header row
  std::string heading;  // its Org #+caption or #+name, else the nearest heading above it; may be empty
  std::vector<std::string> header;
  std::vector<std::pair<int, std::vector<std::string>>> rows;  // (1-based line, cells)
};

/// The kind of document a file name says: .md and .markdown are Markdown, .org is Org, .tex is LaTeX
/// (its tabulars: latex_tables.h); false otherwise.
bool DocumentKindOfPath(const std::string& path, DocumentKind* kind);

/// The cells of a pipe-table row "| a | b |" (Markdown, Org; an AsciiDoc cell line "| a"): split at each '|'
/// that is not written "\|" (a '|' in a cell), each trimmed, marks kept; a missing closing '|' is no empty cell.
/// Empty when the row does not open with '|'.
std::vector<std::string> PipeRowCells(std::string_view row);

/// The pipe tables of a document: a header row, a rule under it (`|---|:--:|`, Org's `|---+---|`) and
/// the rows that follow, up to the first line that is not a row; rules among the rows (Org's hlines)
/// are skipped. A run of rows without a rule under its first row has no header and is not a table
/// here. Lines in fenced code blocks (Markdown ``` and ~~~, Org #+begin_ ... #+end_) are no part of
/// any table or heading.
std::vector<DocumentTable> FindDocumentTables(std::string_view text, DocumentKind kind);

/// Reads one table of a document as a statistics table (statistics_table.h): its errors and each run's source
/// name the document's lines (options.file_line is set here).
std::vector<RunStats> ReadDocumentTable(const DocumentTable& table, const std::string& path,
                                        StatisticsTableOptions options);

/// True when the document has a table whose header names a run's processes and time: what ingest
/// takes (a README of prose and settings tables is no input of runs).
bool HasStatisticsTable(std::string_view text, DocumentKind kind);

/// Reads every table of the document that is a statistics table. Throws InputError when none is, or
/// when one has a bad row (its line in the document).
/// `options` gives the note lists, the row filter and the run time's column (--metric); each table's series and
/// lines are set here.
std::vector<RunStats> ReadDocumentTables(std::string_view text, const std::string& path, DocumentKind kind,
                                         const StatisticsTableOptions& options = {});

}  // namespace qnm
