#include "paraver/paraver_names.h"

#include <cctype>
#include <optional>

#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

enum class PcfBlock { kOther, kStates, kEventType, kValues };

PcfBlock BlockOf(std::string_view keyword) {
  if (keyword == "STATES") return PcfBlock::kStates;
  if (keyword == "EVENT_TYPE") return PcfBlock::kEventType;
  if (keyword == "VALUES") return PcfBlock::kValues;
  return PcfBlock::kOther;  // DEFAULT_OPTIONS, STATES_COLOR, GRADIENT_NAMES, ... and their lines
}

// "<number> <rest of the line>": the number and the trimmed rest.
std::int64_t LeadingNumber(std::string_view line, const std::string& path, int line_number, std::string_view* rest) {
  const std::size_t end = line.find_first_of(" \t");
  const std::optional<long long> number = ParseInteger(line.substr(0, end));
  if (!number) throw InputError(path, line_number, "Paraver configuration: '" + std::string(line.substr(0, 40)) +
                                                       "' does not start with a number");
  *rest = end == std::string_view::npos ? std::string_view{} : Trim(line.substr(end));
  return *number;
}

}  // namespace

std::string ParaverNames::ValueName(std::int64_t type, std::int64_t value) const {
  const auto type_it = event_types.find(type);
  if (type_it == event_types.end()) return {};
  const auto value_it = type_it->second.values.find(value);
  return value_it == type_it->second.values.end() ? std::string{} : value_it->second;
}

void ParseParaverPcf(std::string_view text, const std::string& path, ParaverNames* names) {
  PcfBlock block = PcfBlock::kOther;
  std::vector<std::int64_t> group;  // the event types of the current EVENT_TYPE block: its VALUES name them all
  const std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = Trim(lines[i]);
    const int line_number = static_cast<int>(i) + 1;
    if (line.empty()) continue;
    const unsigned char first = static_cast<unsigned char>(line.front());
    if (!(std::isdigit(first) || first == '-')) {  // a block's keyword (or a line of a block we skip)
      block = BlockOf(SplitWhitespace(line).front());
      if (block == PcfBlock::kEventType) group.clear();
      continue;
    }
    std::string_view rest;
    switch (block) {
      case PcfBlock::kStates: {
        const std::int64_t state = LeadingNumber(line, path, line_number, &rest);
        names->states[static_cast<int>(state)] = std::string(rest);
        break;
      }
      case PcfBlock::kEventType: {  // "<gradient> <type> <name>"
        LeadingNumber(line, path, line_number, &rest);
        const std::int64_t type = LeadingNumber(rest, path, line_number, &rest);
        names->event_types[type].name = std::string(rest);
        group.push_back(type);
        break;
      }
      case PcfBlock::kValues: {
        const std::int64_t value = LeadingNumber(line, path, line_number, &rest);
        for (std::int64_t type : group) names->event_types[type].values[value] = std::string(rest);
        break;
      }
      case PcfBlock::kOther: break;
    }
  }
}

void ParseParaverRow(std::string_view text, const std::string& path, ParaverNames* names) {
  const std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::vector<std::string_view> words = SplitWhitespace(lines[i]);
    if (words.size() != 4 || words[0] != "LEVEL" || words[2] != "SIZE") continue;
    const std::optional<long long> size = ParseInteger(words[3]);
    const int line_number = static_cast<int>(i) + 1;
    if (!size || *size < 0 || *size > 10'000'000)
      throw InputError(path, line_number, "Paraver row file: LEVEL " + std::string(words[1]) +
                                              " SIZE needs a count, got '" + std::string(words[3]) + "'");
    if (i + static_cast<std::size_t>(*size) >= lines.size())
      throw InputError(path, line_number, "Paraver row file: LEVEL " + std::string(words[1]) + " names " +
                                              std::to_string(*size) + " rows, but the file ends before them");
    if (words[1] == "NODE") {
      names->node_names.clear();
      for (long long n = 1; n <= *size; ++n) names->node_names.emplace_back(Trim(lines[i + static_cast<std::size_t>(n)]));
    }
    i += static_cast<std::size_t>(*size);
  }
}

}  // namespace qnm
