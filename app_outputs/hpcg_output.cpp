// HPCG reports (hpcg_output.h, docs/formats/hpcg-output.md).
#include "app_outputs/hpcg_output.h"

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "reader/host_names.h"
#include "reader/run_stats_check.h"
#include "reader/series_identity.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kMachineSummary = "Machine Summary";

// "__________ Final Summary __________", "########## Performance Summary (times in sec) ##########", " Final
// Summary " -> the name between the rules.
std::string SectionName(std::string_view text) {
  const std::size_t first = text.find_first_not_of("_# ");
  if (first == std::string_view::npos) return {};
  const std::size_t last = text.find_last_not_of("_# ");
  return std::string(text.substr(first, last - first + 1));
}

// The 3.1 layout: "Section::Sub::Key=value" -> "Section::Sub::Key" and the value; false for a line that is no
// such line (a blank, a job's next output), which ends the report.
bool KeyValueLine(std::string_view line, std::string* key, std::string* value) {
  const std::size_t equals = line.find('=');
  if (equals == std::string_view::npos) return false;
  std::vector<std::string> parts;
  std::string_view rest = line.substr(0, equals);
  for (std::size_t at; (at = rest.find("::")) != std::string_view::npos; rest = rest.substr(at + 2))
    parts.push_back(std::string(Trim(rest.substr(0, at))));
  parts.push_back(std::string(Trim(rest)));
  if (parts.front().empty() || parts.back().empty()) return false;  // "====== file End ======"
  parts.front() = SectionName(parts.front());
  key->clear();
  for (const std::string& part : parts) *key += (key->empty() ? "" : "::") + part;
  *value = std::string(Trim(line.substr(equals + 1)));
  return true;
}

// The report's name and version from the lines before its "Machine Summary": "HPCG-Benchmark" / "version=3.1"
// (3.1), "HPCG-Benchmark version: 3.0" (3.0's YAML), "n104-4p-1t version: V3.0".
void NameAndVersion(const std::vector<std::string_view>& lines, std::size_t summary, HpcgReport* report) {
  for (std::size_t back = 1; back <= 3 && back <= summary; ++back) {
    const std::string_view t = Trim(lines[summary - back]);
    if (StartsWith(t, "version=")) {
      report->version = std::string(Trim(t.substr(8)));
      if (summary - back >= 1) report->name = std::string(Trim(lines[summary - back - 1]));
      return;
    }
    if (const std::size_t at = t.find(" version: "); at != std::string_view::npos) {
      report->name = std::string(Trim(t.substr(0, at)));
      report->version = std::string(Trim(t.substr(at + 10)));
      return;
    }
  }
}

bool IsSummaryLine(std::string_view t, bool* yaml) {
  if (!StartsWith(t, kMachineSummary)) return false;
  const std::string_view rest = Trim(t.substr(kMachineSummary.size()));
  if (rest == "=") return (*yaml = false, true);
  if (rest == ":") return (*yaml = true, true);
  return false;
}

// Reads one report from its "Machine Summary" line (index `start`); returns the index of the first line after
// it, which the report keeps with its text (HpcgReport::end_line, end_text).
std::size_t ParseReport(const std::vector<std::string_view>& lines, std::size_t start, bool yaml,
                        const std::string& path, HpcgReport* report) {
  report->line = static_cast<int>(start + 1);
  NameAndVersion(lines, start, report);
  std::string section;
  std::vector<std::pair<std::size_t, std::string>> open;  // YAML subsections: indent and name
  std::size_t i = start;
  for (; i < lines.size(); ++i) {
    const std::string_view raw = lines[i];
    const std::string_view t = Trim(raw);
    const int n = static_cast<int>(i + 1);
    std::string key, value;
    if (!yaml) {
      if (!KeyValueLine(t, &key, &value)) break;
      if (key.find("::") == std::string::npos) continue;  // a section's own line
      report->Add(key, std::move(value), n);
      continue;
    }
    if (t.empty()) break;
    const std::size_t indent = raw.find_first_not_of(" \t");
    const std::size_t separator = t.find(": ");
    if (indent == 0) {
      // A section ("Machine Summary: ", "__________ Final Summary __________: ").
      if (t.back() != ':') break;
      section = SectionName(t.substr(0, t.size() - 1));
      open.clear();
      continue;
    }
    while (!open.empty() && open.back().first >= indent) open.pop_back();
    if (separator == std::string_view::npos) {
      if (t.back() != ':') break;
      open.emplace_back(indent, std::string(Trim(t.substr(0, t.size() - 1))));  // "Coarse Grids: "
      continue;
    }
    if (section.empty())
      throw InputError(path, n, "HPCG report key outside a section: '" + std::string(t.substr(0, 60)) + "'");
    key = section;
    for (const auto& [depth, name] : open) key += "::" + name;
    key += "::" + std::string(Trim(t.substr(0, separator)));
    report->Add(key, std::string(Trim(t.substr(separator + 2))), n);
  }
  report->end_line = static_cast<int>(i + 1);
  report->end_text = i < lines.size() ? std::string(Trim(lines[i]).substr(0, 60)) : std::string();
  return i;
}

