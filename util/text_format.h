#pragma once
// Small text helpers shared by readers and reports.
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

/// ASCII lower-case copy (file names, MPI names, option values).
std::string ToLower(std::string_view text);

/// `value` printed with one printf conversion, e.g. FormatDouble("%.3g", x).
std::string FormatDouble(const char* printf_format, double value);

/// FormatDouble, or `unknown` when `value` is NaN (a field nobody measured).
std::string FormatKnown(const char* printf_format, double value, const char* unknown);

/// FormatDouble, or `not_finite` when `value` is NaN or infinite.
std::string FormatFinite(const char* printf_format, double value, const char* not_finite);

/// A size limit for people: "64 MiB" from 1 MiB up, else "4 KiB" (or "512 B").
std::string FormatByteSize(double bytes);

/// Rows of cells as a table for people: every column as wide as its widest
/// cell plus two (at least `min_width`), the last column unpadded, then the
/// row's trailer (a reason or flags; "" for none), trailing blanks dropped.
/// `rows[0]` is the header and fixes the column count; `trailers` has one per row.
std::string AlignedTable(const std::vector<std::vector<std::string>>& rows, const std::vector<std::string>& trailers,
                         std::size_t min_width = 7);

/// One CSV cell: quoted (RFC 4180, `""` for `"`) when it holds `,` `"` or a line
/// break; line breaks become spaces so a record stays on one line.
std::string CsvQuote(const std::string& text);

}  // namespace qnm
