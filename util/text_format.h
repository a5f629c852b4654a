#pragma once
// Small text helpers shared by readers and reports.
#include <string>
#include <string_view>

namespace qnm {

/// ASCII lower-case copy (file names, MPI names, option values).
std::string ToLower(std::string_view text);

/// `value` printed with one printf conversion, e.g. FormatDouble("%.3g", x).
std::string FormatDouble(const char* printf_format, double value);

/// FormatDouble, or `unknown` when `value` is NaN (a field nobody measured).
std::string FormatKnown(const char* printf_format, double value, const char* unknown);

/// FormatDouble, or `not_finite` when `value` is NaN or infinite.
std::string FormatFinite(const char* printf_format, double value, const char* not_finite);

/// One CSV cell: quoted (RFC 4180, `""` for `"`) when it holds `,` `"` or a line
/// break; line breaks become spaces so a record stays on one line.
std::string CsvQuote(const std::string& text);

}  // namespace qnm
