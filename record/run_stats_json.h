#pragma once
// Output of run-statistics records: JSON (everything, per rank), CSV (the
// statistics-table columns, so the output reads back with `ingest`) and a
// fixed-width table for people; plus a series summary table.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/run_stats.h"

namespace qnm {

nlohmann::json RunToJson(const RunStats& run);
/// {"runs": [...]} with every field, per-rank vectors and call sites.
std::string RunsToJson(const std::vector<RunStats>& runs);
/// One row per run in the statistics-table columns (docs/statistics-table.md).
std::string RunsToCsv(const std::vector<RunStats>& runs);
/// Fixed-width table: identity, procs, threads, times, messages, sources.
std::string RunsToTable(const std::vector<RunStats>& runs);
/// One row per (series, procs): repeats, median, min, max time.
std::string SeriesToTable(const std::vector<Series>& series);

}  // namespace qnm
