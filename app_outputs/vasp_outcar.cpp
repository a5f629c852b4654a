// VASP OUTCAR files (vasp_outcar.h, docs/formats/vasp-outcar.md).
#include "app_outputs/vasp_outcar.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::size_t kHeaderLines = 12;  // the banner and the "running" line open the file

bool IsBanner(std::string_view trimmed) { return StartsWith(trimmed, "vasp.") && trimmed.size() > 5; }

// "LOOP+:  cpu time12453.9663: real time12485.9647": VASP's fixed-width fields run into the
// words when the times are large, so the number is what follows "real time".
double RealTime(std::string_view line, const std::string& path, int number) {
  const std::size_t at = line.find("real time");
  if (at == std::string_view::npos) throw InputError(path, number, "a LOOP line without its 'real time'");
  return NonNegativeNumber(line.substr(at + 9), path, number, "a LOOP line's real time");
}

// The value after "NAME =" on a line of VASP's parsed parameters ("NIONS =   1080"), up to the
// next blank or ';'; empty when the line does not hold NAME.
std::string_view ValueAfter(std::string_view line, std::string_view name) {
  std::size_t at = line.find(name);
  while (at != std::string_view::npos) {
    std::size_t k = at + name.size();
    const bool word_start = at == 0 || line[at - 1] == ' ';
    while (k < line.size() && line[k] == ' ') ++k;
    if (word_start && k < line.size() && line[k] == '=') {
      ++k;
      while (k < line.size() && line[k] == ' ') ++k;
      std::size_t end = k;
      while (end < line.size() && line[end] != ' ' && line[end] != ';') ++end;
      return line.substr(k, end - k);
    }
    at = line.find(name, at + 1);
  }
  return {};
}

// The whole number after "NAME ="; none when NAME is not there or not followed by one (the
// parameters only key the problem: a value VASP printed otherwise is left out, not refused).
std::optional<long long> WholeAfter(std::string_view line, std::string_view name) {
  std::string_view value = ValueAfter(line, name);
  if (value.empty()) return std::nullopt;
  auto number = ParseInteger(value);
  if (!number || *number > (1LL << 40) || *number < -(1LL << 40)) return std::nullopt;
  return number;
}

// The text after "NAME =" to the end of the line, blanks folded ("SYSTEM =  unknown system").
std::string TextAfterEquals(std::string_view trimmed) {
  const std::size_t eq = trimmed.find('=');
  std::string out;
  for (std::string_view word : SplitWhitespace(trimmed.substr(eq + 1))) out += (out.empty() ? "" : " ") + std::string(word);
  return out;
}

// "running on  192 total cores" (VASP 5), "running  128 mpi-ranks, with    1 threads/rank" and
// "running 1024 mpi-ranks, with    1 threads/rank, on   16 nodes" (VASP 6).
void ParseRunningLine(std::string_view trimmed, const std::string& path, int line, VaspOutcar* out) {
  std::vector<std::string_view> t = SplitWhitespace(trimmed);
  auto bad = [&] {
    return InputError(path, line, "malformed 'running' line: neither 'running on N total cores' nor 'running N mpi-ranks'");
  };
  if (t.size() >= 5 && t[1] == "on" && t[3] == "total" && StartsWith(t[4], "cores")) {
    out->mpi_ranks = WholeCount(t[2], path, line, "'running on N total cores'", 1);
    return;
  }
  if (t.size() < 3 || !StartsWith(t[2], "mpi-ranks")) throw bad();
  out->mpi_ranks = WholeCount(t[1], path, line, "'running N mpi-ranks'", 1);
  for (std::size_t k = 3; k + 2 < t.size(); ++k) {
    if (t[k] == "with" && StartsWith(t[k + 2], "threads/rank"))
      out->threads_per_rank = WholeCount(t[k + 1], path, line, "'with T threads/rank'", 1);
    if (t[k] == "on" && StartsWith(t[k + 2], "node"))
      out->nodes = WholeCount(t[k + 1], path, line, "'on K nodes'", 1);
  }
}