std::string HpcgReportUnfinished(const HpcgReport& report, int* line) {
  *line = report.line;
  if (report.Find("Benchmark Time Summary::Total") != nullptr) return {};
  if (report.end_text.empty()) return "HPCG report without its 'Benchmark Time Summary::Total': the report is cut";
  *line = report.end_line;
  return "HPCG report broken off by a line that is none of its keys ('" + report.end_text +
         "') before its 'Benchmark Time Summary::Total'";
  return {};
}

}  // namespace

bool LooksLikeHpcgReport(std::string_view text) {
  for (const char* summary : {"Machine Summary=", "Machine Summary:"}) {
    const std::size_t at = text.find(summary);
    if (at == std::string_view::npos) continue;
    const std::size_t next = text.find('\n', at);
    if (next == std::string_view::npos) continue;
    const std::string_view after = Trim(text.substr(next + 1, 64));
    if (StartsWith(after, "Machine Summary::Distributed Processes=") || StartsWith(after, "Distributed Processes:"))
      return true;
  }
  return false;
}

bool LooksLikeHpcgLog(std::string_view text) {
  return text.find("] Number of Iterations [") != std::string_view::npos &&
         text.find("Departure from symmetry (scaled) for SpMV") != std::string_view::npos && !LooksLikeHpcgReport(text);
}

std::vector<HpcgReport> ParseHpcgOutput(std::string_view text, const std::string& path) {
  const std::vector<std::string_view> lines = SplitLines(text);
  std::vector<HpcgReport> reports;
  for (std::size_t i = 0; i < lines.size();) {
    bool yaml = false;
    if (!IsSummaryLine(Trim(lines[i]), &yaml)) {
      ++i;
      continue;
    }
    reports.emplace_back();
    i = std::max(i + 1, ParseReport(lines, i, yaml, path, &reports.back()));
  }
  if (reports.empty()) throw InputError(path, 0, "no HPCG report: no 'Machine Summary' section");
  return reports;
}

