#include "pipeline/series_loading.h"

#include <filesystem>
#include <iostream>

#include "ingest/ingest.h"
#include "ingest/repetition_spread.h"
#include "models/machine_profile.h"
#include "pipeline/series_selection.h"
#include "pipeline/skipped_inputs.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

std::string BundledDefaultSeries() {
  for (const std::string& dir : DataDirectories()) {
    fs::path series_dir = fs::path(dir) / "default-series";
    std::error_code ec;
    if (fs::is_directory(series_dir, ec)) return series_dir.string();
  }
  throw InputError("", 0,
                   "no input paths given and the bundled default series (data/default-series) was not "
                   "found; set QNM_DATA_DIR or pass files");
}

}  // namespace

std::vector<Series> LoadSeries(const std::vector<std::string>& paths, const std::string& name_filter,
                               std::string* origin, GroupBy group_by, const RunSelection& selection,
                               IngestSummary* ingest_summary) {
  std::string local_origin;
  std::string& said = origin ? *origin : local_origin;
  std::vector<std::string> inputs = paths;
  if (inputs.empty()) {
    inputs.push_back(BundledDefaultSeries());
    said = "bundled default series " + inputs.front();
  } else {
    said = std::to_string(inputs.size()) + " input path(s)";
  }
  IngestSummary summary;
  IngestOptions options;
  options.selection = selection;
  // The filter as early as the readers allow: table rows of other series are
  // dropped as each file is read (a 16 MB table of 10,000 series need not be held).
  if (group_by == GroupBy::kContent) options.series_filter = name_filter;
  std::vector<RunStats> runs = IngestPaths(inputs, options, &summary);
  ReportSkippedInputs(paths, summary);
  if (runs.empty()) {
    const std::string why = summary.NoRunsReason(!selection.output_patterns.empty());
    throw InputError(inputs.front(), 0, "no runs found" + (why.empty() ? "" : " (" + why + ")"));
  }
  std::vector<Series> chosen = SelectSeries(GroupIntoSeries(std::move(runs), group_by), name_filter);
  // With --series, only the chosen series' warnings (on stderr and in the summary a report shows):
  // the others are not what was asked about. A warning names its series by the content key, which is
  // the series' name when series are keyed by content.
  std::vector<std::string> warnings;
  for (std::string& warning : summary.warnings) {
    bool about_chosen = name_filter.empty() || group_by != GroupBy::kContent;
    for (std::size_t i = 0; i < chosen.size() && !about_chosen; ++i)
      about_chosen = SpreadWarningIsAbout(warning, chosen[i].name);
    if (about_chosen) warnings.push_back(std::move(warning));
  }
  summary.warnings = std::move(warnings);
  for (const std::string& warning : summary.warnings) std::cerr << "warning: " << warning << "\n";
  said += ": " + std::to_string(summary.runs) + " runs from " + std::to_string(summary.files_read) +
          " files, " + std::to_string(chosen.size()) + " series";
  if (!summary.skipped.empty()) said += ", " + std::to_string(summary.skipped.size()) + " files skipped";
  if (summary.duplicates.Total() > 0) said += "; " + summary.duplicates.Note();
  for (const std::string& reading : summary.readings) said += "; " + reading;
  if (ingest_summary) *ingest_summary = summary;
  return chosen;
}

}  // namespace qnm
