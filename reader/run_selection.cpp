#include "reader/run_selection.h"

#include <cmath>
#include <optional>
#include <stdexcept>

#include "textio/text_lines.h"

namespace qnm {

void AddWhere(const std::string& text, RunSelection* selection) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    std::string part(Trim(std::string_view(text).substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    std::size_t equals = part.find('=');
    if (equals == std::string::npos || equals == 0)
      throw std::invalid_argument("--where '" + part + "': expected NAME=VALUE, e.g. n=2000");
    std::optional<double> value = ParseDouble(Trim(std::string_view(part).substr(equals + 1)));
    if (!value || !std::isfinite(*value))
      throw std::invalid_argument("--where '" + part + "': the value is not a number");
    selection->where.emplace_back(std::string(Trim(std::string_view(part).substr(0, equals))), *value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

bool IsProcessCountName(const std::string& name) {
  std::string lower = ToLower(name);
  return lower == "p" || lower == "procs" || lower == "processes" || lower == "ranks" || lower == "np" ||
         lower == "nprocs" || lower == "num_procs" || lower == "mpi_ranks";
}

const OutputPattern* RunSelection::RunTimePattern() const {
  for (const OutputPattern& pattern : output_patterns)
    if (pattern.IsRunTime()) return &pattern;
  return nullptr;
}

}  // namespace qnm
