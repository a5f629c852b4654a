// ONETEP's main output (onetep_output.h, docs/formats/onetep-output.md).
#include "app_outputs/onetep_output.h"

#include <cctype>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/reader.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kSubtitle = "Linear-Scaling Ab Initio Total Energy Program";
constexpr std::size_t kBannerLines = 200;  // the launcher's and MPI's start-up lines may come first

/// "6.1.12.0" of the banner's "|   Version 6.1.12.0  |"; empty when the line has none.
std::string VersionOf(std::string_view trimmed) {
  const std::size_t at = trimmed.find("Version ");
  if (at == std::string_view::npos || !StartsWith(trimmed, "|")) return {};
  std::string_view rest = trimmed.substr(at + 8);
  std::size_t end = 0;
  while (end < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[end])) || rest[end] == '.')) ++end;
  return std::string(rest.substr(0, end));
}

/// The whole number after `prefix` in "Running with 40 MPI processes." and the like.
int CountAfter(std::string_view trimmed, std::string_view prefix, const std::string& path, int line, const char* what) {
  const std::vector<std::string_view> words = SplitWhitespace(trimmed.substr(prefix.size()));
  if (words.empty()) throw InputError(path, line, std::string("ONETEP: ") + what + " without its number");
  return WholeCount(words[0], path, line, what, 1);
}

/// "TOTAL TIME:     16328.044s on     40 proc(s)" -> 16328.044 and 40.
double TimeOnProcs(std::string_view trimmed, const std::string& path, int line, const char* what, int* procs) {
  const std::vector<std::string_view> words = SplitWhitespace(trimmed.substr(trimmed.find(':') + 1));
  if (words.size() < 3 || words[1] != "on" || !EndsWith(words[0], "s"))
    throw InputError(path, line, std::string("ONETEP: malformed ") + what + " line (X s on N proc(s))");
  *procs = WholeCount(words[2], path, line, what, 1);
  return NonNegativeNumber(words[0].substr(0, words[0].size() - 1), path, line, what);
}

}  // namespace

bool LooksLikeOnetepOutput(std::string_view text) {
  std::size_t start = 0;
  for (std::size_t n = 0; n < kBannerLines && start < text.size(); ++n) {
    const std::size_t end = text.find('\n', start);
    const std::string_view line =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (line.find(kSubtitle) != std::string_view::npos) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

std::vector<OnetepRun> ParseOnetepOutput(std::string_view text, const std::string& path) {
  std::vector<OnetepRun> runs;
  const std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    const std::string_view trimmed = Trim(lines[i]);
    if (trimmed.find(kSubtitle) != std::string_view::npos) {
      runs.emplace_back();
      runs.back().line = line;
      continue;
    }
    if (runs.empty() || trimmed.empty()) continue;
    OnetepRun& run = runs.back();
    if (run.version.empty()) {
      if (std::string version = VersionOf(trimmed); !version.empty()) {
        run.version = version;
        continue;
      }
    }
    if (StartsWith(trimmed, "Reading parameters from file \"") && run.input.empty()) {
      const std::size_t open = trimmed.find('"'), close = trimmed.find('"', open + 1);
      if (close != std::string_view::npos) run.input = std::string(trimmed.substr(open + 1, close - open - 1));
    } else if (StartsWith(trimmed, "Running with ") && trimmed.find(" MPI process") != std::string_view::npos) {
      run.processes = CountAfter(trimmed, "Running with ", path, line, "'Running with N MPI processes'");
    } else if (StartsWith(trimmed, "There are ") && trimmed.find("same node as the root") != std::string_view::npos) {
      run.ranks_on_root_node = CountAfter(trimmed, "There are ", path, line, "'There are N MPI processes ...'");
    } else if (EndsWith(trimmed, "threads in other parallel regions.")) {
      run.threads = WholeCount(SplitWhitespace(trimmed)[0], path, line, "'T threads in other parallel regions'", 1);
    } else if (StartsWith(trimmed, "AVERAGE TIME:")) {
      int procs = 0;
      run.average_s = TimeOnProcs(trimmed, path, line, "'AVERAGE TIME'", &procs);
    } else if (StartsWith(trimmed, "TOTAL TIME:")) {
      run.total_s = TimeOnProcs(trimmed, path, line, "'TOTAL TIME'", &run.total_procs);
      run.total_line = line;
      if (run.processes > 0 && run.total_procs != run.processes)
        throw InputError(path, line,
                         "ONETEP: 'TOTAL TIME' on " + std::to_string(run.total_procs) + " proc(s) in a run of " +
                             std::to_string(run.processes) + " MPI processes");
    }
  }
  if (runs.empty()) throw InputError(path, 0, "ONETEP output without its banner");
  return runs;
}

RunStats OnetepRunToRunStats(const OnetepRun& o, const std::string& path) {
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(o.total_line));
  run.app = "onetep";
  run.derivations["app"] = "ONETEP banner";
  run.tool_version = o.version.empty() ? "ONETEP" : "ONETEP " + o.version;
  run.procs = o.processes > 0 ? o.processes : o.total_procs;
  run.derivations["procs"] =
      o.processes > 0 ? "ONETEP 'Running with N MPI processes'" : "ONETEP 'TOTAL TIME: ... on N proc(s)'";
  if (o.threads > 0) {
    run.threads_per_proc = o.threads;
    run.derivations["threads_per_proc"] = "ONETEP 'T threads in other parallel regions'";
  }
  if (o.ranks_on_root_node > 0 && run.procs % o.ranks_on_root_node == 0)
    run.SetRanksPerNode(o.ranks_on_root_node,
                        "ONETEP 'There are N MPI processes running on the same node as the root process'");
  else if (o.ranks_on_root_node > 0)
    run.details["onetep_ranks_on_root_node"] = std::to_string(o.ranks_on_root_node);
  run.wall_time_s = o.total_s;
  run.derivations["wall_time_s"] = "ONETEP timing report's 'TOTAL TIME' (the run's wall-clock time)";
  if (Known(o.average_s)) {
    run.app_time_mean_s = o.average_s;
    run.derivations["app_time_mean_s"] = "ONETEP timing report's 'AVERAGE TIME' over the processes";
  }
  if (!o.input.empty()) {
    run.problem_class = o.input;
    run.derivations["problem_class"] = "ONETEP 'Reading parameters from file' (its input)";
  }
  run.Derive();
  return run;
}

bool SniffOnetepOutput(const std::string&, std::string_view text) { return LooksLikeOnetepOutput(text); }

ReaderOutput ReadOnetepOutput(const ReaderInput& input) {
  return FinishedRunsOutput(
      input, ParseOnetepOutput(input.text, input.path),
      [](const OnetepRun& o, int* line) -> std::string {
        if (Known(o.total_s)) return {};
        *line = o.line;
        return "ONETEP run without its timing report's 'TOTAL TIME': it did not finish (killed, out of time, or the "
               "file was cut)";
      },
      [&](const OnetepRun& o) { return OnetepRunToRunStats(o, input.path); },
      [](const OnetepRun& o, RunStats* run) {
        if (o.version.empty()) return;
        AppendConfiguration("onetep" + o.version, run);
        run->derivations["variant"] = "ONETEP banner's version";
      },
      "runs did not finish");
}

}  // namespace qnm
