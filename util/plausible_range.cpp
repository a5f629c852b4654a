#include "util/plausible_range.h"

#include <cmath>
#include <cstdio>

#include "util/input_error.h"

namespace qnm {
namespace {

std::string Number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

}  // namespace

std::string DescribeOutOfRange(const std::string& field, double value, const PlausibleRange& range) {
  const char* what = std::isfinite(value) ? " is outside " : " is not a finite number; allowed ";
  std::string allowed = (range.min_exclusive ? "(" : "[") + Number(range.min) + ", " + Number(range.max) + "]" +
                        range.unit;
  if (range.min_nonzero > 0 && std::isfinite(value) && value > 0 && value < range.min_nonzero)
    return field + " " + Number(value) + " is not 0 and below " + Number(range.min_nonzero) + range.unit +
           ": a damaged number, not a measurement (allowed: 0 or " + Number(range.min_nonzero) + " to " +
           Number(range.max) + range.unit + ")";
  return field + " " + Number(value) + what + allowed + " (" + range.why + ")";
}

void RequirePlausible(double value, const PlausibleRange& range, const std::string& field,
                      const std::string& file, int line) {
  if (!range.Contains(value)) throw InputError(file, line, DescribeOutOfRange(field, value, range));
}

}  // namespace qnm
