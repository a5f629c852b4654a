// `qnm-predict mva NETWORK.json`: solve one closed queueing network with MVA.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "mva/jmva_solutions.h"
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
  int repeat = 0;
  bool timings = false;
};

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Median and fastest time of the Solve() call over `solves` warm calls (after
/// the first, cold one), all sharing one workspace and result.
struct RepeatTiming {
  int solves = 0;
  double median_s = 0.0;
  double min_s = 0.0;
  double first_s = 0.0;  // the cold first call
};

/// A file name JMT's JMVA saves under (.jmva, or .xml).
bool IsJmvaPath(const std::string& path) {
  auto ends_with = [&](const char* suffix) {
    const std::string s = suffix;
    return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  return ends_with(".jmva") || ends_with(".xml") || ends_with(".JMVA") || ends_with(".XML");
}

void RunMva(const MvaArguments& args) {
  const auto start = Clock::now();
  const mva::Network network = mva::ReadNetworkFile(args.network_path);
  const double read_s = SecondsSince(start);
  mva::Options options;
  mva::ParseAlgorithm(args.algorithm, &options.algorithm);  // CLI11 checked the name
  options.tolerance = args.tolerance;
  options.max_lattice_points = args.max_lattice_points;
  mva::Workspace workspace;
  mva::Result result;
  std::string error;
  RepeatTiming repeat;
  auto solve_start = Clock::now();
  if (!mva::Solve(network, options, &result, &error, &workspace)) throw InputError(args.network_path, 0, error);
  repeat.first_s = SecondsSince(solve_start);
  if (args.repeat > 0) {
    std::vector<double> times;
    times.reserve(static_cast<size_t>(args.repeat));
    for (int i = 0; i < args.repeat; ++i) {
      solve_start = Clock::now();
      mva::Solve(network, options, &result, &error, &workspace);
      times.push_back(SecondsSince(solve_start));
    }
    std::sort(times.begin(), times.end());
    repeat.solves = args.repeat;
    repeat.min_s = times.front();
    repeat.median_s = times.size() % 2 ? times[times.size() / 2]
                                       : 0.5 * (times[times.size() / 2 - 1] + times[times.size() / 2]);
  }

  const auto format_start = Clock::now();
  std::string text;
  if (args.format == "jmva") {
    const std::string model = ReadFile(args.network_path);
    const size_t first = model.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || model[first] != '<')
      throw InputError(args.network_path, 0, "--format jmva needs a JMVA XML model as input");
    text = mva::JmvaWithSolutions(model, args.network_path, network, result);
  } else if (args.format == "table") {
    text = mva::ResultTable(network, result);
    if (repeat.solves > 0) {
      char line[160];
      std::snprintf(line, sizeof line, "Repeat:        %d warm solves, median %.6f s, min %.6f s (first %.6f s)\n",
                    repeat.solves, repeat.median_s, repeat.min_s, repeat.first_s);
      text += line;
    }
  } else {
    nlohmann::ordered_json json = mva::ResultToJson(network, result);
    if (repeat.solves > 0)
      json["summary"]["repeat"] = {{"solves", repeat.solves},
                                   {"median_s", repeat.median_s},
                                   {"min_s", repeat.min_s},
                                   {"first_s", repeat.first_s}};
    text = json.dump(2) + "\n";
  }
  const double format_s = SecondsSince(format_start);
  const auto write_start = Clock::now();
  WriteOutput(args.output_path, text);
  if (args.timings)
    std::fprintf(stderr, "mva timings: read+parse %.3f ms, solve %.3f ms, format %.3f ms, write %.3f ms\n",
                 read_s * 1e3, repeat.first_s * 1e3, format_s * 1e3, SecondsSince(write_start) * 1e3);
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
      "U = X_c D_kc (busy servers at the base rate); Ubusy = 1 - P(n_k = 0) at load-dependent and\n"
      "multi-server stations. JMT/JMVA's \"utilization\" of a load-dependent station is 1 - P(0),\n"
      "i.e. our Ubusy, not our U (--format jmva writes it there, labelled).\n"
      "Cost: exact single-class MVA is O(N x stations), but each load-dependent or multi-server\n"
      "station adds O(N^2) (marginal probabilities): about 7 s at N = 1e5. Multi-class exact MVA\n"
      "visits every point of the population lattice prod(N_c + 1).\n"
      "summary.solve_time_s is the time of the solve whose results are printed.");
  sub->add_option("network", args->network_path, "Network file (JSON, or JMVA XML)")->required();
  sub->add_option("--algorithm,-a", args->algorithm,
                  "exact | schweitzer | linearizer | auto (exact unless the multi-class "
                  "population lattice exceeds --max-lattice-points, then schweitzer)")
      ->check(CLI::IsMember({"auto", "exact", "schweitzer", "linearizer"}))
      ->capture_default_str();
  sub->add_option("--tolerance", args->tolerance,
                  "Approximate algorithms stop when max |dQ| < tolerance (0 < tolerance < 0.1)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            double value = 0;
            if (!CLI::detail::lexical_cast(text, value) || !(value > 0) || !(value < mva::kMaxTolerance))
              return "tolerance must be > 0 and < 0.1 (a change in queue length per iteration), not " + text;
            return "";
          },
          ""))
      ->capture_default_str();
  sub->add_option("--max-lattice-points", args->max_lattice_points,
                  "Exact multi-class MVA refuses larger population lattices prod(N_c+1)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  CLI::Option* format =
      sub->add_option("--format", args->format,
                      "json | table | jmva (the JMVA XML input with JMT's <solutions> added, for JMT users; "
                      "the default when -o names a .jmva or .xml file and the input is JMVA XML)")
          ->check(CLI::IsMember({"json", "table", "jmva"}))
          ->capture_default_str();
  sub->add_option("--output,-o", args->output_path, "Write to this file (atomically) instead of stdout");
  sub->add_option("--repeat", args->repeat,
                  "After the first solve, time N more (warm: same workspace) and report their median and "
                  "minimum (summary.repeat: solves, median_s, min_s, first_s)")
      ->check(CLI::Range(1, 1000000));
  sub->add_flag("--timings", args->timings,
                "Print the time of each phase (read+parse, first solve, format, write) on stderr");
  sub->callback([args, format] {
    RefuseOutputOverInputs(args->output_path, {args->network_path});
    MvaArguments run = *args;
    if (format->count() == 0 && IsJmvaPath(run.output_path) && IsJmvaPath(run.network_path)) run.format = "jmva";
    RunMva(run);
  });
}

}  // namespace qnm::cli
