// PLACEHOLDER: replaced by the implementation of `qnm-predict trace`.
#include <stdexcept>

#include "src/commands.h"

namespace qnm::cli {

void AddTraceCommand(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("trace", "(not built yet)");
  sub->allow_extras();
  sub->callback([] { throw std::runtime_error("'trace' is not built yet"); });
}

}  // namespace qnm::cli
