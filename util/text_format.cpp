#include "util/text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace qnm {

std::string ToLower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string FormatDouble(const char* printf_format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, printf_format, value);
  return buffer;
}

std::string FormatByteSize(double bytes) {
  if (bytes >= 1024.0 * 1024.0) return FormatDouble("%.0f MiB", bytes / (1024.0 * 1024.0));
  if (bytes >= 1024.0) return FormatDouble("%.0f KiB", bytes / 1024.0);
  return FormatDouble("%.0f B", bytes);
}

std::string FormatKnown(const char* printf_format, double value, const char* unknown) {
  return std::isnan(value) ? std::string(unknown) : FormatDouble(printf_format, value);
}

std::string FormatFinite(const char* printf_format, double value, const char* not_finite) {
  return std::isfinite(value) ? FormatDouble(printf_format, value) : std::string(not_finite);
}

std::string CsvQuote(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n' || c == '\r') c = ' ';
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string AlignedTable(const std::vector<std::vector<std::string>>& rows, const std::vector<std::string>& trailers,
                         std::size_t min_width) {
  if (rows.empty()) return "";
  const std::size_t columns = rows.front().size();
  std::vector<std::size_t> widths(columns, min_width);
  for (const auto& cells : rows)
    for (std::size_t c = 0; c < cells.size() && c < columns; ++c) widths[c] = std::max(widths[c], cells[c].size() + 2);
  std::string out;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    std::string line;
    for (std::size_t c = 0; c < rows[k].size(); ++c) {
      line += rows[k][c];
      if (c + 1 < columns) line += std::string(widths[c] - std::min(widths[c] - 1, rows[k][c].size()), ' ');
    }
    if (k < trailers.size()) line += trailers[k];  // a row without value: the reason stands where the values would
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace qnm
