// `qnm-predict mva NETWORK.json`: solve one closed queueing network with MVA.
#include <iostream>
#include <memory>
#include <string>

#include "mva/network_json.h"
#include "mva/result_report.h"
#include "mva/solver.h"
#include "src/commands.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::cli {
namespace {

struct MvaArguments {
  std::string network_path;
  std::string algorithm = "auto";
  double tolerance = mva::Options().tolerance;
  double max_lattice_points = mva::Options().max_lattice_points;
  std::string format = "json";
  std::string output_path;
};

void RunMva(const MvaArguments& args) {
  const mva::Network network = mva::ReadNetworkFile(args.network_path);
  mva::Options options;
  mva::ParseAlgorithm(args.algorithm, &options.algorithm);  // CLI11 checked the name
  options.tolerance = args.tolerance;
  options.max_lattice_points = args.max_lattice_points;
  mva::Result result;
  std::string error;
  if (!mva::Solve(network, options, &result, &error)) throw InputError(args.network_path, 0, error);
  const std::string text = args.format == "table" ? mva::ResultTable(network, result)
                                                  : mva::ResultToJson(network, result).dump(2) + "\n";
  WriteOutput(args.output_path, text);
}

}  // namespace

void AddMvaCommand(CLI::App& app) {
  auto args = std::make_shared<MvaArguments>();
  CLI::App* sub = app.add_subcommand(
      "mva",
      "Solve a closed queueing network with Mean Value Analysis.\n"
      "NETWORK.json holds the `model` object of the mva-vector schema (classes with population\n"
      "and think_time; stations of type queue | delay | load_dependent (rate_multipliers) |\n"
      "multi_server (servers), demands per class, optional count for replicated stations),\n"
      "or a whole vector file; or a JMT JMVA XML model. Prints X, R, Q, Rk, U, Ubusy.\n"
      "Cost of exact MVA: O(N x stations) single-class; a load-dependent or multi-server\n"
      "station makes it O(N^2) (N = 1e5 takes seconds); multi-class grows with the\n"
      "population lattice prod(N_c + 1) (see --max-lattice-points).");
  sub->add_option("network", args->network_path, "Network file (JSON, or JMVA XML)")->required();
  sub->add_option("--algorithm,-a", args->algorithm,
                  "exact | schweitzer | linearizer | auto (exact unless the multi-class "
                  "population lattice exceeds --max-lattice-points, then schweitzer)")
      ->check(CLI::IsMember({"auto", "exact", "schweitzer", "linearizer"}))
      ->capture_default_str();
  sub->add_option("--tolerance", args->tolerance,
                  "Approximate algorithms stop when max |dQ| < tolerance")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--max-lattice-points", args->max_lattice_points,
                  "Exact multi-class MVA refuses larger population lattices prod(N_c+1)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  sub->add_option("--format", args->format, "json | table")
      ->check(CLI::IsMember({"json", "table"}))
      ->capture_default_str();
  sub->add_option("--output,-o", args->output_path, "Write to this file (atomically) instead of stdout");
  sub->callback([args] {
    RefuseOutputOverInputs(args->output_path, {args->network_path});
    RunMva(*args);
  });
}

}  // namespace qnm::cli
