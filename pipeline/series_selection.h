#pragma once
// `--series NAME` for export, predict, validate and plot: the series whose
// name is NAME exactly wins (then the same name ignoring case), else the one
// series whose name contains NAME. A substring that several series contain
// is refused with one line listing them, so every series stays reachable by
// its exact name even when it is part of another's ("...-omp1" in "...-omp12").
#include <string>
#include <vector>

#include "record/run_stats.h"

namespace qnm {

/// The series `name` selects from `all` (all of them when `name` is empty).
/// Throws InputError when nothing matches or a substring is ambiguous.
std::vector<Series> SelectSeries(std::vector<Series> all, const std::string& name);

}  // namespace qnm
