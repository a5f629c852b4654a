// CASTEP's .castep output (castep_output.h, docs/formats/castep-output.md).
#include "app_outputs/castep_output.h"

#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::size_t kBannerLines = 30;  // the banner's box opens the file

/// The text after the first ':' of a "name : value" parameter line, blanks folded.
std::string ParameterValue(std::string_view trimmed) {
  const std::size_t colon = trimmed.find(':');
  std::string out;
  if (colon == std::string_view::npos) return out;
  for (std::string_view word : SplitWhitespace(trimmed.substr(colon + 1))) out += (out.empty() ? "" : " ") + std::string(word);
  return out;
}

/// The whole number after '=' of "Total number of ions in cell =  270"; none when it is not one.
std::optional<long long> CountAfterEquals(std::string_view trimmed) {
  const std::size_t eq = trimmed.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  auto number = ParseInteger(Trim(trimmed.substr(eq + 1)));
  if (!number || *number < 0 || *number > (1LL << 40)) return std::nullopt;
  return number;
}

/// "Calculation time    =    226.18 s" -> 226.18 (strict: a timing line is a measurement).
double SecondsAfterEquals(std::string_view trimmed, const std::string& path, int line, const char* what) {
  const std::size_t eq = trimmed.find('=');
  std::string_view value = Trim(trimmed.substr(eq + 1));
  if (EndsWith(value, "s")) value = Trim(value.substr(0, value.size() - 1));
  return NonNegativeNumber(value, path, line, what);
}

/// "20.11" of "... CASTEP version 20.11|"; empty when the line has none.
std::string VersionOf(std::string_view line) {
  const std::size_t at = line.find("CASTEP version");
  if (at == std::string_view::npos) return {};
  std::string_view rest = Trim(line.substr(at + 14));
  std::size_t end = 0;
  while (end < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[end])) || rest[end] == '.')) ++end;
  return std::string(rest.substr(0, end));
}

}  // namespace

bool LooksLikeCastepOutput(std::string_view text) {
  std::size_t start = 0;
  for (std::size_t n = 0; n < kBannerLines && start < text.size(); ++n) {
    std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!VersionOf(line).empty()) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

std::vector<CastepRun> ParseCastepOutput(std::string_view text, const std::string& path) {
  std::vector<CastepRun> runs;
  std::string version;  // the latest banner's: each appended run prints its own
  bool title_next = false;
  std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    std::string_view trimmed = Trim(lines[i]);
    if (trimmed.empty()) continue;
    if (std::string v = VersionOf(trimmed); !v.empty()) {
      version = v;
      continue;
    }
    if (StartsWith(trimmed, "Run started:")) {
      runs.emplace_back();
      runs.back().line = line;
      runs.back().version = version;
      continue;
    }
    if (runs.empty()) continue;
    CastepRun& run = runs.back();
    if (title_next) {  // the line under the banner, unless the next banner follows (no title given)
      title_next = false;
      if (!StartsWith(trimmed, "****")) {
        run.title = std::string(trimmed);
        continue;
      }
    }
    if (StartsWith(trimmed, "****") && trimmed.find(" Title ") != std::string_view::npos) {
      title_next = true;
    } else if (StartsWith(trimmed, "Calculation parallelised over")) {
      std::vector<std::string_view> t = SplitWhitespace(trimmed);
      if (t.size() < 5 || !StartsWith(t[4], "process"))
        throw InputError(path, line, "malformed 'Calculation parallelised over N processes' line");
      run.processes = WholeCount(t[3], path, line, "'parallelised over N processes'", 1);
    } else if (StartsWith(trimmed, "Each process may use up to")) {
      std::vector<std::string_view> t = SplitWhitespace(trimmed);
      if (t.size() >= 8) run.threads = WholeCount(t[6], path, line, "'up to T threads'", 1);
    } else if (StartsWith(trimmed, "Data is distributed by")) {
      run.distribution = std::string(Trim(trimmed.substr(22)));
    } else if (StartsWith(trimmed, "type of calculation") && run.task.empty()) {
      run.task = ParameterValue(trimmed);
    } else if (StartsWith(trimmed, "plane wave basis set cut-off") && run.cutoff_ev.empty()) {
      std::vector<std::string_view> t = SplitWhitespace(ParameterValue(trimmed));
      if (auto e = t.empty() ? std::nullopt : ParseDouble(t[0]); e && std::isfinite(*e) && *e > 0)
        run.cutoff_ev = FormatDouble("%g", *e);
    } else if (StartsWith(trimmed, "using functional") && run.functional.empty()) {
      run.functional = ParameterValue(trimmed);
    } else if (StartsWith(trimmed, "max. number of SCF cycles") && run.max_scf_cycles < 0) {
      if (auto n = ParseInteger(ParameterValue(trimmed)); n && *n >= 0) run.max_scf_cycles = *n;
    } else if (StartsWith(trimmed, "Total number of ions in cell") && run.ions == 0) {
      if (auto n = CountAfterEquals(trimmed)) run.ions = *n;
    } else if (StartsWith(trimmed, "Number of kpoints used") && run.kpoints == 0) {
      if (auto n = CountAfterEquals(trimmed)) run.kpoints = *n;
    } else if (StartsWith(trimmed, "Initialisation time")) {
      run.initialisation_s = SecondsAfterEquals(trimmed, path, line, "'Initialisation time'");
    } else if (StartsWith(trimmed, "Calculation time")) {
      run.calculation_s = SecondsAfterEquals(trimmed, path, line, "'Calculation time'");
    } else if (StartsWith(trimmed, "Finalisation time")) {
      run.finalisation_s = SecondsAfterEquals(trimmed, path, line, "'Finalisation time'");
    } else if (StartsWith(trimmed, "Total time") && trimmed.find('=') != std::string_view::npos) {
      run.total_s = SecondsAfterEquals(trimmed, path, line, "'Total time'");
    } else if (StartsWith(trimmed, "Peak Memory Use") && trimmed.find('=') != std::string_view::npos) {
      std::vector<std::string_view> t = SplitWhitespace(trimmed.substr(trimmed.find('=') + 1));
      if (!t.empty()) run.peak_memory_kb = NonNegativeNumber(t[0], path, line, "'Peak Memory Use'");
    }
  }
  if (runs.empty()) throw InputError(path, 0, "CASTEP output without a run ('Run started:' line)");
  return runs;
}

