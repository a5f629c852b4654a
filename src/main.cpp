// qnm-predict: one binary, many subcommands (ninja -t style). With no
// subcommand, `predict` runs: `qnm-predict --procs 1..1024`.
#include <algorithm>
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "src/commands.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

// An empty value is never meant: `--scale-computation "$F"` with F unset
// would read as 0 ("remove all computation"), `--cube ''` as "no cube".
// Checked once here for every option and positional of every command that
// takes a value, so a new option cannot forget it; numeric options also take
// decimal numbers only (issue 19).
void RefuseEmptyValues(CLI::App* app) {
  for (CLI::Option* option : app->get_options()) {
    if (option->get_type_size_max() == 0) continue;  // a flag
    // Numbers are decimal: CLI11 would read "0x10" as 16 and "0b1" as 1.
    const std::string type = option->get_type_name();
    auto starts = [&](const char* prefix) { return type.rfind(prefix, 0) == 0; };  // "INT:POSITIVE"
    const bool number = starts("FLOAT") || starts("INT") || starts("UINT") || starts("NUMBER");
    option->check(CLI::Validator(
        [number](std::string& value) -> std::string {
          if (value.empty()) return "an empty value is not accepted";
          if (number && value.find_first_not_of("0123456789+-.eE") != std::string::npos &&
              value != "nan" && value != "inf" && value != "-inf")  // refused by the options' own ranges
            return "'" + value + "' is not a decimal number";
          return std::string();
        },
        ""));
  }
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) RefuseEmptyValues(sub);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "qnm-predict: performance prediction for MPI applications with queueing-network "
      "models (Mean Value Analysis)\n"
      "Ingests mpiP reports, NPB outputs, OTF2 traces, CUBE4 profiles, Extra-P experiments, statistics tables and other "
      "tools' profiles and traces (TAU, HPCToolkit, IPM, Caliper, Paraver, ...: `ingest --help` lists them); predicts strong-scaling run "
      "times; validates and plots.",
      "qnm-predict"};
  app.set_version_flag("--version", "qnm-predict 0.1.0");
  app.require_subcommand(0, 1);
  // Every error is one line (CLI11's default adds "Run with --help ..." on a second).
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "qnm-predict: " + std::string(e.what()) + " (see --help)\n";
  });
  qnm::cli::AddMvaCommand(app);
  qnm::cli::AddIngestCommand(app);
  qnm::cli::AddPredictCommand(app);
  qnm::cli::AddPlotCommand(app);
  qnm::cli::AddTraceCommand(app);
  qnm::cli::AddImbalanceCommand(app);
  qnm::cli::AddWhatifCommand(app);
  qnm::cli::AddExportCommand(app);
  qnm::cli::AddEfficiencyCommand(app);
  qnm::cli::AddReportCommand(app);
  qnm::cli::AddProfileCommand(app);
  RefuseEmptyValues(&app);

  // `predict` is the default subcommand: insert it when the first argument is
  // neither a subcommand nor a top-level flag.
  std::vector<std::string> args(argv + 1, argv + argc);
  bool top_level_flag = !args.empty() && (args[0] == "-h" || args[0] == "--help" ||
                                          args[0] == "--version" || args[0] == "--help-all");
  bool has_subcommand = false;
  if (!args.empty())
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
      if (sub->check_name(args[0])) has_subcommand = true;
  if (!top_level_flag && !has_subcommand) args.insert(args.begin(), "predict");
  std::reverse(args.begin(), args.end());  // CLI11 parses a reversed vector

  try {
    app.parse(args);
    qnm::FlushStandardOutput();  // a failed write to stdout is a failure (`> /dev/full`)
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const qnm::cli::ExitCode& e) {
    return e.code;
  } catch (const qnm::InputError& e) {
    std::cerr << "qnm-predict: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "qnm-predict: out of memory (the inputs need more than the address space allowed)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "qnm-predict: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
