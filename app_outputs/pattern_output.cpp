#include "app_outputs/pattern_output.h"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>

#include "reader/run_stats_check.h"
#include "textio/line_reader.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// What the lines of one run (or of the whole file) say for one pattern.
struct Found {
  std::string value;   // first, last: the chosen line's group
  double number = 0;   // sum, min, max: the statistic of the numbers so far; mean: their sum
  int line = 0;        // 1-based: the chosen line (sum: the last matching line)
  int first_line = 0;  // the first matching line
  int last_line = 0;   // the last matching line
  int matches = 0;     // lines that matched
};

double Number(const std::string& path, const OutputPattern& pattern, const std::string& value, int line) {
  // The whole group, decimal (textio's ParseDouble: no "0x10", no trailing text); finite.
  const std::optional<double> number = ParseDouble(value);
  if (!number || !std::isfinite(*number))
    throw InputError(path, line, "--pattern " + pattern.name + " matched '" + value + "', which is not a number");
  return *number;
}

double Number(const std::string& path, const OutputPattern& pattern, const Found& found) {
  if (pattern.reduction == PatternReduction::kMean) return found.number / found.matches;
  return pattern.IsArithmetic() ? found.number : Number(path, pattern, found.value, found.line);
}

// `a` and `b` as one, `b`'s lines after `a`'s, by the pattern's reduction.
Found Combine(const Found& a, const Found& b, const OutputPattern& pattern) {
  if (b.matches == 0) return a;
  if (a.matches == 0) return b;
  Found both = b;
  both.first_line = a.first_line;
  both.matches = a.matches + b.matches;
  const bool keep_a = pattern.reduction == PatternReduction::kFirst ||
                      (pattern.reduction == PatternReduction::kMin && a.number <= b.number) ||
                      (pattern.reduction == PatternReduction::kMax && a.number >= b.number);
  if (keep_a) {
    both.value = a.value;
    both.number = a.number;
    both.line = a.line;
  } else if (pattern.reduction == PatternReduction::kSum || pattern.reduction == PatternReduction::kMean) {
    both.number = a.number + b.number;
  }
  return both;
}

// What the patterns found in a file: the runs its run-time lines close. A run-time line closes the
// run of the lines before it when a configuration pattern (one that is not a measured value:
// procs, threads, class, ...) matched since the previous run-time line, this line included: the
// program printed its configuration again, so it started again (a job that ran it several times,
// appending, the same configuration or another). Without one, the line continues the run before
// it (a program printing its time every few steps, then a summary). A run's configuration is the
// one in force at its last run-time line (a file of one run: at its end); its measured values are
// those of the lines after the previous run's last run-time line (the last run's: to the end of
// the file), reduced as each pattern says.
using Runs = std::vector<std::vector<Found>>;  // per run, per pattern

Runs MatchLines(std::string_view text, const std::vector<OutputPattern>& patterns, const std::string& path) {
  Runs runs;
  // Per pattern: a configuration pattern's matches so far; a measured one's since the last
  // run-time line. Each keeps only its own kind (the other kind's entries stay empty).
  std::vector<Found> configuration(patterns.size()), pending(patterns.size());
  auto add_measures = [&](std::vector<Found>* run) {
    for (std::size_t k = 0; k < patterns.size(); ++k)
      if (patterns[k].IsMeasure()) (*run)[k] = Combine((*run)[k], pending[k], patterns[k]);
  };
  bool configured = false;  // a configuration pattern matched since the last run-time line
  LineReader lines(text);
  std::string_view line;
  boost::match_results<std::string_view::const_iterator> match;
  while (lines.Next(&line)) {
    const int number = lines.ErrorLine();
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > kLongestMatchedLine) continue;
    bool time_line = false;
    for (std::size_t k = 0; k < patterns.size(); ++k) {
      const OutputPattern& pattern = patterns[k];
      if (pattern.on_path) continue;  // the path's, found once (ReadByOutputPatterns)
      bool matched = false;
      try {
        matched = boost::regex_search(line.begin(), line.end(), match, pattern.regex);
      } catch (const std::runtime_error& error) {  // Boost.Regex's bound on backtracking, or its memory
        const std::string why = error.what();        // its first sentence: the rest is advice, said below
        throw InputError(path, number, "--pattern " + pattern.name + " gave up on this line (" +
                                           why.substr(0, why.find('.')) +
                                           "): write the expression so that it backtracks less");
      }
      if (!matched) continue;
      Found one;
      if (match[1].matched) one.value = std::string(Trim(line.substr(match[1].first - line.begin(), match[1].length())));
      if (pattern.IsArithmetic()) one.number = Number(path, pattern, one.value, number);
      one.line = one.first_line = one.last_line = number;
      one.matches = 1;
      Found& kept = pattern.IsMeasure() ? pending[k] : configuration[k];
      kept = Combine(kept, one, pattern);
      time_line = time_line || pattern.IsRunTime();
      configured = configured || !pattern.IsMeasure();
    }
    if (!time_line) continue;
    // A new run starts from the configuration in force (its measured entries empty); a run
    // continued keeps its configuration, which nothing matched since.
    if (runs.empty() || configured) runs.push_back(configuration);
    add_measures(&runs.back());
    pending.assign(patterns.size(), Found());
    configured = false;
  }
  if (runs.empty()) return runs;
  add_measures(&runs.back());  // the lines after the last run-time line
  // A file of one run: each configuration pattern over the whole file, wherever its lines are.
  if (runs.size() == 1)
    for (std::size_t k = 0; k < patterns.size(); ++k)
      if (!patterns[k].IsMeasure()) runs.front()[k] = configuration[k];
  return runs;
}

