// The Unified Model's timer output (um_timers.h, docs/formats/um-timers.md).
#include "app_outputs/um_timers.h"

#include <cctype>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

// "Maximum Elapsed Wallclock Time:    3944.07699399998 seconds" -> "3944.07699399998": the first word
// after the line's first ':' (a unit may follow it).
std::string_view WordAfterColon(std::string_view t, const std::string& path, int line, const char* what) {
  std::string_view key, value;
  const std::vector<std::string_view> words =
      SplitAtFirstColon(t, &key, &value) ? SplitWhitespace(value) : std::vector<std::string_view>{};
  if (words.empty()) throw InputError(path, line, std::string(what) + " without its value");
  return words[0];
}

double SecondsAfterColon(std::string_view t, const std::string& path, int line, const char* what) {
  return NonNegativeNumber(WordAfterColon(t, path, line, what), path, line, what);
}

// A row of the wallclock summary: [index...] NAME MEAN MEDIAN SD PCT% MAX (PE) MIN (PE).
UmTimer ReadTimerRow(std::string_view t, const std::string& path, int line) {
  const std::vector<std::string_view> words = SplitWhitespace(t);
  std::size_t percent = words.size();
  for (std::size_t i = 0; i < words.size(); ++i)
    if (EndsWith(words[i], "%")) percent = i;
  auto refuse = [&](const std::string& why) {
    return InputError(path, line, "UM timer row " + why + ": '" + std::string(t).substr(0, 100) + "'");
  };
  if (percent == words.size() || percent < 4) throw refuse("without 'MEAN MEDIAN SD % of mean' before its maximum");
  UmTimer timer;
  timer.line = line;
  timer.mean_s = NonNegativeNumber(words[percent - 3], path, line, "UM timer MEAN");
  timer.median_s = NonNegativeNumber(words[percent - 2], path, line, "UM timer MEDIAN");
  timer.sd_s = NonNegativeNumber(words[percent - 1], path, line, "UM timer SD");
  // After the percentage: MAX (PE) MIN (PE), the parentheses apart from their PE or not.
  std::string tail;
  for (std::size_t i = percent + 1; i < words.size(); ++i) tail += std::string(words[i]) + " ";
  for (char& c : tail)
    if (c == '(' || c == ')') c = ' ';
  const std::vector<std::string_view> values = SplitWhitespace(tail);
  if (values.size() != 4) throw refuse("without exactly 'MAX (PE) MIN (PE)' after its percentage");
  timer.max_s = NonNegativeNumber(values[0], path, line, "UM timer MAX");
  timer.max_pe = WholeCount(values[1], path, line, "UM timer MAX's PE", 0);
  timer.min_s = NonNegativeNumber(values[2], path, line, "UM timer MIN");
  timer.min_pe = WholeCount(values[3], path, line, "UM timer MIN's PE", 0);
  // The name: what is left of MEAN, past the row's leading indices.
  std::size_t first = 0;
  while (first < percent - 3 && AllDigits(words[first])) ++first;
  if (first == percent - 3 || !std::isalpha(static_cast<unsigned char>(words[first][0])))
    throw refuse("whose routine name does not begin with a letter");
  timer.name = JoinWords(words, first, percent - 3);
  return timer;
}

}  // namespace

bool LooksLikeUmTimers(std::string_view text) {
  return BeginsALine(text, "END OF RUN - TIMER OUTPUT") || BeginsALine(text, "MPP Timing information :") ||
         BeginsALine(text, "MPP : Inclusive timer summary");
}

