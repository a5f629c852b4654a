// Kripke outputs (kripke_output.h, docs/formats/kripke-output.md).
#include "app_outputs/kripke_output.h"

#include <optional>
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

// Kripke's LLNL release number, printed under its banner in every 1.2 release.
constexpr std::string_view kCodeNumber = "LLNL-CODE-775068";

// "448 x 168 x 256  (19267584 total)" / "32 x 24 x 32 MPI tasks" -> {448, 168, 256}, or empty.
std::vector<long long> Triple(std::string_view text) {
  std::vector<long long> sizes;
  const std::vector<std::string_view> words = SplitWhitespace(text);
  for (std::size_t w = 0; w < words.size() && sizes.size() < 3; ++w) {
    if (w % 2 == 1) {
      if (words[w] != "x") return {};
      continue;
    }
    const std::optional<long long> size = ParseInteger(words[w]);
    if (!size || *size < 1) return {};
    sizes.push_back(*size);
  }
  return sizes.size() == 3 ? sizes : std::vector<long long>{};
}

std::string KripkeRunUnfinished(const KripkeRun& run, int* line) {
  *line = run.line;
  if (run.timers_line > 0) return {};
  return std::string("Kripke run without its timers: it did not finish (killed, out of time, or the output was cut)") +
         (run.solver_terminated ? "" : " before 'Solver terminated'");
}

}  // namespace

bool LooksLikeKripkeOutput(std::string_view text) {
  return text.find(kCodeNumber) != std::string_view::npos && text.find("Kripke") != std::string_view::npos;
}

std::vector<KripkeRun> ParseKripkeOutput(std::string_view text, const std::string& path) {
  std::vector<KripkeRun> runs;
  const std::vector<std::string_view> lines = SplitLines(text);
  enum class Section { kNone, kOptions, kTimers, kMerits } section = Section::kNone;
  std::string group;    // "Compilation Options", "Problem Size", "Per-Task Options", ...
  std::string version;  // the banner's, before the code number
  std::vector<std::string> timer_names;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    if (t.find("|_|") != std::string_view::npos && t.find("Version ") != std::string_view::npos) {
      version = std::string(Trim(t.substr(t.find("Version ") + 8)));
      continue;
    }
    if (t == kCodeNumber) {
      runs.emplace_back();
      runs.back().line = n;
      runs.back().version = version;
      version.clear();
      section = Section::kNone;
      timer_names.clear();
      continue;
    }
    if (runs.empty() || t.empty()) continue;
    KripkeRun& run = runs.back();
    if (t == "Compilation Options:") {
      section = Section::kOptions;
      group = "Compilation Options";
      continue;
    }
    if (t == "Input Parameters") {
      section = Section::kOptions;
      group.clear();
      continue;
    }
    if (t == "Generating Problem" || t == "Steady State Solve") {
      section = Section::kNone;
      continue;
    }
    if (t == "Solver terminated") {
      run.solver_terminated = true;
      continue;
    }
    if (StartsWith(t, "OpenMP Thread->Core mapping for ")) {
      const std::vector<std::string_view> w = SplitWhitespace(t);
      run.threads = WholeCount(w.size() > 4 ? w[4] : std::string_view(), path, n,
                               "Kripke 'OpenMP Thread->Core mapping for N threads'", 1);
      continue;
    }
    if (t == "Timers") {
      section = Section::kTimers;
      continue;
    }
    if (t == "Figures of Merit") {
      section = Section::kMerits;
      continue;
    }
    if (t == "END") {
      section = Section::kNone;
      continue;
    }
    if (StartsWith(t, "=====") || StartsWith(t, "-----")) continue;
    std::string_view key, value;
    if (section == Section::kOptions) {
      if (t.back() == ':') {
        group = std::string(Trim(t.substr(0, t.size() - 1)));
      } else if (SplitAtFirstColon(t, &key, &value)) {
        const std::string name = group + "/" + std::string(key);
        run.options[name] = std::string(value);
        run.option_lines[name] = n;
      }
    } else if (section == Section::kTimers) {
      if (StartsWith(t, "TIMER_NAMES:")) {
        timer_names.clear();
        for (std::string_view name : SplitFields(t.substr(12), ',')) timer_names.emplace_back(Trim(name));
      } else if (StartsWith(t, "TIMER_DATA:")) {
        // The same timers as the table, to six decimals instead of five.
        const std::vector<std::string_view> data = SplitFields(t.substr(11), ',');
        if (data.size() != timer_names.size())
          throw InputError(path, n,
                           "Kripke TIMER_DATA holds " + std::to_string(data.size()) + " values for " +
                               std::to_string(timer_names.size()) + " TIMER_NAMES");
        for (std::size_t k = 0; k < data.size(); ++k)
          run.timers_s[timer_names[k]] = NonNegativeNumber(data[k], path, n, "Kripke TIMER_DATA value");
        if (run.timers_line == 0) run.timers_line = n;
      } else {
        const std::vector<std::string_view> w = SplitWhitespace(t);
        if (w.size() == 3 && w[0] == "Timer") continue;  // the table's heading
        if (w.size() != 3)
          throw InputError(path, n, "Kripke timer row needs a timer, its count and seconds, got '" +
                                        std::string(t.substr(0, 60)) + "'");
        WholeNumber(w[1], path, n, "Kripke timer count", 0);
        const double seconds = NonNegativeNumber(w[2], path, n, "Kripke timer seconds");
        run.timers_s.emplace(std::string(w[0]), seconds);  // TIMER_DATA, after the table, overwrites
        if (run.timers_line == 0) run.timers_line = n;
      }
    } else if (section == Section::kMerits && SplitAtFirstColon(t, &key, &value)) {
      const std::vector<std::string_view> w = SplitWhitespace(value);
      if (!w.empty()) run.merits[std::string(key)] = std::string(w[0]);
    }
  }
  if (runs.empty()) throw InputError(path, 0, "no Kripke run: no '" + std::string(kCodeNumber) + "' line");
  return runs;
}