// A configuration read from the file's path (`procs@path=_(\d+)c_`): the first match, the same for
// every run of the file (MatchConfigurationPattern: a path it does not match is an error).
Found MatchPath(const std::string& path, const OutputPattern& pattern) {
  Found found;
  found.value = MatchConfigurationPattern(pattern, std::string_view(), path)->value;
  found.matches = 1;
  return found;
}

// (A count is a configuration field's: no reduction but the last or first line's.)
int Count(const std::string& path, const OutputPattern& pattern, const Found& found) {
  return PatternCount(pattern, found.value, path, found.line);
}

// The fields that are counts, and the record's members they fill.
struct CountField {
  const char* field;         // as --pattern names it
  const char* record_field;  // as the record's derivations name it
  int RunStats::*member;
};
const CountField* CountFieldOf(const std::string& field) {
  static const CountField kCounts[] = {{"procs", "procs", &RunStats::procs},
                                       {"threads", "threads_per_proc", &RunStats::threads_per_proc},
                                       {"nodes", "nodes", &RunStats::nodes},
                                       {"ranks_per_node", "ranks_per_node", &RunStats::ranks_per_node}};
  for (const CountField& count : kCounts)
    if (field == count.field) return &count;
  return nullptr;
}

}  // namespace

namespace {

// The measured values a pattern may give, and the record's members they fill (the statistics
// table's columns of the same names, docs/statistics-table.md).
struct MeasureField {
  const char* field;
  const char* record_field;
  double RunStats::*member;
};
const MeasureField* MeasureFieldOf(const std::string& field) {
  static const MeasureField kMeasures[] = {{"time_s", "wall_time_s", &RunStats::wall_time_s},
                                           {"app_time_s", "app_time_mean_s", &RunStats::app_time_mean_s},
                                           {"app_time_max_s", "app_time_max_s", &RunStats::app_time_max_s},
                                           {"mpi_time_s", "mpi_time_mean_s", &RunStats::mpi_time_mean_s},
                                           {"mpi_time_max_s", "mpi_time_max_s", &RunStats::mpi_time_max_s},
                                           {"messages", "messages_per_rank", &RunStats::messages_per_rank},
                                           {"bytes", "bytes_sent_per_rank", &RunStats::bytes_sent_per_rank}};
  for (const MeasureField& measure : kMeasures)
    if (field == measure.field) return &measure;
  return nullptr;
}

// How a value was found: "--pattern time, line 89 (the last of 4 matching lines)", "--pattern
// mpi_time:mean, the mean of 3 matching lines (lines 12-40)". `counted`: the match count is this run's.
std::string Said(const OutputPattern& pattern, const Found& f, bool counted) {
  const std::string head = "--pattern " + pattern.name + ", ";
  if (pattern.on_path) return head + "the file's path";
  const std::string of = std::to_string(f.matches) + " matching lines";
  if (pattern.reduction == PatternReduction::kSum || pattern.reduction == PatternReduction::kMean)
    return head + (f.matches == 1 ? "line " + std::to_string(f.line)
                                  : "the " + std::string(PatternReductionName(pattern.reduction)) + " of " + of +
                                        " (lines " + std::to_string(f.first_line) + "-" +
                                        std::to_string(f.last_line) + ")");
  return head + "line " + std::to_string(f.line) +
         (f.matches > 1 && counted ? " (the " + std::string(PatternReductionName(pattern.reduction)) + " of " + of + ")"
                                   : "");
}

// One run from what the patterns found for it; `of_several`: the file holds several runs, so a
// configuration pattern's match count over the whole file would say nothing of this one.
RunStats RunFrom(const ReaderInput& input, const std::vector<OutputPattern>& patterns, const std::vector<Found>& found,
                 bool of_several) {
  const std::string& path = input.path;
  RunStats run;
  int time_line = 0;
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    const OutputPattern& pattern = patterns[k];
    const Found& f = found[k];
    if (f.matches == 0) continue;
    const std::string said = Said(pattern, f, !of_several || pattern.IsMeasure());
    const std::string& field = pattern.field;
    if (const MeasureField* measure = MeasureFieldOf(field)) {
      const double value = Number(path, pattern, f) * (pattern.seconds_per_unit > 0 ? pattern.seconds_per_unit : 1.0);
      if (!std::isfinite(value) || (pattern.IsRunTime() ? value <= 0 : value < 0))
        throw InputError(path, f.line, "--pattern " + pattern.name + " gave " + FormatDouble("%g", value) + ": " +
                                           (pattern.IsRunTime() ? "no run time > 0" : "not a measured value >= 0"));
      run.*(measure->member) = value;
      run.derivations[measure->record_field] = said;
      if (pattern.IsRunTime()) time_line = f.last_line;
    } else if (const CountField* count = CountFieldOf(field)) {
      run.*(count->member) = Count(path, pattern, f);
      run.derivations[count->record_field] = said;
    } else if (field == "app" && !f.value.empty()) {
      run.app = f.value;
      run.derivations["app"] = said;
    } else if (field == "class" && !f.value.empty()) {
      run.problem_class = f.value;
      run.derivations["problem_class"] = said;
    }
  }
  // The program's MPI time without its application time: the run time is the time the MPI time is
  // part of (the queueing model decomposes app time = compute + MPI, models/decomposition.h).
  if (Known(run.mpi_time_mean_s) && !Known(run.app_time_mean_s)) {
    run.app_time_mean_s = run.wall_time_s;
    run.derivations["app_time_mean_s"] = "the run time (" + run.derivations["wall_time_s"] + "; no --pattern app_time)";
  }
  run.sources.push_back(of_several ? path + ":" + std::to_string(time_line) : path);
  // Nodes and ranks per node without the processes ("# Nodes, Ptile, ..." rows): their product.
  run.SetProcsFromLayout("nodes x ranks per node (--pattern nodes, --pattern ranks_per_node)");
  if (run.procs == 0 && input.name.procs > 0 && !of_several) {
    run.procs = input.name.procs;
    run.derivations["procs"] = "the file name";
  }
  if (run.procs == 0)
    throw InputError(path, time_line,
                     "the run time is found (--pattern) but no process count: " +
                         std::string(of_several ? "no line before it matches a --pattern procs"
                                                : "no line matches a --pattern procs, and the file name names none "
                                                  "(np16, 64ranks; or say where with --pattern procs@path=REGEX)"));
  if (run.nodes > 0 && run.ranks_per_node == 0 && run.procs % run.nodes == 0) {
    run.ranks_per_node = run.procs / run.nodes;
    run.derivations["ranks_per_node"] = "procs / nodes (--pattern)";
  }
  if (run.app.empty()) {
    run.app = ApplicationFromPath(input.FormatPath());
    run.derivations["app"] = "the file's or its folder's name (no --pattern app)";
  }
  ApplyFileName(input.name, &run);
  run.Derive();
  RequirePlausibleRecord(run, path, time_line);
  return run;
}

}  // namespace

