// PLACEHOLDER: replaced by the implementation of `qnm-predict plot`.
#include <stdexcept>

#include "src/commands.h"

namespace qnm::cli {

void AddPlotCommand(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("plot", "(not built yet)");
  sub->allow_extras();
  sub->callback([] { throw std::runtime_error("'plot' is not built yet"); });
}

}  // namespace qnm::cli
