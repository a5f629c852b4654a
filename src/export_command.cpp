// `qnm-predict export --format extrap-text|extrap-jsonl [RUNS...] [-o FILE]`:
// one series (the bundled default series when no RUNS are given, like
// predict) as an Extra-P experiment over p, so Extra-P can model it too
// (pipeline/extrap_export.h says what is written and why).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "pipeline/extrap_export.h"
#include "pipeline/series_loading.h"
#include "src/commands.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::cli {
namespace {

struct ExportArgs {
  std::vector<std::string> paths;
  std::string format = "extrap-text";
  std::string output;
  std::string series;
  bool strong_scaling = true;
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
  ExtrapExportOptions options;
  options.strong_scaling = args.strong_scaling;
  ExtrapExport experiment = BuildExtrapExport(series.front(), options);
  for (const std::string& note : experiment.notes) std::fprintf(stderr, "export: note: %s\n", note.c_str());
  WriteOutput(args.output,
              args.format == "extrap-text" ? WriteExportText(experiment) : WriteExportJsonLines(experiment));
}

}  // namespace

void AddExportCommand(CLI::App& app) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* sub = app.add_subcommand(
      "export",
      "Write one series as an Extra-P experiment over p (text or JSON Lines): call tree <app> (run time), "
      "<app>->MPI, <app>->compute (the rest of the run time) and <app>->MPI->MPI_<function>, with the "
      "metrics time, visits, messages and bytes_sent where the runs hold them; the series' identity in "
      "comments (text) or an \"experiment\" key (first JSON line)");
  sub->add_option("paths", args->paths,
                  "files or directories to read (default: the bundled series); formats: " + ReadableFormatList());
  sub->add_option("--format", args->format, "extrap-text (default) or extrap-jsonl")
      ->check(CLI::IsMember({"extrap-text", "extrap-jsonl"}));
  sub->add_option("-o,--output", args->output, "write to FILE (atomically) instead of stdout");
  sub->add_option("--series", args->series, kSeriesOptionHelp);
  sub->add_flag("--strong-scaling,!--no-strong-scaling", args->strong_scaling,
                "strong scaling (default; the series are over the process count p): write values summed over the "
                "p processes, time x p and counts x p, as Extra-P's own strong-scaling reading does; "
                "--no-strong-scaling writes the run time and per-process means");
  AddRunSelectionOptions(sub, &args->selection);
  sub->callback([args] { RunExport(*args); });
}

}  // namespace qnm::cli
