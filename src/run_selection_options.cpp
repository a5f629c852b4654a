// --parameter, --metric, --callpath, --where: one definition for every
// command that reads runs (ingest, predict, validate, plot, export).
#include <stdexcept>

#include "reader/output_patterns.h"
#include "src/commands.h"
#include "util/input_error.h"

namespace qnm::cli {

void AddRunSelectionOptions(CLI::App* command, RunSelectionArgs* args) {
  command->add_option("--parameter", args->parameter,
                      "which parameter of an Extra-P experiment or cube set is the process count "
                      "(default: the one named p, procs, ranks, np, ...)");
  command->add_option("--metric", args->metric,
                      "which metric is the run time (default: time, else runtime, else the only one); in a "
                      "statistics table, JUBE result or document table, which column (default: the one named "
                      "for a run time: docs/statistics-table.md)");
  command->add_option("--callpath", args->callpath,
                      "which call path is the run time (default: the first root call path)");
  command->add_option("--where", args->where,
                      "fix another parameter of a multi-parameter experiment, e.g. --where n=2000 "
                      "(repeat or comma-separate for several)");
  command->add_option("--ranks-per-node", args->ranks_per_node,
                      "MPI ranks per node of every run (replaces what the files say): node-aware model terms, "
                      "the node-boundary regime split and the 'leaves the node' flag use it")
      ->check(CLI::Range(1, 1 << 20));
  command->add_option("--work-units", args->work_units,
                      "units of work of one size the problem splits into (e.g. zones, domains; replaces the "
                      "NPB-MZ banner's): a process count beyond it is reported as impossible, not predicted, "
                      "and one that does not divide it is no faster than units / ceil(units / P)")
      ->check(CLI::Range(1, 1 << 30));
  command->add_option("--pattern", args->patterns,
                      std::string("FIELD=REGEX (repeatable): read the outputs no reader knows by where they say their "
                                  "values: a regular expression with one group around the value, matched line by line, "
                                  "the last matching line taken; fields: ") +
                          OutputPatternFieldList() +
                          "; e.g. --pattern 'time=hydro cycle run time=\\s*(\\S+)' --pattern "
                          "'procs=Running on (\\d+) MPI' (docs/formats/output-patterns.md)")
      ->allow_extra_args(false);  // one value per --pattern: the paths after it stay paths
  command->add_option("--pattern-file", args->pattern_files,
                      "FILE (repeatable): a program's --pattern set kept in a file, one FIELD=REGEX a line ('#' "
                      "comments); a --pattern of the same field replaces the file's (data/patterns/ has PENNANT's "
                      "and miniAMR's)")
      ->allow_extra_args(false);
}

RunSelection ParseRunSelection(const RunSelectionArgs& args) {
  RunSelection selection;
  selection.parameter = args.parameter;
  selection.metric = args.metric;
  selection.callpath = args.callpath;
  selection.ranks_per_node = args.ranks_per_node;
  selection.work_units = args.work_units;
  std::vector<OutputPattern> from_files, from_command_line;
  for (const std::string& file : args.pattern_files)
    for (OutputPattern& pattern : ReadOutputPatternFile(file)) {
      const std::string name = pattern.name;
      try {
        AddOutputPattern(std::move(pattern), &from_files);
      } catch (const std::invalid_argument&) {
        throw InputError(file, 0, name + ": an earlier --pattern-file gives its field too; one pattern a field");
      }
    }
  for (const std::string& pattern : args.patterns) {
    try {
      AddOutputPattern(ParseOutputPattern(pattern), &from_command_line);
    } catch (const std::invalid_argument& error) {
      throw InputError("--pattern", 0, error.what());
    }
  }
  selection.output_patterns = WithOverrides(std::move(from_files), from_command_line);
  for (const std::string& where : args.where) {
    try {
      AddWhere(where, &selection);
    } catch (const std::invalid_argument& error) {
      throw InputError("--where", 0, error.what());
    }
  }
  return selection;
}

}  // namespace qnm::cli
