// PLACEHOLDER: replaced by the implementation of `qnm-predict ingest`.
#include <stdexcept>

#include "src/commands.h"

namespace qnm::cli {

void AddIngestCommand(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("ingest", "(not built yet)");
  sub->allow_extras();
  sub->callback([] { throw std::runtime_error("'ingest' is not built yet"); });
}

}  // namespace qnm::cli
