#include "textio/text_lines.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>

namespace qnm {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (IsBlank(text.front()) || text.front() == '\n')) text.remove_prefix(1);
  while (!text.empty() && (IsBlank(text.back()) || text.back() == '\n')) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> SplitFields(std::string_view line, char separator) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i)
    if (i == line.size() || line[i] == separator) {
      out.push_back(Trim(line.substr(start, i - start)));
      start = i + 1;
    }
  return out;
}

std::vector<std::string_view> SplitWhitespace(std::string_view text) {
  std::vector<std::string_view> tokens;
  tokens.reserve(12);
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && IsBlank(text[i])) ++i;
    std::size_t start = i;
    while (i < text.size() && !IsBlank(text[i])) ++i;
    if (i > start) tokens.push_back(text.substr(start, i - start));
  }
  return tokens;
}

std::vector<std::string> SplitCsvCells(std::string_view line, char separator) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  auto flush = [&] {
    cells.emplace_back(Trim(cell));
    cell.clear();
  };
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') cell += c, ++i;  // "" inside quotes
    else if (c == '"') quoted = !quoted;
    else if (c == separator && !quoted) flush();
    else cell += c;
  }
  flush();
  return cells;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string DetailKey(std::string_view name) {
  std::string key;
  for (char c : ToLower(name)) {
    if (std::isalnum(static_cast<unsigned char>(c))) key += c;
    else if (!key.empty() && key.back() != '_') key += '_';
  }
  while (!key.empty() && key.back() == '_') key.pop_back();
  return key;
}

bool SplitAtFirst(std::string_view text, char separator, std::string_view* key, std::string_view* value) {
  const std::size_t at = text.find(separator);
  if (at == std::string_view::npos || Trim(text.substr(0, at)).empty()) return false;
  *key = Trim(text.substr(0, at));
  *value = Trim(text.substr(at + 1));
  return true;
}

bool SplitAtFirstColon(std::string_view text, std::string_view* key, std::string_view* value) {
  return SplitAtFirst(text, ':', key, value);
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool BeginsALine(std::string_view text, std::string_view needle) {
  for (std::size_t at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1)) {
    std::size_t i = at;
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t')) --i;
    if (i == 0 || text[i - 1] == '\n' || text[i - 1] == '\r') return true;
  }
  return false;
}

std::string JoinWords(const std::vector<std::string_view>& words, std::size_t begin, std::size_t end) {
  std::string joined;
  for (std::size_t i = begin; i < end && i < words.size(); ++i) {
    if (i > begin) joined += ' ';
    joined += words[i];
  }
  return joined;
}

bool AllDigits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<double> ParseDouble(std::string_view token) {
  if (token.empty() || token.size() > 64) return std::nullopt;
  // Decimal only, the whole token: from_chars (general format) takes no hex
  // and no trailing text, so "0x10" and "12abc" are refused (issue 19); a
  // leading '+' is the one thing reports print that it does not take.
  if (token.front() == '+') {
    token.remove_prefix(1);
    if (token.empty() || token.front() == '-' || token.front() == '+') return std::nullopt;
  }
  double value = 0;
  auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (end != token.data() + token.size()) return std::nullopt;
  if (error == std::errc::result_out_of_range) {
    // from_chars leaves the value unset; the token is known to be decimal now,
    // so strtod gives what it means: inf on overflow (refused by the
    // plausibility checks with the number shown), a subnormal or 0 below.
    char buffer[72];
    token.copy(buffer, token.size());
    buffer[token.size()] = '\0';
    return std::strtod(buffer, nullptr);
  }
  if (error != std::errc()) return std::nullopt;
  return value;
}

std::optional<long long> ParseInteger(std::string_view token) {
  if (token.empty() || token.size() > 20) return std::nullopt;
  long long fast = 0;
  auto [end_fast, error] = std::from_chars(token.data(), token.data() + token.size(), fast);
  if (error == std::errc() && end_fast == token.data() + token.size()) {
    constexpr long long kFastLimit = 1LL << 62;
    if (fast > kFastLimit || fast < -kFastLimit) return std::nullopt;
    return fast;
  }
  char buffer[24];
  token.copy(buffer, token.size());
  buffer[token.size()] = '\0';
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(buffer, &end, 10);
  if (end != buffer + token.size() || errno == ERANGE) return std::nullopt;
  constexpr long long kLimit = 1LL << 62;
  if (value > kLimit || value < -kLimit) return std::nullopt;
  return value;
}

std::string BaseName(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string JoinNonEmpty(const std::vector<std::string>& words, const char* separator) {
  std::string out;
  for (const std::string& word : words)
    if (!word.empty()) out += (out.empty() ? "" : separator) + word;
  return out;
}

}  // namespace qnm
