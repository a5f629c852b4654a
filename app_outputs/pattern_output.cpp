#include "app_outputs/pattern_output.h"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>

#include "reader/run_stats_check.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// A line longer than this is data, not a summary a program prints: not matched.
constexpr std::size_t kLongestMatchedLine = 64 * 1024;

struct Found {
  std::string value;  // the group of the last matching line
  int line = 0;       // 1-based
  int matches = 0;    // lines that matched
};

// What the patterns found in a file: each pattern's last match, and the runs its run-time lines
// close. Consecutive run-time lines with the same values of the other patterns are one run, its
// last time line (a summary after per-step lines); a change of those values (another process
// count, another problem) between two run-time lines starts another run (a job that ran the
// program several times, appending).
struct Matches {
  std::vector<Found> last;                 // per pattern
  std::vector<std::vector<Found>> runs;    // per run: every pattern as at its last run-time line
};

bool SameConfiguration(const std::vector<Found>& a, const std::vector<Found>& b,
                       const std::vector<OutputPattern>& patterns) {
  for (std::size_t k = 0; k < patterns.size(); ++k)
    if (!patterns[k].IsTime() && a[k].value != b[k].value) return false;
  return true;
}

Matches MatchLines(std::string_view text, const std::vector<OutputPattern>& patterns, const std::string& path) {
  Matches found;
  found.last.resize(patterns.size());
  int number = 0;
  boost::match_results<std::string_view::const_iterator> match;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > kLongestMatchedLine) continue;
    bool time_line = false;
    for (std::size_t k = 0; k < patterns.size(); ++k) {
      bool matched = false;
      try {
        matched = boost::regex_search(line.begin(), line.end(), match, patterns[k].regex);
      } catch (const std::runtime_error& error) {  // Boost.Regex's bound on backtracking, or its memory
        const std::string why = error.what();        // its first sentence: the rest is advice, said below
        throw InputError(path, number, "--pattern " + patterns[k].name + " gave up on this line (" +
                                           why.substr(0, why.find('.')) +
                                           "): write the expression so that it backtracks less");
      }
      if (!matched) continue;
      Found& f = found.last[k];
      f.value.clear();
      if (match[1].matched) f.value = std::string(Trim(line.substr(match[1].first - line.begin(), match[1].length())));
      f.line = number;
      ++f.matches;
      time_line = time_line || patterns[k].IsTime();
    }
    if (!time_line) continue;
    if (!found.runs.empty() && SameConfiguration(found.runs.back(), found.last, patterns)) found.runs.back() = found.last;
    else found.runs.push_back(found.last);
  }
  return found;
}

double Number(const std::string& path, const OutputPattern& pattern, const Found& found) {
  // The whole group, decimal (textio's ParseDouble: no "0x10", no trailing text); finite.
  const std::optional<double> value = ParseDouble(found.value);
  if (!value || !std::isfinite(*value))
    throw InputError(path, found.line,
                     "--pattern " + pattern.name + " matched '" + found.value + "', which is not a number");
  return *value;
}

int Count(const std::string& path, const OutputPattern& pattern, const Found& found) {
  const double value = Number(path, pattern, found);
  if (value < 1 || value > 1e9 || value != std::floor(value))
    throw InputError(path, found.line,
                     "--pattern " + pattern.name + " matched '" + found.value + "', which is not a whole number >= 1");
  return static_cast<int>(value);
}

// The fields that are counts, and the record's members they fill.
struct CountField {
  const char* field;         // as --pattern names it
  const char* record_field;  // as the record's derivations name it
  int RunStats::*member;
};
const CountField* CountFieldOf(const std::string& field) {
  static const CountField kCounts[] = {{"procs", "procs", &RunStats::procs},
                                       {"threads", "threads_per_proc", &RunStats::threads_per_proc},
                                       {"nodes", "nodes", &RunStats::nodes},
                                       {"ranks_per_node", "ranks_per_node", &RunStats::ranks_per_node}};
  for (const CountField& count : kCounts)
    if (field == count.field) return &count;
  return nullptr;
}

bool IsOutputWord(const std::string& word) {
  static const char* const kWords[] = {"out",   "output", "outputs", "log",  "logs",  "stdout", "stderr", "job",
                                       "jobs",  "run",    "runs",    "result", "results", "slurm", "pbs", "lsf",
                                       "flux",  "np",     "p",       "n",    "ranks", "procs",  "nodes",  "test",
                                       "tests", "data",   "tmp",     "x"};
  for (const char* known : kWords)
    if (word == known) return true;
  return false;
}