RunStats HpcgReportToRunStats(const HpcgReport& report, const std::string& path) {
  // A value the record takes: refused when the report gives its key twice with two values.
  auto used = [&](const std::string& key) { return report.Taken(key, path, "HPCG report"); };
  auto required = [&](const std::string& key) -> const KeyedValue& {
    return report.Require(key, path, report.line, "HPCG report");
  };
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(report.line));
  run.app = "hpcg";
  run.derivations["app"] = "HPCG report ('Machine Summary' at line " + std::to_string(report.line) + ")";

  const KeyedValue& procs = required("Machine Summary::Distributed Processes");
  run.procs = WholeCount(procs.text, path, procs.line, "HPCG 'Distributed Processes'", 1);
  run.derivations["procs"] = "HPCG 'Machine Summary::Distributed Processes'";
  if (const KeyedValue* threads = used("Machine Summary::Threads per processes")) {
    run.threads_per_proc = WholeCount(threads->text, path, threads->line, "HPCG 'Threads per processes'", 1);
    run.derivations["threads_per_proc"] = "HPCG 'Machine Summary::Threads per processes'";
  }

  // The problem: the global grid, whatever the process grid (a strong-scaling series keeps it; a weak-scaling
  // campaign, which keeps the local grid, makes one series per run).
  std::string global, local, grid;
  for (const char* axis : {"x", "y", "z"}) {
    const KeyedValue& size = required(std::string("Global Problem Dimensions::Global n") + axis);
    global += (global.empty() ? "" : "x") +
              std::to_string(WholeNumber(size.text, path, size.line, "HPCG global dimension", 1, 1LL << 31));
    if (const KeyedValue* part = used(std::string("Local Domain Dimensions::n") + axis))
      local += (local.empty() ? "" : "x") + part->text;
    if (const KeyedValue* count = used(std::string("Processor Dimensions::np") + axis))
      grid += (grid.empty() ? "" : "x") + count->text;
  }
  run.problem_class = global;
  run.derivations["problem_class"] = "HPCG 'Global Problem Dimensions' nx x ny x nz";

  // The time: Total is every timed CG set's; their number is the run time asked for (--rt, 1800 s for an
  // official run) over one set's time, so one set is the fixed work a series compares.
  const KeyedValue& total = required("Benchmark Time Summary::Total");
  const double total_s = NonNegativeNumber(total.text, path, total.line, "HPCG 'Benchmark Time Summary::Total'");
  const KeyedValue* all_iterations = used("Iteration Count Information::Total number of optimized iterations");
  const KeyedValue* per_set = used("Iteration Count Information::Optimized CG iterations per set");
  if ((all_iterations == nullptr) != (per_set == nullptr))
    throw InputError(path, (all_iterations != nullptr ? all_iterations : per_set)->line,
                     "HPCG report gives one of 'Total number of optimized iterations' and 'Optimized CG iterations per "
                     "set' without the other: the number of timed sets is unknown");
  long long sets = 1;
  if (all_iterations != nullptr) {
    const long long all =
        WholeNumber(all_iterations->text, path, all_iterations->line, "HPCG 'Total number of optimized iterations'", 1);
    const long long each = WholeNumber(per_set->text, path, per_set->line, "HPCG 'Optimized CG iterations per set'", 1);
    if (all % each != 0)
      throw InputError(path, all_iterations->line,
                       "HPCG 'Total number of optimized iterations' (" + std::to_string(all) +
                           ") is not a whole number of sets of " + std::to_string(each));
    sets = all / each;
    run.iterations = static_cast<int>(std::min<long long>(each, 1 << 30));
    run.derivations["iterations"] = "HPCG 'Optimized CG iterations per set' (of one timed set)";
    run.details["hpcg.cg_sets"] = std::to_string(sets);
  }
  run.wall_time_s = total_s / static_cast<double>(sets);
  run.derivations["wall_time_s"] =
      all_iterations == nullptr
          ? "HPCG 'Benchmark Time Summary::Total' (line " + std::to_string(total.line) +
                "; the report gives no iterations: every timed CG set's time)"
          : "HPCG 'Benchmark Time Summary::Total' (line " + std::to_string(total.line) + ") / its " +
                std::to_string(sets) +
                " timed CG set(s) (Total number of optimized iterations / Optimized CG iterations per set): one set, "
                "the same work at any P (Total follows the run time asked for)";
  run.details["hpcg.total_time_s"] = total.text;

  // HPCG's verdict: "HPCG result is VALID with a GFLOP/s rating of=..." or "HPCG result is=INVALID.".
  for (const auto& [key, value] : report.values) {
    if (!StartsWith(key, "Final Summary::HPCG result is")) continue;
    used(key);
    const bool invalid = key.find("INVALID") != std::string::npos || value.text.find("INVALID") != std::string::npos;
    run.verification = invalid ? "UNSUCCESSFUL" : "SUCCESSFUL";
    run.derivations["verification"] =
        "HPCG 'Final Summary::" + key.substr(15) + "' (line " + std::to_string(value.line) + ")";
    if (!invalid && key.find("rating of") != std::string::npos) run.details["hpcg.gflops"] = value.text;
    break;
  }

  // What the report says of its build and its nodes.
  if (!report.version.empty()) run.details[std::string(kDeclaredSettingPrefix) + "version"] = report.version;
  if (!local.empty()) run.details["hpcg.local_domain"] = local;
  if (!grid.empty()) run.details["hpcg.process_grid"] = grid;
  for (const auto& [key, detail] : std::vector<std::pair<std::string, std::string>>{
           {"Setup Information::Setup Time", "hpcg.setup_time_s"},
           {"Benchmark Time Summary::Optimization phase", "hpcg.optimization_time_s"},
           {"Benchmark Time Summary::DDOT", "hpcg.ddot_time_s"},
           {"Benchmark Time Summary::WAXPBY", "hpcg.waxpby_time_s"},
           {"Benchmark Time Summary::SpMV", "hpcg.spmv_time_s"},
           {"Benchmark Time Summary::MG", "hpcg.mg_time_s"},
           {"DDOT Timing Variations::Min DDOT MPI_Allreduce time", "hpcg.ddot_allreduce_min_s"},
           {"DDOT Timing Variations::Avg DDOT MPI_Allreduce time", "hpcg.ddot_allreduce_mean_s"},
           {"DDOT Timing Variations::Max DDOT MPI_Allreduce time", "hpcg.ddot_allreduce_max_s"},
           {"Iteration Count Information::Reference CG iterations per set", "hpcg.reference_iterations_per_set"}})
    if (const KeyedValue* value = used(key)) run.details[detail] = value->text;
  // The Arm fork names a run "<host>-<N>ranks-<T>threads" and keeps its job's SLURM variables.
  static const std::regex kArmName(R"(^(.+)-([0-9]+)ranks-([0-9]+)threads$)");
  std::smatch named;
  // Outside a Slurm job the fork prints each variable's name as its value ("SLURM_JOB_NUM_NODES=SLURM_JOB_NUM_NODES").
  auto slurm = [&](const std::string& variable) -> const KeyedValue* {
    const KeyedValue* value = used("SLURM VARIABLES::" + variable);
    return value == nullptr || value->text.empty() || value->text == variable ? nullptr : value;
  };
  if (const KeyedValue* list = slurm("SLURM_JOB_NODELIST"))
    ApplyHosts(ExpandNodeList(list->text), "HPCG report's SLURM VARIABLES::SLURM_JOB_NODELIST", &run);
  else if (std::regex_match(report.name, named, kArmName) && named[2].str() == std::to_string(run.procs))
    ApplyHosts({named[1].str()}, "HPCG report's first line (the Arm fork's '<host>-<N>ranks-<T>threads')", &run);
  if (const KeyedValue* nodes = slurm("SLURM_JOB_NUM_NODES"))
    run.SetNodes(WholeCount(nodes->text, path, nodes->line, "HPCG 'SLURM_JOB_NUM_NODES'", 1),
                 "HPCG report's SLURM VARIABLES::SLURM_JOB_NUM_NODES (the job's allocation)");

  // The same report printed into a job's output and left in its file: one measurement.
  // Two runs of one problem can print the same Total (the Arm fork's, 297.985 s at 37 sets and at 66): the
  // name line, the iterations, the set-up time and the rating tell them apart.
  std::string origin = std::string(kMeasurementOrigin) + "hpcg:" + report.name + ":" + report.version + ":" + global +
                       ":" + std::to_string(run.procs) + "x" + std::to_string(run.threads_per_proc) + ":" + total.text;
  for (const char* key : {"Iteration Count Information::Total number of optimized iterations",
                          "Setup Information::Setup Time", "GFLOP/s Summary::Raw Total"})
    if (const KeyedValue* value = report.Find(key)) origin += ":" + value->text;
  run.origin = origin;
  run.Derive();
  RequirePlausibleRecord(run, path, total.line);
  return run;
}

