#include "whatif/region_names.h"

#include <algorithm>
#include <cctype>

#include "util/input_error.h"

namespace qnm::trace {

std::size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                  std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> ClosestNames(const std::vector<std::string>& names,
                                      const std::string& wanted, std::size_t count) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const std::string& name : names) scored.push_back({EditDistance(name, wanted), name});
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < count; ++i) out.push_back(scored[i].second);
  return out;
}

std::vector<std::string> RegionNames(const Trace& trace) {
  std::vector<std::string> names;
  for (uint32_t r = 0; r < trace.call_paths.region_count(); ++r)
    if (trace.call_paths.HasRegion(r)) names.push_back(trace.call_paths.region(r).name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

void RequireRegionNamed(const Trace& trace, const Hypothesis& h) {
  bool named = h.kind == HypothesisKind::kBalanceRegion || h.kind == HypothesisKind::kScaleRegion ||
               h.kind == HypothesisKind::kCutRegion ||
               (h.kind == HypothesisKind::kCutMessages && h.field == MessageField::kRegion);
  if (!named) return;
  std::vector<std::string> names = RegionNames(trace);
  if (std::binary_search(names.begin(), names.end(), h.region)) return;
  std::string message = h.Describe() + ": no region named \"" + h.region + "\" in " + trace.path;
  std::vector<std::string> closest = ClosestNames(names, h.region);
  for (std::size_t i = 0; i < closest.size(); ++i)
    message += (i == 0 ? "; closest: \"" : ", \"") + closest[i] + "\"";
  throw InputError(h.source, h.line, message);
}

}  // namespace qnm::trace
