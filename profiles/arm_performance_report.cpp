// Arm (Allinea, now Linaro Forge) Performance Reports, text form
// (docs/formats/arm-performance-reports.md): "Key:<tabs>value" header lines
// (Command, Resources, Tasks, Machine, Total time, Executable), then
// sections whose lines are "Label:<tabs>  12.3% |===|". The shares are of the
// wall time, averaged over processes (Arm's own definition), so they give the
// mean compute and MPI time per rank; the MPI section splits MPI time into
// collective and point-to-point calls.
#include <cctype>
#include <map>
#include <string>
#include <utility>

#include "profiles/profile_readers.h"
#include "reader/series_identity.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

struct ArmLine {
  int line = 0;
  std::string value;  // text after the first ':' and the blanks after it
};

// "Compute:\t\t\t\t 63.6% |=====|" -> 63.6; bad or out of [0, 100] -> error.
double Percent(const ArmLine& entry, const std::string& path, const std::string& label) {
  std::vector<std::string_view> tokens = SplitWhitespace(entry.value);
  if (tokens.empty() || tokens[0].back() != '%')
    throw InputError(path, entry.line, "'" + label + "' needs a percentage, got '" + entry.value.substr(0, 40) + "'");
  auto number = ParseDouble(tokens[0].substr(0, tokens[0].size() - 1));
  if (!number || !(*number >= 0 && *number <= 100))
    throw InputError(path, entry.line, "'" + label + "' needs a percentage in [0, 100], got '" + std::string(tokens[0]) + "'");
  return *number;
}

// The leading integer of "44 processes", "1 node (44 physical, ...)", "183 seconds (3 minutes)";
// `unit` is singular ("process"), the plural starts with it.
long long LeadingCount(const ArmLine& entry, const std::string& path, const std::string& label, const std::string& unit) {
  std::vector<std::string_view> tokens = SplitWhitespace(entry.value);
  auto number = tokens.size() >= 2 ? ParseInteger(tokens[0]) : std::nullopt;
  if (!number || *number < 0 || (*number == 0 && unit != "second") || !StartsWith(tokens[1], unit))
    throw InputError(path, entry.line, "'" + label + "' needs '<count> " + unit + "s', got '" + entry.value.substr(0, 60) + "'");
  return *number;
}

double Number(const ArmLine& entry, const std::string& path, const std::string& label) {
  std::vector<std::string_view> tokens = SplitWhitespace(entry.value);
  auto number = tokens.empty() ? std::nullopt : ParseDouble(tokens[0]);
  if (!number || !(*number >= 0))
    throw InputError(path, entry.line, "'" + label + "' needs a number, got '" + entry.value.substr(0, 40) + "'");
  return *number;
}

// The problem a run solves, from its arguments: what follows the executable,
// paths cut to their file names and digit-group commas dropped, because the
// same input is spelled "20000000.fastq" and "20,000,000.fastq" in this data set.
std::string ArgumentsOf(const std::string& command, const std::string& executable) {
  std::vector<std::string_view> tokens = SplitWhitespace(command);
  std::size_t start = tokens.size();
  for (std::size_t t = 0; t < tokens.size(); ++t)
    if (BaseName(std::string(tokens[t])) == executable) {
      start = t + 1;
      break;
    }
  std::string out;
  for (std::size_t t = start; t < tokens.size(); ++t) {
    std::string word = BaseName(std::string(tokens[t]));
    std::string kept;
    for (std::size_t c = 0; c < word.size(); ++c) {
      bool group_comma = word[c] == ',' && c > 0 && c + 3 < word.size() && std::isdigit(static_cast<unsigned char>(word[c - 1])) &&
                         std::isdigit(static_cast<unsigned char>(word[c + 1])) &&
                         std::isdigit(static_cast<unsigned char>(word[c + 2])) &&
                         std::isdigit(static_cast<unsigned char>(word[c + 3]));
      if (!group_comma) kept += word[c];
    }
    out += (out.empty() ? "" : " ") + kept;
  }
  return out;
}

}  // namespace

bool SniffArmPerformanceReport(const std::string&, std::string_view text) {
  // The header every report starts with, and the summary line of its verdict.
  return StartsWith(text, "Command:") && text.find("\nTotal time:") != std::string_view::npos &&
         text.find("\nSummary: ") != std::string_view::npos;
}

