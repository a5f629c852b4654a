// Dates and times of day as tools print them (time_stamps.h).
#include "textio/time_stamps.h"

#include <ctime>
#include <iomanip>
#include <sstream>
#include <string>

namespace qnm {

std::optional<long long> StampSeconds(std::string_view text, const char* format) {
  std::tm tm{};
  std::istringstream in{std::string(text)};
  in >> std::get_time(&tm, format);
  if (in.fail()) return std::nullopt;
  return static_cast<long long>(timegm(&tm));
}

}  // namespace qnm
