#include "models/procs_spec.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "util/input_error.h"

namespace qnm {
namespace {

std::string Trim(const std::string& text) {
  std::size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  std::size_t end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}

/// Parses a positive decimal integer that fills `text` entirely.
bool ParsePositive(const std::string& text, long long* value) {
  if (text.empty() || text.size() > 12) return false;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  *value = std::stoll(text);
  return *value > 0;
}

}  // namespace

std::vector<int> ParseProcsSpec(const std::string& spec, const std::string& option) {
  auto fail = [&](const std::string& item, const std::string& why) -> InputError {
    return InputError(option, 0, "bad process-count spec '" + item + "': " + why +
                                     " (use e.g. 1..1024, 1..1024:x2, 4..64:+4, 1,2,4)");
  };
  std::set<int> procs;
  std::string rest = spec;
  if (Trim(rest).empty()) throw fail(spec, "empty");
  std::size_t start = 0;
  while (start <= rest.size()) {
    std::size_t comma = rest.find(',', start);
    std::string item = Trim(rest.substr(start, comma == std::string::npos ? std::string::npos
                                                                           : comma - start));
    start = comma == std::string::npos ? rest.size() + 1 : comma + 1;
    if (item.empty()) throw fail(spec, "empty item in list");

    std::size_t dots = item.find("..");
    long long first = 0, last = 0, step = 1;
    bool geometric = false;
    if (dots == std::string::npos) {
      if (!ParsePositive(item, &first)) throw fail(item, "not a positive integer");
      last = first;
    } else {
      std::string range = item, stride;
      std::size_t colon = item.find(':');
      if (colon != std::string::npos) {
        range = item.substr(0, colon);
        stride = Trim(item.substr(colon + 1));
      }
      if (!ParsePositive(Trim(range.substr(0, dots)), &first) ||
          !ParsePositive(Trim(range.substr(dots + 2)), &last))
        throw fail(item, "range bounds must be positive integers");
      if (last < first) throw fail(item, "range end is below its start");
      if (!stride.empty()) {
        char kind = stride[0];
        if ((kind != 'x' && kind != '*' && kind != '+') || !ParsePositive(stride.substr(1), &step))
          throw fail(item, "stride must be x<factor> or +<step>");
        geometric = kind != '+';
        if (geometric && step < 2) throw fail(item, "geometric factor must be at least 2");
      }
    }
    if (first < 1) throw fail(item, "process counts start at 1");
    if (last > kMaxProcs) throw fail(item, "process count above " + std::to_string(kMaxProcs));
    for (long long p = first; p <= last; p = geometric ? p * step : p + step) {
      procs.insert(static_cast<int>(p));
      if (static_cast<int>(procs.size()) > kMaxProcsListLength)
        throw fail(item, "more than " + std::to_string(kMaxProcsListLength) + " process counts");
    }
  }
  return std::vector<int>(procs.begin(), procs.end());
}

}  // namespace qnm
