// --whatif and --config for `predict` and `report` (what-if x scaling,
// whatif_scaling/): one definition, so each command adds a small hook.
#include "src/commands.h"
#include "util/input_error.h"

namespace qnm::cli {

void AddWhatifHypothesisOptions(CLI::App* command, WhatifHypothesisArgs* args) {
  command->add_option("--whatif", args->lines,
                      "predict the code also WITH this hypothesis, one line of the SILAS grammar (Hermanns "
                      "2008, Table 4.1): 'BALANCE REGION \"r\" [OPTION \"mode\" \"scaled\"]', 'SCALE REGION \"r\" "
                      "0.5', 'SCALE COMPUTATION|MPI|TRANSFER 0.8', 'CUT REGION \"r\"', 'CUT MESSAGE SIZE >= "
                      "1024'; traces are simulated, profiles re-timed (region = MPI call site, or "
                      "\"computation\"); repeatable, applied in order");
  command->add_option("--config", args->config, "what-if hypotheses from a SILAS-like file (as `whatif --config`)");
}

std::vector<trace::Hypothesis> ParseWhatifHypotheses(const WhatifHypothesisArgs& args) {
  std::vector<trace::Hypothesis> hypotheses;
  if (!args.config.empty()) hypotheses = trace::ReadHypothesisFile(args.config);
  for (const std::string& line : args.lines) {
    trace::Hypothesis h;
    if (!trace::ParseHypothesisLine(line, "--whatif", 0, &h))
      throw InputError("--whatif", 0, "'" + line + "' is no hypothesis (e.g. 'SCALE COMPUTATION 0.5')");
    hypotheses.push_back(h);
  }
  if (!args.config.empty() && hypotheses.empty()) throw InputError(args.config, 0, "no hypothesis in the file");
  return hypotheses;
}

}  // namespace qnm::cli
