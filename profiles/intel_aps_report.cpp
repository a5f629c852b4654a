// Intel Application Performance Snapshot (APS, part of VTune Profiler) text reports
// (docs/formats/intel-aps.md): what `aps --report DIR` (or `aps-report DIR`) prints. A header of
// "Key : value" lines ("Application", "Number of ranks", "Ranks per node", "OpenMP threads number
// per Rank"), then the metrics, one a line, indented under the one they refine ("MPI Imbalance" and
// "Top 5 MPI functions" under "MPI Time"), with advice lines starting with '|' anywhere among them:
//   Elapsed Time:          468.82 s                         (2020: "Elapsed time: 195.00 sec")
//   MPI Time:              218.00 s   46.51% of Elapsed Time (2020: "28.03 sec  14.38%")
// MPI Time is the mean over the ranks of the time in MPI calls (MPI_Finalize left out: Intel's user
// guide); `aps-report --all` adds per-rank statistics ("| MPI Time per Rank:" MIN/MAX/AVG). No host
// list is printed: the memory footprint names only the node of the peak ("(node r129c01s04)").
#include <string>
#include <utility>
#include <vector>

#include "profiles/profile_readers.h"
#include "textio/keyed_values.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "textio/time_units.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kSummaryLine = "| Summary information";

// The key a line names, one spelling for the layouts' two: VTune 2020's "Elapsed time" and 2025's
// "Elapsed Time", "OpenMP threads number per rank" and "... per Rank".
std::string SummaryKey(std::string_view key) {
  if (key == "Elapsed time") return "Elapsed Time";
  if (key == "OpenMP threads number per rank") return "OpenMP threads number per Rank";
  return std::string(key);
}

// "468.82 s ...", "195.00 sec ...", "N/A*" -> seconds, or -1 for N/A; throws on anything else.
double Seconds(const KeyedValue& entry, const std::string& path, const std::string& what) {
  const std::vector<std::string_view> tokens = SplitWhitespace(entry.text);
  if (!tokens.empty() && StartsWith(tokens[0], "N/A")) return -1;
  const double per_unit = tokens.size() >= 2 ? SecondsPerTimeUnit(tokens[1]) : 0;
  if (per_unit <= 0)
    throw InputError(path, entry.line,
                     "APS '" + what + "' needs a time and its unit (s, sec), got '" + entry.text.substr(0, 40) + "'");
  return NonNegativeNumber(tokens[0], path, entry.line, ("APS '" + what + "'").c_str()) * per_unit;
}

}  // namespace

bool SniffIntelApsReport(const std::string&, std::string_view text) {
  const std::size_t at = text.find(kSummaryLine);
  if (at == std::string_view::npos || (at > 0 && text[at - 1] != '\n')) return false;
  const std::string_view head = text.substr(at, 2048);
  return head.find("\n  Number of ranks ") != std::string_view::npos &&
         head.find("\n  Application ") != std::string_view::npos;
}

