// Strictly read numbers of application logs (log_numbers.h).
#include "textio/log_numbers.h"

#include <cmath>

#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {

double NonNegativeNumber(std::string_view token, const std::string& path, int line, const char* what) {
  auto number = ParseDouble(Trim(token));
  if (!number || !std::isfinite(*number) || *number < 0)
    throw InputError(path, line, std::string(what) + " needs a non-negative number, got '" + std::string(token) + "'");
  return *number;
}

long long WholeNumber(std::string_view token, const std::string& path, int line, const char* what, long long least,
                      long long most) {
  auto number = ParseInteger(token);
  if (!number || *number < least || *number > most)
    throw InputError(path, line, std::string(what) + " needs a whole number from " + std::to_string(least) + " to " +
                                     std::to_string(most) + ", got '" + std::string(token) + "'");
  return *number;
}

std::string NumberText(double value) { return FormatDouble("%.10g", value); }

int WholeCount(std::string_view token, const std::string& path, int line, const char* what, int least) {
  return static_cast<int>(WholeNumber(token, path, line, what, least, 1 << 24));
}

}  // namespace qnm
