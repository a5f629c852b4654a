#pragma once
// What the readers accept for a number: finite, and within a range that a
// real measurement or model can have. A value outside is refused with the
// file, line, field and the rule, instead of flowing into a prediction as
// NaN, inf, a negative time or an absurd magnitude.
#include <string>

namespace qnm {

struct PlausibleRange {
  double min = 0, max = 0;
  bool min_exclusive = false;  // (min, max] instead of [min, max]
  const char* unit = "";       // " s", " bytes/s", ... (with the leading space)
  const char* why = "";        // the reason for the bounds, for the message
  // Where 0 is allowed, a non-zero value below this is still absurd (1e-300 s
  // is no measurement: it is a damaged number); 0 turns the check off.
  double min_nonzero = 0;

  bool Contains(double value) const {
    if (!((min_exclusive ? value > min : value >= min) && value <= max)) return false;  // false for NaN
    return value == 0 || !(value < min_nonzero);
  }
};

// A run or rank lasts between a microsecond and 115 days (1e7 s); timer
// resolution and batch-system limits put real measurements well inside.
inline constexpr PlausibleRange kRunTimeS{1e-6, 1e7, false, " s", "a run lasts 1 us to 115 days"};
// A part of a run (MPI time, a call site's time, a region): 0 up to a run.
// Non-zero parts are at least a picosecond (below any timer's resolution).
inline constexpr PlausibleRange kPartTimeS{0, 1e7, false, " s", "a part of a run lasts at most 115 days", 1e-12};
// A time summed over ranks: up to 1e7 s on each of 1e7 processes.
inline constexpr PlausibleRange kSummedTimeS{0, 1e14, false, " s", "summed over at most 1e7 ranks", 1e-12};
// Counts of calls or messages and byte totals: 0 to 1e18 (exabytes).
// (Counts may be means over ranks, so fractions are kept down to 1e-9.)
inline constexpr PlausibleRange kCount{0, 1e18, false, "", "a count is 0 to 1e18", 1e-9};
// MPI processes and threads in one run.
inline constexpr PlausibleRange kProcessCount{1, 1e7, false, "", "1 to 1e7 processes"};
// A percentage of a run's time (printed rounded, so a little over 100 is kept).
inline constexpr PlausibleRange kPercent{0, 100.5, false, "%", "a share of the run", 1e-9};
// Millions of operations per second: 0 up to an exascale machine.
inline constexpr PlausibleRange kMopsRate{0, 1e12, false, " Mop/s", "0 to 1e12 Mop/s", 1e-9};
// Network: latency up to a second, bandwidth 1 kB/s to 10 TB/s.
inline constexpr PlausibleRange kLatencyS{0, 1, false, " s", "a message latency is at most 1 s", 1e-12};
inline constexpr PlausibleRange kBandwidthBytesPerS{1e3, 1e13, false, " bytes/s",
                                                    "1 kB/s to 10 TB/s"};
// Queueing models: service demands, think times and visits.
inline constexpr PlausibleRange kServiceTimeS{0, 1e9, false, " s", "a service time is 0 to 1e9 s", 1e-15};
inline constexpr PlausibleRange kVisits{0, 1e12, false, "", "visits per job are 0 to 1e12", 1e-12};
// Customers in a closed class: an integer the solvers can count to.
inline constexpr PlausibleRange kPopulation{0, 1e9, false, "", "a population is 0 to 1e9 customers"};
// What-if: a factor applied to a time.
inline constexpr PlausibleRange kScaleFactor{0, 1e3, false, "",
                                             "a what-if factor is 0 to 1000 (no time grows past 1000x)", 1e-9};

/// "wall time 1e+30 s is outside [1e-06, 1e+07] s (a run lasts 1 us to 115 days)".
std::string DescribeOutOfRange(const std::string& field, double value, const PlausibleRange& range);

/// Throws InputError(file, line, DescribeOutOfRange(...)) unless range.Contains(value).
void RequirePlausible(double value, const PlausibleRange& range, const std::string& field,
                      const std::string& file, int line);

}  // namespace qnm
