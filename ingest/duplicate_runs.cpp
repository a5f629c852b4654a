#include "ingest/duplicate_runs.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>

#include "ingest/text_lines.h"
#include "util/text_format.h"

namespace qnm {
namespace {


std::string TableFile(const RunStats& row) {
  const std::string& first = row.sources.front();
  return BaseName(first.substr(0, first.rfind(':')));
}

bool SameConfiguration(const RunStats& a, const RunStats& b) {
  return ToLower(a.app) == ToLower(b.app) && a.problem_class == b.problem_class && a.procs == b.procs;
}

// A table row says threads only when it has a threads column.
bool ThreadsAgree(const RunStats& row, const RunStats& run) {
  return row.derivations.count("threads_per_proc") == 0 || row.threads_per_proc == run.threads_per_proc;
}

bool Differ(const RunStats& a, const RunStats& b, const std::string& detail) {
  auto x = a.details.find(detail), y = b.details.find(detail);
  return x != a.details.end() && y != b.details.end() && Trim(x->second) != Trim(y->second);
}

// Values that tell two runs with equal times apart: Mop/s is printed with 7 or
// more digits and computed from the unrounded time; mpiP names its collector
// process and start time.
bool Distinguishable(const RunStats& a, const RunStats& b) {
  if (Known(a.mops_total) && Known(b.mops_total) &&
      std::fabs(a.mops_total - b.mops_total) > std::max(0.005 + 1e-9, 1e-7 * std::fabs(a.mops_total)))
    return true;
  if (a.iterations > 0 && b.iterations > 0 && a.iterations != b.iterations) return true;
  return Differ(a, b, "mpip.Collector PID") || Differ(a, b, "mpip.Start time") || Differ(a, b, "system");
}

std::regex PatternRegex(const std::string& pattern) {
  std::string expression;
  for (std::size_t k = 0; k < pattern.size(); ++k) {
    char c = pattern[k];
    std::size_t close = c == '<' ? pattern.find('>', k) : std::string::npos;
    if (close != std::string::npos) {
      expression += ".+";
      k = close;
    } else if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) {
      expression += std::string("\\") + c;
    } else {
      expression += c;
    }
  }
  return std::regex(expression);
}

// The file-name part of a pattern: a '/' inside <…> ("<P/4>") is arithmetic, not a folder.
std::string PatternBaseName(const std::string& pattern) {
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t k = 0; k < pattern.size(); ++k) {
    if (pattern[k] == '<') ++depth;
    else if (pattern[k] == '>' && depth > 0) --depth;
    else if (pattern[k] == '/' && depth == 0) start = k + 1;
  }
  return pattern.substr(start);
}

bool IsPattern(const std::string& cited) {
  std::size_t open = cited.find('<');
  return open != std::string::npos && cited.find('>', open) != std::string::npos;
}

void FoldInto(RunStats* kept, RunStats&& dropped, const std::string& why) {
  // A row's cited file is the kept record's own file: keep one name per file.
  for (std::string& source : dropped.sources)
    if (std::none_of(kept->sources.begin(), kept->sources.end(),
                     [&](const std::string& have) { return BaseName(have) == BaseName(source); }))
      kept->sources.push_back(std::move(source));
  if (kept->machine.empty() && !dropped.machine.empty()) {
    kept->machine = dropped.machine;
    auto found = dropped.derivations.find("machine");
    kept->derivations["machine"] =
        (found == dropped.derivations.end() ? std::string("table") : found->second) + " (" + why + ")";
  }
}

}  // namespace

// Statistics-table rows cite "table:line" first, then their `source` column.
bool IsStatisticsTableRow(const RunStats& run) {
  auto found = run.derivations.find("wall_time_s");
  return found != run.derivations.end() && StartsWith(found->second, "statistics table");
}

bool SameTimeWithinPrintPrecision(double a_s, double b_s) {
  if (!Known(a_s) || !Known(b_s)) return false;
  // NPB prints seconds with two decimals; tables copy them. Half the last digit.
  return std::fabs(a_s - b_s) <= 0.005 + 1e-9 * std::max(std::fabs(a_s), std::fabs(b_s));
}

std::string DuplicateSummary::Note() const {
  if (Total() == 0) return "";
  std::string note = std::to_string(Total()) + " duplicate measurement" + (Total() == 1 ? "" : "s") +
                     " of the same runs counted once (";
  std::vector<std::string> parts;
  if (citations) parts.push_back(std::to_string(citations) + " table rows citing a file read");
  if (summaries) parts.push_back(std::to_string(summaries) + " summary rows of runs read");
  if (copies) parts.push_back(std::to_string(copies) + " copies");
  for (std::size_t k = 0; k < parts.size(); ++k) note += (k ? ", " : "") + parts[k];
  note += "; files ";
  for (std::size_t k = 0; k < files.size() && k < 6; ++k) note += (k ? ", " : "") + files[k];
  if (files.size() > 6) note += ", … (" + std::to_string(files.size()) + " files)";
  return note + ")";
}

