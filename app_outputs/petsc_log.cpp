// PETSc's -log_view performance summary (petsc_log.h, docs/formats/petsc-log.md).
#include "app_outputs/petsc_log.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/series_identity.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::string_view kTitle = "PETSc Performance Summary:";
constexpr std::string_view kDebugWarning = "This code was compiled with a debugging option";
constexpr int kHeaderLines = 4;  // the header follows its title after one blank line

bool IsTitle(std::string_view line) { return line.find(kTitle) != std::string_view::npos; }

/// A number of the summary table, or of a stage row ("39.6%" as 39.6).
std::optional<double> TableNumber(std::string_view token) {
  if (EndsWith(token, "%")) token.remove_suffix(1);
  return ParseDouble(token);
}

/// "3.12.2" of "Using Petsc Release Version 3.12.2, Nov, 22, 2019", "dev-ab02c5218b" of "Using
/// PETSc Development Git Revision: ab02c52... Git Date: ..."; empty for another line.
std::string VersionOf(std::string_view trimmed) {
  const std::string lower = ToLower(trimmed);
  if (!StartsWith(lower, "using petsc ")) return {};
  std::vector<std::string_view> t = SplitWhitespace(trimmed);
  if (StartsWith(lower, "using petsc release version") && t.size() >= 5) {
    std::string_view v = t[4];
    while (!v.empty() && (v.back() == ',' || v.back() == '.')) v.remove_suffix(1);
    return std::string(v);
  }
  if (StartsWith(lower, "using petsc development") && t.size() >= 6) {
    std::string revision(t[5]);
    const bool hash = revision.size() == 40 && std::all_of(revision.begin(), revision.end(), [](char c) {
                        return std::isxdigit(static_cast<unsigned char>(c)) != 0;
                      });
    return "dev-" + (hash ? revision.substr(0, 10) : revision);
  }
  return {};
}

/// Reads "<program> on a <arch> named <host> with N processor(s)|process(es)|MPI processes, by ...".
void ParseHeader(std::string_view trimmed, const std::string& path, int line, PetscLogRun* run) {
  const std::size_t on = trimmed.find(" on a ");
  const std::size_t named = on == std::string_view::npos ? on : trimmed.find(" named ", on);
  if (named == std::string_view::npos)
    throw InputError(path, line,
                     "PETSc summary without its header line '<program> on a <arch> named <host> with N processes'");
  run->header_line = line;
  run->program = std::string(Trim(trimmed.substr(0, on)));
  if (named > on + 6) run->arch = std::string(Trim(trimmed.substr(on + 6, named - on - 6)));  // "on a  named": none
  const std::size_t with = trimmed.find(" with ", named + 7);
  run->host = std::string(Trim(trimmed.substr(named + 7, with == std::string_view::npos ? std::string_view::npos
                                                                                        : with - named - 7)));
  std::vector<std::string_view> t =
      with == std::string_view::npos ? std::vector<std::string_view>{} : SplitWhitespace(trimmed.substr(with + 6));
  if (t.size() >= 2 && (t[1] == "MPI" || StartsWith(t[1], "process")) && ParseInteger(t[0]))
    run->processes = WholeCount(t[0], path, line, "the header's 'with N processes'", 1);
  if (run->processes == 0)
    throw InputError(path, line, "PETSc summary header without its process count ('with N processes')");
}

/// The numbers after a table row's label ("MPI Messages:  5.501e+05  1.170  5.101e+05  1.020e+06").
std::vector<double> RowNumbers(std::string_view trimmed, std::size_t colon, std::size_t needed,
                               const std::string& path, int line) {
  const std::string label(trimmed.substr(0, colon + 1));
  std::vector<std::string_view> t = SplitWhitespace(trimmed.substr(colon + 1));
  if (t.size() < needed)
    throw InputError(path, line, "PETSc summary row '" + label + "' needs " + std::to_string(needed) +
                                     " numbers (Max, Max/Min, Avg, Total), got " + std::to_string(t.size()));
  std::vector<double> out;
  const std::string what = "PETSc summary row '" + label + "'";
  for (std::size_t i = 0; i < needed; ++i) out.push_back(NonNegativeNumber(t[i], path, line, what.c_str()));
  return out;
}

