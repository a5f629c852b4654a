#pragma once
// Dates and times of day as tools print them ("Sat Nov 29 01:46:25 2025": IPM's banner, LSF's job report;
// QE's "28Apr2017" and "10:59:54"), for the readers that take a run's length or start from its stamps.
#include <optional>
#include <string_view>

namespace qnm {

/// Seconds since the epoch of `text` read by the strftime-style `format` ("%a %b %d %H:%M:%S %Y"), taken as UTC
/// (the difference of two stamps of one clock is right whatever its zone); nullopt when `text` does not match.
std::optional<long long> StampSeconds(std::string_view text, const char* format);

}  // namespace qnm
