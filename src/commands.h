#pragma once
// Each subcommand of qnm-predict lives in its own src/<name>_command.cpp and
// only wires the command line to the library. A subcommand's callback throws
// qnm::InputError (or std::exception) on failure; main() prints it as one line.
#include <CLI/CLI.hpp>
#include <limits>
#include <string>

#include "ingest/reader_table.h"
#include "models/prediction.h"
#include "pipeline/transfer_runner.h"
#include "reader/run_selection.h"
#include "reader/series_identity.h"
#include "whatif/whatif_hypothesis.h"

namespace qnm::cli {

void AddMvaCommand(CLI::App& app);       // mva_command.cpp
void AddIngestCommand(CLI::App& app);    // ingest_command.cpp
void AddPredictCommand(CLI::App& app);   // predict_command.cpp (also `validate`)
void AddPlotCommand(CLI::App& app);      // plot_command.cpp
void AddTraceCommand(CLI::App& app);     // trace_command.cpp
void AddImbalanceCommand(CLI::App& app); // imbalance_command.cpp
void AddWhatifCommand(CLI::App& app);    // whatif_command.cpp
void AddExportCommand(CLI::App& app);    // export_command.cpp
void AddReportCommand(CLI::App& app);    // report_command.cpp
void AddProfileCommand(CLI::App& app);   // profile_command.cpp
void AddEfficiencyCommand(CLI::App& app);  // efficiency_command.cpp

/// Adds `--group-by content|folder|file-prefix` (series identity,
/// reader/series_identity.h) to a command; ParseGroupByOption reads its value.
void AddGroupByOption(CLI::App* command, std::string* group_by);
GroupBy ParseGroupByOption(const std::string& text);
/// --parameter, --metric, --callpath and --where (which runs a multi-metric,
/// multi-parameter experiment holds, reader/run_selection.h) for every command
/// that reads runs; ParseRunSelection checks them (InputError naming the option).
struct RunSelectionArgs {
  std::string parameter, metric, callpath;
  std::vector<std::string> where;
  int ranks_per_node = 0, work_units = 0;  // --ranks-per-node, --work-units
  std::vector<std::string> patterns;       // --pattern FIELD=REGEX
  std::vector<std::string> pattern_files;  // --pattern-file FILE
};
void AddRunSelectionOptions(CLI::App* command, RunSelectionArgs* args);
RunSelection ParseRunSelection(const RunSelectionArgs& args);
/// How series are modelled: --configuration, --no-hold, --interval-upper-share and --interval-noise.
struct ModelChoiceArgs {
  std::string configuration;  // empty: the library's default (kShippedRuntimeConfiguration)
  bool no_hold = false;       // PredictionOptions::hold_after_unevidenced_turn = false
  double interval_upper_share = std::numeric_limits<double>::quiet_NaN();  // NaN: the library's default
  std::string interval_noise;  // empty: the library's default (ExtrapolationErrorOptions::noise)
};
/// PredictionOptions from --machine, --level, --configuration, --no-hold, --interval-upper-share and --interval-noise
/// (predict, validate, plot, report; what-if at scale with the defaults).
PredictionOptions MakePredictionOptions(const std::string& machine, double level, const ModelChoiceArgs& choice = {});
/// --configuration NAME (per-series or one of StandardRuntimeConfigurations' names), --no-hold,
/// --interval-upper-share SHARE and --interval-noise MODE.
void AddModelChoiceOptions(CLI::App* command, ModelChoiceArgs* choice);

/// --whatif HYPOTHESIS (repeatable) and --config FILE of `predict` and `report`
/// (whatif_options.cpp); ParseWhatifHypotheses reads them (InputError naming the option or file).
struct WhatifHypothesisArgs {
  std::vector<std::string> lines;
  std::string config;
  bool Given() const { return !lines.empty() || !config.empty(); }
};
void AddWhatifHypothesisOptions(CLI::App* command, WhatifHypothesisArgs* args);
std::vector<trace::Hypothesis> ParseWhatifHypotheses(const WhatifHypothesisArgs& args);
/// --target B_RUNS and --target-machine B_PROFILE (predict, validate, plot): the
/// machine to move the model to (pipeline/transfer_runner.h).
struct TargetArgs {
  std::vector<std::string> runs;
  std::string profile, series;
  int ranks_per_node = 0;  // --target-ranks-per-node (--ranks-per-node is the source's)
};
void AddTargetOptions(CLI::App* command, TargetArgs* args);
bool HasTarget(const TargetArgs& args);
/// The source's (A's) profile named by --machine (`machine`): all of it without a target; with one,
/// only when --target-machine names B's (else --machine is B's and A's comes from A's runs).
std::string SourceMachine(const std::string& machine, const TargetArgs& target);
/// B's runs and profile; --machine (`machine`) names B's profile when --target-machine is not given.
TransferTarget LoadTransferTarget(const TargetArgs& args, const std::string& machine, GroupBy group_by,
                                  const RunSelection& selection);
TransferOptions MakeTransferOptions(double level);

/// Help of `--series NAME` (pipeline/series_selection.h), the same in every command.
inline constexpr const char* kSeriesOptionHelp =
    "the series named NAME exactly (case ignored if none), else the one series whose name contains NAME; "
    "a substring of several names is refused with their list";

/// Thrown by a callback to exit with `code` after printing nothing more.
struct ExitCode {
  int code;
};

}  // namespace qnm::cli
