#pragma once
// Repetitions that are not repetitions: runs grouped as repeats of one point
// (same series, same process count) whose times spread far more than the
// series' repetitions usually do — e.g. mpiP reports of 4, 8, 12 and 16
// OpenMP threads without the NPB output that names the thread count, which
// land at one point (issue 18, item 7). Runs whose thread count is known are
// already kept apart (it is part of the series key, record/run_stats.h).
#include <string>
#include <string_view>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// The relative spread (max - min) / median of one point's repetitions above
/// which they are flagged when the series offers nothing to compare with.
constexpr double kSpreadFloor = 0.10;
/// A point is flagged when its spread exceeds this many times the median
/// spread of the series' other points (its noise), and kSpreadFloor.
constexpr double kSpreadOverNoise = 3.0;

/// One line per flagged point: series, process count, times, spread, the
/// series' noise, and which property differs between the runs if any is
/// known (a detail, the data set, the file names).
std::vector<std::string> RepetitionSpreadWarnings(const std::vector<RunStats>& runs);
/// True when `warning` (one of RepetitionSpreadWarnings') is about the series named `series`: the
/// name of its content key (record/run_stats.h), as a series keyed by content is named.
bool SpreadWarningIsAbout(std::string_view warning, const std::string& series);

}  // namespace qnm
