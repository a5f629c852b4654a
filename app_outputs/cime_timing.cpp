// CIME timing profiles (cime_timing.h, docs/formats/cime-timing.md).
#include "app_outputs/cime_timing.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::string_view kSection = "TIMING PROFILE ---";

// "Run Time    " -> "run_time", "stop option" -> "stop_option".
std::string Key(std::string_view text) {
  std::string key;
  for (char c : Trim(text)) key += c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

// "(1" or "(1)" or "(1     )": the stride of a layout row.
int Stride(const std::vector<std::string_view>& w, const std::string& path, int line) {
  for (std::string_view word : w)
    if (!word.empty() && word.front() == '(') {
      std::string_view digits = word.substr(1);
      if (!digits.empty() && digits.back() == ')') digits.remove_suffix(1);
      return WholeCount(digits, path, line, "CIME layout stride", 1);
    }
  return 1;
}

// "cpl = cpl  3456  0  1152  x 3  1  (1 )" (CIME 5+) or "cpl = cpl  28  0  28  x 1  (1 )" (CESM 1).
CimeComponent ComponentRow(const std::vector<std::string_view>& w, const std::string& path, int line) {
  if (w.size() < 8 || w[1] != "=" || w[6] != "x")
    throw InputError(path, line,
                     "CIME timing: a layout row needs 'comp = model comp_pes root_pe tasks x threads', got '" +
                         std::string(w.empty() ? "" : w[0]) + " ...'");
  CimeComponent c;
  c.line = line;
  c.name = std::string(w[0]);
  c.model = std::string(w[2]);
  c.root_pe = static_cast<int>(WholeNumber(w[4], path, line, "CIME layout root_pe", 0, 1 << 30));
  c.tasks = WholeCount(w[5], path, line, "CIME layout tasks", 1);
  c.threads = WholeCount(w[7], path, line, "CIME layout threads", 1);
  c.stride = Stride(w, path, line);
  return c;
}

}  // namespace

bool LooksLikeCimeTiming(std::string_view text) {
  const std::size_t section = text.find(kSection);
  return section != std::string_view::npos && text.find("Overall Metrics", section) != std::string_view::npos &&
         text.find("component", section) != std::string_view::npos;
}

CimeTimingProfile ParseCimeTiming(std::string_view text, const std::string& path) {
  CimeTimingProfile p;
  const std::vector<std::string_view> lines = SplitLines(text);
  bool in_section = false, in_layout = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    if (t.find(kSection) != std::string_view::npos) {
      if (in_section || !p.header.empty()) break;  // the next section (a second profile is not this run's)
      in_section = true;
      std::string_view header = t;
      while (!header.empty() && header.front() == '-') header.remove_prefix(1);
      while (!header.empty() && (header.back() == '-' || header.back() == ' ')) header.remove_suffix(1);
      p.header = std::string(Trim(header));
      continue;
    }
    if (!in_section) continue;
    if (t.find("DRIVER TIMING FLOWCHART") != std::string_view::npos) break;
    if (StartsWith(t, "component") && t.find("threads") != std::string_view::npos) {
      in_layout = true;
      continue;
    }
    if (in_layout) {
      if (StartsWith(t, "---")) continue;
      if (t.empty()) {
        in_layout = p.components.empty();  // blank lines before the first row, none within
        continue;
      }
      const std::vector<std::string_view> w = SplitWhitespace(t);
      if (w.size() >= 2 && w[1] == "=") {
        p.components.push_back(ComponentRow(w, path, n));
        continue;
      }
      in_layout = false;
    }
    const std::size_t colon = t.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string key = Key(t.substr(0, colon));
    const std::string_view value = Trim(t.substr(colon + 1));
    const std::vector<std::string_view> words = SplitWhitespace(value);
    const std::string_view first = words.empty() ? value : words[0];  // "cesm1_2_2  (best guess)", "36 "
    if (key == "case") {
      p.case_name = std::string(value);
    } else if (key == "machine") {
      p.machine = std::string(value);
    } else if (key == "grid") {
      p.grid = std::string(value);
    } else if (key == "compset") {
      p.compset = std::string(value);
    } else if (key == "ccsm_tag") {
      p.tag = std::string(first);
    } else if (key == "stop_option") {
      // "ndays, stop_n = 5"
      const std::size_t comma = value.find(',');
      p.stop_option = std::string(Trim(value.substr(0, comma)));
      if (comma != std::string_view::npos) {
        const std::size_t equals = value.find('=', comma);
        if (equals != std::string_view::npos) p.stop_n = std::string(Trim(value.substr(equals + 1)));
      }
    } else if (key == "run_length") {
      p.run_length = std::string(value);
    } else if (key == "total_pes_active") {
      p.total_pes_active = WholeNumber(first, path, n, "CIME total pes active", 1, 1LL << 40);
    } else if (key == "mpi_tasks_per_node") {
      p.tasks_per_node = WholeCount(first, path, n, "CIME mpi tasks per node", 1);
    } else if (key == "pes_per_node") {
      p.pes_per_node = WholeCount(first, path, n, "CIME pes per node", 1);
    } else if (key == "pe_count_for_cost_estimate") {
      p.pe_cost_count = WholeNumber(first, path, n, "CIME pe count for cost estimate", 1, 1LL << 40);
    } else if (key == "model_cost") {
      p.model_cost = NonNegativeNumber(first, path, n, "CIME Model Cost");
    } else if (key == "model_throughput") {
      p.throughput_sypd = NonNegativeNumber(first, path, n, "CIME Model Throughput");
    } else if (key == "init_time") {
      p.init_s = NonNegativeNumber(first, path, n, "CIME Init Time");
    } else if (key == "run_time") {
      p.run_s = NonNegativeNumber(first, path, n, "CIME Run Time");
      p.run_line = n;
    } else if (key == "final_time") {
      p.final_s = NonNegativeNumber(first, path, n, "CIME Final Time");
    }
  }
  if (p.header.empty()) throw InputError(path, 0, "no CIME timing profile ('---- TIMING PROFILE ----') in it");
  if (p.components.empty())
    throw InputError(path, 0,
                     "CIME timing profile without its layout table ('component comp_pes root_pe tasks x "
                     "threads'): the MPI tasks are not known");
  if (p.run_line == 0)
    throw InputError(path, 0,
                     "CIME timing profile without 'Run Time' in its overall metrics: the run did not "
                     "finish (CIME writes the profile after the run loop)");
  return p;
}