std::vector<RunStats> CountMeasurementsOnce(std::vector<RunStats> runs, DuplicateSummary* summary) {
  DuplicateSummary local;
  DuplicateSummary& sum = summary ? *summary : local;
  sum = DuplicateSummary{};
  std::vector<bool> dropped(runs.size(), false);
  std::set<std::string> files;
  // Base names of the files the non-table records were read from.
  std::map<std::string, std::vector<std::size_t>> by_file;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (!IsStatisticsTableRow(runs[i]))
      for (const std::string& source : runs[i].sources) by_file[BaseName(source)].push_back(i);

  std::map<std::string, std::vector<std::size_t>> by_citation;  // cited document -> kept rows citing it
  for (std::size_t r = 0; r < runs.size(); ++r) {
    RunStats& row = runs[r];
    if (!IsStatisticsTableRow(row)) continue;
    std::vector<std::string> cites(row.sources.begin() + 1, row.sources.end());
    for (std::size_t c = 1; c < row.sources.size() && !dropped[r]; ++c) {
      const std::string cited = row.sources[c];
      if (IsPattern(cited)) {  // case 3
        std::regex pattern = PatternRegex(PatternBaseName(cited));
        std::size_t summarised = runs.size();  // a matching run, one of equal time preferred
        for (std::size_t i = 0; i < runs.size(); ++i) {
          if (i == r || dropped[i] || !SameConfiguration(row, runs[i])) continue;
          bool matches = std::any_of(runs[i].sources.begin(), runs[i].sources.end(), [&](const std::string& source) {
            return !IsPattern(source) && std::regex_match(BaseName(source), pattern);  // summaries summarise runs
          });
          if (!matches) continue;
          if (summarised == runs.size()) summarised = i;
          if (SameTimeWithinPrintPrecision(row.TotalTimeSeconds(), runs[i].TotalTimeSeconds())) {
            summarised = i;
            break;
          }
        }
        if (summarised < runs.size()) {
          dropped[r] = true;
          ++sum.summaries;
          files.insert(TableFile(row));
          runs[summarised].sources.push_back(row.sources.front());
        }
        continue;
      }
      // Case 2: the file the row cites, or an earlier row citing the same document.
      std::vector<std::size_t> candidates;
      auto found = by_file.find(BaseName(cited));
      if (found != by_file.end()) candidates = found->second;
      auto citing = by_citation.find(cited);
      if (citing != by_citation.end())
        candidates.insert(candidates.end(), citing->second.begin(), citing->second.end());
      for (std::size_t i : candidates) {
        if (i == r || dropped[i] || !SameConfiguration(row, runs[i]) || !ThreadsAgree(row, runs[i]) ||
            !SameTimeWithinPrintPrecision(row.TotalTimeSeconds(), runs[i].TotalTimeSeconds()))
          continue;
        dropped[r] = true;
        ++sum.citations;
        files.insert(TableFile(row));
        FoldInto(&runs[i], std::move(row), "row " + row.sources.front() + " describes this run");
        break;
      }
    }
    if (!dropped[r])
      for (const std::string& cited : cites) by_citation[cited].push_back(r);
  }

  // Case 1: copies. Pairs are only looked for among runs of one series key
  // and process count whose times are close (sorted by time, a window of the
  // print precision), not among all pairs: a series of 100,000 runs took 30 s.
  // Same semantics as the pairwise loop: in input order, each kept run takes
  // every later indistinguishable run of equal time.
  std::map<std::pair<SeriesKey, int>, std::vector<std::size_t>> by_key;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (!dropped[i]) by_key[{KeyOf(runs[i]), runs[i].procs}].push_back(i);
  for (auto& [key, members] : by_key) {
    if (members.size() < 2) continue;
    std::vector<std::pair<double, std::size_t>> by_time;  // (time, position in members)
    for (std::size_t m = 0; m < members.size(); ++m) {
      const double time_s = runs[members[m]].TotalTimeSeconds();
      if (Known(time_s)) by_time.push_back({time_s, m});  // an unknown time equals nothing
    }
    std::sort(by_time.begin(), by_time.end());
    for (std::size_t a = 0; a < members.size(); ++a) {
      if (dropped[members[a]]) continue;
      const double time_s = runs[members[a]].TotalTimeSeconds();
      if (!Known(time_s)) continue;
      // |a - b| <= 0.005 + 1e-9 max(|a|, |b|) implies |a - b| below this bound.
      const double window = 2 * (0.005 + 1e-9 * std::fabs(time_s)) + 1e-12;
      auto begin = std::lower_bound(by_time.begin(), by_time.end(), std::make_pair(time_s - window, std::size_t{0}));
      std::vector<std::size_t> later;  // candidates after `a` in input order
      for (auto it = begin; it != by_time.end() && it->first <= time_s + window; ++it)
        if (it->second > a && !dropped[members[it->second]]) later.push_back(it->second);
      std::sort(later.begin(), later.end());
      for (std::size_t b : later) {
        RunStats& first = runs[members[a]];
        RunStats& other = runs[members[b]];
        if (dropped[members[b]] || Distinguishable(first, other) ||
            !SameTimeWithinPrintPrecision(first.TotalTimeSeconds(), other.TotalTimeSeconds()))
          continue;
        dropped[members[b]] = true;
        ++sum.copies;
        files.insert(IsStatisticsTableRow(other) ? TableFile(other) : BaseName(other.sources.front()));
        FoldInto(&first, std::move(other), "a copy of this run");
      }
    }
  }

  sum.files.assign(files.begin(), files.end());
  std::vector<RunStats> kept;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (!dropped[i]) kept.push_back(std::move(runs[i]));
  return kept;
}

}  // namespace qnm
