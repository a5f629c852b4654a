#pragma once
// The tables of a LaTeX document (a lab report's, a thesis's): each tabular (tabular, tabular*, tabularx,
// longtable) as a DocumentTable (document_tables.h) whose first row is its header. Rows end at `\\`, cells
// at an unescaped `&`; rules (\hline, \toprule, \midrule, \bottomrule, \cline, \cmidrule) are no rows;
// math marks, \textbf{...} and such are not part of a cell's text; comments (% to the line's end) are
// skipped. A table is named by the \caption of the table environment it sits in, else the nearest
// \section, \subsection or \subsubsection above it.
#include <string_view>
#include <vector>

#include "tables/document_tables.h"

namespace qnm {

std::vector<DocumentTable> FindLatexTables(std::string_view text);

}  // namespace qnm
