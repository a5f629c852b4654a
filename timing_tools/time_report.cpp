// Reports of `time` (time_report.h).
#include "timing_tools/time_report.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "launch/launch_command.h"
#include "launch/launch_failure.h"
#include "reader/batch_job_text.h"
#include "reader/output_patterns.h"
#include "textio/line_reader.h"
#include "textio/text_lines.h"
#include "textio/time_units.h"
#include "launch/launch_layout.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kGnuVerboseCommand = "Command being timed:";
constexpr std::string_view kGnuVerboseElapsed = "Elapsed (wall clock) time (h:mm:ss or m:ss):";

// Seconds written as a number, with '.' or ',' (some locales) as the decimal mark; nullopt otherwise.
std::optional<double> Number(std::string_view text) {
  std::string copy(Trim(text));
  if (copy.empty() || !(std::isdigit(static_cast<unsigned char>(copy[0])))) return std::nullopt;
  for (char& c : copy)
    if (c == ',') c = '.';
  const std::optional<double> value = ParseDouble(copy);
  if (!value || !std::isfinite(*value) || *value < 0) return std::nullopt;
  return value;
}

// An elapsed time as GNU time, zsh and tcsh print it: seconds alone ("12.345") or a clock time
// ("0:12.34", "1:02:03": ClockTimeSeconds, the batch records' reading), with '.' or ',' as the decimal mark.
std::optional<double> Clock(std::string_view text) {
  if (text.find(':') == std::string_view::npos) return Number(text);
  std::string clock(Trim(text));
  std::replace(clock.begin(), clock.end(), ',', '.');
  return ClockTimeSeconds(clock);
}

// bash's "0m12.345s" (minutes unbounded), as seconds.
std::optional<double> BashTime(std::string_view text) {
  text = Trim(text);
  const std::size_t m = text.find('m');
  if (m == std::string_view::npos || text.empty() || text.back() != 's') return std::nullopt;
  const std::optional<double> minutes = Number(text.substr(0, m));
  const std::optional<double> seconds = Number(text.substr(m + 1, text.size() - m - 2));
  if (!minutes || !seconds || *minutes != std::floor(*minutes)) return std::nullopt;
  return *minutes * 60 + *seconds;
}

// "<word><blanks><value>": the value after `word` when the line starts with it and a blank.
bool After(std::string_view line, std::string_view word, std::string_view* value) {
  if (!StartsWith(line, word) || line.size() == word.size() || (line[word.size()] != ' ' && line[word.size()] != '\t'))
    return false;
  *value = Trim(line.substr(word.size()));
  return true;
}

// The number before `suffix` in `token` ("0.22user" -> 0.22).
std::optional<double> Before(std::string_view token, std::string_view suffix) {
  if (!EndsWith(token, suffix)) return std::nullopt;
  return Number(token.substr(0, token.size() - suffix.size()));
}

// GNU time's line before its report when the command failed: its status or signal into `report`.
void ReadFailure(std::string_view line, TimeReport* report) {
  line = Trim(line);
  std::string_view value;
  if (StartsWith(line, "Command exited with non-zero status ")) {
    value = line.substr(36);
    if (const std::optional<long long> n = ParseInteger(Trim(value)); n && *n > 0 && *n < 1 << 16)
      report->exit_status = static_cast<int>(*n);
  } else if (StartsWith(line, "Command terminated by signal ")) {
    if (const std::optional<long long> n = ParseInteger(Trim(line.substr(29))); n && *n > 0 && *n < 1 << 16)
      report->signal = static_cast<int>(*n);
  }
}

[[noreturn]] void Malformed(const std::string& path, int line, const char* style, std::string_view text) {
  throw InputError(path, line,
                   std::string(style) + " report whose time is no duration: '" + std::string(text.substr(0, 60)) + "'");
}

// A line of `lines` without its '\r'; false after the last.
bool NextLine(LineReader* lines, std::string_view* line) {
  if (!lines->Next(line)) return false;
  if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
  return true;
}

