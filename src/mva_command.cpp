// PLACEHOLDER: replaced by the implementation of `qnm-predict mva`.
#include <stdexcept>

#include "src/commands.h"

namespace qnm::cli {

void AddMvaCommand(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("mva", "(not built yet)");
  sub->allow_extras();
  sub->callback([] { throw std::runtime_error("'mva' is not built yet"); });
}

}  // namespace qnm::cli
