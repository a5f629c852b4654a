// `qnm-predict efficiency RUNS... [--format table|csv|json] [-o FILE]`: POP's
// efficiency factors of every series whose runs have per-rank times
// (efficiency/pop_efficiency.h), as BSC's modelfactors prints them.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "efficiency/pop_efficiency.h"
#include "efficiency/pop_efficiency_table.h"
#include "pipeline/series_loading.h"
#include "src/commands.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::cli {
namespace {

struct EfficiencyArgs {
  std::vector<std::string> paths;
  std::string format = "table";
  std::string output;
  std::string series;
  std::string group_by = "content";
  RunSelectionArgs selection;
};

void RunEfficiency(const EfficiencyArgs& args) {
  EfficiencyFormat format;
  if (!ParseEfficiencyFormat(args.format, &format))
    throw InputError("", 0, "--format must be table, csv or json, not '" + args.format + "'");
  std::string origin;
  const std::vector<Series> series =
      LoadSeries(args.paths, args.series, &origin, ParseGroupByOption(args.group_by), ParseRunSelection(args.selection));
  std::vector<SeriesEfficiencies> found;
  std::vector<std::string> without;
  for (const Series& one : series) {
    SeriesEfficiencies efficiencies{one.name, PopEfficienciesOfSeries(one)};
    if (efficiencies.runs.empty()) without.push_back(one.name);
    else found.push_back(std::move(efficiencies));
  }
  if (found.empty())
    throw InputError(args.paths.empty() ? "" : args.paths.front(), 0,
                     "no series with per-rank times (" + std::to_string(series.size()) +
                         " read): POP's factors need each rank's application and MPI time (mpiP, OTF2, CUBE4, "
                         "TAU, HPCToolkit, IPM, Caliper runtime-profile) or a Paraver trace");
  for (const std::string& name : without)  // one line each; the others are written
    std::cerr << "qnm-predict: efficiency: series " << name << ": no run with per-rank times, left out\n";
  WriteOutput(args.output, RenderPopEfficiencies(found, format));
}

}  // namespace

void AddEfficiencyCommand(CLI::App& app) {
  auto args = std::make_shared<EfficiencyArgs>();
  CLI::App* sub = app.add_subcommand(
      "efficiency",
      "POP's efficiency factors of the measured runs of each series (as BSC's modelfactors prints them): "
      "global efficiency = parallel efficiency x computation scalability, parallel efficiency = load balance x "
      "communication efficiency; speedup and runtime; from per-rank times or a Paraver trace's useful computation");
  sub->add_option("runs", args->paths,
                  "files or directories (default: the bundled series); formats: " + ReadableFormatList());
  sub->add_option("--format", args->format, "table (percent), csv or json (fractions)")->capture_default_str();
  sub->add_option("-o,--output", args->output, "write here (atomically) instead of stdout");
  sub->add_option("--series", args->series, kSeriesOptionHelp);
  AddGroupByOption(sub, &args->group_by);
  AddRunSelectionOptions(sub, &args->selection);
  sub->callback([args] {
    RefuseOutputOverInputs(args->output, args->paths);
    RunEfficiency(*args);
  });
}

}  // namespace qnm::cli
