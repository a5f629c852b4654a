#include "reader/host_names.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <regex>
#include <set>

#include "textio/text_lines.h"
#include "util/text_format.h"

namespace qnm {
namespace {

bool IsSeparator(char c) { return c == '-' || c == '_'; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string HostStem(const std::string& host) {
  std::string name = ToLower(Trim(host));
  name = name.substr(0, name.find('.'));  // "cab36.llnl.gov" -> "cab36"
  // HPE Cray EX names a node by where it sits, x<cabinet>c<chassis>s<slot>b<board>n<node>
  // ("x4013c2s1b0n0" on Aurora, "x3004c0s13b0n0" on Polaris): every number is the node's place.
  static const std::regex kCrayExName("x[0-9]+c[0-9]+s[0-9]+b[0-9]+n[0-9]+");
  if (!name.empty() && name[0] == 'x' && std::regex_match(name, kCrayExName)) return std::string(kCrayExNodeStem);
  // Drop the trailing node number with the separators around it: "c401-102" ->
  // "c", "graphene-12" -> "graphene", "nid00012" -> "nid".
  std::size_t end = name.size();
  while (end > 0 && (IsDigit(name[end - 1]) || IsSeparator(name[end - 1]))) --end;
  // A short node id with digits after a separator is a node suffix too: "zarate-4d" -> "zarate".
  std::size_t separator = name.find_last_of("-_", end == 0 ? 0 : end - 1);
  if (separator != std::string::npos && separator > 0 && end - separator - 1 <= 3 &&
      std::any_of(name.begin() + separator + 1, name.begin() + end, IsDigit))
    end = separator;
  return name.substr(0, end);
}

std::string MachineFromHosts(const std::vector<std::string>& hosts) {
  std::set<std::string> stems;
  for (const std::string& host : hosts) {
    std::string stem = HostStem(host);
    if (!stem.empty()) stems.insert(stem);
  }
  if (stems.empty()) return "";
  if (stems.size() == 1) return *stems.begin();
  const std::string& first = *stems.begin();
  std::size_t common = first.size();
  for (const std::string& stem : stems) {
    std::size_t k = 0;
    while (k < common && k < stem.size() && stem[k] == first[k]) ++k;
    common = k;
  }
  std::string prefix = first.substr(0, common);
  while (!prefix.empty() && IsSeparator(prefix.back())) prefix.pop_back();
  if (prefix.size() >= 3) return prefix;
  std::string joined;
  for (const std::string& stem : stems) joined += (joined.empty() ? "" : "+") + stem;
  return joined;
}

bool IsGenericNodeStem(const std::string& stem) {
  return stem == "nid" || stem == "node" || stem == "compute" || stem == "cn" || stem == kCrayExNodeStem;
}

std::string CpuModelName(const std::string& brand) {
  std::string text = brand.substr(0, brand.find('@'));  // the clock after '@' is not the model
  for (const char* mark : {"(R)", "(r)", "(TM)", "(tm)"})
    for (std::size_t at; (at = text.find(mark)) != std::string::npos;) text.erase(at, std::strlen(mark));
  std::string model;
  for (std::string_view word : SplitWhitespace(text)) {
    const std::string lower = ToLower(word);
    // Vendor and filler words; "64-Core" and "Processor" say nothing of the model.
    // Intel's tools name a part by its code name: "Intel(R) Xeon(R) Processor code named Sapphirerapids".
    if (lower == "intel" || lower == "amd" || lower == "cpu" || lower == "processor" || lower == "unknown" ||
        lower == "brand" || lower == "code" || lower == "named" || EndsWith(lower, "-core"))
      continue;
    model += (model.empty() ? "" : " ") + std::string(word);
  }
  return model;
}

std::vector<std::string> ExpandNodeList(const std::string& node_list, std::size_t limit) {
  std::vector<std::string> hosts;
  std::string text(Trim(node_list));
  std::size_t at = 0;
  while (at < text.size() && hosts.size() < limit) {
    // One item: "name", "name[ranges]" or "name[ranges]suffix", up to a ',' outside brackets.
    std::size_t open = text.find_first_of("[,", at);
    if (open == std::string::npos || text[open] == ',') {
      std::size_t end = open == std::string::npos ? text.size() : open;
      if (end > at) hosts.push_back(text.substr(at, end - at));
      at = end + 1;
      continue;
    }
    std::size_t close = text.find(']', open);
    if (close == std::string::npos) {  // unbalanced: keep what precedes the bracket
      hosts.push_back(text.substr(at, open - at));
      break;
    }
    std::string prefix = text.substr(at, open - at);
    std::string ranges = text.substr(open + 1, close - open - 1);
    std::size_t next = text.find(',', close);
    std::string suffix = text.substr(close + 1, (next == std::string::npos ? text.size() : next) - close - 1);
    std::size_t start = 0;
    while (start <= ranges.size() && hosts.size() < limit) {
      std::size_t comma = ranges.find(',', start);
      std::string range = ranges.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      std::size_t dash = range.find('-');
      auto low = ParseInteger(range.substr(0, dash));
      auto high = dash == std::string::npos ? low : ParseInteger(range.substr(dash + 1));
      if (low && high && *low <= *high && *high - *low < static_cast<long long>(limit)) {
        std::size_t width = dash == std::string::npos ? range.size() : dash;  // keep zero padding
        for (long long n = *low; n <= *high && hosts.size() < limit; ++n) {
          std::string number = std::to_string(n);
          if (number.size() < width) number.insert(0, width - number.size(), '0');
          hosts.push_back(prefix + number + suffix);
        }
      }
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    at = next == std::string::npos ? text.size() : next + 1;
  }
  return hosts;
}

std::string DescribeHosts(const std::vector<std::string>& hosts, std::size_t limit) {
  std::vector<std::string> distinct;
  for (const std::string& host : hosts)
    if (std::find(distinct.begin(), distinct.end(), host) == distinct.end()) distinct.push_back(host);
  std::string out;
  for (std::size_t k = 0; k < distinct.size() && k < limit; ++k) out += (k ? " " : "") + distinct[k];
  if (distinct.size() > limit) out += " ... (" + std::to_string(distinct.size()) + " hosts)";
  return out;
}

}  // namespace qnm