UmRun ParseUmTimers(std::string_view text, const std::string& path) {
  UmRun run;
  const std::vector<std::string_view> lines = SplitLines(text);
  bool inclusive = false;  // after "MPP : Inclusive timer summary", until another summary begins
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    if (StartsWith(t, "Maximum Elapsed Wallclock Time")) {
      run.max_elapsed_s = SecondsAfterColon(t, path, n, "UM 'Maximum Elapsed Wallclock Time'");
      run.max_elapsed_line = n;
    } else if (StartsWith(t, "PE") && t.find("Elapsed Wallclock Time") != std::string_view::npos) {
      const std::vector<std::string_view> words = SplitWhitespace(t);
      if (words.size() > 1 && words[1] == "0")
        run.pe0_elapsed_s = SecondsAfterColon(t, path, n, "UM 'PE 0 Elapsed Wallclock Time'");
    } else if (t.find("processors in") != std::string_view::npos && t.find("configuration") != std::string_view::npos) {
      const std::vector<std::string_view> words = SplitWhitespace(t);
      if (words.size() < 2 || words[1] != "processors") continue;
      run.procs = WholeCount(words[0], path, n, "UM 'processors in configuration'", 1);
      run.procs_line = n;
      // "... configuration 24 x 24"; UM 7 may wrap its last number onto the next line.
      std::string layout(t.substr(t.find("configuration") + 13));
      if (i + 1 < lines.size() && AllDigits(Trim(lines[i + 1]))) layout += " " + std::string(Trim(lines[i + 1]));
      const std::vector<std::string_view> grid = SplitWhitespace(layout);
      if (grid.size() == 3 && grid[1] == "x" && AllDigits(grid[0]) && AllDigits(grid[2])) {
        run.nproc_x = WholeCount(grid[0], path, n, "UM nproc_x", 1);
        run.nproc_y = WholeCount(grid[2], path, n, "UM nproc_y", 1);
      }
    } else if (StartsWith(t, "Number of OMP threads")) {
      const char* what = "UM 'Number of OMP threads'";
      run.omp_threads = WholeCount(WordAfterColon(t, path, n, what), path, n, what, 1);
    } else if (StartsWith(t, "MPP :")) {
      inclusive = StartsWith(t, "MPP : Inclusive timer summary");
    } else if (inclusive && StartsWith(t, "WALLCLOCK") && t.find("TIMES") != std::string_view::npos &&
               run.timers_line == 0) {
      run.timers_line = n;
      std::size_t k = i + 1;
      while (k < lines.size() && Trim(lines[k]).empty()) ++k;
      if (k == lines.size() || Trim(lines[k]).find("ROUTINE") == std::string_view::npos) continue;
      // Its rows, up to the blank line or the CPU times' heading after them.
      for (++k; k < lines.size(); ++k) {
        const std::string_view row = Trim(lines[k]);
        if (row.empty() || StartsWith(row, "CPU TIMES")) break;
        run.timers.push_back(ReadTimerRow(row, path, static_cast<int>(k + 1)));
      }
      i = k - 1;
    }
  }
  return run;
}

RunStats UmRunToRunStats(const UmRun& r, const std::string& path) {
  if (r.procs_line == 0)
    throw InputError(path, r.timers_line,
                     "UM timer output without its processor count ('N processors in "
                     "configuration X x Y', printed with the MPP timer summaries): read "
                     "the run with --pattern procs=...");
  const UmTimer* model = nullptr;
  for (const UmTimer& timer : r.timers)
    if (!model && (StartsWith(timer.name, "U_MODEL") || StartsWith(timer.name, "UM_SHELL"))) model = &timer;
  if (r.max_elapsed_line == 0 && !model)
    throw InputError(path, r.procs_line,
                     "UM timer output without the whole run's time ('Maximum Elapsed "
                     "Wallclock Time' or a U_MODEL timer): the run did not finish, or its "
                     "timers were off");
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(r.procs_line));
  run.app = "um";
  run.derivations["app"] = "the Unified Model's timer output";
  run.procs = r.procs;
  run.derivations["procs"] = "UM 'processors in configuration' (line " + std::to_string(r.procs_line) + ")";
  if (r.nproc_x > 0) run.details["um_decomposition"] = std::to_string(r.nproc_x) + " x " + std::to_string(r.nproc_y);
  if (r.omp_threads > 0) {
    run.threads_per_proc = r.omp_threads;
    run.derivations["threads_per_proc"] = "UM 'Number of OMP threads'";
  }
  if (r.max_elapsed_line > 0) {
    run.wall_time_s = r.max_elapsed_s;
    run.derivations["wall_time_s"] = "UM 'Maximum Elapsed Wallclock Time' (line " + std::to_string(r.max_elapsed_line) +
                                     "): the whole run's slowest process";
  } else {
    run.wall_time_s = model->max_s;
    run.app_time_mean_s = model->mean_s;
    run.app_time_max_s = model->max_s;
    run.derivations["wall_time_s"] =
        "UM inclusive timer " + model->name + ", MAX over the processes (line " + std::to_string(model->line) + ")";
  }
  if (r.pe0_elapsed_s >= 0) run.details["um_pe0_elapsed_s"] = NumberText(r.pe0_elapsed_s);
  if (!r.timers.empty()) run.details["um_timers"] = std::to_string(r.timers.size());
  run.Derive();
  RequirePlausibleRecord(run, path, r.procs_line);
  return run;
}

bool SniffUmTimers(const std::string&, std::string_view text) { return LooksLikeUmTimers(text); }

ReaderOutput ReadUmTimers(const ReaderInput& input) {
  return AppOutputRun(UmRunToRunStats(ParseUmTimers(input.text, input.path), input.FormatPath()), input.name);
}

}  // namespace qnm