// GNU time -v's block from its "Command being timed" line `first` (after `previous`), its other lines taken
// from `lines` (up to its "Exit status").
TimeReport ReadGnuVerbose(std::string_view first, std::string_view previous, LineReader* lines,
                          const std::string& path) {
  TimeReport report;
  report.style = TimeReportStyle::kGnuVerbose;
  const int first_line = lines->ErrorLine();
  std::string_view command = Trim(Trim(first).substr(kGnuVerboseCommand.size()));
  if (command.size() >= 2 && command.front() == '"' && command.back() == '"')
    command = command.substr(1, command.size() - 2);
  report.command = std::string(command);
  ReadFailure(previous, &report);
  bool elapsed = false;
  for (int taken = 0; taken < 30; ++taken) {
    LineReader ahead = *lines;  // a line of the block is taken only when it is one
    std::string_view text;
    if (!NextLine(&ahead, &text)) break;
    const std::string_view line = Trim(text);
    std::string_view key, value;
    if (!SplitAtFirstColon(line, &key, &value)) break;
    *lines = ahead;
    if (StartsWith(line, kGnuVerboseElapsed)) {
      const std::string_view clock = Trim(line.substr(kGnuVerboseElapsed.size()));
      const std::optional<double> seconds = Clock(clock);
      if (!seconds) Malformed(path, lines->ErrorLine(), "GNU time -v", clock);
      report.elapsed_s = *seconds;
      report.line = lines->ErrorLine();
      elapsed = true;
    } else if (key == "User time (seconds)") {
      report.user_s = Number(value).value_or(-1);
    } else if (key == "System time (seconds)") {
      report.system_s = Number(value).value_or(-1);
    } else if (key == "Exit status") {
      if (const std::optional<long long> n = ParseInteger(value); n && *n >= 0 && *n < 1 << 16)
        report.exit_status = static_cast<int>(*n);
      break;
    }
  }
  if (!elapsed) throw InputError(path, first_line, "GNU time -v report without its \"Elapsed (wall clock) time\"");
  return report;
}

// zsh's "<command>  0.22s user 0.13s system 75% cpu 12.345 total".
bool ReadZsh(std::string_view line, TimeReport* report) {
  if (!EndsWith(line, " total")) return false;
  const std::size_t user = line.find("s user ");
  if (user == std::string_view::npos) return false;
  const std::vector<std::string_view> words = SplitWhitespace(line.substr(0, line.size() - 6));
  // ... <user>s user <system>s system <cpu>% cpu <elapsed>
  if (words.size() < 8 || words[words.size() - 2] != "cpu" || words[words.size() - 4] != "system" ||
      words[words.size() - 6] != "user" || !EndsWith(words[words.size() - 3], "%"))
    return false;
  const std::optional<double> user_s = Before(words[words.size() - 7], "s");
  const std::optional<double> system_s = Before(words[words.size() - 5], "s");
  const std::optional<double> elapsed = Clock(words.back());
  if (!user_s || !system_s || !elapsed) return false;
  report->style = TimeReportStyle::kZsh;
  report->user_s = *user_s, report->system_s = *system_s, report->elapsed_s = *elapsed;
  const std::size_t command_end = line.find(words[words.size() - 7]);
  report->command = std::string(Trim(line.substr(0, command_end)));
  return true;
}

// GNU time's default "0.22user 0.13system 0:12.34elapsed 75%CPU (...)".
bool ReadGnu(std::string_view line, TimeReport* report) {
  if (line.find("elapsed") == std::string_view::npos) return false;
  const std::vector<std::string_view> words = SplitWhitespace(line);
  if (words.size() < 4 || !EndsWith(words[3], "%CPU")) return false;
  const std::optional<double> user = Before(words[0], "user");
  const std::optional<double> system = Before(words[1], "system");
  if (!user || !system || !EndsWith(words[2], "elapsed")) return false;
  const std::optional<double> elapsed = Clock(words[2].substr(0, words[2].size() - 7));
  if (!elapsed) return false;
  report->style = TimeReportStyle::kGnu;
  report->user_s = *user, report->system_s = *system, report->elapsed_s = *elapsed;
  return true;
}

// tcsh's "0.220u 0.130s 0:12.34 75.0%\t0+0k 0+0io 0pf+0w".
bool ReadTcsh(std::string_view line, TimeReport* report) {
  if (line.find('%') == std::string_view::npos || line.find(':') == std::string_view::npos) return false;
  const std::vector<std::string_view> words = SplitWhitespace(line);
  if (words.size() < 4 || !EndsWith(words[3], "%") || words[2].find(':') == std::string_view::npos) return false;
  const std::optional<double> user = Before(words[0], "u");
  const std::optional<double> system = Before(words[1], "s");
  const std::optional<double> elapsed = Clock(words[2]);
  if (!user || !system || !elapsed) return false;
  report->style = TimeReportStyle::kTcsh;
  report->user_s = *user, report->system_s = *system, report->elapsed_s = *elapsed;
  return true;
}

