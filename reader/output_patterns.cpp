#include "reader/output_patterns.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include "textio/line_reader.h"
#include "textio/text_lines.h"
#include "textio/time_units.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm {
namespace {

// Durations a pattern may give, by the names the statistics table gives their columns
// (docs/statistics-table.md), each with an optional unit: "mpi_time_ms", "time_min".
const char* const kDurations[] = {"app_time_max", "mpi_time_max", "app_time", "mpi_time", "time"};

// The unit a duration's name ends with, in seconds: "mpi_time" and "mpi_time_s" 1, "mpi_time_ms"
// 0.001; 0 when `name` is not `base` with a unit.
double DurationUnit(const std::string& name, const std::string& base) {
  if (name == base) return 1.0;
  if (name.size() <= base.size() + 1 || name.compare(0, base.size(), base) != 0 || name[base.size()] != '_') return 0;
  return SecondsPerTimeUnit(name.substr(base.size() + 1));
}

PatternReduction ParseReduction(const std::string& field, const std::string& word) {
  if (word == "avg") return PatternReduction::kMean;  // JUBE's name of it
  for (PatternReduction reduction : {PatternReduction::kLast, PatternReduction::kFirst, PatternReduction::kSum,
                                     PatternReduction::kMean,
                                     PatternReduction::kMin, PatternReduction::kMax})
    if (word == PatternReductionName(reduction)) return reduction;
  throw std::invalid_argument(field + ": unknown reduction '" + word + "' (first, last, sum, mean or avg, min, max)");
}

}  // namespace

const char* OutputPatternFieldList() {
  return "time (seconds; or time_ms, time_us, time_min, time_h), procs, threads, nodes, ranks_per_node, app, "
         "class; measured per rank: app_time, app_time_max, mpi_time, mpi_time_max (seconds, or with a unit as "
         "time's), messages, bytes; a measured value may name a reduction: FIELD:first, :last, :sum, :mean (or "
         ":avg), :min, :max; a configuration field may be read from the file's path: FIELD@path";
}

const char* PatternReductionName(PatternReduction reduction) {
  switch (reduction) {
    case PatternReduction::kFirst: return "first";
    case PatternReduction::kSum: return "sum";
    case PatternReduction::kMean: return "mean";
    case PatternReduction::kMin: return "min";
    case PatternReduction::kMax: return "max";
    case PatternReduction::kLast: break;
  }
  return "last";
}

OutputPattern ParseOutputPattern(const std::string& spec) {
  const std::size_t equals = spec.find('=');
  if (equals == std::string::npos || equals == 0)
    throw std::invalid_argument("'" + spec + "' is not FIELD=REGEX (fields: " + OutputPatternFieldList() + ")");
  OutputPattern pattern;
  pattern.name = spec.substr(0, equals);
  pattern.text = spec.substr(equals + 1);
  const std::size_t at = pattern.name.find('@');
  const std::size_t colon = pattern.name.find(':');
  const std::string field = pattern.name.substr(0, std::min(at, colon));
  for (const char* base : kDurations)
    if (const double unit = DurationUnit(field, base); unit > 0) {
      pattern.field = std::string(base) + "_s";
      pattern.seconds_per_unit = unit;
      break;
    }
  if (pattern.field.empty()) {
    static const char* const kOthers[] = {"messages", "bytes", "procs", "threads", "nodes", "ranks_per_node", "app",
                                          "class"};
    for (const char* other : kOthers)
      if (field == other) pattern.field = field;
    if (pattern.field.empty())
      throw std::invalid_argument("unknown field '" + field + "' (fields: " + OutputPatternFieldList() + ")");
  }
  if (colon != std::string::npos) {
    pattern.reduction = ParseReduction(field, pattern.name.substr(colon + 1));
    if (!pattern.IsMeasure())
      throw std::invalid_argument(field + ": takes no reduction; a run's " + field +
                                  " is the value in force at its run-time line (reductions are for measured "
                                  "values: time, app_time, mpi_time, messages, bytes)");
  }
  if (at != std::string::npos) {
    const std::string scope = pattern.name.substr(at + 1);
    if (scope != "path")
      throw std::invalid_argument(pattern.name + ": unknown scope '@" + scope +
                                  "' (FIELD@path=REGEX matches the file's path)");
    if (colon != std::string::npos)
      throw std::invalid_argument(pattern.name + ": a pattern on the path takes no reduction (the path is one line)");
    if (pattern.IsMeasure())
      throw std::invalid_argument(field + "@path: a path says a run's configuration (procs, threads, nodes, "
                                  "ranks_per_node, app, class), not what it measured");
    pattern.on_path = true;
  }
  if (pattern.text.empty()) throw std::invalid_argument(pattern.name + ": empty regular expression");
  try {
    pattern.regex = boost::regex(pattern.text, boost::regex::perl);
  } catch (const boost::regex_error& error) {
    throw std::invalid_argument(pattern.name + ": '" + pattern.text + "' is not a regular expression (" +
                                error.what() + ")");
  }
  if (pattern.regex.mark_count() != 1)
    throw std::invalid_argument(pattern.name + ": '" + pattern.text + "' has " +
                                std::to_string(pattern.regex.mark_count()) +
                                " capture groups; it needs exactly one, around the value (use (?:...) for others)");
  return pattern;
}

