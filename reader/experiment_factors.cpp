#include "reader/experiment_factors.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "textio/text_lines.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::size_t kShownValueChars = 40;  // a factor's value in the series name, at most

/// The setting's value in `run` ("" when the run does not have it).
std::string ValueOf(const RunStats& run, const std::string& key) {
  if (key == kProblemSizeSetting) return std::string(Trim(run.problem_size.str()));
  if (key == kRanksPerNodeSetting) return run.ranks_per_node > 0 ? std::to_string(run.ranks_per_node) : std::string();
  auto found = run.details.find(key);
  return found == run.details.end() ? std::string() : std::string(Trim(found->second));
}

/// "InputSize" for "adiak.InputSize": the name without its tool's prefix; "size" for the problem size.
std::string ShortName(const std::string& key) {
  if (key == kProblemSizeSetting) return "size";
  if (key == kRanksPerNodeSetting) return "rpn";
  const std::size_t dot = key.rfind('.');
  return dot == std::string::npos || dot + 1 == key.size() ? key : key.substr(dot + 1);
}

/// `factors` without those that name the same split as an earlier one: a table's `scale`, `m`, `n` and
/// `unknowns` columns that each tell the same five grids apart are one factor, shown by the first.
/// Two factors split alike when, over the runs holding both, each value of one goes with one value
/// of the other.
std::vector<std::string> WithoutRedundantFactors(const std::vector<RunStats*>& members,
                                                 const std::vector<std::string>& factors) {
  auto same_split = [&](const std::string& a, const std::string& b) {
    std::map<std::string, std::string> b_of_a, a_of_b;
    for (const RunStats* run : members) {
      const std::string va = ValueOf(*run, a), vb = ValueOf(*run, b);
      if (va.empty() || vb.empty()) continue;
      if (!b_of_a.try_emplace(va, vb).first->second.empty() && b_of_a[va] != vb) return false;
      if (!a_of_b.try_emplace(vb, va).first->second.empty() && a_of_b[vb] != va) return false;
    }
    return true;
  };
  std::vector<std::string> kept;
  for (const std::string& factor : factors)
    if (std::none_of(kept.begin(), kept.end(), [&](const std::string& k) { return same_split(k, factor); }))
      kept.push_back(factor);
  return kept;
}

/// The settings of `members` (runs of one series) that are experiment factors (header).
std::vector<std::string> FactorsOf(const std::vector<RunStats*>& members) {
  std::set<std::string> keys;
  std::set<int> procs;
  for (const RunStats* run : members) {
    procs.insert(run->procs);
    if (!run->problem_size.empty()) keys.insert(kProblemSizeSetting);
    if (run->ranks_per_node > 0) keys.insert(kRanksPerNodeSetting);
    for (const auto& [key, value] : run->details)
      if (IsRunSetting(key)) keys.insert(key);
  }
  std::vector<std::string> factors;
  if (procs.size() < 2) return factors;  // one process count: no series to keep apart
  for (const std::string& key : keys) {
    std::map<int, std::set<std::string>> values_at;       // procs -> values
    std::map<std::string, std::set<int>> procs_of_value;  // value -> procs
    for (const RunStats* run : members) {
      const std::string value = ValueOf(*run, key);
      if (value.empty()) continue;  // not known for this run: no vote (an mpiP report without its NPB output)
      values_at[run->procs].insert(value);
      procs_of_value[value].insert(run->procs);
    }
    bool differs_at_one_point = false;
    for (const auto& [p, values] : values_at) differs_at_one_point |= values.size() > 1;
    int recurring = 0;
    for (const auto& [value, at] : procs_of_value) recurring += at.size() >= 2;
    if (differs_at_one_point && recurring >= 2) factors.push_back(key);
  }
  return WithoutRedundantFactors(members, factors);
}

/// Adds the factors' `words` to the part of the series key that `run` has: its explicit series name
/// (a table's series column, or its file's name: KeyOf reads that alone), else its configuration.
void AddToKey(const std::string& words, const std::string& why, RunStats* run) {
  const char* field = run->series.empty() ? "variant" : "series";
  SharedText& text = run->series.empty() ? run->variant : run->series;
  auto earlier = run->derivations.find(field);
  if (text.empty())
    run->derivations[field] = why;
  else
    run->derivations[field] =
        (earlier != run->derivations.end() ? earlier->second
                                           : std::string(run->series.empty() ? "run-configuration words of the file name"
                                                                             : "statistics table column series")) +
        "; " + why;
  text = text.empty() ? words : run->series.empty() ? text.str() + " " + words : text.str() + " (" + words + ")";
}

}  // namespace