/// " 3:   solveVelocity: 1.1714e+03  76.5%  2.4743e+12 ..." -> {"solveVelocity", 1171.4, 76.5}; none
/// when the line is not a stage row.
std::optional<PetscStage> StageRow(std::string_view trimmed) {
  const std::size_t first = trimmed.find(':');
  if (first == std::string_view::npos || !ParseInteger(trimmed.substr(0, first))) return std::nullopt;
  std::string_view rest = trimmed.substr(first + 1);
  for (std::size_t colon = rest.find(':'); colon != std::string_view::npos; colon = rest.find(':', colon + 1)) {
    std::vector<std::string_view> t = SplitWhitespace(rest.substr(colon + 1));
    if (t.size() < 2) continue;
    auto time = TableNumber(t[0]), percent = TableNumber(t[1]);
    if (!time || !percent || !std::isfinite(*time) || *time < 0) continue;
    PetscStage stage;
    stage.name = std::string(Trim(rest.substr(0, colon)));
    stage.time_mean_s = *time;
    stage.time_percent = *percent;
    return stage;
  }
  return std::nullopt;
}

/// An option table entry's name: "-ksp_type" of "-ksp_type cg".
std::string OptionName(const std::string& entry) {
  const std::size_t blank = entry.find_first_of(" \t");
  return entry.substr(0, blank);
}

/// True for an option that chooses only what is printed, not what is computed.
bool OutputOnlyOption(const std::string& name) {
  static const char* const kExact[] = {"-options_left", "-options_table", "-info", "-help", "-history",
                                       "-memory_view", "-malloc_dump", "-malloc_debug", "-malloc_view",
                                       "-options_view", "-on_error_abort", "-no_signal_handler", "-version"};
  for (const char* exact : kExact)
    if (name == exact) return true;
  return StartsWith(name, "-log") || name.find("_monitor") != std::string::npos ||
         name.find("_view") != std::string::npos || name.find("converged_reason") != std::string::npos ||
         StartsWith(name, "-malloc");
}

std::string DetailWord(std::string name) {
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return ToLower(name);
}

}  // namespace

bool LooksLikePetscLog(std::string_view text) {
  for (std::size_t at = text.find(kTitle); at != std::string_view::npos; at = text.find(kTitle, at + 1)) {
    // PETSc's own line: "------- PETSc Performance Summary: -------" (not a parser's comment or a string).
    const std::size_t begin = text.rfind('\n', at) == std::string_view::npos ? 0 : text.rfind('\n', at) + 1;
    std::string_view before = Trim(text.substr(begin, at - begin));
    if (!before.empty() && before.find_first_not_of('-') == std::string_view::npos) return true;
  }
  return false;
}