ReaderOutput ReadByOutputPatterns(const ReaderInput& input) {
  ReaderOutput output;
  if (!input.selection || input.selection->output_patterns.empty()) return output;
  const std::vector<OutputPattern>& patterns = input.selection->output_patterns;
  Runs found = MatchLines(input.text, patterns, input.path);
  // No line with the run time: not a run the patterns describe, whatever else matched (the caller
  // says why).
  if (found.empty()) return output;
  for (std::size_t k = 0; k < patterns.size(); ++k)
    if (patterns[k].on_path) {
      const Found value = MatchPath(input.path, patterns[k]);
      for (std::vector<Found>& run : found) run[k] = value;
    }
  if (found.size() == 1) {
    output.runs.push_back(RunFrom(input, patterns, found.front(), false));
  } else {
    std::string lines;
    for (const std::vector<Found>& one : found) {
      output.runs.push_back(RunFrom(input, patterns, one, true));
      lines += (lines.empty() ? "" : ", ") + output.runs.back().sources.front().substr(input.path.size() + 1);
    }
    output.notes.push_back(input.path + ": " + std::to_string(found.size()) +
                           " runs: each run-time line after a line of its configuration (procs, threads, ...) "
                           "starts one (lines " + lines + ")");
  }
  std::string reading = "read by --pattern:";
  for (const OutputPattern& pattern : patterns) reading += " " + pattern.name;
  output.readings.push_back(reading);
  output.role = found.size() == 1 ? PairingRole::kAppOutput : PairingRole::kNone;
  return output;
}

}  // namespace qnm
