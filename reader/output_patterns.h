#pragma once
// Output patterns: how a user tells the tool where any program's output says its run time, process
// count and, when the program measures them, its MPI time and messages (`--pattern FIELD=REGEX`,
// repeatable), for the outputs no reader of ours knows. JUBE's pattern sets (Lührs et al. 2016,
// "Flexible and Generic Workflow Management", §3.3) serve the same need in benchmarking workflows:
// one regular expression with one group per value, and a statistic (first, last, sum, mean, min, max) of
// a value several lines give.
//
// A pattern is a regular expression (Boost.Regex, Perl syntax) with exactly one capture group,
// matched against each line of a file on its own; the group of the last matching line is the
// value (a log's summary comes last; per-step lines come before it), unless a measured value's
// pattern names another reduction (`messages:first=...`). docs/formats/output-patterns.md.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/regex.hpp>

namespace qnm {

/// A line longer than this is data, not a summary a program prints: no pattern is matched against it.
inline constexpr std::size_t kLongestMatchedLine = 64 * 1024;

/// The record fields a pattern may fill, for messages.
const char* OutputPatternFieldList();

/// How the values of a run's matching lines make one value.
enum class PatternReduction { kLast, kFirst, kSum, kMean, kMin, kMax };
const char* PatternReductionName(PatternReduction reduction);  // "last", "first", "sum", "mean", "min", "max"

struct OutputPattern {
  // What the value is: "time_s" (the run time), "app_time_s", "app_time_max_s", "mpi_time_s",
  // "mpi_time_max_s", "messages", "bytes" (measured values; the statistics table's column names),
  // "procs", "threads", "nodes", "ranks_per_node", "app", "class" (the run's configuration).
  std::string field;
  std::string name;   // what the user wrote before '=' ("time_ms", "messages:first"), for messages
  std::string text;   // the regular expression as written
  boost::regex regex;
  double seconds_per_unit = 0;  // durations: seconds per captured unit; 0 otherwise
  PatternReduction reduction = PatternReduction::kLast;
  // `FIELD@path=REGEX`: matched against the file's path, not its lines: a configuration that only
  // the file's or its folder's name says (`log_1n_48c.txt`, `runs/14/out.txt`), the same for every
  // run of the file.
  bool on_path = false;

  /// The run time: its lines close a run.
  bool IsRunTime() const { return field == "time_s"; }
  /// A value the run measured (a duration or a count of messages or bytes), as opposed to one that
  /// says which run it is; a configuration line printed again before a run-time line starts another run.
  bool IsMeasure() const { return seconds_per_unit > 0 || field == "messages" || field == "bytes"; }
  bool IsText() const { return field == "app" || field == "class"; }
  /// A reduction computed from numbers as the lines come (sum, mean, min, max), not one line's text.
  bool IsArithmetic() const {
    return reduction == PatternReduction::kSum || reduction == PatternReduction::kMean ||
           reduction == PatternReduction::kMin ||
           reduction == PatternReduction::kMax;
  }
};

/// Parses "FIELD[:REDUCTION]=REGEX" ("time=hydro cycle run time=\s*(\S+)": the first '=' ends the
/// field; "messages:first=Messages sent\s*:\s*(\S+)") or "FIELD@path=REGEX" for a configuration
/// field ("procs@path=_(\d+)c_"). Throws std::invalid_argument naming what is wrong: an unknown
/// field, reduction or scope, a reduction on a configuration field, `@path` on a measured value, an
/// empty or malformed expression, or one without exactly one capture group.
OutputPattern ParseOutputPattern(const std::string& spec);

/// Adds `pattern` to `patterns`; throws std::invalid_argument when a pattern of the same field is
/// there already ("time is given twice": `time` and `time_ms` are one field).
void AddOutputPattern(OutputPattern pattern, std::vector<OutputPattern>* patterns);

/// A pattern file (`--pattern-file`): a program's patterns kept beside its runs, one FIELD=REGEX a
/// line as `--pattern` takes it; blank lines and lines whose first non-blank character is '#' are
/// skipped. Throws InputError naming the file and line of a pattern that is wrong or a field given
/// twice, or the file when it cannot be read or holds no pattern.
std::vector<OutputPattern> ReadOutputPatternFile(const std::string& path);

/// `base` (a pattern file's) with each of `overrides` (the command line's) replacing the pattern
/// of its field, or added.
std::vector<OutputPattern> WithOverrides(std::vector<OutputPattern> base, const std::vector<OutputPattern>& overrides);

/// A configuration pattern's value (`procs`, `app`, ...) over a whole file: a `@path` pattern's first
/// match in `path`, else the group of the last line of `text` it matches (`line` its 1-based number;
/// 0 for the path's). Nullopt when no line matches. Throws InputError naming `path` when a `@path`
/// pattern does not match the path (the runs would lose what the user said their layout is), or the
/// expression gives up on backtracking.
struct PatternValue {
  std::string value;
  int line = 0;
};
std::optional<PatternValue> MatchConfigurationPattern(const OutputPattern& pattern, std::string_view text,
                                                      const std::string& path);

/// A configuration pattern's value as a count (`procs`, `threads`, `nodes`, `ranks_per_node`): a whole
/// number from 1 to 1e9 (textio's ParseDouble: "16", "16.0"). Throws InputError(path, line) naming the
/// pattern when the value is no number or no such count.
int PatternCount(const OutputPattern& pattern, const std::string& value, const std::string& path, int line);

/// Where a configuration pattern's value was found, for derivations: "--pattern procs, line 12" or
/// "--pattern procs@path, the file's path".
std::string PatternPlace(const OutputPattern& pattern, const PatternValue& found);

}  // namespace qnm