void SetCommandArguments(std::string_view command, RunStats* run) {
  const std::vector<std::string_view> words = SplitWhitespace(command);
  if (words.empty()) return;
  if (words[0].size() > 1 && words[0][0] == '/') {
    const std::filesystem::path folder = std::filesystem::path(std::string(words[0])).lexically_normal().parent_path();
    std::vector<std::string> parts;
    for (const std::filesystem::path& part : folder.relative_path()) parts.push_back(part.string());
    if (!parts.empty())
      run->details[kProgramFolderSetting] =
          parts.size() == 1 ? parts.back() : parts[parts.size() - 2] + "/" + parts.back();
  }
  if (words.size() < 2) return;
  std::string arguments;
  for (std::size_t w = 1; w < words.size(); ++w) arguments += (w > 1 ? " " : "") + std::string(words[w]);
  run->details[kCommandArgumentsSetting] = arguments;
}

bool TableRowMayBeInSeries(const RunStats& run, const std::string& filter_lower) {
  if (run.series.empty() || run.sources.size() != 1) return true;  // not one source's named row: not filtered
  if (ToLower(run.series.str()).find(filter_lower) != std::string::npos) return true;
  // A row with a setting of its own input is kept whatever the filter: the split needs every value of the
  // setting (a row of one operation left alone is no split, and its series keeps the unsplit name).
  if (!Trim(run.problem_size.str()).empty()) return true;
  for (const auto& [key, value] : run.details)
    if (IsRunSetting(key) && !Trim(value).empty()) return true;
  // Its layout splits a series only beside other layouts; kept when the filter may name one.
  if (run.ranks_per_node <= 0) return false;
  const std::string layout = "rpn=" + std::to_string(run.ranks_per_node);
  return filter_lower.find_first_of("(=") != std::string::npos || layout.find(filter_lower) != std::string::npos;
}

bool IsRunSetting(const std::string& key) {
  for (const char* prefix : kSettingPrefixes)
    if (key.rfind(prefix, 0) == 0) return !VariesPerRun(key);
  return false;
}

bool VariesPerRun(const std::string& key) {
  const std::string lower = ToLower(key);
  // "mop": NPB's Mop/s is computed from the measured time, a result and not a setting; "perf_":
  // ReFrame's other performance variables (reframe_perf_gflops), results too; "merit": a figure of
  // merit a program gives Adiak (LULESH's figure_of_merit), another result; "flops": a rate from the
  // time (HPL's Gflops, miniFE's Mflops); "rss": memory a run used (miniFE's Max-RSS); "fom": a figure
  // of merit by its short name (AMG's FOM_Setup).
  for (const char* word : {"time", "elapsed", "memory", "date", "pid", "start", "stop", "host", "repetition", "mop",
                           "jobid", "nodelist", "perf_", "merit", "flops", "rss", "fom"})
    if (lower.find(word) != std::string::npos) return true;
  return false;
}

std::vector<std::string> SplitByExperimentFactors(std::vector<RunStats>* runs) {
  std::map<SeriesKey, std::vector<RunStats*>> series;
  for (RunStats& run : *runs)
    if (!run.details.empty() || !run.problem_size.empty() || run.ranks_per_node > 0) series[KeyOf(run)].push_back(&run);
  std::vector<std::string> notes;
  for (auto& [key, members] : series) {
    const std::vector<std::string> factors = FactorsOf(members);
    if (factors.empty()) continue;
    std::string names;
    for (const std::string& factor : factors) names += (names.empty() ? "" : ", ") + factor;
    std::set<std::string> parts;
    for (RunStats* run : members) {
      std::string words;
      for (const std::string& factor : factors) {
        std::string value = ValueOf(*run, factor);
        if (value.empty()) continue;  // unknown for this run: no word
        if (value.size() > kShownValueChars) value = value.substr(0, kShownValueChars) + "…";
        words += (words.empty() ? "" : " ") + ShortName(factor) + "=" + value;
      }
      parts.insert(words);
      if (words.empty()) continue;  // knows none of the factors: stays where it was
      AddToKey(words, "settings that take several values at one process count, each value at several process "
                      "counts: " + names, run);
    }
    // A table's series name leaves out the threads: said here, where one name may hold several thread counts.
    notes.push_back("series " + (key.threads_per_proc > 1 ? key.ToStringWithThreads() : key.ToString()) +
                    ": its runs at one process count differ in " + names +
                    " (values recurring at other process counts): kept apart as " + std::to_string(parts.size()) +
                    " series, not taken as repetitions");
  }
  return notes;
}

}  // namespace qnm
