// libFuzzer target: the statistics-table readers (CSV via libfccp, JSON via
// nlohmann) must turn any bytes into records or an InputError, nothing else.
// The first byte picks the reader so one corpus covers both, and whether rows are filtered
// by a --series as they are read (a filter naming a split series keeps the rows its settings may name).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "reader/experiment_factors.h"
#include "reader/reader.h"
#include "record/run_stats_json.h"
#include "tables/statistics_table.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    qnm::TableRowFilter filter{(data[0] & 4) ? "=1" : "a", 0};
    qnm::TableRowFilter* row_filter = (data[0] & 2) ? &filter : nullptr;
    std::vector<qnm::RunStats> runs = (data[0] & 1) ? qnm::ReadStatisticsJson(text, "fuzz.json", nullptr, row_filter)
                                                    : qnm::ReadStatisticsCsv(text, "fuzz.csv", nullptr, row_filter);
    (void)qnm::RunsToCsv(runs);
    (void)qnm::SplitByExperimentFactors(&runs);  // a table's problem columns split its series
    (void)qnm::GroupIntoSeries(runs);
  } catch (const qnm::InputError&) {
  }
  return 0;
}
