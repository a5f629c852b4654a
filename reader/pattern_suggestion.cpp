// Patterns a program's output suggests for itself (pattern_suggestion.h).
#include "reader/pattern_suggestion.h"

#include <cctype>
#include <optional>
#include <vector>

#include "textio/line_reader.h"
#include "textio/text_lines.h"
#include "textio/time_units.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::size_t kScanBytes = 2 << 20;
constexpr std::size_t kLongestLine = 400;
constexpr char kNumberGroup[] = "([0-9.]+(?:[eE][-+]?[0-9]+)?)";

// Words that name a process count, longest first (so "mpi processes" is found before "processes").
const std::vector<std::string_view> kProcsWords = {"mpi processes", "mpi ranks", "mpi tasks", "processes",
                                                   "processors",    "numprocs",  "nprocs",    "nproc",
                                                   "procs",         "ranks",     "tasks",     "np"};
// Phrases that name a run time, the more telling first.
const std::vector<std::string_view> kTimePhrases = {
    "elapsed time", "time elapsed",   "wall clock time", "wall-clock time", "wallclock time", "wall time",
    "walltime",     "wall clock",     "total runtime",   "total run time",  "total time",     "run time",
    "runtime",      "execution time", "exec time",       "time taken",      "elapsed",        "took",
    "time"};

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Where `word` stands alone in `lower` (a lower-case copy of the line) from `from`; npos when it does not.
std::size_t FindWord(std::string_view lower, std::string_view word, std::size_t from = 0) {
  for (std::size_t at = lower.find(word, from); at != std::string_view::npos; at = lower.find(word, at + 1)) {
    const bool before = at == 0 || !IsWordChar(lower[at - 1]);
    const std::size_t end = at + word.size();
    const bool after = end >= lower.size() || !IsWordChar(lower[end]);
    if (before && after) return at;
  }
  return std::string_view::npos;
}

// Where `phrase` stands alone in `lower`, its words separated by any blanks there ("total   runtime"): its start,
// and its end in `*end`; npos when it does not.
std::size_t FindPhrase(std::string_view lower, std::string_view phrase, std::size_t* end) {
  const std::vector<std::string_view> words = SplitWhitespace(phrase);
  for (std::size_t at = FindWord(lower, words[0]); at != std::string_view::npos;
       at = FindWord(lower, words[0], at + 1)) {
    std::size_t next = at + words[0].size();
    bool all = true;
    for (std::size_t w = 1; w < words.size() && all; ++w) {
      std::size_t blank = next;
      while (blank < lower.size() && (lower[blank] == ' ' || lower[blank] == '\t')) ++blank;
      all = blank > next && FindWord(lower, words[w], blank) == blank;
      next = blank + words[w].size();
    }
    if (all) {
      *end = next;
      return at;
    }
  }
  return std::string_view::npos;
}

// Where a pattern's literal may start: the line's start when the text before `at` holds no digit and no more than
// 60 characters (a label that tells this line from its like, "Total Runtime" from "Average Runtime"), else `at`.
std::size_t LabelStart(std::string_view line, std::size_t at) {
  const std::string_view before = line.substr(0, at);
  if (before.size() > 60) return at;
  for (char c : before)
    if (std::isdigit(static_cast<unsigned char>(c))) return at;
  return 0;
}

// `text` as a regular expression: its blanks as \s+, its other characters escaped.
std::string Literal(std::string_view text) {
  std::string out;
  bool blank = false;
  for (char c : text) {
    if (c == ' ' || c == '\t') {
      if (!blank) out += "\\s+";
      blank = true;
      continue;
    }
    blank = false;
    if (std::string_view("\\^$.|?*+()[]{}/").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// The end of a number starting at `at` ("12", "1.28", ".5", "1.378e+01"); `at` when none starts there.
std::size_t NumberEnd(std::string_view line, std::size_t at, bool whole) {
  std::size_t end = at;
  while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
  if (whole) return end;
  if (end < line.size() && line[end] == '.') {
    ++end;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end]))) ++end;
  }
  if (end == at || (end == at + 1 && line[at] == '.')) return at;
  if (end + 1 < line.size() && (line[end] == 'e' || line[end] == 'E')) {
    std::size_t exponent = end + 1;
    if (exponent < line.size() && (line[exponent] == '+' || line[exponent] == '-')) ++exponent;
    if (exponent < line.size() && std::isdigit(static_cast<unsigned char>(line[exponent]))) {
      while (exponent < line.size() && std::isdigit(static_cast<unsigned char>(line[exponent]))) ++exponent;
      end = exponent;
    }
  }
  return end;
}