// "5.4.4" of "5.4.4.18Apr17-6-g9f103f2a35" (a build from git), "6.4.2" of "6.4.2": the dotted
// whole numbers the version opens with.
std::string ReleaseNumber(std::string_view version) {
  std::string out;
  for (std::string_view part : SplitFields(version, '.')) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string_view::npos) break;
    out += (out.empty() ? "" : ".") + std::string(part);
  }
  return out.empty() ? std::string(version) : out;
}

}  // namespace

bool LooksLikeVaspOutcar(std::string_view text) {
  std::vector<std::string_view> head;
  std::size_t start = 0;
  for (std::size_t n = 0; n < kHeaderLines && start < text.size(); ++n) {
    std::size_t end = text.find('\n', start);
    head.push_back(Trim(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  for (std::size_t k = 0; k < head.size(); ++k)
    if (IsBanner(head[k]))
      for (std::size_t j = k + 1; j < head.size(); ++j)
        if (StartsWith(head[j], "running ")) return true;
  return false;
}

VaspOutcar ParseVaspOutcar(std::string_view text, const std::string& path) {
  VaspOutcar out;
  std::vector<std::string_view> lines = SplitLines(text);
  bool timing_block = false;
  int running_line = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line = static_cast<int>(i + 1);
    std::string_view trimmed = Trim(lines[i]);
    if (trimmed.empty()) continue;
    if (out.version.empty() && i < kHeaderLines && IsBanner(trimmed)) {
      std::vector<std::string_view> words = SplitWhitespace(trimmed);
      out.version = std::string(words[0].substr(5));
      out.release = ReleaseNumber(out.version);
      const std::string_view last = words.back();
      if (words.size() > 1 && last.find(')') == std::string_view::npos) out.build = std::string(last);
      continue;
    }
    if (out.platform.empty() && i < kHeaderLines && StartsWith(trimmed, "executed on ")) {
      // "executed on   HPECrayEX_GCC date 2024.02.29  11:13:10": the build's arch name.
      std::vector<std::string_view> words = SplitWhitespace(trimmed);
      if (words.size() >= 3 && words[2] != "date") out.platform = std::string(words[2]);
      continue;
    }
    if (running_line == 0 && StartsWith(trimmed, "running ")) {
      ParseRunningLine(trimmed, path, line, &out);
      running_line = line;
      continue;
    }
    if (StartsWith(trimmed, "distrk:") && out.kpoint_groups == 0) {
      std::vector<std::string_view> t = SplitWhitespace(trimmed);
      if (t.size() >= 2 && StartsWith(t.back(), "group"))
        out.kpoint_groups = WholeCount(t[t.size() - 2], path, line, "the k-point groups (KPAR)", 1);
      continue;
    }
    if (StartsWith(trimmed, "distr:") && out.ncore == 0) {
      // "distr:  one band on NCORE= 128 cores,    8 groups" / "NCORES_PER_BAND=   8 cores"
      const std::size_t eq = trimmed.find('=');
      if (eq != std::string_view::npos) {
        std::vector<std::string_view> t = SplitWhitespace(trimmed.substr(eq + 1));
        if (!t.empty()) out.ncore = WholeCount(t[0], path, line, "the cores per band (NCORE)", 1);
      }
      continue;
    }
    if (StartsWith(trimmed, "LOOP+:")) {
      out.loop_plus_real_s += RealTime(trimmed, path, line);
      ++out.ionic_loops;
      continue;
    }
    if (StartsWith(trimmed, "LOOP:")) {
      RealTime(trimmed, path, line);  // checked; the electronic steps are inside their ionic step's time
      ++out.electronic_loops;
      continue;
    }
    if (StartsWith(trimmed, "General timing and accounting")) {
      timing_block = true;
      continue;
    }
    if (timing_block) {
      if (StartsWith(trimmed, "Elapsed time (sec):"))
        out.elapsed_s = NonNegativeNumber(trimmed.substr(19), path, line, "'Elapsed time (sec)'");
      else if (StartsWith(trimmed, "Total CPU time used (sec):"))
        out.total_cpu_s = NonNegativeNumber(trimmed.substr(26), path, line, "'Total CPU time used (sec)'");
      else if (StartsWith(trimmed, "Maximum memory used (kb):"))
        out.max_memory_kb = NonNegativeNumber(trimmed.substr(25), path, line, "'Maximum memory used (kb)'");
      continue;
    }
    // The input as VASP parsed it (one space of indent: the INCAR's echo above it has three).
    if (StartsWith(trimmed, "SYSTEM =") && out.system.empty() && lines[i].size() > 1 && lines[i][1] != ' ') {
      out.system = TextAfterEquals(trimmed);
    } else if (StartsWith(trimmed, "POSCAR =") && out.poscar.empty()) {
      out.poscar = TextAfterEquals(trimmed);
    } else if (auto nkpts = WholeAfter(trimmed, "NKPTS"); nkpts && *nkpts > 0 && out.kpoints == 0) {
      out.kpoints = *nkpts;
      if (auto bands = WholeAfter(trimmed, "NBANDS"); bands && *bands > 0) out.bands = *bands;
    } else if (auto ions = WholeAfter(trimmed, "NIONS"); ions && *ions > 0 && out.ions == 0) {
      out.ions = *ions;
    } else if (StartsWith(trimmed, "ENCUT ") && out.encut_ev.empty()) {
      // The INCAR's echo ("750") or VASP's parse ("750.0"): one spelling, so versions that print
      // only the parse key the same problem.
      if (auto e = ParseDouble(ValueAfter(trimmed, "ENCUT")); e && std::isfinite(*e) && *e > 0)
        out.encut_ev = FormatDouble("%g", *e);
    } else if (StartsWith(trimmed, "NELM ") && out.max_electronic_steps < 0) {
      if (auto nelm = WholeAfter(trimmed, "NELM"); nelm && *nelm >= 0) out.max_electronic_steps = *nelm;
    } else if (StartsWith(trimmed, "NSW ") && out.ionic_steps < 0) {
      if (auto nsw = WholeAfter(trimmed, "NSW"); nsw && *nsw >= 0) out.ionic_steps = *nsw;
    } else if (StartsWith(trimmed, "IBRION ") && out.ibrion == -99) {
      if (auto ibrion = WholeAfter(trimmed, "IBRION"); ibrion && *ibrion > -99 && *ibrion < 1000) out.ibrion = *ibrion;
    }
  }
  if (out.version.empty()) throw InputError(path, 1, "no VASP banner ('vasp.<version> ...') on the first lines");
  if (running_line == 0)
    throw InputError(path, 0, "VASP OUTCAR without its 'running on N total cores' or 'running N mpi-ranks' line");
  if (out.ionic_loops == 0)
    throw InputError(path, 0, "VASP OUTCAR without a 'LOOP+' line: no ionic step finished (the job was killed, "
                              "crashed or is still running)");
  if (!timing_block || !Known(out.elapsed_s))
    throw InputError(path, 0, "VASP OUTCAR without its closing 'General timing and accounting' block and 'Elapsed "
                              "time': the job did not finish (killed, out of time, or the file was cut)");
  return out;
}

RunStats VaspOutcarToRunStats(const VaspOutcar& o, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  run.app = "vasp";
  run.tool_version = "VASP " + o.version;
  run.derivations["app"] = "VASP banner 'vasp." + o.version + "'";
  run.procs = o.mpi_ranks;
  run.derivations["procs"] = o.threads_per_rank > 0 ? "VASP 'running N mpi-ranks'" : "VASP 'running on N total cores'";
  if (o.threads_per_rank > 0) {
    run.threads_per_proc = o.threads_per_rank;
    run.derivations["threads_per_proc"] = "VASP 'with T threads/rank'";
  }
  if (o.nodes > 0) run.SetNodes(o.nodes, "VASP 'running ... on K nodes'");

  // The run's time: its ionic steps as VASP timed them (LOOP+), what benchmark suites report; the
  // job's elapsed time adds the set-up before the first step and the writing after the last.
  run.wall_time_s = o.loop_plus_real_s;
  run.app_time_mean_s = o.loop_plus_real_s;
  const std::string steps = std::to_string(o.ionic_loops) + (o.ionic_loops == 1 ? " 'LOOP+' line" : " 'LOOP+' lines");
  run.derivations["wall_time_s"] = "VASP: the real time of the " + steps +
                                   " (the ionic steps) summed; the job's 'Elapsed time' is in details";
  run.derivations["app_time_mean_s"] = "VASP: the LOOP+ real times summed, as wall_time_s (every rank is in the loop)";
  run.iterations = o.electronic_loops;
  run.details["vasp_elapsed_s"] = NumberText(o.elapsed_s);
  if (Known(o.total_cpu_s)) run.details["vasp_total_cpu_s"] = NumberText(o.total_cpu_s);
  if (Known(o.max_memory_kb)) run.details["vasp_max_memory_kb"] = NumberText(o.max_memory_kb);
  run.details["vasp_ionic_steps"] = std::to_string(o.ionic_loops);
  run.details["vasp_electronic_steps"] = std::to_string(o.electronic_loops);
  if (o.bands > 0) run.details["vasp_nbands"] = std::to_string(o.bands);

  // The problem: the input as VASP parsed it. NBANDS is not in it (VASP rounds it up to fill the
  // band groups, so it changes with the layout), nor the electronic steps taken.
  std::vector<std::string> words;
  // The POSCAR title when SYSTEM does not name the system (VASP's default "unknown system"); the
  // numbers below keep two structures of one name apart.
  const bool named = !o.system.empty() && o.system != "unknown system";
  if (named) words.push_back(o.system);
  else if (!o.poscar.empty()) words.push_back("'" + o.poscar + "'");
  if (o.ions > 0) words.push_back(std::to_string(o.ions) + " ions");
  if (o.kpoints > 0) words.push_back(std::to_string(o.kpoints) + " k-points");
  if (!o.encut_ev.empty()) words.push_back("ENCUT " + o.encut_ev);
  if (o.max_electronic_steps >= 0) words.push_back("NELM " + std::to_string(o.max_electronic_steps));
  if (o.ionic_steps >= 0) words.push_back("NSW " + std::to_string(o.ionic_steps));
  if (o.ibrion != -99) words.push_back("IBRION " + std::to_string(o.ibrion));
  run.problem_class = JoinNonEmpty(words, " ");
  run.derivations["problem_class"] =
      "VASP parsed input: SYSTEM (else the POSCAR title), NIONS, NKPTS, ENCUT, NELM, NSW, IBRION";
  // The build: runs of one input by two builds (version, arch, gamma-only or complex) are two
  // series, not one series at more process counts.
  if (!o.build.empty()) run.details["vasp_build"] = o.build;
  if (!o.platform.empty()) run.details["vasp_platform"] = o.platform;
  run.derivations["variant"] = "VASP banner: version and build word (gamma-only, complex, ...), and 'executed on' arch";
  // Settings of the run (reader/experiment_factors.h): one input at several NCORE or KPAR per
  // process count is several series.
  if (o.ncore > 0) run.details[std::string(kDeclaredSettingPrefix) + "ncore"] = std::to_string(o.ncore);
  if (o.kpoint_groups > 0) run.details[std::string(kDeclaredSettingPrefix) + "kpar"] = std::to_string(o.kpoint_groups);
  run.Derive();
  return run;
}

bool SniffVaspOutcar(const std::string&, std::string_view text) { return LooksLikeVaspOutcar(text); }

ReaderOutput ReadVaspOutcar(const ReaderInput& input) {
  const VaspOutcar outcar = ParseVaspOutcar(input.text, input.path);
  ReaderOutput output = OneRunOutput(VaspOutcarToRunStats(outcar, input.path), input.name);
  RunStats& run = output.runs.front();
  std::string build = "vasp" + outcar.release;
  for (const std::string& word : {outcar.platform, outcar.build})
    if (!word.empty()) build += "-" + word;
  AppendConfiguration(build, &run);
  return output;
}

}  // namespace qnm