// fish's value and unit, "634.67 millis" (its `time`; "milliseconds" in its shorter report), in seconds.
std::optional<double> FishTime(std::string_view text) {
  const std::vector<std::string_view> words = SplitWhitespace(text);
  if (words.size() < 2) return std::nullopt;
  const double seconds = SecondsPerTimeUnit(words[1]);
  const std::optional<double> value = Number(words[0]);
  if (seconds <= 0 || !value) return std::nullopt;
  return *value * seconds;
}

// fish's report: a rule of underscores, "Executed in  634.67 millis    fish           external", then its
// "usr time" and "sys time" lines (their first value: fish's and its children's together).
bool ReadFish(std::string_view line, std::string_view previous, LineReader* lines, const std::string& path,
              TimeReport* report) {
  std::string_view value;
  previous = Trim(previous);
  if (!After(line, "Executed in", &value) || previous.size() < 20 ||
      previous.find_first_not_of('_') != std::string_view::npos)
    return false;
  const std::optional<double> elapsed = FishTime(value);
  if (!elapsed) Malformed(path, report->line, "fish time", value);
  report->style = TimeReportStyle::kFish;
  report->elapsed_s = *elapsed;
  LineReader ahead = *lines;
  std::string_view next, cpu;
  for (auto [word, seconds] : {std::pair{"usr time", &report->user_s}, std::pair{"sys time", &report->system_s}}) {
    if (!NextLine(&ahead, &next) || !After(Trim(next), word, &cpu)) break;
    *seconds = FishTime(cpu).value_or(-1);
    *lines = ahead;
  }
  return true;
}

// The command of a shell's trace line (`set -x`): bash's "+ mpirun -np 4 ./app" ("++ " in a subshell), zsh's
// "+zsh:3> mpirun ..."; empty for any other line.
std::string_view TracedCommand(std::string_view line) {
  if (line.empty() || line[0] != '+') return {};
  std::size_t at = line.find_first_not_of('+');
  if (at == std::string_view::npos) return {};
  if (line[at] != ' ') {  // zsh: +<script>:<line>> command
    const std::size_t prompt = line.find("> ", at);
    if (prompt == std::string_view::npos || line.substr(at, prompt - at).find(' ') != std::string_view::npos) return {};
    at = prompt + 1;
  }
  return Trim(line.substr(at));
}

// Every report of the text, or only whether there is one (`first_only`); the lines are read as they come (a
// large output holds no list of them).
std::vector<TimeReport> Scan(std::string_view text, const std::string& path, bool first_only) {
  std::vector<TimeReport> reports;
  LineReader lines(text);
  std::string_view line, previous;
  std::string traced;  // the command a shell's trace showed since the last report, when it runs a launcher
  int traced_line = 0;
  std::string failure;  // the first line since the last report saying the launched job failed
  int failure_line = 0;
  for (; NextLine(&lines, &line); previous = line) {
    if (line.size() > 4096) continue;
    if (const std::string_view command = TracedCommand(line); !command.empty()) {
      if (!ParseLaunchCommand(command).launcher.empty()) traced = std::string(command), traced_line = lines.ErrorLine();
      continue;
    }
    if (failure_line == 0 && !LaunchFailureMark(line).empty())
      failure = std::string(Trim(line)), failure_line = lines.ErrorLine();
    TimeReport report;
    report.line = lines.ErrorLine();
    std::string_view value, user, sys;
    if (StartsWith(Trim(line), kGnuVerboseCommand)) {
      report = ReadGnuVerbose(line, previous, &lines, path);
    } else if (After(line, "real", &value)) {  // bash, or POSIX -p: real, user and sys on three lines
      LineReader ahead = lines;
      std::string_view user_line, sys_line;
      if (!NextLine(&ahead, &user_line) || !After(user_line, "user", &user) || !NextLine(&ahead, &sys_line) ||
          !After(sys_line, "sys", &sys))
        continue;
      lines = ahead;
      const bool bash = EndsWith(value, "s") && value.find('m') != std::string_view::npos;
      const auto parse = bash ? BashTime : Number;
      const std::optional<double> real_s = parse(value);
      if (!real_s) Malformed(path, report.line, bash ? "bash time" : "time -p", value);
      report.style = bash ? TimeReportStyle::kBash : TimeReportStyle::kPosix;
      report.elapsed_s = *real_s;
      report.user_s = parse(user).value_or(-1);
      report.system_s = parse(sys).value_or(-1);
      line = sys_line;
    } else if (ReadFish(line, previous, &lines, path, &report)) {
    } else if (ReadGnu(line, &report) || ReadTcsh(line, &report) || ReadZsh(line, &report)) {
      if (report.style == TimeReportStyle::kGnu) ReadFailure(previous, &report);
    } else {
      continue;
    }
    if (report.command.empty() && !traced.empty()) report.command = traced, report.traced_line = traced_line;
    const bool has_status = report.style == TimeReportStyle::kGnu || report.style == TimeReportStyle::kGnuVerbose;
    if (!has_status && failure_line > 0) report.failure = failure.substr(0, 160), report.failure_line = failure_line;
    traced.clear();
    failure.clear(), failure_line = 0;
    reports.push_back(std::move(report));
    if (first_only) break;
  }
  return reports;
}