ReaderOutput ReadArmPerformanceReport(const ReaderInput& input) {
  const std::string& path = input.path;
  std::vector<std::string_view> lines = SplitLines(input.text);
  // Header keys (first occurrence) and section entries keyed "Section/Label".
  std::map<std::string, ArmLine> header, entries;
  std::string section;
  bool in_summary = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // advice sentences, blank lines
    std::string key(Trim(line.substr(0, colon)));
    ArmLine entry{static_cast<int>(i + 1), std::string(Trim(line.substr(colon + 1)))};
    if (key == "Summary") {
      in_summary = true;
      section = "Summary";
      continue;
    }
    if (!in_summary) {
      header.emplace(key, entry);
      continue;
    }
    if (entry.value.empty()) {
      // "CPU:", "MPI:", "I/O:", "Memory:" open a section; "A breakdown of the ...:" is prose.
      if (key.find(' ') == std::string::npos) section = key;
      continue;
    }
    entries.emplace(section + "/" + key, entry);
  }
  auto need = [&](std::map<std::string, ArmLine>& from, const std::string& key) -> const ArmLine& {
    auto it = from.find(key);
    if (it == from.end()) {
      std::string label = key.substr(key.find('/') + 1);
      throw InputError(path, 0, "Arm Performance Report without its '" + label + ":' line");
    }
    return it->second;
  };

  RunStats run;
  run.sources.push_back(path);
  run.tool_version = "Arm Performance Reports";
  run.procs = static_cast<int>(LeadingCount(need(header, "Tasks"), path, "Tasks", "process"));
  run.derivations["procs"] = "Arm Performance Reports 'Tasks: <n> processes'";
  const ArmLine& tasks = header.at("Tasks");
  std::size_t omp = tasks.value.find("OMP_NUM_THREADS was ");
  if (omp != std::string::npos) {  // hybrid runs: "4 processes, OMP_NUM_THREADS was 8"
    std::vector<std::string_view> words = SplitWhitespace(std::string_view(tasks.value).substr(omp + 20));
    auto threads = words.empty() ? std::nullopt : ParseInteger(words[0]);
    if (!threads || *threads <= 0 || *threads > (1 << 20))
      throw InputError(path, tasks.line, "'Tasks' has a bad OMP_NUM_THREADS");
    run.threads_per_proc = static_cast<int>(*threads);
    run.derivations["threads_per_proc"] = "Arm Performance Reports 'Tasks: ... OMP_NUM_THREADS was <n>'";
  }
  if (header.count("Resources")) {
    run.nodes = static_cast<int>(LeadingCount(header.at("Resources"), path, "Resources", "node"));
    if (run.nodes > 0 && run.procs % run.nodes == 0) run.ranks_per_node = run.procs / run.nodes;
    run.derivations["nodes"] = "Arm Performance Reports 'Resources: <n> nodes'";
  }
  run.wall_time_s = static_cast<double>(LeadingCount(need(header, "Total time"), path, "Total time", "second"));
  run.derivations["wall_time_s"] = "Arm Performance Reports 'Total time' (whole seconds)";
  run.app_time_mean_s = run.wall_time_s;
  run.derivations["app_time_mean_s"] = "Arm Performance Reports: the shares are of the wall time, averaged over processes";
  std::string executable = header.count("Executable") ? header.at("Executable").value : "";
  if (executable.empty()) throw InputError(path, 0, "Arm Performance Report without its 'Executable:' line");
  run.app = executable;
  run.derivations["app"] = "Arm Performance Reports 'Executable'";
  if (header.count("Command")) {
    run.details["command"] = header.at("Command").value;
    run.problem_class = ArgumentsOf(header.at("Command").value, executable);
    if (!run.problem_class.empty())
      run.derivations["problem_class"] = "Arm Performance Reports 'Command': the program's arguments";
  }
  if (header.count("Machine") && !header.at("Machine").value.empty())
    ApplyHosts({header.at("Machine").value}, "Arm Performance Reports 'Machine'", &run);
  if (header.count("Started on")) run.details["started"] = header.at("Started on").value;

  const double compute = Percent(need(entries, "Summary/Compute"), path, "Compute");
  const double mpi = Percent(need(entries, "Summary/MPI"), path, "MPI");
  const double io = Percent(need(entries, "Summary/I/O"), path, "I/O");
  if (compute + mpi + io > 100.5)
    throw InputError(path, entries.at("Summary/I/O").line, "Compute, MPI and I/O shares add up to more than 100%");
  run.compute_time_mean_s = run.wall_time_s * compute / 100;
  run.mpi_time_mean_s = run.wall_time_s * mpi / 100;
  run.derivations["compute_time_mean_s"] = "Arm Performance Reports 'Compute' share x Total time";
  run.derivations["mpi_time_mean_s"] = "Arm Performance Reports 'MPI' share x Total time";
  run.details["io_time_mean_s"] = FormatDouble("%.10g", run.wall_time_s * io / 100);
  if (entries.count("MPI/Time in collective calls") && entries.count("MPI/Time in point-to-point calls")) {
    double collective = Percent(entries.at("MPI/Time in collective calls"), path, "Time in collective calls");
    double p2p = Percent(entries.at("MPI/Time in point-to-point calls"), path, "Time in point-to-point calls");
    run.details["mpi_collective_time_mean_s"] = FormatDouble("%.10g", run.mpi_time_mean_s * collective / 100);
    run.details["mpi_p2p_time_mean_s"] = FormatDouble("%.10g", run.mpi_time_mean_s * p2p / 100);
    run.details["mpi_collective_share_percent"] = FormatDouble("%.10g", collective);
    run.details["mpi_p2p_share_percent"] = FormatDouble("%.10g", p2p);
  }
  for (const char* rate : {"Effective process collective rate", "Effective process point-to-point rate"})
    if (entries.count(std::string("MPI/") + rate))
      run.details[std::string(rate) + " (bytes/s)"] = FormatDouble("%.10g", Number(entries.at(std::string("MPI/") + rate), path, rate));
  for (const char* memory : {"Mean process memory usage", "Peak process memory usage"})
    if (entries.count(std::string("Memory/") + memory))
      run.details[std::string(memory) + " (bytes)"] = FormatDouble("%.10g", Number(entries.at(std::string("Memory/") + memory), path, memory));
  run.Derive();
  return OneRunOutput(std::move(run), input.name);
}

}  // namespace qnm
