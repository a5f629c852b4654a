#pragma once
// The page's inline stylesheet (screen and print) and its only script.
namespace qnm::report {

/// CSS for screen and print (@media print: no table of contents, no page break inside a chart).
extern const char* const kReportCss;

/// Click a header of a table.sortable to sort by it (numbers by data-sort);
/// the page reads the same without it.
extern const char* const kSortScript;

}  // namespace qnm::report
