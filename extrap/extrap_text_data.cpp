// Extra-P's text format as Extra-P 4.2 reads it (extrap/fileio/file_reader/
// text_file_reader.py; docs/formats/extrap.md): PARAMETER lines (several
// names each, several lines), POINTS lines (several, appended) whose points
// are "(a b) (c d)", "( a )( b )" or, for one parameter, "a b c"; REGION and
// METRIC in any order, each starting the next DATA run at the first point;
// a DATA line holds one point's repetitions. No METRIC means metric "", no
// REGION call path "" (Extra-P's own defaults).
#include <algorithm>

#include "extrap/extrap_data.h"
#include "extrap/extrap_data_builder.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/utf8_text.h"

namespace qnm {
namespace {

constexpr std::size_t kMaxParameters = 4;  // Extra-P's text reader refuses more

// Extra-P opens the file as UTF-8 text and refuses other bytes (binary
// Extra-P 3 experiments, .extra-p files): the line of the first bad byte, or 0.
int FirstInvalidUtf8Line(std::string_view text) {
  int line = 1;
  for (std::size_t k = 0; k < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[k]);
    if (c == '\n') ++line;
    std::size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || k + length > text.size()) return line;
    for (std::size_t i = 1; i < length; ++i)
      if ((static_cast<unsigned char>(text[k + i]) >> 6) != 0x2) return line;
    if (length == 2 && c < 0xC2) return line;  // overlong
    k += length;
  }
  return 0;
}

std::vector<std::vector<double>> ParsePoints(std::string_view rest, std::size_t parameters, const std::string& path,
                                             int line) {
  std::vector<std::vector<double>> points;
  if (rest.find('(') == std::string_view::npos) {
    // Without parentheses every token is a point of one coordinate.
    for (std::string_view token : SplitWhitespace(rest)) points.push_back({ParseExtrapNumber(token, path, line)});
    return points;
  }
  std::size_t k = 0;
  while (k < rest.size()) {
    if (rest[k] == ' ' || rest[k] == '\t') {
      ++k;
      continue;
    }
    if (rest[k] != '(') throw InputError(path, line, "POINTS: '" + std::string(rest.substr(k, 12)) + "' outside parentheses");
    std::size_t close = rest.find(')', k);
    if (close == std::string_view::npos) throw InputError(path, line, "POINTS: '(' without ')'");
    std::string_view inside = rest.substr(k + 1, close - k - 1);
    if (inside.find('(') != std::string_view::npos) throw InputError(path, line, "POINTS: nested '('");
    std::vector<double> point;
    for (std::string_view token : SplitWhitespace(inside)) point.push_back(ParseExtrapNumber(token, path, line));
    if (point.empty()) throw InputError(path, line, "POINTS: an empty point '()'");
    points.push_back(std::move(point));
    k = close + 1;
  }
  (void)parameters;
  return points;
}

}  // namespace

ExtrapData ParseExtrapTextData(std::string_view text, const std::string& path) {
  if (int bad = FirstInvalidUtf8Line(text))
    throw InputError(path, bad, "not text (bytes that are not UTF-8): a binary file, e.g. an Extra-P 3 .extra-p "
                                "experiment, which Extra-P 4 does not read as text either");
  ExtrapData data;
  std::string callpath, metric;
  bool have_metric = false;
  std::size_t next_point = 0;
  std::map<std::pair<std::string, std::string>, std::size_t> index;  // call path x metric -> measurement
  int line_number = 0;
  bool any = false;
  // A run of DATA lines covers every point: one cut short is refused where
  // it ends (Extra-P refuses it later, as a measurement count).
  auto finish = [&](int line) {
    if (next_point > 0 && next_point < data.points.size())
      throw InputError(path, line, "REGION '" + callpath + "' METRIC '" + (have_metric ? metric : std::string()) +
                                       "' has " + std::to_string(next_point) + " DATA lines for " +
                                       std::to_string(data.points.size()) + " points");
  };
  for (std::string_view raw : SplitLines(text)) {
    ++line_number;
    std::string_view line = Trim(raw);
    if (line.empty() || line[0] == '#') continue;
    any = true;
    std::size_t space = line.find_first_of(" \t");
    std::string keyword(line.substr(0, space));
    std::string_view rest = space == std::string_view::npos ? std::string_view() : Trim(line.substr(space));
    if (keyword == "PARAMETER") {
      if (rest.empty()) throw InputError(path, line_number, "PARAMETER names no parameter");
      for (std::string_view name : SplitWhitespace(rest)) data.parameters.emplace_back(ValidUtf8(name));
    } else if (keyword == "POINTS") {
      if (data.parameters.empty()) throw InputError(path, line_number, "POINTS before any PARAMETER (the file has no parameters)");
      if (data.parameters.size() > kMaxParameters)
        throw InputError(path, line_number, std::to_string(data.parameters.size()) +
                                                " parameters: Extra-P's text format holds at most 4");
      for (std::vector<double>& point : ParsePoints(rest, data.parameters.size(), path, line_number)) {
        data.points.push_back(std::move(point));
        for (ExtrapMeasurement& m : data.measurements) m.values.emplace_back();
      }
    } else if (keyword == "REGION" || keyword == "METRIC") {
      finish(line_number);
      (keyword == "REGION" ? callpath : metric) = ValidUtf8(rest);  // names end up in JSON output
      if (keyword == "METRIC") have_metric = true;
      next_point = 0;
    } else if (keyword == "DATA") {
      if (data.parameters.empty()) throw InputError(path, line_number, "DATA, but the file has no parameters (no PARAMETER line)");
      if (data.parameters.size() > kMaxParameters)
        throw InputError(path, line_number, std::to_string(data.parameters.size()) +
                                                " parameters: Extra-P's text format holds at most 4");
      if (next_point >= data.points.size())
        throw InputError(path, line_number, "more DATA lines than the " + std::to_string(data.points.size()) +
                                                " POINTS for REGION '" + callpath + "' METRIC '" + metric + "'");
      std::vector<double> values;
      for (std::string_view token : SplitWhitespace(rest)) values.push_back(ParseExtrapNumber(token, path, line_number));
      if (values.empty()) throw InputError(path, line_number, "DATA without a value");
      auto [it, added] = index.emplace(std::make_pair(callpath, have_metric ? metric : std::string()), data.measurements.size());
      if (added) data.measurements.push_back({callpath, it->first.second, std::vector<std::vector<double>>(data.points.size())});
      std::vector<double>& slot = data.measurements[it->second].values[next_point];
      if (!slot.empty())
        throw InputError(path, line_number, "REGION '" + callpath + "' METRIC '" + it->first.second +
                                                "' has a second DATA line for point " + DescribePoint(data.points[next_point]));
      slot = std::move(values);
      ++next_point;
    } else {
      throw InputError(path, line_number, "unknown field '" + ValidUtf8(keyword.substr(0, 40)) +
                                              "' (Extra-P text has PARAMETER, POINTS, REGION, METRIC, DATA)");
    }
  }
  if (!any) throw InputError(path, 0, "the file holds no data");
  finish(line_number);
  ValidateExtrapData(data, path);
  return data;
}

}  // namespace qnm
