#pragma once
// The first hop of predict/validate/plot: walk the inputs, read every file
// with its reader (ingest/), and group the runs into strong-scaling series.
// Readers already call RunStats::Derive(); this layer does not repeat it.
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "reader/run_selection.h"
#include "reader/series_identity.h"
#include "record/run_stats.h"

namespace qnm {

/// Ingests `paths` (the bundled default series when empty), groups the runs by
/// what their files say (reader/series_identity.h; `group_by` adds the folder or
/// file prefix on request) and returns the series `name_filter` selects
/// (pipeline/series_selection.h: exact name first, then a unique substring;
/// all when empty). Throws InputError when nothing is read or nothing matches. `origin` (may be null) says what was
/// read, and how many duplicate measurements were counted once.
/// `selection` picks the runs of multi-parameter experiments (--parameter,
/// --metric, --callpath, --where; reader/run_selection.h). Warnings about
/// repetitions that spread more than their series' noise go to stderr.
/// `ingest_summary` (may be null) receives what the readers found and skipped (for `report`).
std::vector<Series> LoadSeries(const std::vector<std::string>& paths, const std::string& name_filter,
                               std::string* origin, GroupBy group_by = GroupBy::kContent,
                               const RunSelection& selection = RunSelection(),
                               IngestSummary* ingest_summary = nullptr);

}  // namespace qnm
