#include "textio/time_units.h"

#include <algorithm>
#include <array>

namespace qnm {

double SecondsPerTimeUnit(std::string_view unit) {
  struct Unit {
    std::array<std::string_view, 8> words;  // "" pads a shorter list (an empty unit is none)
    double seconds;
  };
  static constexpr Unit kUnits[] = {
      {{"s", "sec", "secs", "second", "seconds"}, 1.0},
      {{"ms", "msec", "msecs", "millisecond", "milliseconds", "millis"}, 1e-3},  // millis: fish's `time`
      // micro sign and Greek mu
      {{"us", "usec", "usecs", "microsecond", "microseconds", "\u00b5s", "\u03bcs", "micros"}, 1e-6},
      {{"min", "mins", "minute", "minutes", ""}, 60.0},
      {{"h", "hr", "hrs", "hour", "hours"}, 3600.0},
      {{"day", "days", "", "", ""}, 86400.0},  // "ns/day" (molecular dynamics' rate)
  };
  if (unit.empty()) return 0.0;
  for (const Unit& u : kUnits)
    if (std::find(u.words.begin(), u.words.end(), unit) != u.words.end()) return u.seconds;
  return 0.0;
}

}  // namespace qnm