// The log beside a report is taken too, to say where the run's figures are (miniFE does the same with
// its standard output).
bool SniffHpcgOutput(const std::string&, std::string_view text) {
  return LooksLikeHpcgReport(text) || LooksLikeHpcgLog(text);
}

ReaderOutput ReadHpcgOutput(const ReaderInput& input) {
  if (!LooksLikeHpcgReport(input.text))
    throw InputError(input.path, 0,
                     "HPCG's log of a run (its validation residuals): the run's figures are in the report it wrote "
                     "beside it, HPCG-Benchmark_<version>_<date>.txt");
  // The version line names the build as well as the release ("3.1" upstream, Intel's "V3.1", the Arm fork's
  // "HPCG-Benchmark_3.0"): two builds on one problem are two series, not repetitions.
  ReaderOutput output = FinishedRunsOutput(
      input, ParseHpcgOutput(input.text, input.path), HpcgReportUnfinished,
      [&](const HpcgReport& report) { return HpcgReportToRunStats(report, input.path); },
      [](const HpcgReport& report, RunStats* run) {
        if (report.version.empty()) return;
        AppendConfiguration("hpcg " + report.version, run);
        run->derivations["variant"] =
            "HPCG report's version line, as the build prints it (upstream '3.1', Intel's 'V3.1', the Arm fork's "
            "'HPCG-Benchmark_3.0')";
      },
      "HPCG reports were not read");
  output.role = PairingRole::kAppOutput;
  return output;
}

}  // namespace qnm
