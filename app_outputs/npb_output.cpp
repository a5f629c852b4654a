// Section numbers (§n) refer to docs/formats/npb-format.md.
#include "app_outputs/npb_output.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "reader/experiment_factors.h"
#include "reader/file_name_info.h"
#include "reader/run_stats_check.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/plausible_range.h"

namespace qnm {
namespace {

// "BT-MZ Benchmark Completed." / "IS Benchmark Completed" (C codes: no period, §2).
bool IsBannerStart(std::string_view line, std::string* benchmark) {
  std::string_view trimmed = Trim(line);
  if (EndsWith(trimmed, ".")) trimmed.remove_suffix(1);
  static constexpr std::string_view kCompleted = " Benchmark Completed";
  if (!EndsWith(trimmed, kCompleted)) return false;
  std::string_view name = Trim(trimmed.substr(0, trimmed.size() - kCompleted.size()));
  if (name.empty() || name.size() > 16 || name.find(' ') != std::string_view::npos) return false;
  *benchmark = std::string(name);
  return true;
}

// Lines that explain a run without a banner (§8), quoted in the skip reason.
bool IsFailureLine(std::string_view line) {
  static const char* const kMarks[] = {"ERROR", "Error", "error:", "Program received signal",
                                       "Segmentation fault", "MPI_ABORT", "PROBLEM SIZE IS TOO",
                                       "Only ", "Killed", "killed", "CANCELLED", "oom", "Out of memory",
                                       "Expecting a power-of-two", "not within range", "Exiting program",
                                       "aborted", "DUE TO TIME LIMIT", "exited on signal", "failed",
                                       "unable to launch", "not found"};
  for (const char* mark : kMarks)
    if (line.find(mark) != std::string_view::npos) return true;
  return false;
}

// Post-processed logs keep the banner without its "Completed" line (§8: the
// st-g5k files); a "Class =" line followed by "Size =" or "Iterations =" starts one.
bool IsHeadlessBannerStart(const std::vector<std::string_view>& lines, std::size_t i) {
  auto key_of = [&](std::size_t k) {
    std::size_t equals = lines[k].find('=');
    return equals == std::string_view::npos ? std::string_view() : Trim(lines[k].substr(0, equals));
  };
  if (key_of(i) != "Class" || i + 1 >= lines.size()) return false;
  std::string_view next = key_of(i + 1);
  return next == "Size" || next == "Iterations";
}

bool IsNote(std::string_view line) {
  return line.find("does not match the reference") != std::string_view::npos ||
         line.find("WARNING") != std::string_view::npos ||
         line.find("Warning") != std::string_view::npos ||
         line.find("Problem size unknown") != std::string_view::npos ||
         line.find("Unknown class") != std::string_view::npos ||
         line.find("VERIFICATION FAILED") != std::string_view::npos ||
         line.find("Verification failed") != std::string_view::npos ||
         line.find("NO VERIFICATION") != std::string_view::npos ||
         line.find("No verification") != std::string_view::npos;
}

}  // namespace

std::string NpbBanner::Field(const std::string& key) const {
  for (const auto& [name, value] : fields)
    if (name == key) return value;
  return "";
}

bool LooksLikeNpbOutput(std::string_view text) {
  std::string_view head = text.substr(0, 1 << 16);
  if (head.find("NAS Parallel Benchmarks") != std::string_view::npos) return true;
  if (head.find(" Benchmark Completed") != std::string_view::npos) return true;
  return false;
}

NpbOutput ParseNpbOutput(std::string_view text, const std::string& path) {
  NpbOutput output;
  output.path = path;
  auto lines = SplitLines(text);
  std::string title;
  std::vector<std::string> notes;
  int header_threads = 0;
  int last_failure_line = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    std::string benchmark;
    if (line.find("NAS Parallel Benchmarks") != std::string_view::npos) {
      title = std::string(Trim(line));
      notes.clear();
      header_threads = 0;
      continue;
    }
    if (StartsWith(Trim(line), "Number of zones:")) {  // NPB-MZ header: the work units
      auto tokens = SplitWhitespace(Trim(line).substr(16));
      if (tokens.size() == 3 && tokens[1] == "x") {
        auto x = ParseInteger(std::string(tokens[0])), y = ParseInteger(std::string(tokens[2]));
        if (x && y && *x > 0 && *y > 0 && *x <= 4096 && *y <= 4096) output.zones = static_cast<int>(*x * *y);
      }
      continue;
    }
    if (StartsWith(Trim(line), "mpiP:")) {
      std::size_t open = line.find("Storing mpiP output in [");
      if (open != std::string_view::npos) {
        std::string_view name = line.substr(open + 24);
        name = name.substr(0, name.find(']'));
        output.mpip_report = BaseName(std::string(name));
      }
      std::size_t version = line.find("mpiP V");
      if (version != std::string_view::npos) {
        auto tokens = SplitWhitespace(line.substr(version + 6));
        if (!tokens.empty()) output.mpip_version = std::string(tokens[0]);
      }
      continue;
    }
    if (line.find("Total number of threads:") != std::string_view::npos) {
      auto tokens = SplitWhitespace(line.substr(line.find(':') + 1));
      if (!tokens.empty())
        if (auto threads = ParseInteger(tokens[0])) header_threads = static_cast<int>(*threads);
      continue;
    }
    bool headless = false;
    if (!IsBannerStart(line, &benchmark)) headless = IsHeadlessBannerStart(lines, i);
    if (!headless && benchmark.empty()) {
      if (IsNote(line)) notes.emplace_back(Trim(line));
      if (IsFailureLine(line)) {
        output.problems.push_back("line " + std::to_string(i + 1) + ": " +
                                  std::string(Trim(line).substr(0, 160)));
        if (last_failure_line == 0) last_failure_line = static_cast<int>(i + 1);
      }
      continue;
    }
    NpbBanner banner;
    banner.line = static_cast<int>(i + 1);
    banner.benchmark = benchmark;
    banner.title = title;
    banner.notes = notes;
    banner.header_threads_total = header_threads;
    notes.clear();
    // §2 robust rule: split at the first '='; the banner ends at a blank line.
    std::size_t k = headless ? i : i + 1;
    for (; k < lines.size(); ++k) {
      std::string_view field = lines[k];
      if (Trim(field).empty()) break;
      std::size_t equals = field.find('=');
      if (equals == std::string_view::npos) break;
      banner.fields.emplace_back(std::string(Trim(field.substr(0, equals))),
                                 std::string(Trim(field.substr(equals + 1))));
    }
    std::size_t next = k;
    while (next < lines.size() && Trim(lines[next]).empty()) ++next;
    if (next < lines.size() && StartsWith(Trim(lines[next]), "Compile options")) {
      for (k = next + 1; k < lines.size(); ++k) {
        std::string_view option = lines[k];
        std::size_t equals = option.find('=');
        if (Trim(option).empty() || equals == std::string_view::npos) break;
        banner.compile_options.emplace_back(std::string(Trim(option.substr(0, equals))),
                                            std::string(Trim(option.substr(equals + 1))));
      }
    }
    // A banner needs at least class, time and the timing line to be a measurement.
    auto require = [&](const char* key) {
      if (banner.Field(key).empty())
        throw InputError(path, banner.line,
                         std::string("NPB banner without '") + key + "' (truncated output?)");
    };
    require("Class");
    require("Time in seconds");
    // Counts must be plausible integers: a process or thread count beyond 2^24 is corruption.
    for (const char* key : {"Total processes", "Total threads", "Compiled procs", "Active procs",
                            "Active processes", "Iterations"}) {
      std::string value = banner.Field(key);
      if (value.empty()) continue;
      auto count = ParseInteger(value);
      if (!count || *count < 0 || *count > (1 << 24))
        throw InputError(path, banner.line, std::string("NPB '") + key + "' is not a count: '" +
                                                value.substr(0, 40) + "'");
    }
    if (!ParseDouble(banner.Field("Time in seconds")))
      throw InputError(path, banner.line, "NPB 'Time in seconds' is not a number: '" +
                                              banner.Field("Time in seconds").substr(0, 40) + "'");
    RequirePlausible(*ParseDouble(banner.Field("Time in seconds")), kRunTimeS, "NPB 'Time in seconds'",
                     path, banner.line);
    for (const char* key : {"Mop/s total", "Mop/s/process", "Mop/s/thread"}) {
      const std::string field = banner.Field(key);
      if (field.empty()) continue;
      auto rate = ParseDouble(field);  // whole field, decimal: "12abc" is no 12 (issue 19)
      if (!rate)
        throw InputError(path, banner.line, std::string("NPB '") + key + "' is not a number: '" +
                                                field.substr(0, 40) + "'");
      RequirePlausible(*rate, kMopsRate, std::string("NPB '") + key + "'", path, banner.line);
    }
    output.banners.push_back(std::move(banner));
    i = k > i ? k - 1 : i;
  }
  if (output.banners.empty()) {
    std::string reason;
    if (Trim(text).empty()) reason = "empty file";
    else if (title.empty() && !output.problems.empty())
      // Which program the job ran, the file does not say (NPB's banner or another format's never came).
      reason = "no run in it: the job failed before its program printed one, or it is no NPB output (" +
               output.problems.front() + ")";
    // Named like an output (.txt, .log) but no reader's format and no NPB text at all: counted with
    // the other unrecognised files, not said one line each (a benchmark folder's lscpu dumps).
    else if (title.empty()) reason = "not a recognised format (named like a job's output, but no NPB text in it)";
    else if (!output.problems.empty())
      reason = "no NPB results banner (run failed: " + output.problems.front() + ")";
    else reason = "no NPB results banner (run killed or output truncated)";
    throw InputError(path, last_failure_line, reason);
  }
  return output;
}

