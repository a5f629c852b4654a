#pragma once
// Text from the inputs (file names, series names, reader messages, formulas)
// goes into the report only through these: a series called
// `<script>` must show as text, never run.
#include <string>
#include <string_view>

namespace qnm::report {

/// `text` with & < > " ' replaced by character references (safe in elements and quoted attributes).
std::string EscapeHtml(std::string_view text);

/// A number for people: "%.4g", or "–" when unknown (NaN, infinite).
std::string HtmlNumber(double value, const char* format = "%.4g");

/// A number for the sortable table's data-sort attribute: "%.17g", or "" when unknown.
std::string SortKey(double value);

}  // namespace qnm::report
