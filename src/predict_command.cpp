// PLACEHOLDER: replaced by the implementation of `qnm-predict predict`.
#include <stdexcept>

#include "src/commands.h"

namespace qnm::cli {

void AddPredictCommand(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("predict", "(not built yet)");
  sub->allow_extras();
  sub->callback([] { throw std::runtime_error("'predict' is not built yet"); });
}

}  // namespace qnm::cli
