// Laghos outputs (laghos_output.h, docs/formats/laghos-output.md).
#include "app_outputs/laghos_output.h"

#include <set>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::string_view kKinematicDofs = "Number of kinematic (position, velocity) dofs:";
constexpr std::string_view kMajorKernels = "Major kernels total time (seconds):";

// The options that define the problem (the class), in the order they are named.
constexpr const char* kProblemOptions[] = {"--mesh",       "--dimension",   "--problem",      "--refine-serial",
                                           "--refine-parallel", "--order-kinematic", "--order-thermo",
                                           "--t-final",    "--max-steps"};

// Options that change only what is written or checked, not the run.
bool OutputOnly(const std::string& option) {
  static const std::set<std::string> kOutput = {
      "--outputfilename", "--visualization", "--no-visualization", "--visualization-steps", "--visit",
      "--no-visit",       "--print",         "--no-print",         "--fom",                 "--no-fom",
      "--checks",         "--no-checks",     "--mem",              "--no-mem",              "--dev"};
  return kOutput.count(option) > 0;
}

// "CG (H1) total time: 284.22" -> the kernel's name; empty for other lines.
std::string KernelOf(std::string_view trimmed) {
  const std::size_t at = trimmed.find(" total time: ");
  if (at == std::string_view::npos || StartsWith(trimmed, "Major kernels")) return {};
  return std::string(trimmed.substr(0, at));
}

std::string LaghosRunUnfinished(const LaghosRun& run, int* line) {
  *line = run.line;
  if (run.major_kernels_line > 0) return {};
  std::string why = "Laghos run without its 'Major kernels total time': it did not finish (killed, out of time, or "
                    "the output was cut)";
  if (run.last_step > 0) why += "; its last step " + std::to_string(run.last_step);
  return why;
}

}  // namespace

bool LooksLikeLaghosOutput(std::string_view text) {
  return text.find(kKinematicDofs) != std::string_view::npos &&
         text.find("Number of specific internal energy dofs:") != std::string_view::npos;
}

std::vector<LaghosRun> ParseLaghosOutput(std::string_view text, const std::string& path) {
  std::vector<LaghosRun> runs;
  const std::vector<std::string_view> lines = SplitLines(text);
  bool in_options = false, fom_header = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    if (t == "Options used:") {
      runs.emplace_back();
      runs.back().line = n;
      in_options = true;
      continue;
    }
    if (runs.empty()) continue;
    LaghosRun& run = runs.back();
    if (in_options) {
      if (StartsWith(t, "--")) {
        const std::vector<std::string_view> w = SplitWhitespace(t);
        std::string value;
        for (std::size_t k = 1; k < w.size(); ++k) value += (k > 1 ? " " : "") + std::string(w[k]);
        run.options[std::string(w[0])] = value;
        continue;
      }
      in_options = false;
    }
    if (StartsWith(t, "Device configuration:")) {
      run.device = std::string(Trim(t.substr(21)));
    } else if (StartsWith(t, kKinematicDofs)) {
      run.kinematic_dofs = WholeNumber(t.substr(kKinematicDofs.size()), path, n, "Laghos kinematic dofs", 1, 1LL << 50);
    } else if (StartsWith(t, "step ")) {
      // "step   385,	t = 0.0001, ..."
      const std::string_view number = Trim(t.substr(5, t.find(',') == std::string_view::npos ? 0 : t.find(',') - 5));
      run.last_step = static_cast<int>(WholeNumber(number, path, n, "Laghos step", 0, 1LL << 30));
    } else if (StartsWith(t, kMajorKernels)) {
      run.major_kernels_s = NonNegativeNumber(t.substr(kMajorKernels.size()), path, n, "Laghos major kernels time");
      run.major_kernels_line = n;
    } else if (StartsWith(t, "Major kernels total rate")) {
      const std::size_t colon = t.rfind(':');
      if (colon != std::string_view::npos) run.fom = std::string(Trim(t.substr(colon + 1)));
    } else if (const std::string kernel = KernelOf(t); !kernel.empty()) {
      run.kernel_times_s[kernel] =
          NonNegativeNumber(t.substr(t.find(" total time: ") + 13), path, n, "Laghos kernel total time");
    } else if (StartsWith(t, "| Ranks ")) {
      fom_header = true;
    } else if (fom_header && StartsWith(t, "|")) {
      fom_header = false;
      const std::vector<std::string_view> cells = SplitFields(t.substr(1), '|');
      if (cells.size() < 2)
        throw InputError(path, n, "Laghos FOM table row needs its Ranks and Zones, got '" +
                                      std::string(t.substr(0, 60)) + "'");
      run.ranks = WholeCount(Trim(cells[0]), path, n, "Laghos FOM table 'Ranks'", 1);
      run.zones = WholeNumber(Trim(cells[1]), path, n, "Laghos FOM table 'Zones'", 1, 1LL << 50);
    }
  }
  if (runs.empty()) throw InputError(path, 0, "no Laghos run: no 'Options used:' line");
  return runs;
}