// The user's pattern of `field` (procs, threads, nodes, ranks_per_node, app, class), or none.
const OutputPattern* PatternOf(const ReaderInput& input, const char* field) {
  if (!input.selection) return nullptr;
  for (const OutputPattern& pattern : input.selection->output_patterns)
    if (pattern.field == field) return &pattern;
  return nullptr;
}

// The user's pattern of `field` over the whole file: its value and where it was found (`*said`); nullopt when
// none is given or no line matches.
std::optional<PatternValue> PatternFound(const ReaderInput& input, const char* field, const OutputPattern** pattern,
                                         std::string* said) {
  *pattern = PatternOf(input, field);
  if (!*pattern) return std::nullopt;
  std::optional<PatternValue> found = MatchConfigurationPattern(**pattern, input.text, input.path);
  if (found) *said = PatternPlace(**pattern, *found);
  return found;
}

// The user's pattern of a count (PatternCount's rule, as the pattern reader's); 0 when none is found.
int PatternCountOf(const ReaderInput& input, const char* field, std::string* said) {
  const OutputPattern* pattern = nullptr;
  const std::optional<PatternValue> found = PatternFound(input, field, &pattern, said);
  return found ? PatternCount(*pattern, found->value, input.path, found->line) : 0;
}

std::string PatternText(const ReaderInput& input, const char* field, std::string* said) {
  const OutputPattern* pattern = nullptr;
  const std::optional<PatternValue> found = PatternFound(input, field, &pattern, said);
  return found ? std::string(Trim(found->value)) : std::string();
}

// What the file says of the runs whose report names no command: its patterns, else its name.
struct FileLayout {
  RunLayout counts;
  std::string app, app_from, problem_class, class_from;
};

FileLayout LayoutOfFile(const ReaderInput& input) {
  FileLayout layout;
  SaidCount& procs = layout.counts.procs;
  procs.value = PatternCountOf(input, "procs", &procs.from);
  if (procs.value == 0 && input.name.procs > 0)
    procs = {input.name.procs, "the file's name (" + BaseName(input.FormatPath()) + ")"};
  layout.counts.threads.value = PatternCountOf(input, "threads", &layout.counts.threads.from);
  layout.counts.nodes.value = PatternCountOf(input, "nodes", &layout.counts.nodes.from);
  layout.counts.ranks_per_node.value = PatternCountOf(input, "ranks_per_node", &layout.counts.ranks_per_node.from);
  layout.app = PatternText(input, "app", &layout.app_from);
  if (layout.app.empty()) {
    layout.app = ApplicationFromPath(input.FormatPath());
    layout.app_from = "the file's name or folder";
  }
  layout.problem_class = PatternText(input, "class", &layout.class_from);
  return layout;
}

RunStats ToRunStats(const TimeReport& report, const LaunchCommand& launch, const FileLayout& layout,
                    const std::string& path) {
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(report.line));
  run.origin = "line " + std::to_string(report.line);
  run.wall_time_s = report.elapsed_s;
  run.derivations["wall_time_s"] = std::string(ToString(report.style)) + " report, line " +
                                   std::to_string(report.line) +
                                   ": the elapsed (real) time of the command timed, the launcher's start-up included";
  const std::string by_command = report.traced_line > 0 ? "the shell's trace of the command timed (line " +
                                                              std::to_string(report.traced_line) + "): "
                                                        : std::string(ToString(report.style)) + " command: ";
  ApplyLaunchLayout(launch, by_command, layout.counts, &run);
  if (!ApplyLaunchProgram(launch, by_command, &run)) {
    run.app = layout.app;
    run.derivations["app"] = layout.app_from;
  }
  if (!layout.problem_class.empty()) {
    run.problem_class = layout.problem_class;
    run.derivations["problem_class"] = layout.class_from;
  }
  if (!report.command.empty()) run.details["time_command"] = report.command.substr(0, 400);
  if (report.user_s >= 0) run.details["time_user_s"] = std::to_string(report.user_s);
  if (report.system_s >= 0) run.details["time_system_s"] = std::to_string(report.system_s);
  return run;
}

}  // namespace

