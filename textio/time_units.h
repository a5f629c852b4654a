#pragma once
// Names of time units as tools write them ("s", "sec", "ms", "µs", "min",
// "hours", fish's "millis"), for the readers that take a unit from the file: a table's column
// name ("runtime_ms", "time [min]") and a ReFrame perflog's performance unit.
#include <string_view>

namespace qnm {

/// Seconds per unit of a lower-case unit word ("ms" -> 0.001); 0 when it names no time unit.
double SecondsPerTimeUnit(std::string_view unit);

}  // namespace qnm