RunStats CimeTimingToRunStats(const CimeTimingProfile& p, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  // The model: the file's own prefix (`cesm_timing.<case>.<lid>`, `e3sm_timing.*`, `ccsm_timing.*`).
  const std::string file = std::filesystem::path(path).filename().string();
  const std::size_t timing = file.find("_timing");
  run.app = timing != std::string::npos && timing > 0 ? ToLower(file.substr(0, timing)) : std::string("cime");
  run.derivations["app"] = timing != std::string::npos && timing > 0
                               ? "CIME timing file name (<model>_timing.<case>.<lid>)"
                               : "CIME timing profile (the file's name names no model)";
  // The MPI tasks: the highest task any component uses, plus one.
  long long tasks = 0;
  int threads = 1;
  std::string layout;
  for (const CimeComponent& c : p.components) {
    tasks = std::max(tasks, static_cast<long long>(c.root_pe) + static_cast<long long>(c.tasks - 1) * c.stride + 1);
    threads = std::max(threads, c.threads);
    layout += (layout.empty() ? "" : " ") + c.name + "=" + std::to_string(c.tasks) + "x" + std::to_string(c.threads) +
              (c.root_pe > 0 ? "@" + std::to_string(c.root_pe) : "");
  }
  if (tasks > (1LL << 30)) throw InputError(path, p.components.front().line, "CIME layout of more than 2^30 MPI tasks");
  run.procs = static_cast<int>(tasks);
  run.derivations["procs"] = "CIME layout: the highest task a component uses (root_pe + (tasks - 1) x stride) + 1";
  run.threads_per_proc = threads;
  run.derivations["threads_per_proc"] = "CIME layout: the most threads a component's tasks run";
  run.details["cime_layout"] = layout;
  run.details["cime_total_pes_active"] = std::to_string(p.total_pes_active);
  if (p.tasks_per_node > 0) {
    run.SetRanksPerNode(p.tasks_per_node, "CIME 'mpi tasks per node'");
  } else if (p.pes_per_node > 0 && threads == 1) {
    run.SetRanksPerNode(p.pes_per_node, "CIME 'pes per node' (one thread per task)");
  }
  run.wall_time_s = p.run_s;
  run.derivations["wall_time_s"] = "CIME 'Run Time' (line " + std::to_string(p.run_line) +
                                   "): the run loop, without initialisation and finalisation";
  if (p.init_s >= 0) run.details["cime_init_time_s"] = NumberText(p.init_s);
  if (p.final_s >= 0) run.details["cime_final_time_s"] = NumberText(p.final_s);
  if (p.throughput_sypd >= 0) run.details["cime_throughput_sypd"] = NumberText(p.throughput_sypd);
  if (p.model_cost >= 0) run.details["cime_cost_pe_hours_per_year"] = NumberText(p.model_cost);
  // The problem: what ran (compset), on which grid, for how long.
  std::string problem = p.compset;
  for (const std::string& part : {p.grid, p.stop_option.empty() ? std::string() : p.stop_option + "=" + p.stop_n})
    if (!part.empty()) problem += (problem.empty() ? "" : " ") + part;
  run.problem_class = problem;
  run.derivations["problem_class"] = "CIME compset, grid and run length (stop_option, stop_n)";
  if (!p.machine.empty()) {
    run.machine = p.machine;
    run.derivations["machine"] = "CIME 'Machine'";
  }
  if (!p.case_name.empty()) run.details["cime_case"] = p.case_name;
  if (!p.tag.empty()) run.details["cime_tag"] = p.tag;
  run.Derive();
  RequirePlausibleRecord(run, path, p.run_line);
  return run;
}

bool SniffCimeTiming(const std::string&, std::string_view text) { return LooksLikeCimeTiming(text); }

ReaderOutput ReadCimeTiming(const ReaderInput& input) {
  const CimeTimingProfile profile = ParseCimeTiming(input.text, input.path);
  RunStats run = CimeTimingToRunStats(profile, input.path);
  // Where the total of pes disagrees with the layout, say so: CIME 5+ multiplies the threads in twice.
  ReaderOutput output;
  const long long pes = static_cast<long long>(run.procs) * run.threads_per_proc;
  const long long total = profile.total_pes_active;
  if (total > 0 && total != pes)
    output.notes.push_back(input.path + ": 'total pes active' " + std::to_string(total) + " is not the layout's " +
                           std::to_string(run.procs) + " MPI tasks x " + std::to_string(run.threads_per_proc) +
                           " threads; the layout is read");
  ApplyFileName(input.name, &run);
  output.runs.push_back(std::move(run));
  return output;
}

}  // namespace qnm