std::vector<PetscLogRun> ParsePetscLog(std::string_view text, const std::string& path) {
  std::vector<PetscLogRun> runs;
  std::vector<std::string_view> lines = SplitLines(text);
  bool in_stages = false, in_options = false;
  bool table_done = false;  // the summary table ends where the stages begin
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    std::string_view trimmed = Trim(lines[i]);
    if (IsTitle(trimmed) && StartsWith(trimmed, "---")) {
      runs.emplace_back();
      runs.back().line = line;
      in_stages = in_options = table_done = false;
      std::size_t h = i + 1;  // the header: the first line with text after the title
      while (h < lines.size() && h <= i + kHeaderLines && Trim(lines[h]).empty()) ++h;
      if (h >= lines.size() || h > i + kHeaderLines)
        throw InputError(path, line,
                         "PETSc summary title without its header line '<program> on a <arch> named <host> with N "
                         "processes' (the file ends)");
      ParseHeader(Trim(lines[h]), path, static_cast<int>(h + 1), &runs.back());
      i = h;
      continue;
    }
    if (runs.empty()) continue;  // the application's own output
    PetscLogRun& run = runs.back();
    if (in_options) {
      if (StartsWith(trimmed, "#End of PETSc Option Table entries")) {
        in_options = false;
      } else if (StartsWith(trimmed, "-")) {
        run.options.emplace_back(trimmed);
      }
      continue;
    }
    if (trimmed.find(kDebugWarning) != std::string_view::npos) {
      run.debug_build = true;
      continue;
    }
    if (StartsWith(trimmed, "#PETSc Option Table entries")) {
      in_options = true;
      continue;
    }
    if (in_stages) {
      if (trimmed.empty() || StartsWith(trimmed, "---")) {
        in_stages = false;
      } else if (auto stage = StageRow(trimmed)) {
        run.stages.push_back(std::move(*stage));
      }
      continue;
    }
    if (StartsWith(trimmed, "Summary of Stages:")) {
      in_stages = table_done = true;
      ++i;  // its second heading line ("Avg %Total ...")
      continue;
    }
    if (run.version.empty()) {
      if (std::string v = VersionOf(trimmed); !v.empty()) {
        run.version = v;
        run.version_line = std::string(trimmed);
        continue;
      }
    }
    if (StartsWith(trimmed, "Using ") && EndsWith(trimmed, "OpenMP threads")) {
      std::vector<std::string_view> t = SplitWhitespace(trimmed);
      if (t.size() == 4) run.threads = WholeCount(t[1], path, line, "'Using N OpenMP threads'", 1);
      continue;
    }
    if (table_done) continue;
    const std::size_t colon = trimmed.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view label = trimmed.substr(0, colon);
    if (label == "Time (sec)") {
      std::vector<double> v = RowNumbers(trimmed, colon, 3, path, line);
      run.time_max_s = v[0], run.time_ratio = v[1], run.time_mean_s = v[2];
    } else if (label == "Flops" || label == "Flop") {
      std::vector<double> v = RowNumbers(trimmed, colon, 4, path, line);
      run.flop_max = v[0], run.flop_mean = v[2], run.flop_total = v[3];
    } else if (label == "MPI Messages" || label == "MPI Msg Count") {
      std::vector<double> v = RowNumbers(trimmed, colon, 4, path, line);
      run.messages_max = v[0], run.messages_mean = v[2], run.messages_total = v[3];
    } else if (label == "MPI Message Lengths" || label == "MPI Msg Len (bytes)") {
      std::vector<double> v = RowNumbers(trimmed, colon, 4, path, line);
      run.bytes_max = v[0], run.bytes_per_message = v[2], run.bytes_total = v[3];
    } else if (label == "MPI Reductions") {
      std::vector<double> v = RowNumbers(trimmed, colon, 2, path, line);
      run.reductions_max = v[0];
      table_done = true;  // the table's last row
    }
  }
  if (runs.empty()) throw InputError(path, 0, "no PETSc performance summary ('PETSc Performance Summary:' title)");
  return runs;
}

