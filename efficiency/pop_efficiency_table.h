#pragma once
// POP's efficiency factors of each series (pop_efficiency.h) for the terminal,
// a spreadsheet or a script (`qnm-predict efficiency`):
//  - table: per series, the factors as rows and the process counts as columns,
//    in percent, nested as BSC's modelfactors prints them (global efficiency =
//    parallel efficiency x computation scalability; parallel efficiency = load
//    balance x communication efficiency), then the speedup and the runtime;
//  - csv: one row per series and process count, factors as fractions;
//  - json: {"series": [{"name", "compute_from", "runs": [{...}]}]}, factors as
//    fractions, an unknown value null.
#include <string>
#include <vector>

#include "efficiency/pop_efficiency.h"

namespace qnm {

struct SeriesEfficiencies {
  std::string series;                // the series' name
  std::vector<PopEfficiency> runs;   // PopEfficienciesOfSeries
};

enum class EfficiencyFormat { kTable, kCsv, kJson };

/// "table", "csv" or "json"; false for anything else.
bool ParseEfficiencyFormat(const std::string& text, EfficiencyFormat* format);

/// The factors of every series in `format`; a series without runs is left out.
std::string RenderPopEfficiencies(const std::vector<SeriesEfficiencies>& series, EfficiencyFormat format);

}  // namespace qnm