ReaderOutput ReadIntelApsReport(const ReaderInput& input) {
  const std::string& path = input.path;
  const std::vector<std::string_view> lines = SplitLines(input.text);
  std::size_t first = 0;
  while (first < lines.size() && !StartsWith(lines[first], kSummaryLine)) ++first;
  // The summary's lines by key (a key given twice with two values refused if taken: KeyedValues); the
  // MPI functions under "Top 5 MPI functions"; the per-rank statistics of `aps-report --all` ("| MPI
  // Time per Rank:" then "MAX: 36.25 sec (rank 22)").
  KeyedValues summary;
  std::vector<std::pair<std::string, KeyedValue>> functions;  // name, its time
  std::string statistic;                                      // the "| ... per Rank:" block being read
  KeyedValue mpi_max;                                         // line 0: none
  std::size_t functions_indent = std::string::npos;
  for (std::size_t i = first; i < lines.size(); ++i) {
    const std::string_view raw = lines[i];
    const std::string_view t = Trim(raw);
    const int n = static_cast<int>(i + 1);
    if (t.empty()) {
      statistic.clear();
      continue;
    }
    if (t.front() == '|') {  // advice, rules, and the headings of --all's blocks
      const std::string_view heading = Trim(t.substr(1));
      if (EndsWith(heading, "per Rank:")) statistic = std::string(heading.substr(0, heading.size() - 1));
      continue;
    }
    const std::size_t indent = raw.find_first_not_of(' ');
    if (functions_indent != std::string::npos) {
      // "MPI_Waitall:  126.34 s  26.95% of Elapsed Time" (2025), "Send  11.65 sec  ( 5.98 %)" (2020).
      const std::vector<std::string_view> words = SplitWhitespace(t);
      if (indent > functions_indent && words.size() >= 3) {
        std::string name(words[0]);
        if (name.back() == ':') name.pop_back();
        const std::size_t time_at = static_cast<std::size_t>(words[1].data() - t.data());
        functions.push_back({name, KeyedValue{std::string(t.substr(time_at)), n}});
        continue;
      }
      functions_indent = std::string::npos;
    }
    std::string_view key, value;
    if (!SplitAtFirstColon(t, &key, &value)) continue;  // "DRAM Bandwidth", "Interconnect ... Bandwidth"
    key = Trim(key);
    if (!statistic.empty()) {
      if (statistic == "MPI Time per Rank" && key == "MAX") mpi_max = KeyedValue{std::string(Trim(value)), n};
      continue;
    }
    if (key == "Top 5 MPI functions (avg time)") {
      functions_indent = indent;
      continue;
    }
    summary.Add(SummaryKey(key), std::string(Trim(value)), n);
  }
  auto find = [&](const std::string& key) { return summary.Taken(key, path, "APS report"); };
  auto need = [&](const std::string& key) -> const KeyedValue& {
    if (const KeyedValue* entry = find(key)) return *entry;
    throw InputError(path, static_cast<int>(first + 1), "APS report without its '" + key + ":' line");
  };

  RunStats run;
  run.sources.push_back(path);
  run.tool_version = "Intel APS";
  const KeyedValue& application = need("Application");
  if (application.text.empty()) throw InputError(path, application.line, "APS 'Application' names no program");
  run.app = application.text;
  run.derivations["app"] = "APS 'Application'";
  const KeyedValue& ranks = need("Number of ranks");
  run.procs = WholeCount(ranks.text, path, ranks.line, "APS 'Number of ranks'", 1);
  run.derivations["procs"] = "APS 'Number of ranks'";
  if (const KeyedValue* threads = find("OpenMP threads number per Rank")) {
    run.threads_per_proc = WholeCount(threads->text, path, threads->line, "APS 'OpenMP threads number per Rank'", 1);
    run.derivations["threads_per_proc"] = "APS 'OpenMP threads number per Rank'";
  }
  if (const KeyedValue* per_node = find("Ranks per node"))
    run.SetRanksPerNode(WholeCount(per_node->text, path, per_node->line, "APS 'Ranks per node'", 1),
                        "APS 'Ranks per node'");

  const KeyedValue& elapsed = need("Elapsed Time");
  run.wall_time_s = Seconds(elapsed, path, "Elapsed Time");
  if (run.wall_time_s < 0) throw InputError(path, elapsed.line, "APS 'Elapsed Time' is N/A: the run has no time");
  run.derivations["wall_time_s"] = "APS 'Elapsed Time'";
  run.app_time_mean_s = run.wall_time_s;
  run.derivations["app_time_mean_s"] = "APS 'Elapsed Time' (one time for every rank)";
  if (const KeyedValue* mpi = find("MPI Time")) {
    const double mean = Seconds(*mpi, path, "MPI Time");
    if (mean > run.wall_time_s * 1.001 + 0.01)
      throw InputError(path, mpi->line, "APS 'MPI Time' is longer than the 'Elapsed Time'");
    if (mean >= 0) {
      run.mpi_time_mean_s = mean;
      run.derivations["mpi_time_mean_s"] =
          "APS 'MPI Time': the mean over the ranks of the time in MPI calls, MPI_Init included, MPI_Finalize not";
    }
  }
  if (mpi_max.line > 0) {
    const double max = Seconds(mpi_max, path, "MPI Time per Rank MAX");
    if (max >= 0) {
      run.mpi_time_max_s = max;
      run.derivations["mpi_time_max_s"] = "aps-report --all 'MPI Time per Rank' MAX";
    }
  }
  // Each rank's time spinning in MPI waits, and the OpenMP barriers' waste, means over the ranks.
  for (const auto& [key, detail] : std::vector<std::pair<const char*, const char*>>{
           {"MPI Imbalance", "aps.mpi_imbalance_time_s"}, {"OpenMP Imbalance", "aps.openmp_imbalance_time_s"}})
    if (const KeyedValue* entry = find(key)) {
      const double seconds = Seconds(*entry, path, key);
      run.details[detail] = seconds < 0 ? std::string("N/A") : NumberText(seconds);
    }
  // The five costliest MPI calls, each its mean time per rank.
  for (const auto& [call, time] : functions) {
    const std::string name = StartsWith(call, "MPI_") ? call : "MPI_" + call;
    run.details["aps.mpi_time." + name + "_s"] = NumberText(Seconds(time, path, name));
  }
  for (const auto& [key, detail] :
       std::vector<std::pair<const char*, const char*>>{{"HW Platform", "aps.hw_platform"},
                                                        {"Frequency", "aps.frequency"},
                                                        {"Logical core count per node", "aps.logical_cores_per_node"},
                                                        {"Report creation date", "aps.report_date"},
                                                        {"Collector type", "aps.collector"}})
    if (const KeyedValue* entry = find(key)) run.details[detail] = entry->text;
  // "Peak resident set size : 7051.65 MB (node r129c01s04)" (per node; the per-rank one follows, its
  // peak's rank): one node the run used, whichever held the peak; kept as a detail, not as the run's
  // machine (another run's peak is on another rack).
  if (const KeyedValue* peak = summary.Find("Peak resident set size"))
    if (const std::size_t open = peak->text.find("(node "); open != std::string::npos) {
      const std::size_t close = peak->text.find(')', open);
      if (close != std::string::npos && close > open + 6)
        run.details["aps.peak_memory_node"] = peak->text.substr(open + 6, close - open - 6);
    }
  run.Derive();
  return OneRunOutput(std::move(run), input.name);
}

}  // namespace qnm
