#pragma once
// Output patterns: how a user tells the tool where any program's output says its run time and
// process count (`--pattern FIELD=REGEX`, repeatable), for the outputs no reader of ours knows.
// JUBE's pattern sets (Lührs et al. 2016, "Flexible and Generic Workflow Management", §3.3) serve
// the same need in benchmarking workflows: one regular expression with one group per value.
//
// A pattern is a regular expression (Boost.Regex, Perl syntax) with exactly one capture group,
// matched against each line of a file on its own; the group of the last matching line is the
// value (a log's summary comes last; per-step lines come before it). docs/formats/output-patterns.md.
#include <string>

#include <boost/regex.hpp>

namespace qnm {

/// The record fields a pattern may fill, for messages: "time (s; or time_ms, time_us, time_min,
/// time_h), procs, threads, nodes, ranks_per_node, app, class".
const char* OutputPatternFieldList();

struct OutputPattern {
  std::string field;  // "time_s", "procs", "threads", "nodes", "ranks_per_node", "app", "class"
  std::string name;   // what the user wrote before '=' ("time_ms"), for messages
  std::string text;   // the regular expression as written
  boost::regex regex;
  double seconds_per_unit = 0;  // time fields: seconds per captured unit; 0 otherwise

  bool IsTime() const { return seconds_per_unit > 0; }
  bool IsText() const { return field == "app" || field == "class"; }
};

/// Parses "FIELD=REGEX" ("time=hydro cycle run time=\s*(\S+)": the first '=' ends the field).
/// Throws std::invalid_argument naming what is wrong: an unknown field, an empty or malformed
/// expression, or one without exactly one capture group.
OutputPattern ParseOutputPattern(const std::string& spec);

}  // namespace qnm