// The leading letters of a name ("sedovflat.out" -> "sedovflat", "leblancx16" -> "leblancx").
std::string FirstWord(const std::string& name) {
  std::string word;
  for (char c : name) {
    if (!std::isalpha(static_cast<unsigned char>(c))) break;
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return word;
}

}  // namespace

std::string ApplicationFromPath(const std::string& path) {
  const std::filesystem::path file(path);
  const std::string own = FirstWord(file.filename().string());
  if (!own.empty() && !IsOutputWord(own)) return own;
  const std::string folder = FirstWord(file.parent_path().filename().string());
  if (!folder.empty() && !IsOutputWord(folder)) return folder;
  return "output";
}

namespace {

// One run from what the patterns found for it; `of_several`: the file holds several runs, so a
// match count over the whole file would say nothing of this one.
RunStats RunFrom(const ReaderInput& input, const std::vector<OutputPattern>& patterns, const std::vector<Found>& found,
                 bool of_several) {
  const std::string& path = input.path;
  RunStats run;
  int time_line = 0;
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    const OutputPattern& pattern = patterns[k];
    const Found& f = found[k];
    if (f.matches == 0) continue;
    const std::string said =
        "--pattern " + pattern.name + ", line " + std::to_string(f.line) +
        (f.matches > 1 && !of_several ? " (the last of " + std::to_string(f.matches) + " matching lines)" : "");
    const std::string& field = pattern.field;
    if (pattern.IsTime()) {
      run.wall_time_s = Number(path, pattern, f) * pattern.seconds_per_unit;
      if (!(run.wall_time_s > 0))
        throw InputError(path, f.line, "--pattern " + pattern.name + " matched '" + f.value + "': no run time > 0");
      run.derivations["wall_time_s"] = said;
      time_line = f.line;
    } else if (const CountField* count = CountFieldOf(field)) {
      run.*(count->member) = Count(path, pattern, f);
      run.derivations[count->record_field] = said;
    } else if (field == "app" && !f.value.empty()) {
      run.app = f.value;
      run.derivations["app"] = said;
    } else if (field == "class" && !f.value.empty()) {
      run.problem_class = f.value;
      run.derivations["problem_class"] = said;
    }
  }
  run.sources.push_back(of_several ? path + ":" + std::to_string(time_line) : path);
  if (run.procs == 0 && input.name.procs > 0 && !of_several) {
    run.procs = input.name.procs;
    run.derivations["procs"] = "the file name";
  }
  if (run.procs == 0)
    throw InputError(path, time_line,
                     "the run time is found (--pattern) but no process count: " +
                         std::string(of_several ? "no line before it matches a --pattern procs"
                                                : "no line matches a --pattern procs, and the file name names none "
                                                  "(np16, 64ranks)"));
  if (run.nodes > 0 && run.ranks_per_node == 0 && run.procs % run.nodes == 0) {
    run.ranks_per_node = run.procs / run.nodes;
    run.derivations["ranks_per_node"] = "procs / nodes (--pattern)";
  }
  if (run.app.empty()) {
    run.app = ApplicationFromPath(input.FormatPath());
    run.derivations["app"] = "the file's or its folder's name (no --pattern app)";
  }
  ApplyFileName(input.name, &run);
  run.Derive();
  RequirePlausibleRecord(run, path, time_line);
  return run;
}

}  // namespace

ReaderOutput ReadByOutputPatterns(const ReaderInput& input) {
  ReaderOutput output;
  if (!input.selection || input.selection->output_patterns.empty()) return output;
  const std::vector<OutputPattern>& patterns = input.selection->output_patterns;
  const Matches found = MatchLines(input.text, patterns, input.path);
  // No line with the run time: not a run the patterns describe, whatever else matched (the caller
  // says why).
  if (found.runs.empty()) return output;
  if (found.runs.size() == 1) {
    // One run: each pattern's last match in the file, wherever it is.
    output.runs.push_back(RunFrom(input, patterns, found.last, false));
  } else {
    std::string lines;
    for (const std::vector<Found>& one : found.runs) {
      output.runs.push_back(RunFrom(input, patterns, one, true));
      lines += (lines.empty() ? "" : ", ") + output.runs.back().sources.front().substr(input.path.size() + 1);
    }
    output.notes.push_back(input.path + ": " + std::to_string(found.runs.size()) +
                           " runs, one per change of the other patterns' values between its run-time lines "
                           "(lines " + lines + ")");
  }
  std::string reading = "read by --pattern:";
  for (const OutputPattern& pattern : patterns) reading += " " + pattern.name;
  output.readings.push_back(reading);
  output.role = found.runs.size() == 1 ? PairingRole::kAppOutput : PairingRole::kNone;
  return output;
}

}  // namespace qnm
