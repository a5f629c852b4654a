// CloverLeaf and TeaLeaf outputs (cloverleaf_output.h, docs/formats/cloverleaf-output.md).
#include "app_outputs/cloverleaf_output.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "reader/run_stats_check.h"
#include "textio/content_digest.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// The program a version line names ("Clover Version    1.300" -> "Clover"), or empty.
std::string_view CodeOfVersionLine(std::string_view trimmed) {
  for (std::string_view code : {std::string_view("Clover"), std::string_view("Tea")})
    if (StartsWith(trimmed, code) && StartsWith(Trim(trimmed.substr(code.size())), "Version")) return code;
  return {};
}

// "CloverLeaf" / "TeaLeaf", for messages.
std::string ProgramName(const std::string& code) { return code + "Leaf"; }

// The value after `key` when the line is "<key>=<value>" or "<key> <value>" (the deck's two forms,
// and the read-back lines); empty otherwise.
std::string_view KeyValue(std::string_view trimmed, std::string_view key) {
  if (!StartsWith(trimmed, key) || trimmed.size() == key.size()) return {};
  const char next = trimmed[key.size()];
  if (next != '=' && next != ' ' && next != '\t') return {};
  std::string_view rest = Trim(trimmed.substr(key.size()));
  if (!rest.empty() && rest.front() == '=') rest = Trim(rest.substr(1));
  const std::vector<std::string_view> words = SplitWhitespace(rest);
  return words.empty() ? std::string_view() : words[0];
}

// Deck keywords that ask for output or tuning, not for another problem: a run with the profiler on,
// its fields written for VisIt or summarised more often, checked against a test problem's answer, or
// tiled otherwise (CloverLeaf 1.3's tiles_per_chunk, kept as a setting) is the same problem.
bool IsOutputKeyword(std::string_view word) {
  return word == "profiler_on" || word == "visit_frequency" || word == "summary_frequency" || word == "test_problem" ||
         word == "tiles_per_chunk";
}

// "Cell Advection        :          1.1722         18.3315" -> {"cell_advection", 1.1722}.
std::optional<std::pair<std::string, double>> ProfileRow(std::string_view trimmed, const std::string& path, int line) {
  const std::size_t colon = trimmed.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string name = ToLower(std::string(Trim(trimmed.substr(0, colon))));
  const std::vector<std::string_view> values = SplitWhitespace(trimmed.substr(colon + 1));
  if (name.empty() || values.size() != 2) return std::nullopt;
  std::string key;
  for (char c : name) key += (c == ' ') ? '_' : c;
  // "The Rest" is the wall clock less the kernels': slightly negative when they overlap.
  const std::optional<double> seconds = ParseDouble(values[0]);
  if (!seconds || !std::isfinite(*seconds) || (*seconds < 0 && key != "the_rest"))
    throw InputError(
        path, line,
        "profiler row '" + name + "' needs a time in seconds, got '" + std::string(values[0].substr(0, 40)) + "'");
  return std::make_pair(key, *seconds);
}

std::string LeafRunUnfinished(const LeafRun& run, int* line) {
  *line = run.line;
  if (run.finishing_line > 0 && run.wall_clock_line > 0) return {};
  std::string why = ProgramName(run.code) + " run without its closing '" + run.code + " is finishing' and 'Wall clock'";
  if (run.finishing_line > 0) {
    *line = run.finishing_line;
    return why + ": the output was cut";
  }
  why += ": it did not finish (killed, out of time, or the output was cut)";
  if (run.last_step > 0 && run.last_running_wall_clock_s >= 0)
    why += "; its last step " + std::to_string(run.last_step) + " at " +
           FormatDouble("%.4g", run.last_running_wall_clock_s) + " s";
  return why;
}

}  // namespace

bool LooksLikeLeafOutput(std::string_view text) {
  return (text.find("Clover Version") != std::string_view::npos ||
          text.find("Tea Version") != std::string_view::npos) &&
         text.find("Task Count") != std::string_view::npos &&
         (text.find("*clover") != std::string_view::npos || text.find("*tea") != std::string_view::npos ||
          text.find(" is finishing") != std::string_view::npos ||
          text.find("All output will go there") != std::string_view::npos);
}

