#pragma once
// Output of run-statistics records: JSON (everything, per rank), CSV (the
// statistics-table columns, so the output reads back with `ingest`) and a
// fixed-width table for people; plus a series summary table.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "record/run_stats.h"

namespace qnm {

nlohmann::json RunToJson(const RunStats& run);
/// Receives an output's text piece by piece, in order (e.g. OutputStream::Write).
using TextSink = std::function<void(std::string_view text)>;

/// {"runs": [...]} with every field, per-rank vectors and call sites.
std::string RunsToJson(const std::vector<RunStats>& runs);
/// RunsToJson's text handed to `write` one record at a time.
void WriteRunsJson(const std::vector<RunStats>& runs, const TextSink& write);
/// One row per run in the statistics-table columns (docs/statistics-table.md).
std::string RunsToCsv(const std::vector<RunStats>& runs);
/// RunsToCsv's text handed to `write` in pieces of about 64 KB.
void WriteRunsCsv(const std::vector<RunStats>& runs, const TextSink& write);
/// Fixed-width table: identity, procs, threads, times, messages, sources.
std::string RunsToTable(const std::vector<RunStats>& runs);
/// One row per (series, procs): repeats, median, min, max time.
std::string SeriesToTable(const std::vector<Series>& series);

}  // namespace qnm
