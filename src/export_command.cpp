// `qnm-predict export --format extrap-text|extrap-jsonl [RUNS...] [-o FILE]`:
// one series (the bundled default series when no RUNS are given, like
// predict) as an Extra-P experiment over p, so Extra-P can model it too.
#include <memory>
#include <string>
#include <vector>

#include "ingest/extrap_experiment.h"
#include "src/commands.h"
#include "pipeline/series_loading.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::cli {
namespace {

struct ExportArgs {
  std::vector<std::string> paths;
  std::string format = "extrap-text";
  std::string output;
  std::string series;
  RunSelectionArgs selection;
};

void RunExport(const ExportArgs& args) {
  if (args.format != "extrap-text" && args.format != "extrap-jsonl")
    throw InputError("", 0, "--format must be extrap-text or extrap-jsonl, not '" + args.format + "'");
  std::string origin;
  std::vector<Series> series = LoadSeries(args.paths, args.series, &origin, GroupBy::kContent, ParseRunSelection(args.selection));
  if (series.size() != 1) {
    std::string names;
    for (const Series& one : series) names += (names.empty() ? "" : "; ") + one.name;
    throw InputError("", 0, "an Extra-P experiment holds one series, found " + std::to_string(series.size()) +
                                " (" + names + "); pick one with --series NAME");
  }
  ExtrapExperiment experiment = ExtrapFromSeries(series.front());
  WriteOutput(args.output, args.format == "extrap-text" ? WriteExtrapText(experiment) : WriteExtrapJsonLines(experiment));
}

}  // namespace

void AddExportCommand(CLI::App& app) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* sub = app.add_subcommand(
      "export",
      "Write one series as an Extra-P experiment over p (text or JSON Lines): total time, MPI and compute time "
      "and the time per MPI function, in seconds (mean over ranks below the root call path)");
  sub->add_option("paths", args->paths, "runs to read (files or directories); default: the bundled series");
  sub->add_option("--format", args->format, "extrap-text (default) or extrap-jsonl")
      ->check(CLI::IsMember({"extrap-text", "extrap-jsonl"}));
  sub->add_option("-o,--output", args->output, "write to FILE (atomically) instead of stdout");
  sub->add_option("--series", args->series, "the series whose name contains this text");
  AddRunSelectionOptions(sub, &args->selection);
  sub->callback([args] { RunExport(*args); });
}

}  // namespace qnm::cli
