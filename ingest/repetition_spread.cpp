#include "ingest/repetition_spread.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "reader/experiment_factors.h"
#include "textio/text_lines.h"
#include "util/text_format.h"

namespace qnm {
namespace {

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

struct Point {
  std::vector<const RunStats*> runs;
  double spread = 0;  // (max - min) / median of the times
};

/// The folder `path` is in ("" for a bare name).
std::string FolderOf(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// What tells the runs of a point apart, as far as the records know.
std::string DifferingProperty(const std::vector<const RunStats*>& runs) {
  // Folders first: a campaign keeps each build or configuration in a folder of its own, and the
  // user can say so.
  std::set<std::string> folders;
  for (const RunStats* run : runs) folders.insert(FolderOf(run->sources.front()));
  if (folders.size() > 1) {
    std::string list;
    int shown = 0;
    for (const std::string& folder : folders) {
      if (++shown > 3) {
        list += ", …";
        break;
      }
      list += (list.empty() ? "" : ", ") + BaseName(folder) + "/";
    }
    return "they come from " + std::to_string(folders.size()) + " folders (" + list +
           "): --group-by folder keeps each folder's runs a series of their own";
  }
  std::map<std::string, std::set<std::string>> values;
  for (const RunStats* run : runs) {
    values["data set"].insert(run->data_set);
    values["threads"].insert(std::to_string(run->threads_per_proc));
    values["problem size"].insert(run->problem_size);
    values["allocation"].insert(run->allocation);
  }
  // Ranks per node where the runs say it (a run that does not is no evidence of a difference): the same
  // P on 4 nodes and on 8 (APS reports of one run at 6 and 12 ranks a node).
  std::set<std::string> per_node;
  for (const RunStats* run : runs)
    if (run->ranks_per_node > 0) per_node.insert(std::to_string(run->ranks_per_node));
  if (per_node.size() > 1) values["ranks per node"] = per_node;
  std::set<std::string> keys;
  for (const RunStats* run : runs)
    for (const auto& [key, value] : run->details)
      if (!VariesPerRun(key)) keys.insert(key);
  for (const std::string& key : keys)
    for (const RunStats* run : runs) {  // a run without the detail differs from one with it
      auto found = run->details.find(key);
      values[key].insert(found == run->details.end() ? std::string() : std::string(Trim(found->second)));
    }
  for (const auto& [key, seen] : values)
    if (seen.size() > 1) {
      // Long values (paths, command lines) shown from where they start to differ.
      std::size_t common = seen.begin()->size();
      for (const std::string& v : seen)
        common = std::min(common, static_cast<std::size_t>(
                                      std::mismatch(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::min(v.size(), seen.begin()->size())),
                                                    seen.begin()->begin()).first - v.begin()));
      std::size_t from = common > 8 ? common - 4 : 0;
      std::string list;
      for (const std::string& v : seen)
        list += (list.empty() ? "" : ", ") +
                (v.empty() ? std::string("(none)") : (from > 0 ? "…" : "") + v.substr(std::min(from, v.size()), 28));
      return key + " differs (" + list + ")";
    }
  // Files by name, or by folder/name when the names are all alike (profile.cubex).
  std::set<std::string> files, names;
  for (const RunStats* run : runs) names.insert(BaseName(run->sources.front()));
  for (const RunStats* run : runs) {
    const std::string& path = run->sources.front();
    std::size_t slash = path.rfind('/');
    std::size_t folder = slash == std::string::npos || slash == 0 ? std::string::npos : path.rfind('/', slash - 1);
    files.insert(names.size() > 1 || folder == std::string::npos ? BaseName(path) : path.substr(folder + 1));
  }
  if (files.size() > 1) {
    std::string list;
    int shown = 0;
    for (const std::string& f : files) {
      if (++shown > 4) { list += ", …"; break; }
      list += (list.empty() ? "" : ", ") + f;
    }
    return "no property known to differ; files " + list + " (other thread counts or parameters? say so: th<N> in file names, --parameter NAME for cube sets)";
  }
  return "no property known to differ";
}

/// How a warning starts: the series it is about (SpreadWarningIsAbout matches it).
std::string WarningPrefix(const std::string& series) { return "series " + series + ": "; }

}  // namespace

std::vector<std::string> RepetitionSpreadWarnings(const std::vector<RunStats>& runs) {
  std::map<SeriesKey, std::map<int, Point>> series;
  for (const RunStats& run : runs)
    if (Known(run.TotalTimeSeconds()) && run.TotalTimeSeconds() > 0) series[KeyOf(run)][run.procs].runs.push_back(&run);
  std::vector<std::string> warnings;
  for (auto& [key, points] : series) {
    for (auto& [procs, point] : points) {
      if (point.runs.size() < 2) continue;
      std::vector<double> times;
      for (const RunStats* run : point.runs) times.push_back(run->TotalTimeSeconds());
      auto [low, high] = std::minmax_element(times.begin(), times.end());
      point.spread = (*high - *low) / Median(times);
    }
    for (auto& [procs, point] : points) {
      if (point.runs.size() < 2) continue;
      std::vector<double> others;
      for (auto& [other_procs, other] : points)
        if (other_procs != procs && other.runs.size() >= 2) others.push_back(other.spread);
      double noise = others.empty() ? 0 : Median(others);
      if (point.spread <= std::max(kSpreadFloor, kSpreadOverNoise * noise)) continue;
      std::vector<double> times;
      for (const RunStats* run : point.runs) times.push_back(run->TotalTimeSeconds());
      auto [low, high] = std::minmax_element(times.begin(), times.end());
      char text[200];
      std::snprintf(text, sizeof text, "%zu repetitions at P=%d spread %.4g .. %.4g s (%.0f%% of the median; ",
                    times.size(), procs, *low, *high, 100 * point.spread);
      std::string noise_text = others.empty() ? "no other point to compare with"
                                              : "the series' other points spread " + FormatDouble("%.0f%%", 100 * noise);
      warnings.push_back(WarningPrefix(key.ToString()) + text + noise_text + "): " + DifferingProperty(point.runs) +
                         "; are these one configuration?");
    }
  }
  return warnings;
}

bool SpreadWarningIsAbout(std::string_view warning, const std::string& series) {
  const std::string prefix = WarningPrefix(series);
  return warning.substr(0, prefix.size()) == prefix;
}

}  // namespace qnm