RunStats CastepRunToRunStats(const CastepRun& c, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  run.app = "castep";
  run.tool_version = c.version.empty() ? "CASTEP" : "CASTEP " + c.version;
  run.derivations["app"] = "CASTEP banner 'CASTEP version " + c.version + "'";
  run.procs = c.processes > 0 ? c.processes : 1;
  run.derivations["procs"] = c.processes > 0 ? "CASTEP 'Calculation parallelised over N processes'"
                                             : "CASTEP: no 'parallelised over' line, a serial run";
  if (c.threads > 0) {
    run.threads_per_proc = c.threads;
    run.derivations["threads_per_proc"] = "CASTEP 'Each process may use up to T threads'";
  }
  run.wall_time_s = c.total_s;
  run.app_time_mean_s = c.total_s;
  run.derivations["wall_time_s"] = "CASTEP 'Total time' (initialisation, calculation and finalisation)";
  run.derivations["app_time_mean_s"] = "CASTEP 'Total time', as wall_time_s";
  if (Known(c.initialisation_s)) run.details["castep_initialisation_time_s"] = NumberText(c.initialisation_s);
  if (Known(c.calculation_s)) run.details["castep_calculation_time_s"] = NumberText(c.calculation_s);
  if (Known(c.finalisation_s)) run.details["castep_finalisation_time_s"] = NumberText(c.finalisation_s);
  if (Known(c.peak_memory_kb)) run.details["castep_peak_memory_kb"] = NumberText(c.peak_memory_kb);
  if (!c.distribution.empty()) run.details["castep_distribution"] = c.distribution;
  run.details["castep_run_line"] = std::to_string(c.line);

  // The problem: the title and the parameters the work depends on.
  std::vector<std::string> words;
  if (!c.title.empty()) words.push_back("'" + c.title + "'");
  if (!c.task.empty()) words.push_back(c.task);
  if (c.ions > 0) words.push_back(std::to_string(c.ions) + " ions");
  if (c.kpoints > 0) words.push_back(std::to_string(c.kpoints) + " k-points");
  if (!c.cutoff_ev.empty()) words.push_back("cut-off " + c.cutoff_ev + " eV");
  if (!c.functional.empty()) words.push_back(c.functional);
  if (c.max_scf_cycles >= 0) words.push_back("SCF max " + std::to_string(c.max_scf_cycles));
  run.problem_class = JoinNonEmpty(words, " ");
  run.derivations["problem_class"] =
      "CASTEP: title, type of calculation, ions, k-points used, cut-off, functional, max. SCF cycles";
  run.Derive();
  return run;
}

bool SniffCastepOutput(const std::string&, std::string_view text) { return LooksLikeCastepOutput(text); }

ReaderOutput ReadCastepOutput(const ReaderInput& input) {
  // al3x3_2nodes.castep: 64, then 32 processes (the file name's nodes are no run's: FinishedRunsOutput).
  return FinishedRunsOutput(
      input, ParseCastepOutput(input.text, input.path),
      [](const CastepRun& c, int* line) -> std::string {
        if (Known(c.total_s)) return {};
        *line = c.line;
        return "CASTEP run without its closing 'Total time': it did not finish (killed, out of time, or the file "
               "was cut)";
      },
      [&](const CastepRun& c) { return CastepRunToRunStats(c, input.path); },
      [](const CastepRun& c, RunStats* run) {
        AppendConfiguration("castep" + c.version, run);
        run->derivations["variant"] = "CASTEP banner's version";
      },
      "runs did not finish");
}

}  // namespace qnm
