#pragma once
// The last check every reader makes before a record leaves ingest/: each
// number it holds is unknown (NaN) or finite, non-negative and plausible
// (util/plausible_range.h). Readers check numbers as they parse them where
// they know the line; this catches what a format lets through (JSON records,
// derived sums) so models never see inf, a negative time or 1e30 s.
#include <string>

#include "record/run_stats.h"

namespace qnm {

/// Throws InputError(file, line, "<field> <value> is outside [...] (...)") for
/// the first implausible value of `run`; `line` 0 when the record has none.
void RequirePlausibleRecord(const RunStats& run, const std::string& file, int line);

/// Parts within the whole: mean MPI and computation time at most the run
/// time, each rank's MPI time at most its app time, within the noise below.
/// Called by RequirePlausibleRecord; throws InputError(file, line, ...).
void RequirePartsWithinWhole(const RunStats& run, const std::string& file, int line);

/// How far a part may exceed its whole before the file is refused: 5 % and
/// 1 ms (timer resolution, parts measured in another repetition).
inline constexpr double kPartOverWholeNoise = 0.05;
inline constexpr double kPartOverWholeNoiseS = 1e-3;

}  // namespace qnm
