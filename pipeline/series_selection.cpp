#include "pipeline/series_selection.h"

#include <utility>

#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// The names a series answers to: its display name and, for table rows, the
// explicit series name (the display name adds " in <group>" when grouped).
bool NameIs(const Series& series, const std::string& name, bool ignore_case) {
  auto same = [&](const std::string& candidate) {
    return ignore_case ? ToLower(candidate) == ToLower(name) : candidate == name;
  };
  return same(series.name) || (!series.key.series.empty() && same(series.key.series));
}

std::string Names(const std::vector<const Series*>& series) {
  std::string out;
  for (const Series* one : series) out += (out.empty() ? "" : "; ") + one->name;
  return out;
}

}  // namespace

std::vector<Series> SelectSeries(std::vector<Series> all, const std::string& name) {
  if (name.empty()) return all;
  for (bool ignore_case : {false, true}) {
    std::vector<Series> exact;
    for (Series& series : all)
      if (NameIs(series, name, ignore_case)) exact.push_back(series);
    if (!exact.empty()) return exact;
  }
  std::vector<const Series*> containing;
  for (const Series& series : all)
    if (ToLower(series.name).find(ToLower(name)) != std::string::npos) containing.push_back(&series);
  if (containing.size() == 1) return {*containing.front()};
  if (containing.size() > 1)
    throw InputError("", 0, "--series '" + name + "' is part of " + std::to_string(containing.size()) +
                                " series names; give one exactly: " + Names(containing));
  std::vector<const Series*> every;
  for (const Series& series : all) every.push_back(&series);
  throw InputError("", 0, "no series matches --series '" + name + "' (have: " + Names(every) + ")");
}

}  // namespace qnm