const char* ToString(TimeReportStyle style) {
  switch (style) {
    case TimeReportStyle::kBash:
      return "bash time";
    case TimeReportStyle::kPosix:
      return "time -p";
    case TimeReportStyle::kGnu:
      return "GNU time";
    case TimeReportStyle::kGnuVerbose:
      return "GNU time -v";
    case TimeReportStyle::kZsh:
      return "zsh time";
    case TimeReportStyle::kTcsh:
      return "tcsh time";
    case TimeReportStyle::kFish:
      return "fish time";
  }
  return "time";
}

std::vector<TimeReport> ParseTimeReports(std::string_view text, const std::string& path) {
  return Scan(text, path, false);
}

bool HasTimeReport(std::string_view text) {
  try {
    return !Scan(text, "", true).empty();
  } catch (const InputError&) {
    return true;  // a report, damaged: the reader says how
  }
}

bool SniffTimeReport(const std::string&, std::string_view text) { return HasTimeReport(text); }

ReaderOutput ReadTimeReport(const ReaderInput& input) {
  if (const OutputPattern* time = input.selection ? input.selection->RunTimePattern() : nullptr)
    throw InputError(input.path, 0, "a report of time, left to the --pattern " + time->name + " of the run time");
  const std::vector<TimeReport> reports = ParseTimeReports(input.text, input.path);
  if (reports.empty()) throw InputError(input.path, 0, "no report of time (real, elapsed) found");
  const FileLayout layout = LayoutOfFile(input);
  ReaderOutput output;
  UnfinishedRuns not_read;
  int from_command = 0;
  for (const TimeReport& report : reports) {
    const LaunchCommand launch = ParseLaunchCommand(report.command);
    if (!launch.error.empty())
      throw InputError(input.path, report.line,
                       "the command timed, '" + report.command.substr(0, 120) + "': " + launch.error);
    if (report.exit_status != 0 || report.signal != 0) {
      not_read.Add(report.line, report.signal != 0
                                    ? "the command was ended by signal " + std::to_string(report.signal)
                                    : "the command exited with status " + std::to_string(report.exit_status));
      continue;
    }
    if (report.failure_line > 0) {
      not_read.Add(report.line,
                   "the job failed (line " + std::to_string(report.failure_line) + ": " + report.failure + ")");
      continue;
    }
    if (report.elapsed_s <= 0) {
      not_read.Add(report.line, "an elapsed time of 0");
      continue;
    }
    if (launch.procs == 0 && layout.counts.procs.value == 0) {
      not_read.Add(report.line,
                   std::string(ToString(report.style)) +
                       (report.command.empty() ? " names no command" : " names a command without a process count") +
                       ", and neither a --pattern procs nor the file's name (np16, 64ranks) says the processes: "
                       "--pattern 'procs@path=np(\\d+)' reads them from the path");
      continue;
    }
    from_command += launch.procs > 0;
    RunStats run = ToRunStats(report, launch, layout, input.path);
    ApplyFileName(input.name, &run);
    output.runs.push_back(std::move(run));
  }
  not_read.Finish(input.path, reports.size(), "reports of time", &output);
  // A run's output with its one report: the application output an MPI profile in its folder pairs with
  // (ingest/run_pairing.h), as a pattern-read output's.
  if (reports.size() == 1 && output.runs.size() == 1) output.role = PairingRole::kAppOutput;
  const int from_file = static_cast<int>(output.runs.size()) - from_command;
  output.readings.push_back(input.path + ": " + std::to_string(reports.size()) + " report" +
                            (reports.size() == 1 ? "" : "s") + " of " + ToString(reports.front().style) +
                            "; processes from " +
                            (from_file == 0      ? std::string("the command timed")
                             : from_command == 0 ? layout.counts.procs.from
                                                 : "the command timed, else " + layout.counts.procs.from));
  return output;
}

}  // namespace qnm
