// Reader-table row for Extra-P experiments (text, JSON, JSON Lines): read as
// a statistics table, one series named after the file.
#include <filesystem>

#include "ingest/extrap_experiment.h"
#include "ingest/readers.h"
#include "ingest/text_lines.h"

namespace qnm {

bool SniffExtrapExperiment(const std::string& path, std::string_view text) {
  std::string lower = ToLower(path);
  return EndsWith(lower, ".jsonl") || LooksLikeExtrapText(text) ||
         (EndsWith(lower, ".json") && LooksLikeExtrapJson(text));
}

ReaderOutput ReadExtrapExperiment(const ReaderInput& input) {
  ExtrapExperiment experiment = EndsWith(ToLower(input.path), ".jsonl") ? ReadExtrapJsonLines(input.text, input.path)
                                : LooksLikeExtrapText(input.text)         ? ReadExtrapText(input.text, input.path)
                                                                          : ReadExtrapJson(input.text, input.path);
  ReaderOutput output;
  output.runs = ExtrapToRunStats(experiment, std::filesystem::path(input.path).stem().string(), input.path);
  return output;
}

}  // namespace qnm
