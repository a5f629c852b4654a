#pragma once
// Renders Calzarossa et al. 2004 dissimilarity results as a table a person reads top-down,
// as JSON (one object per run) and as CSV (one row per activity, region and
// cell) for tools.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "imbalance/dissimilarity.h"

namespace qnm {

enum class DissimilarityFormat { kTable, kJson, kCsv };
/// Parses "table", "json", "csv"; false if unknown.
bool ParseDissimilarityFormat(const std::string& text, DissimilarityFormat* format);

/// One analysed run: its label (usually the source file) and its result.
struct DissimilarityReportEntry {
  std::string label;
  const DissimilarityResult* result = nullptr;
  std::vector<std::string> notes;  // from building t_ijp (e.g. the mpiP front end)
};

/// The result as JSON: summary, activities and regions in ranking order
/// (unranked ones last), cells by ID_ij; NaN becomes null.
nlohmann::json DissimilarityToJson(const DissimilarityResult& result);

/// The table for one result; `top` rows per ranked list (0 = all).
std::string DissimilarityTable(const DissimilarityResult& result, int top);

/// All entries in `format`: tables one after another, a JSON array of
/// {"run", "notes", ...DissimilarityToJson}, or one CSV with a run column.
std::string RenderDissimilarity(const std::vector<DissimilarityReportEntry>& entries,
                                DissimilarityFormat format, int top);

}  // namespace qnm
