#include "util/text_format.h"

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

}  // namespace qnm