std::vector<RunStats> NpbToRunStats(const NpbOutput& output) {
  std::vector<RunStats> runs;
  for (const NpbBanner& banner : output.banners) {
    RunStats run;
    run.sources.push_back(output.path);
    run.app = ToLower(banner.benchmark);
    if (run.app.empty()) {  // headless banner: the benchmark is only in the file name
      run.app = ParseFileName(output.path).app;
      run.derivations["app"] = "file name (banner without its 'Benchmark Completed' line)";
    }
    run.problem_class = banner.Field("Class");
    run.problem_size = banner.Field("Size");
    if (output.zones > 0) {
      run.work_units = output.zones;
      run.derivations["work_units"] = "NPB-MZ 'Number of zones' (x * y): no process count beyond it has work";
      // SP-MZ and LU-MZ split the mesh into zones of one size, BT-MZ into zones whose sizes
      // differ by a factor of about 20 (van der Wijngaart & Jin 2003, NAS-03-010, §2).
      run.work_units_equal = run.app == "sp-mz" || run.app == "lu-mz";
    }
    run.wall_time_s = ParseDouble(banner.Field("Time in seconds")).value_or(kUnknown);
    run.derivations["wall_time_s"] =
        "NPB 'Time in seconds': timed section, max over ranks (FT includes set-up; docs/formats/npb-format.md §7)";
    if (auto iterations = ParseInteger(banner.Field("Iterations"))) {
      run.iterations = static_cast<int>(*iterations);
      // The work a run did: a class's runs with their iterations changed (NPB-MZ class C at 300 and at
      // 100 steps, one folder each) are different problems, not repetitions (experiment_factors.h).
      run.details[std::string(kDeclaredSettingPrefix) + "iterations"] = std::to_string(*iterations);
    }
    auto total_procs = ParseInteger(banner.Field("Total processes"));
    auto total_threads = ParseInteger(banner.Field("Total threads"));
    // Second process line: "Compiled procs" (2.x-3.3), "Active procs" (3.4.0), "Active processes" (3.4.1+).
    std::optional<long long> active;
    for (const char* key : {"Active processes", "Active procs", "Compiled procs"})
      if (!active) active = ParseInteger(banner.Field(key));
    if (total_procs && *total_procs > 0) {
      run.procs = static_cast<int>(*total_procs);
      if (active && *active > 0 && *active < *total_procs) {
        run.procs_requested = run.procs;
        run.procs = static_cast<int>(*active);
        run.derivations["procs"] = "NPB active processes (fewer than 'Total processes'; the rest idle)";
      }
      if (total_threads && *total_threads > 0) {
        // MZ-MPI: "Total threads" counts all ranks (§6).
        run.threads_per_proc =
            std::max(1, static_cast<int>(std::lround(static_cast<double>(*total_threads) / run.procs)));
        run.derivations["threads_per_proc"] = "NPB-MZ 'Total threads' / 'Total processes'";
      }
    } else if (total_threads && *total_threads > 0) {
      run.procs = 1;  // OpenMP: one process, threads in the parallel region (§6)
      run.threads_per_proc = static_cast<int>(*total_threads);
      run.derivations["threads_per_proc"] = "NPB-OMP 'Total threads'";
    } else {
      run.procs = 1;  // serial build: no process lines (§5)
      run.derivations["procs"] = "serial NPB banner (no process lines)";
    }
    run.mops_total = ParseDouble(banner.Field("Mop/s total")).value_or(kUnknown);
    if (auto per_process = ParseDouble(banner.Field("Mop/s/process"))) {
      run.mops_per_proc = *per_process;
    } else if (Known(run.mops_total) && run.procs > 0) {
      run.mops_per_proc = run.mops_total / run.procs;
      run.derivations["mops_per_proc"] = "Mop/s total / processes (banner gives Mop/s/thread)";
    }
    std::string verification = banner.Field("Verification");
    run.verification = verification == "SUCCESSFUL" || verification == "UNSUCCESSFUL"
                           ? verification
                           : verification.empty() ? "NOT PERFORMED" : verification;
    run.npb_version = banner.Field("Version");
    for (const auto& [key, value] : banner.fields) run.details["npb." + key] = value;
    for (const auto& [key, value] : banner.compile_options) run.details["npb.compile." + key] = value;
    if (!banner.title.empty()) run.details["npb.title"] = banner.title;
    for (std::size_t n = 0; n < banner.notes.size(); ++n)
      run.details["npb.note" + std::to_string(n + 1)] = banner.notes[n];
    if (!output.mpip_version.empty()) run.tool_version = "mpiP " + output.mpip_version;
    if (!output.mpip_report.empty()) run.details["npb.mpip_report"] = output.mpip_report;
    run.details["npb.banner_line"] = std::to_string(banner.line);
    run.Derive();
    RequirePlausibleRecord(run, output.path, banner.line);
    runs.push_back(std::move(run));
  }
  return runs;
}

std::string DescribeNpbOutput(const NpbOutput& output) {
  std::ostringstream out;
  out << "NPB output " << output.path << ": " << output.banners.size() << " results banner(s)\n";
  if (!output.mpip_report.empty())
    out << "  mpiP " << output.mpip_version << " report: " << output.mpip_report << "\n";
  for (const NpbBanner& banner : output.banners) {
    out << "banner at line " << banner.line << ": " << banner.benchmark << "\n";
    if (!banner.title.empty()) out << "  title: " << banner.title << "\n";
    if (banner.header_threads_total > 0)
      out << "  header threads: " << banner.header_threads_total << "\n";
    for (const std::string& note : banner.notes) out << "  note: " << note << "\n";
    for (const auto& [key, value] : banner.fields) out << "  " << key << " = " << value << "\n";
    for (const auto& [key, value] : banner.compile_options)
      out << "  compile " << key << " = " << value << "\n";
  }
  for (const std::string& problem : output.problems) out << "problem: " << problem << "\n";
  return out.str();
}

}  // namespace qnm
