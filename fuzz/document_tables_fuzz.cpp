// libFuzzer target: the tables of Markdown and Org documents (tables/document_tables.h) must turn any
// bytes into records or an InputError, nothing else. The first byte picks the kind (% 3: Markdown, Org,
// LaTeX) and whether rows are filtered by a --series as they are read (bit 2).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "reader/experiment_factors.h"
#include "reader/reader.h"
#include "record/run_stats_json.h"
#include "tables/document_tables.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const qnm::DocumentKind kinds[] = {qnm::DocumentKind::kMarkdown, qnm::DocumentKind::kOrg, qnm::DocumentKind::kLatex};
  const qnm::DocumentKind kind = kinds[data[0] % 3];
  try {
    qnm::TableRowFilter filter{"scaling", 0};
    (void)qnm::HasStatisticsTable(text, kind);
    qnm::StatisticsTableOptions options;
    options.filter = (data[0] & 4) ? &filter : nullptr;
    std::vector<qnm::RunStats> runs = qnm::ReadDocumentTables(text, "fuzz.document", kind, options);
    (void)qnm::RunsToCsv(runs);
    (void)qnm::SplitByExperimentFactors(&runs);
    (void)qnm::GroupIntoSeries(runs);
  } catch (const qnm::InputError&) {
  }
  return 0;
}
