// Reader-table row for Extra-P experiments (text, JSON, legacy JSON, JSON
// Lines, TALPas): read with every parameter (extrap_data.h), then the series
// the RunSelection asks for (--parameter, --metric, --callpath, --where), one
// series named after the file (and the fixed parameters).
#include <filesystem>

#include "extrap/extrap_data.h"
#include "extrap/extrap_experiment.h"
#include "extrap/extrap_file.h"
#include "extrap/extrap_readers.h"
#include "extrap/extrap_selection.h"
#include "textio/text_lines.h"

namespace qnm {

bool LooksLikeExtrapFile(const std::string& path, std::string_view text) {
  std::string lower = ToLower(path);
  return EndsWith(lower, ".jsonl") || LooksLikeExtrapText(text) || LooksLikeTalpas(text) ||
         (EndsWith(lower, ".json") && LooksLikeExtrapJson(text));
}

ExtrapData ReadExtrapFileData(const std::string& path, std::string_view text, const std::string& format_path) {
  std::string lower = ToLower(format_path.empty() ? path : format_path);
  if (EndsWith(lower, ".jsonl")) return ParseExtrapJsonLinesData(text, path);
  if (EndsWith(lower, ".json")) {
    // Extra-P's JSON reader falls back to JSON Lines when every line is an object.
    std::string_view first = Trim(text.substr(0, text.find('\n')));
    if (LooksLikeExtrapJsonLines(text) && first.size() > 1 && first.back() == '}') return ParseExtrapJsonLinesData(text, path);
    return ParseExtrapJsonData(text, path);
  }
  if (LooksLikeTalpas(text)) return ParseTalpasData(text, path);
  return ParseExtrapTextData(text, path);
}

bool SniffExtrapExperiment(const std::string& path, std::string_view text) { return LooksLikeExtrapFile(path, text); }

ReaderOutput ReadExtrapExperiment(const ReaderInput& input) {
  static const RunSelection kDefault;
  const RunSelection& selection = input.selection ? *input.selection : kDefault;
  ExtrapData data = ReadExtrapFileData(input.path, input.text, input.FormatPath());
  ExtrapExperiment experiment = SelectSeries(std::move(data), selection, input.path);
  ReaderOutput output;
  output.runs = ExtrapToRunStats(experiment, std::filesystem::path(input.FormatPath()).stem().string() + WhereSuffix(selection),
                                 input.path, selection);
  return output;
}

}  // namespace qnm