std::vector<std::string> PetscSolverOptions(const std::vector<std::string>& options) {
  std::vector<std::string> out;
  for (const std::string& entry : options) {
    const std::string name = OptionName(entry);
    if (name.size() < 2 || OutputOnlyOption(name)) continue;
    std::string value = entry.size() > name.size() ? std::string(Trim(std::string_view(entry).substr(name.size()))) : "";
    std::string word = name.substr(1);
    if (!value.empty()) word += "=" + value;
    for (char& c : word)
      if (c == ' ' || c == '\t') c = '_';
    out.push_back(std::move(word));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

RunStats PetscLogRunToRunStats(const PetscLogRun& p, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  const std::string program = BaseName(p.program);
  run.app = program;
  run.derivations["app"] = "PETSc summary header: the program's base name ('" + p.program + " on a ...')";
  run.tool_version = p.version.empty() ? "PETSc" : "PETSc " + p.version;
  run.procs = p.processes;
  run.derivations["procs"] = "PETSc summary header 'with N processes'";
  if (p.threads > 0) {
    run.threads_per_proc = p.threads;
    run.derivations["threads_per_proc"] = "PETSc summary 'Using N OpenMP threads'";
  } else {
    run.derivations["threads_per_proc"] = "PETSc summary: no 'Using N OpenMP threads' line, 1";
  }
  run.wall_time_s = p.time_max_s;
  run.app_time_max_s = p.time_max_s;
  run.app_time_mean_s = p.time_mean_s;
  run.derivations["wall_time_s"] = "PETSc summary 'Time (sec):' Max (the slowest rank, PetscInitialize to the summary)";
  run.derivations["app_time_max_s"] = "PETSc summary 'Time (sec):' Max";
  run.derivations["app_time_mean_s"] = "PETSc summary 'Time (sec):' Avg (over the ranks)";
  if (Known(p.messages_mean)) {
    run.messages_per_rank = p.messages_mean;
    run.derivations["messages_per_rank"] =
        "PETSc summary 'MPI Messages:' Avg: per rank, half of its sends plus receives (PETSc counts both)";
  }
  if (Known(p.bytes_total) && p.processes > 0) {
    run.bytes_sent_per_rank = p.bytes_total / p.processes;
    run.derivations["bytes_sent_per_rank"] =
        "PETSc summary 'MPI Message Lengths:' Total / processes (half of the bytes sent plus received)";
  }
  if (Known(p.bytes_per_message)) {
    run.bytes_per_message = p.bytes_per_message;
    run.derivations["bytes_per_message"] = "PETSc summary 'MPI Message Lengths:' Avg (Total / messages)";
  }
  run.details["petsc_summary_line"] = std::to_string(p.line);
  run.details["petsc_program"] = p.program;
  if (!p.arch.empty()) run.details["petsc_arch"] = p.arch;
  if (!p.version_line.empty()) run.details["petsc_version_line"] = p.version_line;
  if (Known(p.time_ratio)) run.details["petsc_time_max_over_min"] = NumberText(p.time_ratio);
  if (Known(p.flop_total)) run.details["petsc_flop_total"] = NumberText(p.flop_total);
  if (Known(p.flop_max)) run.details["petsc_flop_max_per_rank"] = NumberText(p.flop_max);
  if (Known(p.flop_mean)) run.details["petsc_flop_mean_per_rank"] = NumberText(p.flop_mean);
  if (Known(p.messages_max)) run.details["petsc_messages_max_per_rank"] = NumberText(p.messages_max);
  if (Known(p.messages_total)) run.details["petsc_messages_total"] = NumberText(p.messages_total);
  if (Known(p.bytes_max)) run.details["petsc_message_bytes_max_per_rank"] = NumberText(p.bytes_max);
  if (Known(p.bytes_total)) run.details["petsc_message_bytes_total"] = NumberText(p.bytes_total);
  if (Known(p.reductions_max)) run.details["petsc_reductions_per_rank"] = NumberText(p.reductions_max);
  for (std::size_t s = 0; s < p.stages.size(); ++s)
    run.details["petsc_stage" + std::to_string(s) + "_" + DetailWord(p.stages[s].name) + "_time_mean_s"] =
        NumberText(p.stages[s].time_mean_s);
  if (!p.options.empty()) run.details["petsc_options"] = JoinNonEmpty(p.options, "; ");
  if (p.debug_build) run.details["petsc_debug_build"] = "yes";
  // The host names the machine, as CP2K's and GROMACS's process-0 host does (series_identity.h).
  if (!p.host.empty()) ApplyHosts({p.host}, "PETSc summary header 'named <host>' (process 0's host)", &run);
  run.Derive();
  return run;
}

bool SniffPetscLog(const std::string&, std::string_view text) { return LooksLikePetscLog(text); }

ReaderOutput ReadPetscLog(const ReaderInput& input) {
  const std::vector<PetscLogRun> runs = ParsePetscLog(input.text, input.path);
  ReaderOutput output;
  UnfinishedRuns unfinished;
  int debug = 0;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const PetscLogRun& p = runs[r];
    std::string why;
    if (!Known(p.time_max_s) || !Known(p.time_mean_s)) {
      why = "PETSc summary without its 'Time (sec):' row (the file was cut";
    } else if (!Known(p.reductions_max)) {
      why = "PETSc summary cut before its 'MPI Reductions:' row (the file ends";
    }
    if (!why.empty()) {
      why += r + 1 < runs.size() ? ", or the next summary starts at line " + std::to_string(runs[r + 1].line) + ")"
                                 : ")";
      unfinished.Add(p.line, why);
      continue;
    }
    RunStats run = PetscLogRunToRunStats(p, input.path);
    ApplyFileName(input.name, &run);
    std::vector<std::string> words{"petsc" + p.version, p.arch};  // PETSC_ARCH names the build (its MPI, compiler)
    if (p.debug_build) words.push_back("debug");
    for (std::string& option : PetscSolverOptions(p.options)) words.push_back(std::move(option));
    AppendConfiguration(JoinNonEmpty(words, " "), &run);
    run.derivations["variant"] = "PETSc version line, the header's PETSC_ARCH, the debug warning, and the option table's entries that "
                                 "choose the computation (sorted; -log_view, *_monitor, *_view left out)";
    if (p.debug_build) ++debug;
    output.runs.push_back(std::move(run));
  }
  DropNameNodesOfDifferingRuns(input.name, &output.runs);
  unfinished.Finish(input.path, runs.size(), "PETSc summaries are incomplete", &output);
  if (debug > 0)
    output.notes.push_back(input.path + ": " + std::to_string(debug) + " of its summaries come from a PETSc built "
                           "with debugging (PETSc's warning box): its times are not those of an optimised build");
  return output;
}

}  // namespace qnm