std::vector<LeafRun> ParseLeafOutput(std::string_view text, const std::string& path) {
  std::vector<LeafRun> runs;
  const std::vector<std::string_view> lines = SplitLines(text);
  bool in_deck = false, in_profile = false, started = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    if (std::string_view code = CodeOfVersionLine(t); !code.empty()) {
      runs.emplace_back();
      LeafRun& run = runs.back();
      run.line = n;
      run.code = std::string(code);
      const std::vector<std::string_view> words = SplitWhitespace(t);
      run.version = words.size() >= 3 ? std::string(words[2]) : "";
      in_deck = in_profile = started = false;
      continue;
    }
    if (runs.empty()) continue;  // a job's lines before the program's first
    LeafRun& run = runs.back();
    const std::string deck_start = "*" + ToLower(run.code), deck_end = "*end" + ToLower(run.code);
    if (in_deck) {
      const std::string lower = ToLower(std::string(t));
      if (lower == deck_end) {
        in_deck = false;
        continue;
      }
      // The deck as its digest sees it: lower case, one blank between words, no '!' comment, no blank
      // line, without the keywords that ask only for output or tuning.
      const std::string_view body = Trim(std::string_view(lower).substr(0, lower.find('!')));
      const std::vector<std::string_view> words = SplitWhitespace(body);
      if (words.empty()) continue;
      const std::string_view keyword = words[0].substr(0, words[0].find('='));
      if (keyword == "tiles_per_chunk") run.tiles_per_chunk = std::string(KeyValue(body, "tiles_per_chunk"));
      // The mesh as the deck gives it (the read-back lines after the deck, defaults included, replace it).
      for (auto [key, cells] :
           {std::pair{"x_cells", &run.x_cells}, std::pair{"y_cells", &run.y_cells}, std::pair{"z_cells", &run.z_cells}})
        if (keyword == key)
          *cells = WholeNumber(KeyValue(body, key), path, n, (ProgramName(run.code) + " " + key).c_str(), 1, 1LL << 40);
      if (IsOutputKeyword(keyword)) continue;
      std::string spaced(body);  // "energy=1.0" and "energy 1.0" are one setting to the deck's parser
      for (char& c : spaced)
        if (c == '=') c = ' ';
      std::string collapsed;
      for (std::string_view w : SplitWhitespace(spaced)) collapsed += (collapsed.empty() ? "" : " ") + std::string(w);
      run.deck += collapsed + "\n";
      continue;
    }
    if (ToLower(std::string(t)) == deck_start) {
      in_deck = true;
      continue;
    }
    if (in_profile) {
      if (std::optional<std::pair<std::string, double>> row = ProfileRow(t, path, n)) {
        run.profile.push_back(*row);
        continue;
      }
      in_profile = false;
    }
    const std::vector<std::string_view> words = SplitWhitespace(t);
    if (words.empty()) continue;
    if (StartsWith(t, "Task Count")) {
      run.procs = WholeCount(Trim(t.substr(10)), path, n, (ProgramName(run.code) + " 'Task Count'").c_str(), 1);
    } else if (StartsWith(t, "Thread Count:")) {
      run.threads = WholeCount(Trim(t.substr(13)), path, n, (ProgramName(run.code) + " 'Thread Count:'").c_str(), 1);
    } else if (!started && (!KeyValue(t, "x_cells").empty() || !KeyValue(t, "y_cells").empty() ||
                            !KeyValue(t, "z_cells").empty())) {
      // The deck's mesh as the program read it back (defaults included); the last reading counts.
      for (auto [key, cells] :
           {std::pair{"x_cells", &run.x_cells}, std::pair{"y_cells", &run.y_cells}, std::pair{"z_cells", &run.z_cells}})
        if (std::string_view v = KeyValue(t, key); !v.empty())
          *cells = WholeNumber(v, path, n, (ProgramName(run.code) + " " + key).c_str(), 1, 1LL << 40);
    } else if (words.size() >= 3 && words[0] == "Step" && words[2] == "time") {
      started = true;
      run.last_step = WholeNumber(words[1], path, n, (ProgramName(run.code) + " 'Step'").c_str(), 0);
    } else if (StartsWith(t, "Wall clock")) {
      const double seconds =
          NonNegativeNumber(Trim(t.substr(10)), path, n, (ProgramName(run.code) + " 'Wall clock'").c_str());
      if (run.finishing_line == 0) {
        run.last_running_wall_clock_s = seconds;
      } else if (run.wall_clock_line == 0) {
        // A port echoes the closing lines to standard output as well: the first after finishing counts.
        if (run.last_running_wall_clock_s > 0 && seconds < run.last_running_wall_clock_s * (1 - 1e-9))
          throw InputError(path, n,
                           ProgramName(run.code) + " 'Wall clock' of the whole run, " + FormatDouble("%g", seconds) +
                               " s, is below its last step's, " + FormatDouble("%g", run.last_running_wall_clock_s) +
                               " s");
        run.wall_clock_s = seconds;
        run.wall_clock_line = n;
      }
    } else if (StartsWith(t, "First step overhead")) {
      const std::optional<double> overhead = ParseDouble(Trim(t.substr(19)));
      if (!overhead || !std::isfinite(*overhead))  // negative when the second step was the slower
        throw InputError(path, n,
                         ProgramName(run.code) + " 'First step overhead' needs a number of seconds, got '" +
                             std::string(Trim(t.substr(19)).substr(0, 40)) + "'");
      run.first_step_overhead_s = *overhead;
      run.has_first_step_overhead = true;
    } else if (t == run.code + " is finishing") {
      if (run.finishing_line > 0)
        throw InputError(path, n, "a second '" + run.code + " is finishing' in one " + ProgramName(run.code) + " run");
      run.finishing_line = n;
    } else if (StartsWith(t, "This ") && t.find("test is considered ") != std::string_view::npos) {
      // "This test is considered PASSED"; CloverLeaf3D prints "This is test is considered NOT PASSED".
      run.test_result = std::string(Trim(t.substr(t.find("test is considered ") + 19)));
    } else if (StartsWith(t, "Profiler Output")) {
      in_profile = true;
    } else if (StartsWith(t, "Output file ") && t.find("All output will go there") != std::string_view::npos) {
      run.output_elsewhere_line = n;
      run.output_file = std::string(SplitWhitespace(t)[2]);
    }
  }
  // The program's (or a batch job's) standard output: rank 0 printed its banner there and then wrote
  // the run to its output file; the rest is the per-step clocks on standard error, if merged.
  const bool none_finished = std::none_of(
      runs.begin(), runs.end(), [](const LeafRun& run) { return run.finishing_line > 0 && run.wall_clock_line > 0; });
  for (const LeafRun& run : runs)
    if (none_finished && run.output_elsewhere_line > 0 && run.deck.empty())
      throw InputError(path, run.output_elsewhere_line,
                       ProgramName(run.code) +
                           "'s standard output, not its output file: the run wrote its deck, mesh "
                           "and closing wall clock to " +
                           run.output_file + " ('Output file " + run.output_file +
                           " opened. All output will go there.'); read that file");
  if (runs.empty())
    throw InputError(path, 0, "no CloverLeaf or TeaLeaf run: no 'Clover Version' or 'Tea Version' line");
  for (const LeafRun& run : runs) {
    if (run.finishing_line == 0 || run.wall_clock_line == 0) continue;
    if (run.procs == 0) throw InputError(path, run.line, ProgramName(run.code) + " run without its 'Task Count' line");
    if (run.x_cells == 0 || run.y_cells == 0)
      throw InputError(path, run.line, ProgramName(run.code) + " run without its mesh ('x_cells' and 'y_cells')");
  }
  return runs;
}

