// Strictly read numbers of application logs (log_numbers.h).
#include "ingest/log_numbers.h"

#include <cmath>

#include "ingest/text_lines.h"
#include "util/input_error.h"

namespace qnm {

double NonNegativeNumber(std::string_view token, const std::string& path, int line, const char* what) {
  auto number = ParseDouble(Trim(token));
  if (!number || !std::isfinite(*number) || *number < 0)
    throw InputError(path, line, std::string(what) + " needs a non-negative number, got '" + std::string(token) + "'");
  return *number;
}

long long WholeNumber(std::string_view token, const std::string& path, int line, const char* what, long long least) {
  auto number = ParseInteger(token);
  if (!number || *number < least || *number > (1LL << 40))
    throw InputError(path, line, std::string(what) + " needs a whole number >= " + std::to_string(least) + ", got '" +
                                     std::string(token) + "'");
  return *number;
}

}  // namespace qnm
