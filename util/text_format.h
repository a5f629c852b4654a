#pragma once
// Small text helpers shared by readers and reports.
#include <string>
#include <string_view>

namespace qnm {

/// ASCII lower-case copy (file names, MPI names, option values).
std::string ToLower(std::string_view text);

/// `value` printed with one printf conversion, e.g. FormatDouble("%.3g", x).
std::string FormatDouble(const char* printf_format, double value);

}  // namespace qnm