RunStats LaghosRunToRunStats(const LaghosRun& l, const std::string& path, int procs_from_name) {
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(l.line));
  run.app = "laghos";
  run.derivations["app"] = "Laghos's output (its kinematic and internal energy dofs lines)";
  if (l.ranks > 0) {
    run.procs = l.ranks;
    run.derivations["procs"] = "Laghos FOM table 'Ranks' (--fom)";
  } else if (procs_from_name > 0) {
    run.procs = procs_from_name;
    run.derivations["procs"] = "the file name (Laghos prints its ranks only in its --fom table)";
  } else {
    throw InputError(path, l.line,
                     "Laghos run without its process count: Laghos prints it only in the table of --fom; run with "
                     "--fom, or name the file after its ranks (laghos-np64.out)");
  }
  // The run's time: Laghos's own total, the slowest rank's CG (H1) + Forces + UpdateQuadData over
  // every time step. Set-up and the CG (L2) solves are outside it.
  run.wall_time_s = l.major_kernels_s;
  run.derivations["wall_time_s"] = "Laghos 'Major kernels total time (seconds)' (line " +
                                   std::to_string(l.major_kernels_line) + "): the time steps' timed kernels";

  // The problem: the mesh, its refinements, the orders, the problem number and where it stops.
  auto option = [&](const char* name) {
    const auto found = l.options.find(name);
    return found == l.options.end() ? std::string() : found->second;
  };
  std::vector<std::string> words;
  words.push_back(BaseName(option("--mesh")));
  if (!option("--dimension").empty()) words.push_back(option("--dimension") + "D");
  if (!option("--problem").empty()) words.push_back("problem " + option("--problem"));
  if (!option("--refine-serial").empty() || !option("--refine-parallel").empty())
    words.push_back("refined " + option("--refine-serial") + "+" + option("--refine-parallel"));
  if (!option("--order-kinematic").empty())
    words.push_back("order " + option("--order-kinematic") + "/" + option("--order-thermo"));
  if (!option("--t-final").empty()) words.push_back("t " + option("--t-final"));
  if (!option("--max-steps").empty()) words.push_back("max " + option("--max-steps") + " steps");
  run.problem_class = JoinNonEmpty(words, ", ");
  run.derivations["problem_class"] =
      "Laghos options --mesh, --dimension, --problem, --refine-serial/--refine-parallel, --order-kinematic/-thermo, "
      "--t-final, --max-steps";

  // The other options, as the program declared them: a sweep over one at a process count is
  // several series (experiment_factors.h).
  const std::string setting = kDeclaredSettingPrefix;
  for (const auto& [name, value] : l.options) {
    bool problem = false;
    for (const char* p : kProblemOptions) problem = problem || name == p;
    if (problem || OutputOnly(name)) continue;
    run.details[setting + name.substr(2)] = value.empty() ? "yes" : value;
  }
  if (!l.device.empty()) run.details[setting + "device_configuration"] = l.device;
  for (const auto& [kernel, seconds] : l.kernel_times_s)
    run.details["laghos." + DetailKey(kernel) + "_time_s"] = NumberText(seconds);
  if (l.zones > 0) run.details["laghos.zones"] = std::to_string(l.zones);
  if (l.kinematic_dofs > 0) run.details["laghos.kinematic_dofs"] = std::to_string(l.kinematic_dofs);
  // Laghos prints a line every --visualization-steps steps: the last is not always the last step.
  if (l.last_step > 0) run.details["laghos.last_printed_step"] = std::to_string(l.last_step);
  if (!l.fom.empty()) run.details["laghos.merit.major_kernels_rate"] = l.fom;
  run.Derive();
  RequirePlausibleRecord(run, path, l.major_kernels_line);
  return run;
}

bool SniffLaghosOutput(const std::string&, std::string_view text) { return LooksLikeLaghosOutput(text); }

ReaderOutput ReadLaghosOutput(const ReaderInput& input) {
  return AppOutputRuns(
      input, ParseLaghosOutput(input.text, input.path), LaghosRunUnfinished,
      [&](const LaghosRun& run) { return LaghosRunToRunStats(run, input.path, input.name.procs); },
      "Laghos runs did not finish");
}

}  // namespace qnm
