#include "ingest/duplicate_runs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>
#include <utility>

#include "textio/text_lines.h"
#include "util/text_format.h"

namespace qnm {
namespace {


std::string TableFile(const RunStats& row) {
  const std::string& first = row.sources.front();
  return BaseName(first.substr(0, first.rfind(':')));
}

std::string Folder(const std::string& path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

bool SameConfiguration(const RunStats& a, const RunStats& b) {
  return ToLower(a.app.str()) == ToLower(b.app.str()) && a.problem_class == b.problem_class && a.procs == b.procs;
}

// A table row says threads only when it has a threads column.
bool ThreadsAgree(const RunStats& row, const RunStats& run) {
  return row.derivations.count("threads_per_proc") == 0 || row.threads_per_proc == run.threads_per_proc;
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

// "runs.csv:12" (a table row) -> "runs.csv"; a file's base name otherwise.
std::string FileOfSource(const std::string& source) {
  std::string base = BaseName(source);
  std::size_t colon = base.rfind(':');
  if (colon != std::string::npos && colon + 1 < base.size() &&
      std::all_of(base.begin() + static_cast<std::ptrdiff_t>(colon) + 1, base.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    base.resize(colon);
  return base;
}

void FoldInto(RunStats* kept, RunStats&& dropped, const std::string& why) {
  // A row's cited file is the kept record's own file: keep one name per file (and one row per
  // table: 100,000 rows of one table citing one run must not make its source list 100,000 long).
  for (std::string& source : dropped.sources)
    if (std::none_of(kept->sources.begin(), kept->sources.end(),
                     [&](const std::string& have) { return FileOfSource(have) == FileOfSource(source); }))
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

  // (cited document, procs) -> kept rows citing it, by time: a row is looked for among rows of its own
  // time only (within print precision), so a table of a million rows citing one file stays linear.
  std::map<std::pair<std::string, int>, std::multimap<double, std::size_t>> by_citation;
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
      const double time_s = row.TotalTimeSeconds();
      auto citing = by_citation.find({cited, row.procs});
      if (citing != by_citation.end() && Known(time_s)) {
        const double reach_s = 0.006 + 2e-9 * std::fabs(time_s);  // beyond SameTimeWithinPrintPrecision's
        for (auto at = citing->second.lower_bound(time_s - reach_s);
             at != citing->second.end() && at->first <= time_s + reach_s; ++at)
          candidates.push_back(at->second);
      }
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
    if (!dropped[r] && Known(row.TotalTimeSeconds()))  // a row without a time matches none
      for (const std::string& cited : cites) by_citation[{cited, row.procs}].emplace(row.TotalTimeSeconds(), r);
  }

  // Case 1: the same origin (file content, place in the file) read twice,
  // e.g. one file under two folders. Equal numbers from different origins
  // are different runs: Extra-P's "DATA 4.1 3.9 4.0 4.0 4.1" is 5 values.
  // Keyed by a hash of (origin, series key), checked on a hit: a million
  // table rows cost 16 bytes each here, not a copy of every origin string.
  std::unordered_multimap<std::size_t, std::size_t> first_of_origin;
  first_of_origin.reserve(runs.size());
  auto identity = [&](std::size_t i) { return runs[i].origin + '\n' + KeyOf(runs[i]).ToString(); };
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (dropped[i] || runs[i].origin.empty()) continue;
    // Within one series: a byte-identical file named for another configuration
    // (st-g5k_lu.C.64.td.I.out and …64ranks.fold1.1core-per-node.td.out) is
    // not silently moved out of the series its name puts it in.
    const std::string mine = identity(i);
    const std::size_t hash = std::hash<std::string>()(mine);
    std::size_t first = runs.size();
    for (auto [at, end] = first_of_origin.equal_range(hash); at != end && first == runs.size(); ++at)
      if (identity(at->second) == mine) first = at->second;
    if (first == runs.size()) {
      first_of_origin.emplace(hash, i);
      continue;
    }
    // Identical files side by side in one folder under other names are that
    // folder's repetitions (an Extra-P cube-set folder's profile1.cubex and
    // profile2.cubex; Extra-P counts both); a copy is the same file elsewhere.
    // An origin naming the measurement itself (a job, a run's start) is one
    // run wherever its files lie: IPM's banner beside ipm_parse's report of it.
    const std::string& kept_file = runs[first].sources.front();
    const std::string& this_file = runs[i].sources.front();
    if (kept_file != this_file && Folder(kept_file) == Folder(this_file) &&
        !StartsWith(runs[i].origin, kMeasurementOrigin))
      continue;
    // One measurement read from two formats keeps the record with every rank's times (an IPM XML
    // log, not the banner summarising it), wherever it was read.
    if (StartsWith(runs[i].origin, kMeasurementOrigin) && runs[first].app_time_s_per_rank.empty() &&
        !runs[i].app_time_s_per_rank.empty())
      std::swap(runs[first], runs[i]);
    dropped[i] = true;
    ++sum.copies;
    files.insert(IsStatisticsTableRow(runs[i]) ? TableFile(runs[i]) : BaseName(runs[i].sources.front()));
    FoldInto(&runs[first], std::move(runs[i]), "the same measurement read again");
  }

  sum.files.assign(files.begin(), files.end());
  // Kept records close ranks in place: a second vector of them would double
  // the memory of a million-row table at its peak.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (!dropped[i]) {
      if (kept != i) runs[kept] = std::move(runs[i]);
      ++kept;
    }
  runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(kept), runs.end());
  return runs;
}

}  // namespace qnm