// A process count in `line`: the pattern that reads it, or empty.
std::string ProcsPattern(std::string_view line) {
  const std::string lower = ToLower(line);
  for (std::string_view word : kProcsWords) {
    for (std::size_t at = FindWord(lower, word); at != std::string_view::npos; at = FindWord(lower, word, at + 1)) {
      // After the word: "processes = 8", "No. of processors: 2".
      std::size_t next = at + word.size();
      while (next < line.size() && (line[next] == ' ' || line[next] == '\t' || line[next] == ':' || line[next] == '='))
        ++next;
      if (const std::size_t end = NumberEnd(line, next, true);
          end > next && next > at + word.size() && (end == line.size() || !IsWordChar(line[end])) &&
          (end == line.size() || line[end] != '.' || end + 1 == line.size() ||
           !std::isdigit(static_cast<unsigned char>(line[end + 1]))))
        return Literal(line.substr(at, next - at)) + "(\\d+)";
      // Before it: "over 8 processes", "with 40 MPI processes".
      std::size_t back = at;
      while (back > 0 && (line[back - 1] == ' ' || line[back - 1] == '\t')) --back;
      std::size_t digits = back;
      while (digits > 0 && std::isdigit(static_cast<unsigned char>(line[digits - 1]))) --digits;
      if (digits == back || back == at || (digits > 0 && (IsWordChar(line[digits - 1]) || line[digits - 1] == '.')))
        continue;
      std::size_t start = digits;  // the word before the number, when there is one ("over")
      while (start > 0 && (line[start - 1] == ' ' || line[start - 1] == '\t')) --start;
      std::size_t word_start = start;
      while (word_start > 0 && std::isalpha(static_cast<unsigned char>(line[word_start - 1]))) --word_start;
      const std::string before = word_start < start ? Literal(line.substr(word_start, digits - word_start)) : "";
      return before + "(\\d+)" + Literal(line.substr(back, at + word.size() - back));
    }
  }
  return {};
}

// A run time in `line` after one of kTimePhrases: the pattern that reads it (with its field: "time_ms=..."), or
// empty.
std::string TimePattern(std::string_view line, std::string_view phrase) {
  const std::string lower = ToLower(line);
  std::size_t next = 0;
  const std::size_t at = FindPhrase(lower, phrase, &next);
  if (at == std::string_view::npos) return {};
  std::string bracket_unit;
  for (int guard = 0; guard < 4 && next < line.size(); ++guard) {
    while (next < line.size() && (line[next] == ' ' || line[next] == '\t' || line[next] == ':' || line[next] == '='))
      ++next;
    if (next < line.size() && (line[next] == '(' || line[next] == '[')) {  // "Time (sec):", "runtime [ms] ="
      const std::size_t close = line.find(line[next] == '(' ? ')' : ']', next);
      if (close == std::string_view::npos || close - next > 12) return {};
      bracket_unit = ToLower(line.substr(next + 1, close - next - 1));
      next = close + 1;
      continue;
    }
    break;
  }
  const std::size_t end = NumberEnd(line, next, false);
  if (end == next || (next > 0 && IsWordChar(line[next - 1]))) return {};
  // A clock time ("01:30:00") or a date ("2023-01-12", "12/01/2023"), not a number of seconds.
  if (end < line.size() && (line[end] == ':' || line[end] == '-' || line[end] == '/')) return {};
  // Not a run's wall time: the CPU time, a time of day, a step's time.
  if (phrase == "time" || phrase == "elapsed") {
    std::size_t word_end = at;
    while (word_end > 0 && (line[word_end - 1] == ' ' || line[word_end - 1] == '\t')) --word_end;
    std::size_t word_start = word_end;
    while (word_start > 0 && IsWordChar(line[word_start - 1])) --word_start;
    const std::string before = ToLower(line.substr(word_start, word_end - word_start));
    for (std::string_view other : {"cpu", "user", "sys", "system", "start", "submit", "submission", "end", "begin",
                                   "step", "iteration", "current", "real", "queue", "wait", "eligible", "accrue"})
      if (before == other) return {};
  }
  // The unit after the number ("0.70s", "1.28 sec", "12 ms"), else the bracket's, else seconds.
  std::size_t unit_start = end;
  while (unit_start < line.size() && line[unit_start] == ' ') ++unit_start;
  std::size_t unit_end = unit_start;
  while (unit_end < line.size() && std::isalpha(static_cast<unsigned char>(line[unit_end]))) ++unit_end;
  std::string unit = ToLower(line.substr(unit_start, unit_end - unit_start));
  if (unit.empty() || SecondsPerTimeUnit(unit) <= 0) {
    if (!unit.empty() && unit_start == end) return {};  // "12abc": no number of a time
    unit = bracket_unit;
  }
  const double seconds = unit.empty() ? 1.0 : SecondsPerTimeUnit(unit);
  if (seconds <= 0) return {};
  const char* field = seconds == 1.0     ? "time"
                      : seconds == 1e-3  ? "time_ms"
                      : seconds == 1e-6  ? "time_us"
                      : seconds == 60.0  ? "time_min"
                      : seconds == 3600. ? "time_h"
                                         : nullptr;
  if (!field) return {};
  const std::size_t start = LabelStart(line, at);
  return std::string(field) + "=" + (start == 0 ? "^\\s*" : "") + Literal(line.substr(start, next - start)) +
         kNumberGroup;
}

