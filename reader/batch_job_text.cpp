// Words of batch systems' job records (batch_job_text.h).
#include "reader/batch_job_text.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>
#include <vector>

#include "textio/text_lines.h"

namespace qnm {
std::optional<double> ClockTimeSeconds(std::string_view text) {
  double days = 0;
  const std::size_t dash = text.find('-');
  if (dash != std::string_view::npos) {
    const std::optional<long long> d = AllDigits(text.substr(0, dash)) ? ParseInteger(text.substr(0, dash))
                                                                      : std::nullopt;
    if (!d) return std::nullopt;
    days = static_cast<double>(*d);
    text = text.substr(dash + 1);
  }
  std::vector<std::string_view> parts = SplitFields(text, ':');
  if (parts.size() < 2 || parts.size() > 3) return std::nullopt;
  double seconds = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const bool last = i + 1 == parts.size();
    const std::string_view part = parts[i];
    if (part.empty() || (!last && !AllDigits(part))) return std::nullopt;
    const std::optional<double> value = ParseDouble(part);
    if (!value || !(*value >= 0) || (i > 0 && *value >= 60)) return std::nullopt;
    seconds = seconds * 60 + *value;
  }
  if (dash != std::string_view::npos && parts.size() != 3) return std::nullopt;
  return days * 86400 + seconds;
}

std::string JobNameWithoutCounts(const std::string& name, int procs, int nodes) {
  // A word that names a count: "64", "n64", "np64", "p64", "N4", "64p", "4nodes", "nodes4", "128ranks".
  static const std::set<std::string> kCountWords = {"", "n", "np", "p", "c", "nodes", "node", "ranks", "rank",
                                                    "procs", "proc", "tasks", "task", "mpi"};
  auto names_count = [&](std::string word) {
    word = ToLower(word);
    const std::size_t first = word.find_first_of("0123456789");
    if (first == std::string::npos) return false;
    std::size_t last = first;
    while (last < word.size() && std::isdigit(static_cast<unsigned char>(word[last]))) ++last;
    if (!kCountWords.count(word.substr(0, first)) || !kCountWords.count(word.substr(last))) return false;
    const std::optional<long long> number = ParseInteger(word.substr(first, last - first));
    return number && ((procs > 0 && *number == procs) || (nodes > 0 && *number == nodes));
  };
  // The name as words and the separators before them; a count word goes with the separator before
  // it (after it, when it leads): "lmp-64" -> "lmp", "64-lmp" -> "lmp", "-in" -> "-in".
  std::vector<std::pair<std::string, std::string>> parts;  // (separators before, word)
  std::string separators;
  std::size_t start = 0;
  for (std::size_t c = 0; c <= name.size(); ++c) {
    const bool separator = c < name.size() && (name[c] == '-' || name[c] == '_' || name[c] == '.' || name[c] == ' ');
    if (c < name.size() && !separator) continue;
    if (c > start) {
      parts.emplace_back(separators, name.substr(start, c - start));
      separators.clear();
    }
    if (separator) separators += name[c];
    start = c + 1;
  }
  std::string out;
  bool dropped_lead = false;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (names_count(parts[p].second)) {
      dropped_lead = out.empty();
      continue;
    }
    out += (dropped_lead && out.empty() && p > 0) ? parts[p].first.substr(1) : parts[p].first;
    out += parts[p].second;
    dropped_lead = false;
  }
  return out + separators;
}

std::string ProgramArguments(const std::string& submit_line, const std::string& program, int procs, int nodes) {
  const std::vector<std::string_view> words = SplitWhitespace(submit_line);
  std::size_t at = 0;
  while (at < words.size() && BaseName(std::string(words[at])) != program) ++at;
  std::vector<std::string> arguments;
  for (std::size_t w = at + 1; w < words.size(); ++w) {
    std::string word = JobNameWithoutCounts(std::string(words[w]), procs, nodes);
    if (!word.empty()) arguments.push_back(std::move(word));
  }
  return JoinNonEmpty(arguments, " ");
}

}  // namespace qnm
