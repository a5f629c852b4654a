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

}  // namespace qnm