void AddOutputPattern(OutputPattern pattern, std::vector<OutputPattern>* patterns) {
  for (const OutputPattern& other : *patterns)
    if (other.field == pattern.field)
      throw std::invalid_argument(pattern.name + ": its field is given twice (" + other.name + " and " +
                                  pattern.name + "); one pattern a field");
  patterns->push_back(std::move(pattern));
}

std::vector<OutputPattern> ReadOutputPatternFile(const std::string& path) {
  constexpr long long kLargestPatternFile = 1 << 20;  // a few lines; anything larger is another file
  constexpr std::size_t kLongestPatternLine = 4096;
  const std::string text = ReadFile(path, kLargestPatternFile);
  if (text.find('\0') != std::string::npos) throw InputError(path, 0, "not a pattern file (binary: a zero byte)");
  std::vector<OutputPattern> patterns;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(&line)) {
    const int number = lines.ErrorLine();
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    if (line.size() > kLongestPatternLine)
      throw InputError(path, number, "a line longer than 4 KiB: not a pattern (one FIELD=REGEX a line)");
    try {
      AddOutputPattern(ParseOutputPattern(std::string(line.substr(first))), &patterns);
    } catch (const std::invalid_argument& error) {
      throw InputError(path, number, error.what());
    }
  }
  if (patterns.empty()) throw InputError(path, 0, "no pattern in the file (one FIELD=REGEX a line)");
  return patterns;
}

std::vector<OutputPattern> WithOverrides(std::vector<OutputPattern> base, const std::vector<OutputPattern>& overrides) {
  for (const OutputPattern& pattern : overrides) {
    base.erase(std::remove_if(base.begin(), base.end(),
                              [&](const OutputPattern& kept) { return kept.field == pattern.field; }),
               base.end());
    base.push_back(pattern);
  }
  return base;
}

std::optional<PatternValue> MatchConfigurationPattern(const OutputPattern& pattern, std::string_view text,
                                                      const std::string& path) {
  auto gave_up = [&](int line) {
    return InputError(path, line, "--pattern " + pattern.name + " gave up on " +
                                      (line > 0 ? std::string("this line") : std::string("the file's path")) +
                                      ": write the expression so that it backtracks less");
  };
  if (pattern.on_path) {
    boost::smatch match;
    bool matched = false;
    try {
      matched = boost::regex_search(path, match, pattern.regex);
    } catch (const std::runtime_error&) {  // Boost.Regex's bound on backtracking, or its memory
      throw gave_up(0);
    }
    if (!matched || !match[1].matched || match[1].length() == 0)
      throw InputError(path, 0, "the file's path matches no --pattern " + pattern.name + " ('" + pattern.text + "')");
    return PatternValue{match[1].str(), 0};
  }
  std::optional<PatternValue> found;
  LineReader lines(text);
  std::string_view line;
  boost::match_results<std::string_view::const_iterator> match;
  while (lines.Next(&line)) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > kLongestMatchedLine) continue;
    bool matched = false;
    try {
      matched = boost::regex_search(line.begin(), line.end(), match, pattern.regex);
    } catch (const std::runtime_error&) {
      throw gave_up(lines.ErrorLine());
    }
    if (matched && match[1].matched && match[1].length() > 0)
      found = PatternValue{std::string(line.substr(match[1].first - line.begin(), match[1].length())), lines.ErrorLine()};
  }
  return found;
}

int PatternCount(const OutputPattern& pattern, const std::string& value, const std::string& path, int line) {
  // The whole group, decimal (textio's ParseDouble: no "0x10", no trailing text); finite.
  const std::optional<double> number = ParseDouble(value);
  if (!number || !std::isfinite(*number))
    throw InputError(path, line, "--pattern " + pattern.name + " matched '" + value + "', which is not a number");
  if (*number < 1 || *number > 1e9 || *number != std::floor(*number))
    throw InputError(path, line,
                     "--pattern " + pattern.name + " matched '" + value + "', which is not a whole number >= 1");
  return static_cast<int>(*number);
}

std::string PatternPlace(const OutputPattern& pattern, const PatternValue& found) {
  return "--pattern " + pattern.name + (found.line > 0 ? ", line " + std::to_string(found.line) : ", the file's path");
}

}  // namespace qnm
