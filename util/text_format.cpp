#include "util/text_format.h"

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

}  // namespace qnm