RunStats LeafRunToRunStats(const LeafRun& run, const std::string& path) {
  RunStats stats;
  const std::string program = ProgramName(run.code);
  const std::string prefix = ToLower(program) + "_";
  stats.sources.push_back(path + ":" + std::to_string(run.wall_clock_line));
  stats.app = ToLower(program) + (run.z_cells > 0 ? "3d" : "");
  stats.derivations["app"] = program + " output: '" + run.code + " Version' (line " + std::to_string(run.line) + ")" +
                             (run.z_cells > 0 ? ", a 3D mesh ('z_cells')" : "");
  stats.procs = run.procs;
  stats.derivations["procs"] = program + " 'Task Count'";
  if (run.threads > 0) {
    stats.threads_per_proc = run.threads;
    stats.derivations["threads_per_proc"] = program + " 'Thread Count:' (OMP_GET_NUM_THREADS of task 0)";
  }
  stats.wall_time_s = run.wall_clock_s;
  stats.derivations["wall_time_s"] = program + " 'Wall clock' after '" + run.code + " is finishing' (line " +
                                     std::to_string(run.wall_clock_line) +
                                     "): the time steps and the last field summary";
  stats.iterations = static_cast<int>(std::min<long long>(run.last_step, 1LL << 30));
  // The problem: the mesh, the steps run and the rest of the deck (states, extents, time-step
  // control, the solver of TeaLeaf) as a digest, so two decks of one mesh are two series.
  std::string cells = std::to_string(run.x_cells) + "x" + std::to_string(run.y_cells);
  if (run.z_cells > 0) cells += "x" + std::to_string(run.z_cells);
  std::vector<std::string> words = {cells + " cells", std::to_string(run.last_step) + " steps"};
  if (!run.deck.empty()) {
    stats.details[prefix + "input_deck_digest"] = ContentDigest(run.deck);
    words.push_back("deck " + ContentDigest(run.deck).substr(0, 8));
  }
  stats.problem_class = JoinNonEmpty(words, ", ");
  stats.derivations["problem_class"] =
      program +
      ": the mesh as read back ('x_cells', 'y_cells', 'z_cells'), the last 'Step' line's number and the first 8 hex "
      "digits of the echoed input deck's digest (lower case, '=' read as a blank, blanks collapsed, '!' comments and "
      "the profiler_on, visit_frequency, summary_frequency, test_problem and tiles_per_chunk lines dropped)";
  if (!run.version.empty()) stats.details[std::string(kDeclaredSettingPrefix) + "version"] = run.version;
  if (!run.tiles_per_chunk.empty())
    stats.details[std::string(kDeclaredSettingPrefix) + "tiles_per_chunk"] = run.tiles_per_chunk;
  if (run.has_first_step_overhead)
    stats.details[prefix + "first_step_overhead_s"] = NumberText(run.first_step_overhead_s);
  if (!run.test_result.empty()) {
    stats.verification = run.test_result == "PASSED" ? "SUCCESSFUL" : "UNSUCCESSFUL";
    stats.derivations["verification"] = program + " 'This test is considered " + run.test_result + "'";
  }
  for (const auto& [kernel, seconds] : run.profile)
    stats.details[prefix + "profile." + kernel + "_s"] = NumberText(seconds);
  stats.Derive();
  RequirePlausibleRecord(stats, path, run.wall_clock_line);
  return stats;
}

bool SniffLeafOutput(const std::string& path, std::string_view text) {
  if (!LooksLikeLeafOutput(text)) return false;
  // The program's standard output with its output file beside it is the same run's banner: left
  // unread, as a job's other files are. Without the file, it is read, to say which file to read.
  for (auto [file, deck] : {std::pair{"clover.out", "*clover"}, std::pair{"tea.out", "*tea"}})
    if (text.find(std::string("Output file ") + file + " opened") != std::string_view::npos &&
        text.find(deck) == std::string_view::npos) {
      std::error_code error;
      if (std::filesystem::is_regular_file(std::filesystem::path(path).parent_path() / file, error)) return false;
    }
  return true;
}

ReaderOutput ReadLeafOutput(const ReaderInput& input) {
  // An MPI profile of the same run beside it (mpitrace's, or an mpiP report) pairs with it (run_pairing.h).
  return AppOutputRuns(
      input, ParseLeafOutput(input.text, input.path), LeafRunUnfinished,
      [&](const LeafRun& run) { return LeafRunToRunStats(run, input.path); }, "CloverLeaf/TeaLeaf runs did not finish");
}

}  // namespace qnm