RunStats KripkeRunToRunStats(const KripkeRun& k, const std::string& path) {
  auto required = [&](const std::string& name) -> const std::string& {
    const auto found = k.options.find(name);
    if (found == k.options.end()) throw InputError(path, k.line, "Kripke run without its '" + name + "'");
    return found->second;
  };
  auto option = [&](const std::string& name) {
    const auto found = k.options.find(name);
    return found == k.options.end() ? std::string() : found->second;
  };
  auto line_of = [&](const std::string& name) { return k.option_lines.at(name); };
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(k.line));
  run.app = "kripke";
  run.derivations["app"] = "Kripke's code number LLNL-CODE-775068 (line " + std::to_string(k.line) + ")";

  const std::string tasks_key = "MPI Decomposition Options/Total MPI tasks";
  run.procs = WholeCount(required(tasks_key), path, line_of(tasks_key), "Kripke 'Total MPI tasks'", 1);
  run.derivations["procs"] = "Kripke 'Total MPI tasks' (its MPI Decomposition Options)";
  if (k.threads > 0) {
    run.threads_per_proc = k.threads;
    run.derivations["threads_per_proc"] = "Kripke 'OpenMP Thread->Core mapping for N threads on rank 0'";
  }

  // The run's time: rank 0's Generate (problem set-up) and Solve (every iteration; the other
  // timers are inside it) timers.
  const auto solve = k.timers_s.find("Solve");
  if (solve == k.timers_s.end()) throw InputError(path, k.timers_line, "Kripke timers without their 'Solve' timer");
  const auto generate = k.timers_s.find("Generate");
  run.wall_time_s = solve->second + (generate == k.timers_s.end() ? 0.0 : generate->second);
  run.derivations["wall_time_s"] =
      "Kripke rank 0's timers Generate + Solve (TIMER_DATA, line " + std::to_string(k.timers_line) + "ff)";

  // The problem: zones, energy groups, scattering order, quadrature and the iterations run.
  const std::string zones_key = "Problem Size/Zones";
  const std::vector<long long> zones = Triple(required(zones_key));
  if (zones.empty())
    throw InputError(path, line_of(zones_key),
                     "Kripke 'Zones' needs 'nx x ny x nz', got '" + required(zones_key).substr(0, 40) + "'");
  std::vector<std::string> words = {std::to_string(zones[0]) + "x" + std::to_string(zones[1]) + "x" +
                                    std::to_string(zones[2]) + " zones"};
  if (!option("Problem Size/Groups").empty()) words.push_back(option("Problem Size/Groups") + " groups");
  if (!option("Problem Size/Legendre Order").empty())
    words.push_back("Legendre " + option("Problem Size/Legendre Order"));
  words.push_back(option("Problem Size/Quadrature Set"));
  if (!option("Solver Options/Number iterations").empty())
    words.push_back(option("Solver Options/Number iterations") + " iterations");
  run.problem_class = JoinNonEmpty(words, ", ");
  run.derivations["problem_class"] =
      "Kripke Input Parameters (zones, groups, Legendre order, quadrature set, number of iterations)";

  // How the work is split and run: options a user sweeps, declared so that runs differing in them
  // at one process count are kept apart.
  const std::string setting = kDeclaredSettingPrefix;
  auto declare = [&](const std::string& name, const std::string& value) {
    if (!value.empty()) run.details[setting + name] = value;
  };
  declare("version", k.version);
  declare("block_solve", option("MPI Decomposition Options/Block solve method"));
  declare("dirsets", option("Per-Task Options/DirSets/Directions"));
  declare("groupsets", option("Per-Task Options/GroupSet/Groups"));
  declare("zonesets", option("Per-Task Options/Zone Sets"));
  declare("architecture", option("Per-Task Options/Architecture"));
  declare("layout", option("Per-Task Options/Data Layout"));
  declare("compiler", option("Compilation Options/Compiler"));
  if (const std::vector<long long> decomposition = Triple(option("MPI Decomposition Options/Spatial decomp"));
      !decomposition.empty())
    run.details["kripke.decomposition"] = std::to_string(decomposition[0]) + "x" + std::to_string(decomposition[1]) +
                                          "x" + std::to_string(decomposition[2]);
  for (const auto& [timer, seconds] : k.timers_s) run.details["kripke." + timer + "_time_s"] = NumberText(seconds);
  for (const auto& [name, value] : k.merits) {
    if (name == "Number of unknowns") {
      run.details["kripke.unknowns"] = value;
      continue;
    }
    run.details["kripke.merit." + DetailKey(name)] = value;  // results, not settings (experiment_factors.h)
  }
  run.Derive();
  RequirePlausibleRecord(run, path, k.timers_line);
  return run;
}

bool SniffKripkeOutput(const std::string&, std::string_view text) { return LooksLikeKripkeOutput(text); }

ReaderOutput ReadKripkeOutput(const ReaderInput& input) {
  return AppOutputRuns(
      input, ParseKripkeOutput(input.text, input.path), KripkeRunUnfinished,
      [&](const KripkeRun& run) { return KripkeRunToRunStats(run, input.path); }, "Kripke runs did not finish");
}

}  // namespace qnm
