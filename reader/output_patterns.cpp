#include "reader/output_patterns.h"

#include <stdexcept>

#include "textio/time_units.h"

namespace qnm {

const char* OutputPatternFieldList() {
  return "time (seconds; or time_ms, time_us, time_min, time_h), procs, threads, nodes, ranks_per_node, app, class";
}

OutputPattern ParseOutputPattern(const std::string& spec) {
  const std::size_t equals = spec.find('=');
  if (equals == std::string::npos || equals == 0)
    throw std::invalid_argument("'" + spec + "' is not FIELD=REGEX (fields: " + OutputPatternFieldList() + ")");
  OutputPattern pattern;
  pattern.name = spec.substr(0, equals);
  pattern.text = spec.substr(equals + 1);
  const std::string& name = pattern.name;
  if (name == "time" || name == "time_s") {
    pattern.field = "time_s";
    pattern.seconds_per_unit = 1.0;
  } else if (name.rfind("time_", 0) == 0 && SecondsPerTimeUnit(name.substr(5)) > 0) {
    pattern.field = "time_s";
    pattern.seconds_per_unit = SecondsPerTimeUnit(name.substr(5));
  } else if (name == "procs" || name == "threads" || name == "nodes" || name == "ranks_per_node" || name == "app" ||
             name == "class") {
    pattern.field = name;
  } else {
    throw std::invalid_argument("unknown field '" + name + "' (fields: " + OutputPatternFieldList() + ")");
  }
  if (pattern.text.empty()) throw std::invalid_argument(name + ": empty regular expression");
  try {
    pattern.regex = boost::regex(pattern.text, boost::regex::perl);
  } catch (const boost::regex_error& error) {
    throw std::invalid_argument(name + ": '" + pattern.text + "' is not a regular expression (" + error.what() + ")");
  }
  if (pattern.regex.mark_count() != 1)
    throw std::invalid_argument(name + ": '" + pattern.text + "' has " + std::to_string(pattern.regex.mark_count()) +
                                " capture groups; it needs exactly one, around the value (use (?:...) for others)");
  return pattern;
}

}  // namespace qnm