// "in 147.305769 second(s)": a number before "second(s)"/"seconds"/"sec" and the word before it.
std::string SecondsAfterNumberPattern(std::string_view line) {
  const std::string lower = ToLower(line);
  for (std::string_view word : {"seconds", "second", "secs", "sec"}) {
    const std::size_t at = FindWord(lower, word);
    if (at == std::string_view::npos) continue;
    std::size_t back = at;
    while (back > 0 && line[back - 1] == ' ') --back;
    std::size_t start = back;
    while (start > 0 && (std::isdigit(static_cast<unsigned char>(line[start - 1])) || line[start - 1] == '.')) --start;
    if (start == back || back == at || (start > 0 && IsWordChar(line[start - 1]))) continue;
    if (NumberEnd(line, start, false) != back) continue;
    std::size_t word_end = start;
    while (word_end > 0 && line[word_end - 1] == ' ') --word_end;
    std::size_t word_start = word_end;
    while (word_start > 0 && std::isalpha(static_cast<unsigned char>(line[word_start - 1]))) --word_start;
    if (word_start == word_end) continue;  // no word before the number to find the line by
    return "time=" + Literal(line.substr(word_start, start - word_start)) + kNumberGroup +
           Literal(line.substr(back, at + word.size() - back));
  }
  return {};
}

}  // namespace

std::string SuggestedPatterns::Options() const {
  std::string out;
  for (const std::string* pattern : {&procs, &time})
    if (!pattern->empty()) out += (out.empty() ? "" : " ") + std::string("--pattern '") + *pattern + "'";
  return out;
}

SuggestedPatterns SuggestOutputPatterns(std::string_view text) {
  SuggestedPatterns out;
  std::size_t best_phrase = kTimePhrases.size();  // the rank of the phrase of the time found so far
  std::string seconds_after;                      // "in N seconds", used when no phrase is found
  int seconds_after_line = 0;
  LineReader lines(text.substr(0, kScanBytes));
  std::string_view line;
  int number = 0;
  while (lines.Next(&line)) {
    ++number;
    if (line.size() > kLongestLine) continue;
    const std::string_view trimmed = Trim(line);
    if (trimmed.empty()) continue;
    bool directive = false;  // a batch system's line in a job script echoed to its output ("#SBATCH --time=10")
    for (std::string_view mark : {"#SBATCH", "#PBS", "#BSUB", "#$", "#MSUB", "#FLUX", "#COBALT"})
      directive = directive || StartsWith(trimmed, mark);
    if (directive) continue;
    if (out.procs.empty()) {
      if (std::string pattern = ProcsPattern(trimmed); !pattern.empty()) {
        out.procs = "procs=" + pattern;
        out.procs_line = number;
        continue;  // its number is the processes, not a time
      }
    }
    for (std::size_t rank = 0; rank < best_phrase; ++rank) {
      if (std::string pattern = TimePattern(trimmed, kTimePhrases[rank]); !pattern.empty()) {
        out.time = pattern;
        out.time_line = number;
        best_phrase = rank;
        break;
      }
    }
    if (seconds_after.empty() && best_phrase == kTimePhrases.size()) {
      seconds_after = SecondsAfterNumberPattern(trimmed);
      if (!seconds_after.empty()) seconds_after_line = number;
    }
  }
  if (out.time.empty() && !seconds_after.empty()) {
    out.time = seconds_after;
    out.time_line = seconds_after_line;
  }
  return out;
}

}  // namespace qnm
