// `qnm-predict ingest`: files and directories -> run-statistics records.
#include <unistd.h>

#include <iostream>
#include <memory>

#include "ingest/file_description.h"
#include "ingest/ingest.h"
#include "pipeline/skipped_inputs.h"
#include "reader/series_identity.h"
#include "record/run_stats_json.h"
#include "src/commands.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm::cli {
namespace {

struct IngestArgs {
  std::vector<std::string> paths;
  std::string output;
  std::string format;
  std::string show;
  bool strict = false;
  bool series = false;
  bool quiet = false;
  double max_file_size_mib = 0;  // 0: the per-format limits of ingest/input_size_limits.h
  std::string group_by = "content";
  RunSelectionArgs selection;
};

std::string FormatFor(const IngestArgs& args) {
  if (!args.format.empty()) return args.format;
  if (EndsWith(ToLower(args.output), ".json")) return "json";
  if (EndsWith(ToLower(args.output), ".csv")) return "csv";
  return "table";
}

// The series table, then for each series why its runs were grouped.
std::string SeriesWithIdentity(const std::vector<RunStats>& runs, GroupBy group_by) {
  std::vector<Series> series = GroupIntoSeries(runs, group_by);
  std::string out = SeriesToTable(series) + "\n" + std::to_string(series.size()) + " series (grouped by " +
                    ToString(group_by) + "); identity keys and where each came from:\n";
  for (const Series& one : series) {
    out += "\n" + one.name + "\n";
    for (const std::string& line : ExplainSeriesIdentity(one)) out += "  " + line + "\n";
  }
  return out;
}

std::string Render(const std::vector<RunStats>& runs, const std::string& format, bool series,
                   GroupBy group_by = GroupBy::kContent) {
  if (series) return SeriesWithIdentity(runs, group_by);
  if (format == "json") return RunsToJson(runs);
  if (format == "csv") return RunsToCsv(runs);
  return RunsToTable(runs);
}

// Everything one file contains: what it says about itself (ingest/file_description.h), then the records.
std::string Show(const std::string& path, const std::string& format, const RunSelection& selection) {
  const std::string out = DescribeFile(path);
  IngestSummary summary;
  IngestOptions options;
  options.strict = true;
  options.selection = selection;  // --pattern, --metric, ...: the file read as the other commands read it
  std::vector<RunStats> runs = IngestPaths({path}, options, &summary);
  std::string records = Render(runs, format == "table" ? "json" : format, false);
  return out + (out.empty() ? "" : "records:\n") + records;
}

void Run(const IngestArgs& args) {
  std::string format = FormatFor(args);
  std::string result;
  if (!args.show.empty()) {
    result = Show(args.show, format, ParseRunSelection(args.selection));
  } else {
    if (args.paths.empty()) throw std::runtime_error("ingest: give files or directories (or --show FILE)");
    IngestOptions options;
    options.strict = args.strict;
    options.progress = isatty(STDERR_FILENO) != 0;
    options.selection = ParseRunSelection(args.selection);
    options.max_file_bytes = static_cast<long long>(args.max_file_size_mib * (1 << 20));
    IngestSummary summary;
    std::vector<RunStats> runs = IngestPaths(args.paths, options, &summary);
    // Damaged files found by walking a folder are skipped and counted below.
    RefuseSkippedNamedInputs(args.paths, summary);
    if (!args.quiet) std::cerr << summary.Report();
    if (runs.empty()) {
      const std::string why = summary.NoRunsReason(!options.selection.output_patterns.empty());
      throw std::runtime_error("ingest: no runs found in the given paths" + (why.empty() ? "" : " (" + why + ")"));
    }
    if (!args.series && (format == "csv" || format == "json")) {
      // Written as it is formatted: the text of a million records is never held whole.
      OutputStream out(args.output);
      auto write = [&out](std::string_view text) { out.Write(text); };
      if (format == "csv") WriteRunsCsv(runs, write);
      else WriteRunsJson(runs, write);
      out.Commit();
      return;
    }
    result = Render(runs, format, args.series, ParseGroupByOption(args.group_by));
  }
  WriteOutput(args.output, result);
}

}  // namespace

void AddIngestCommand(CLI::App& app) {
  auto args = std::make_shared<IngestArgs>();
  CLI::App* sub = app.add_subcommand(
      "ingest",
      "Read files into run-statistics records; directories are walked; NPB stdout files are paired with "
      "their mpiP reports. Formats: " + ReadableFormatList() +
          "; any other program's output by --pattern FIELD=REGEX (where it says its run time and processes)");
  sub->add_option("paths", args->paths, "files or directories to read");
  sub->add_option("-o,--output", args->output, "write the records to FILE (atomically) instead of stdout");
  sub->add_option("--format", args->format, "output format: table (default), csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  sub->add_flag("--strict", args->strict, "fail on the first malformed file instead of skipping it");
  sub->add_option("--show", args->show, "print everything one file contains, then its records");
  sub->add_flag("--series", args->series, "print the series summary (median/min/max per process count)");
  sub->add_flag("-q,--quiet", args->quiet, "no closing summary on stderr");
  sub->add_option("--max-file-size", args->max_file_size_mib,
                  "read no file larger than this many MiB (default: per format, 512 MiB for CUBE4 profiles, "
                  "64 MiB for text formats, 16 MiB for a file whose head no reader recognises)")
      ->check(CLI::Range(0.001, 1e6));
  AddGroupByOption(sub, &args->group_by);
  AddRunSelectionOptions(sub, &args->selection);
  sub->callback([args] {
    RefuseOutputOverInputs(args->output, args->paths);
    if (!args->show.empty()) RefuseOutputOverInputs(args->output, {args->show});
    Run(*args);
  });
}

}  // namespace qnm::cli
