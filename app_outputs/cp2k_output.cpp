// CP2K's main output (cp2k_output.h, docs/formats/cp2k-output.md).
#include "app_outputs/cp2k_output.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "reader/experiment_factors.h"
#include "reader/series_identity.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr std::size_t kSniffLines = 1000;  // a job's own lines and DBCSR's settings come before the header
constexpr std::string_view kVersionKey = "CP2K| version string:";

// The value of a "KEY|  label    value" header line: the text after `label`, blanks folded.
std::string ValueAfter(std::string_view trimmed, std::string_view label) {
  std::string out;
  for (std::string_view word : SplitWhitespace(trimmed.substr(label.size())))
    out += (out.empty() ? "" : " ") + std::string(word);
  return out;
}

// The last word of a line as a whole number >= least (strict: these lines key the problem).
long long LastWholeNumber(const std::vector<std::string_view>& words, const std::string& path, int line,
                          const char* what, long long least) {
  return WholeNumber(words.back(), path, line, what, least);
}

bool IsStarLine(std::string_view line) {
  std::string_view t = Trim(line);
  return t.size() >= 70 && t.find_first_not_of('*') == std::string_view::npos;
}

// " -                                          -": the empty lines of a section's title box.
bool IsTitleFrame(std::string_view trimmed) {
  return trimmed.size() >= 2 && trimmed.front() == '-' && trimmed.back() == '-' &&
         trimmed.find_first_not_of("- ") == std::string_view::npos && trimmed.find(' ') != std::string_view::npos;
}

bool IsDashLine(std::string_view trimmed) {
  return trimmed.size() >= 70 && trimmed.find_first_not_of('-') == std::string_view::npos;
}

// The text of CP2K's abort box (src/common/cp_error_handling.F, print_abort_message): each body line
// is " *", 9 columns of the picture, the centred message, "*"; the last holds where CP2K stopped.
std::string AbortBoxText(const std::vector<std::string_view>& lines, std::size_t abort_index) {
  std::size_t first = abort_index, last = abort_index;
  while (first > 0 && abort_index - first < 40 && !IsStarLine(lines[first - 1])) --first;
  while (last + 1 < lines.size() && last - abort_index < 40 && !IsStarLine(lines[last + 1])) ++last;
  std::vector<std::string> text;
  for (std::size_t i = first; i <= last; ++i) {
    std::string_view body = lines[i];
    if (body.size() < 2 || body.substr(0, 2) != " *") continue;
    body = body.size() > 11 ? body.substr(11) : std::string_view();
    while (!body.empty() && (body.back() == '*' || body.back() == ' ' || body.back() == '\r')) body.remove_suffix(1);
    std::string_view words = Trim(body);
    if (!words.empty()) text.emplace_back(words);
  }
  if (text.empty()) return "";
  const std::string location = text.back();
  text.pop_back();
  std::string message = JoinNonEmpty(text, " ");
  if (message.empty()) return location;
  return message + " (at " + location + ")";
}

// "CP2K    1  1.0    0.006    0.007   14.223   14.224" (and a MAXRANK column with REPORT_MAXLOC).
bool ParseTimingRow(const std::vector<std::string_view>& w, const std::string& path, int line, Cp2kTimingRow* row) {
  if (w.size() != 7 && w.size() != 8) return false;
  // The numbers (F8.n); an overflowed field prints '*'s and is refused by NonNegativeNumber.
  row->line = line;
  row->name = std::string(w[0]);
  if (w[1].find_first_not_of('*') == std::string_view::npos) row->calls_max = -1;
  else row->calls_max = WholeNumber(w[1], path, line, "the timing report's CALLS", 0);
  row->self_mean_s = NonNegativeNumber(w[3], path, line, "the timing report's SELF TIME AVERAGE");
  row->self_max_s = NonNegativeNumber(w[4], path, line, "the timing report's SELF TIME MAXIMUM");
  row->total_mean_s = NonNegativeNumber(w[5], path, line, "the timing report's TOTAL TIME AVERAGE");
  row->total_max_s = NonNegativeNumber(w[6], path, line, "the timing report's TOTAL TIME MAXIMUM");
  // SELF <= TOTAL, AVERAGE <= MAXIMUM (print_reports: sums over ranks / processes and maxima), within
  // the printed rounding.
  const double rounding = 0.0011 + 1e-6 * row->total_max_s;
  if (row->self_mean_s > row->self_max_s + rounding || row->total_mean_s > row->total_max_s + rounding ||
      row->self_max_s > row->total_max_s + rounding)
    throw InputError(path, line, "timing report row '" + row->name +
                                     "' has an average above its maximum or a self time above its total: damaged");
  return true;
}

// " MP_Bcast             3633                  63214." / " MP_Group                4".
void ParseMessageRow(const std::vector<std::string_view>& w, const std::string& path, int line, bool dbcsr,
                     std::vector<Cp2kMessageRow>* rows) {
  if (w.empty() || !StartsWith(w[0], "MP_") || w.size() > 3)
    throw InputError(path, line, "malformed row of the message passing performance table");
  Cp2kMessageRow row;
  row.line = line;
  row.operation = std::string(w[0]);
  row.dbcsr = dbcsr;
  if (w.size() < 2) throw InputError(path, line, "message passing row '" + row.operation + "' without its CALLS");
  if (w[1].find_first_not_of('*') == std::string_view::npos) row.calls = -1;
  else row.calls = WholeNumber(w[1], path, line, "the message passing table's CALLS", 0);
  if (w.size() == 3) {
    std::string_view volume = w[2];
    if (volume.find_first_not_of('*') == std::string_view::npos) {
      row.mean_bytes = kUnknown;  // F11.0 overflowed: 10^10 bytes or more per call
    } else {
      if (EndsWith(volume, ".")) volume.remove_suffix(1);
      row.mean_bytes = NonNegativeNumber(volume, path, line, "the message passing table's AVE VOLUME [Bytes]");
    }
  } else {
    row.mean_bytes = 0;  // mp_perf_env_describe leaves the volume out when it is under one byte
  }
  rows->push_back(row);
}

enum class Section { kNone, kMessages, kDbcsrMessages, kTiming };

// The words of the cp2kflags line that say the build offloads to a GPU (DBCSR's and the grid's
// CUDA/HIP/OpenCL backends: "dbcsr_acc", "grid_cuda", "pw_cuda", "offload_hip").
bool IsAcceleratorFlag(std::string_view flag) {
  for (const char* word : {"cuda", "hip", "acc", "opencl", "offload", "sycl"})
    if (flag.find(word) != std::string_view::npos) return true;
  return false;
}

// The text of a header line from column 19: " CP2K| cp2kflags: " and its continuations " CP2K|" + 12
// blanks are 18 columns, and CP2K wraps the flags at a fixed width, inside words ("dbcs" / "r_acc").
constexpr std::size_t kFlagsColumn = 18;

struct Parser {
  const std::string& path;
  std::vector<Cp2kRun> runs;
  Section section = Section::kNone;
  bool timing_rows_started = false;
  bool in_flags = false;

  Cp2kRun& Current(int line) {
    if (runs.empty()) {
      runs.emplace_back();
      runs.back().start_line = line;
    }
    return runs.back();
  }

  void Line(const std::vector<std::string_view>& lines, std::size_t index) {
    const int line = static_cast<int>(index + 1);
    std::string_view raw = lines[index];
    std::string_view trimmed = Trim(raw);
    if (trimmed.empty()) return;
    // A new run: its banner, or a version line of a run that printed no banner.
    if (trimmed.find("PROGRAM STARTED AT") != std::string_view::npos ||
        (StartsWith(trimmed, kVersionKey) && (runs.empty() || !runs.back().version.empty()))) {
      if (runs.empty() || !runs.back().version.empty() || runs.back().timing_line > 0) {
        runs.emplace_back();
        runs.back().start_line = line;
      }
      section = Section::kNone;
    }
    if (runs.empty()) return;
    Cp2kRun& run = runs.back();
    run.last_line = line;
    std::vector<std::string_view> w = SplitWhitespace(trimmed);
    if (in_flags) {  // a continuation is "CP2K|" and blanks up to column 19
      in_flags = StartsWith(trimmed, "CP2K|") && raw.size() > kFlagsColumn &&
                 Trim(raw.substr(0, kFlagsColumn)) == "CP2K|";
      if (in_flags) {
        std::string_view more = raw.substr(kFlagsColumn);
        while (!more.empty() && (more.back() == '\r' || more.back() == '\n')) more.remove_suffix(1);
        run.flags += std::string(more);
        return;
      }
      for (std::string_view flag : SplitWhitespace(run.flags))
        if (IsAcceleratorFlag(flag)) run.accelerator_flags.emplace_back(flag);
    }

    if (section == Section::kMessages || section == Section::kDbcsrMessages) {
      if (StartsWith(trimmed, "ROUTINE") || IsTitleFrame(trimmed)) return;
      if (IsDashLine(trimmed)) {
        if (std::any_of(run.messages.begin(), run.messages.end(),
                        [&](const Cp2kMessageRow& r) { return r.dbcsr == (section == Section::kDbcsrMessages); }))
          section = Section::kNone;
        return;
      }
      if (StartsWith(trimmed, "- ") || trimmed.find("MESSAGE PASSING PERFORMANCE") != std::string_view::npos) return;
      ParseMessageRow(w, path, line, section == Section::kDbcsrMessages, &run.messages);
      return;
    }
    if (section == Section::kTiming) {
      if (StartsWith(trimmed, "SUBROUTINE") || StartsWith(trimmed, "MAXIMUM") || IsTitleFrame(trimmed) ||
          (StartsWith(trimmed, "-") && trimmed.find("T I M I N G") != std::string_view::npos))
        return;
      if (IsDashLine(trimmed)) {
        if (timing_rows_started) {
          run.timing_closed = true;
          section = Section::kNone;
        }
        return;
      }
      Cp2kTimingRow row;
      if (!ParseTimingRow(w, path, line, &row))
        throw InputError(path, line, "malformed row of the timing report (started at line " +
                                         std::to_string(run.timing_line) + ")");
      timing_rows_started = true;
      run.timing.push_back(std::move(row));
      return;
    }

    if (trimmed.find("MESSAGE PASSING PERFORMANCE") != std::string_view::npos && StartsWith(trimmed, "-")) {
      section = trimmed.find("DBCSR") != std::string_view::npos ? Section::kDbcsrMessages : Section::kMessages;
      return;
    }
    if (StartsWith(trimmed, "-") && trimmed.find("T I M I N G") != std::string_view::npos) {
      if (run.timing_line > 0)
        throw InputError(path, line, "a second timing report in one run (the first at line " +
                                         std::to_string(run.timing_line) + ")");
      run.timing_line = line;
      section = Section::kTiming;
      timing_rows_started = false;
      return;
    }
    if (trimmed.find("[ABORT]") != std::string_view::npos && run.abort_line == 0) {
      run.abort_line = line;
      run.abort_message = AbortBoxText(lines, index);
      return;
    }
    if (trimmed.find("PROGRAM ENDED AT") != std::string_view::npos) {
      run.ended_line = line;
    } else if (trimmed.find("PROGRAM STARTED ON") != std::string_view::npos && run.host.empty() && !w.empty()) {
      run.host = std::string(w.back());
    } else if (StartsWith(trimmed, kVersionKey) && run.version.empty()) {
      std::string value = ValueAfter(trimmed, kVersionKey);
      if (StartsWith(value, "CP2K version ")) value = value.substr(13);
      else if (StartsWith(value, "CP2K ")) value = value.substr(5);
      run.version = value.empty() ? "unknown" : value;
    } else if (StartsWith(trimmed, "CP2K| source code revision number:")) {
      run.revision = ValueAfter(trimmed, "CP2K| source code revision number:");
    } else if (StartsWith(trimmed, "CP2K| cp2kflags:") && run.flags.empty() && raw.size() > kFlagsColumn &&
               StartsWith(Trim(raw), "CP2K| cp2kflags: ")) {
      std::string_view flags = raw.substr(raw.find("cp2kflags:") + 11);
      while (!flags.empty() && (flags.back() == '\r' || flags.back() == '\n')) flags.remove_suffix(1);
      run.flags = std::string(flags);
      in_flags = true;
    } else if (StartsWith(trimmed, "CP2K| Program compiled for")) {
      run.compiled_for = ValueAfter(trimmed, "CP2K| Program compiled for");
    } else if (StartsWith(trimmed, "CP2K| Input file name")) {
      run.input_file = ValueAfter(trimmed, "CP2K| Input file name");
    } else if (StartsWith(trimmed, "GLOBAL| Project name") && run.project.empty()) {
      run.project = ValueAfter(trimmed, "GLOBAL| Project name");
    } else if (StartsWith(trimmed, "GLOBAL| Run type") && run.run_type.empty()) {
      run.run_type = ValueAfter(trimmed, "GLOBAL| Run type");
    } else if (StartsWith(trimmed, "GLOBAL| Total number of message passing processes")) {
      run.processes = WholeCount(w.back(), path, line, "'Total number of message passing processes'", 1);
    } else if (StartsWith(trimmed, "GLOBAL| Number of threads for this process")) {
      run.threads = WholeCount(w.back(), path, line, "'Number of threads for this process'", 1);
    } else if (StartsWith(trimmed, "GLOBAL| CPU model name") && run.cpu_model.empty()) {
      std::string model = ValueAfter(trimmed, "GLOBAL| CPU model name");
      if (StartsWith(model, ": ")) model = model.substr(2);
      run.cpu_model = model;
    } else if (trimmed.find("- Atomic kinds:") != std::string_view::npos && run.atomic_kinds == 0) {
      run.atomic_kinds = LastWholeNumber(w, path, line, "'- Atomic kinds:'", 0);
    } else if (StartsWith(trimmed, "- Atoms:") && run.atoms == 0) {
      run.atoms = LastWholeNumber(w, path, line, "'- Atoms:'", 0);
    } else if (StartsWith(trimmed, "- Spherical basis functions:") && run.basis_functions == 0) {
      run.basis_functions = LastWholeNumber(w, path, line, "'- Spherical basis functions:'", 0);
    } else if (StartsWith(trimmed, "max_scf:") && run.max_scf < 0 && w.size() == 2) {
      run.max_scf = LastWholeNumber(w, path, line, "'max_scf:'", 0);
    } else if ((StartsWith(trimmed, "MD| Number of Time Steps") || StartsWith(trimmed, "MD_PAR| Number of time steps")) &&
               run.md_steps < 0) {
      run.md_steps = LastWholeNumber(w, path, line, "the MD number of time steps", 0);
    } else if ((StartsWith(trimmed, "STEP NUMBER") && w.size() == 4 && w[2] == "=") ||
               (StartsWith(trimmed, "MD| Step number") && w.size() == 4)) {
      run.md_steps_done = LastWholeNumber(w, path, line, "the MD step number", 0);
    } else if (StartsWith(trimmed, "*** SCF run converged in") && w.size() >= 7) {
      run.scf_steps += WholeNumber(w[5], path, line, "'SCF run converged in N steps'", 0);
    }
  }
};

// What a wrapper in CP2K's message_passing.F / DBCSR's dbcsr_mpiwrap.F calls, by the words after
// "mp_": "mp_sum_dv" is MPI_Allreduce. Longer words first.
struct WrapperCall {
  const char* word;
  const char* mpi_function;
};
constexpr WrapperCall kWrapperCalls[] = {
    {"sum_root", "Reduce"},       {"sum_scatter", "Reduce_scatter"}, {"sum_partial", "Scan"},
    {"isum", "Iallreduce"},       {"sum", "Allreduce"},              {"maxloc", "Allreduce"},
    {"minloc", "Allreduce"},      {"max", "Allreduce"},              {"min", "Allreduce"},
    {"prod", "Allreduce"},        {"ibcast", "Ibcast"},              {"bcast", "Bcast"},
    {"alltoall", "Alltoallv"},    {"iallgather", "Iallgather"},      {"allgather", "Allgatherv"},
    {"igatherv", "Igatherv"},     {"gatherv", "Gatherv"},            {"gather", "Gather"},
    {"iscatter", "Iscatter"},     {"scatter", "Scatter"},            {"isendrecv", "Isend"},
    {"sendrecv", "Sendrecv"},     {"shift", "Sendrecv_replace"},     {"isend", "Isend"},
    {"irecv", "Irecv"},           {"send", "Send"},                  {"recv", "Recv"},
    {"waitall", "Waitall"},       {"waitany", "Waitany"},            {"wait", "Wait"},
    {"testall", "Testall"},       {"testany", "Testany"},            {"test", "Test"},
    {"isync", "Ibarrier"},        {"sync", "Barrier"},               {"rget", "Rget"},
};

std::string MpiFunctionOf(const std::string& wrapper) {
  const std::string rest = wrapper.substr(3);  // after "mp_"
  for (const WrapperCall& call : kWrapperCalls) {
    const std::string word = call.word;
    if (rest == word || StartsWith(rest, word + "_")) return call.mpi_function;
  }
  return rest;  // communicator, topology, memory, window and file routines: named as CP2K names them
}

// Process 0's message-passing operations that send a message, as the record counts messages
// (point-to-point sends and collective calls, record/run_stats.h), and the share of the printed
// volume that is sent: message_passing.F counts an alltoall's send and receive counts together
// (msglen = SUM(scount) + SUM(rcount); 2 * count * np), every other operation its buffer once.
struct MessageOperation {
  const char* name;
  double sent_share;
};
constexpr MessageOperation kMessageOperations[] = {
    {"MP_Bcast", 1},     {"MP_Allreduce", 1}, {"MP_Gather", 1},    {"MP_Sync", 1},       {"MP_Alltoall", 0.5},
    {"MP_SendRecv", 1},  {"MP_ISendRecv", 1}, {"MP_ISend", 1},     {"MP_Send", 1},       {"MP_Put", 1},
    {"MP_Get", 1},       {"MP_IBcast", 1},    {"MP_IAllreduce", 1}, {"MP_IScatter", 1},  {"MP_RGet", 1},
    {"MP_Isync", 1},
};
// Operations that are not messages: request completion, receives (counted at the sender),
// communicator and window management, memory, file I/O.
constexpr const char* kOtherOperations[] = {"MP_Group",    "MP_Wait",     "MP_comm_split", "MP_IRecv",
                                            "MP_Recv",     "MP_Memory",   "MP_Fence",      "MP_Win_Lock",
                                            "MP_Win_Create", "MP_Win_Free", "MP_Read_All",  "MP_Write_All"};

const MessageOperation* MessageOperationOf(const std::string& name) {
  for (const MessageOperation& op : kMessageOperations)
    if (name == op.name) return &op;
  return nullptr;
}

bool IsOtherOperation(const std::string& name) {
  return std::any_of(std::begin(kOtherOperations), std::end(kOtherOperations),
                     [&](const char* other) { return name == other; });
}

// The version as a configuration word: "7.1" -> "cp2k7.1", "9.0 (Development Version)" -> "cp2k9.0-dev".
std::string VersionWord(const std::string& version) {
  std::vector<std::string_view> words = SplitWhitespace(version);
  if (words.empty()) return "cp2k";
  std::string word = "cp2k" + std::string(words[0]);
  if (version.find("Development") != std::string::npos) word += "-dev";
  return word;
}

}  // namespace

bool LooksLikeCp2kOutput(std::string_view text) {
  std::size_t start = 0;
  for (std::size_t n = 0; n < kSniffLines && start < text.size(); ++n) {
    std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (StartsWith(Trim(line), kVersionKey)) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

std::vector<Cp2kRun> ParseCp2kOutput(std::string_view text, const std::string& path) {
  Parser parser{path, {}};
  std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) parser.Line(lines, i);
  std::vector<Cp2kRun> runs;
  for (Cp2kRun& run : parser.runs)
    if (!run.version.empty()) runs.push_back(std::move(run));
  if (runs.empty()) throw InputError(path, 0, "CP2K output without its header ('CP2K| version string:')");
  return runs;
}

std::string Cp2kRunUnfinished(const Cp2kRun& run, int* line) {
  if (run.abort_line > 0 && run.ended_line == 0) {
    *line = run.abort_line;
    return "CP2K aborted: '" + run.abort_message + "'";
  }
  if (run.timing_line == 0) {
    *line = run.last_line;
    return "CP2K output without its timing report ('T I M I N G'): the run did not finish (killed, out of time "
           "or memory, or the file was cut; its last line with text is " + std::to_string(run.last_line) + ")";
  }
  if (!run.timing_closed || run.timing.empty()) {
    *line = run.timing_line;
    return "CP2K's timing report is cut short (no closing line): the file was cut";
  }
  if (run.timing.front().name != "CP2K") {
    *line = run.timing.front().line;
    return "CP2K's timing report does not open with the 'CP2K' row (the whole run's timer)";
  }
  if (run.ended_line == 0) {
    *line = run.timing_line;
    return "CP2K output without 'PROGRAM ENDED AT' after its timing report: the file was cut";
  }
  return "";
}

RunStats Cp2kRunToRunStats(const Cp2kRun& c, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  run.app = "cp2k";
  run.tool_version = "CP2K " + c.version;
  run.derivations["app"] = "CP2K header's version string (CP2K version " + c.version + ")";
  run.procs = c.processes > 0 ? c.processes : 1;
  run.derivations["procs"] = c.processes > 0 ? "CP2K 'GLOBAL| Total number of message passing processes'"
                                             : "CP2K: no 'Total number of message passing processes', a serial run";
  if (c.threads > 0) {
    run.threads_per_proc = c.threads;
    run.derivations["threads_per_proc"] = "CP2K 'GLOBAL| Number of threads for this process' (process 0's)";
  }
  // Process 0's host names the machine, as a GROMACS log's does (series_identity.h).
  if (!c.host.empty()) ApplyHosts({c.host}, "CP2K banner 'PROGRAM STARTED ON' (process 0's host)", &run, c.cpu_model);

  // The run's time: the 'CP2K' timer (started in cp2k_init, stopped before the report; environment.F),
  // its maximum over the ranks, since the run ends when its slowest rank does.
  const Cp2kTimingRow& whole = c.timing.front();
  const std::string timing_at = " (timing report, line " + std::to_string(whole.line) + ")";
  run.wall_time_s = whole.total_max_s;
  run.app_time_max_s = whole.total_max_s;
  run.app_time_mean_s = whole.total_mean_s;
  run.derivations["wall_time_s"] = "CP2K timing report, row 'CP2K', TOTAL TIME MAXIMUM over the ranks" + timing_at;
  run.derivations["app_time_max_s"] = run.derivations["wall_time_s"];
  run.derivations["app_time_mean_s"] = "CP2K timing report, row 'CP2K', TOTAL TIME AVERAGE (sum over the ranks / "
                                       "processes; timings_report.F)" + timing_at;

  // The report leaves out every routine below THRESHOLD x the largest; the smallest printed value of the
  // column it is ordered by bounds what was left out (print_reports).
  double cutoff_s = kUnknown, largest_s = 0;
  {
    bool total_descending = true, self_descending = true;
    for (std::size_t k = 1; k < c.timing.size(); ++k) {
      if (c.timing[k].total_max_s > c.timing[k - 1].total_max_s) total_descending = false;
      if (c.timing[k].self_max_s > c.timing[k - 1].self_max_s) self_descending = false;
    }
    const bool by_self = !total_descending && self_descending;
    for (const Cp2kTimingRow& row : c.timing) {
      const double key = by_self ? row.self_max_s : row.total_max_s;
      largest_s = std::max(largest_s, key);
      cutoff_s = Known(cutoff_s) ? std::min(cutoff_s, key) : key;
    }
    run.details["cp2k_timing_order"] = by_self ? "self time" : "total time";
  }
  // Printed to 3 decimals (fewer above 10,000 s): a printed 0.000 is under half a millisecond.
  const double cutoff_bound_s = cutoff_s + 0.0005;
  run.details["cp2k_perf_timing_rows"] = std::to_string(c.timing.size());
  run.details["cp2k_perf_timing_cutoff_s"] = NumberText(cutoff_s);

  // MPI time: the SELF times of CP2K's and DBCSR's MPI wrappers (mp_*), which the report reduces
  // over the ranks; self times, so a wrapper calling another is counted once.
  double mpi_mean_s = 0, mpi_max_s = 0;
  std::vector<const Cp2kTimingRow*> wrapper_rows;
  for (const Cp2kTimingRow& row : c.timing) {
    if (!StartsWith(row.name, "mp_")) continue;
    mpi_mean_s += row.self_mean_s;
    mpi_max_s += row.self_max_s;
    wrapper_rows.push_back(&row);
  }
  const int wrappers = static_cast<int>(wrapper_rows.size());
  run.details["cp2k_perf_mpi_wrapper_rows"] = std::to_string(wrappers);
  run.details["cp2k_perf_mpi_wrappers_self_mean_s"] = NumberText(mpi_mean_s);
  run.details["cp2k_perf_mpi_wrappers_self_max_s"] = NumberText(mpi_max_s);
  const bool complete = cutoff_bound_s <= kCp2kCompleteReportShare * whole.total_max_s;
  if (complete) {  // one call site per wrapper, where the wrappers are all there (below)
    for (const Cp2kTimingRow* row : wrapper_rows) {
      CallSiteStats site;
      site.id = static_cast<int>(run.call_sites.size()) + 1;
      site.mpi_function = MpiFunctionOf(row->name);
      site.source_location = "CP2K timing report: " + row->name;
      site.activity = ClassifyMpiCall(site.mpi_function);
      site.ranks_complete = false;  // averages and maxima over the ranks, no rank rows
      site.total_time_s = row->self_mean_s * run.procs;
      run.call_sites.push_back(std::move(site));
    }
  }
  if (!run.call_sites.empty()) {
    run.per_rank_complete = false;
    run.derivations["call_sites"] = "CP2K timing report: one per mp_ wrapper row, its SELF TIME AVERAGE x processes "
                                    "as the time summed over the ranks (no calls: CALLS is a maximum over the ranks)";
  }
  if (complete) {
    run.mpi_time_mean_s = mpi_mean_s;
    run.mpi_time_max_s = mpi_max_s;
    const std::string bound = "; a lower bound: the report leaves out routines under " + NumberText(cutoff_bound_s) +
                              " s each (its THRESHOLD), and MPI called inside libraries (ScaLAPACK, ELPA, FFTW "
                              "MPI) is timed as their computation";
    run.derivations["mpi_time_mean_s"] = "CP2K timing report: SELF TIME AVERAGE of the " + std::to_string(wrappers) +
                                         " mp_ rows (CP2K's and DBCSR's MPI wrappers), summed" + bound;
    run.derivations["mpi_time_max_s"] =
        "CP2K timing report: SELF TIME MAXIMUM of the mp_ rows, summed: each wrapper's slowest rank, which may "
        "differ per wrapper, so above the slowest rank's MPI time by the spread between ranks" + bound;
    run.derivations["compute_time_mean_s"] = "CP2K: the 'CP2K' row's TOTAL TIME AVERAGE less the mean MPI time";
  } else {
    run.derivations["mpi_time_mean_s"] =
        "not read: CP2K's timing report stops at routines of " + NumberText(cutoff_s) + " s (" +
        FormatDouble("%.2g", 100 * cutoff_s / std::max(whole.total_max_s, 1e-9)) +
        "% of the run; GLOBAL%TIMINGS%THRESHOLD, default 0.02), so the MPI wrappers below it are missing; the " +
        std::to_string(wrappers) + " printed mp_ rows sum to " + NumberText(mpi_mean_s) +
        " s (cp2k_perf_mpi_wrappers_self_mean_s). A THRESHOLD of 0.0001 or less gives the MPI time";
  }

  // Messages: process 0's counters (add_perf: one process's own calls; nothing reduces them over the
  // ranks), both tables summed (CP2K's and DBCSR's wrappers keep one counter set each).
  double messages = 0, bytes_sent = 0, all_calls = 0;
  bool counts_known = !c.messages.empty(), bytes_known = !c.messages.empty();
  std::set<std::string> unknown;
  for (const Cp2kMessageRow& row : c.messages) {
    const std::string key = std::string("cp2k_perf_") + (row.dbcsr ? "dbcsr_" : "") + row.operation;
    run.details[key + "_calls"] = row.calls >= 0 ? std::to_string(row.calls) : "overflow";
    if (Known(row.mean_bytes)) run.details[key + "_mean_bytes"] = NumberText(row.mean_bytes);
    if (row.calls < 0) {
      counts_known = false;
      continue;
    }
    all_calls += static_cast<double>(row.calls);
    const MessageOperation* op = MessageOperationOf(row.operation);
    if (!op) {
      if (!IsOtherOperation(row.operation)) unknown.insert(row.operation);
      continue;
    }
    messages += static_cast<double>(row.calls);
    if (Known(row.mean_bytes)) bytes_sent += static_cast<double>(row.calls) * row.mean_bytes * op->sent_share;
    else bytes_known = false;
  }
  if (!unknown.empty()) {
    std::vector<std::string> names(unknown.begin(), unknown.end());
    run.details["cp2k_unclassified_operations"] = JoinNonEmpty(names, " ");
  }
  const std::string tables = "CP2K's 'MESSAGE PASSING PERFORMANCE' and 'DBCSR MESSAGE PASSING PERFORMANCE' tables: "
                             "process 0's own counters (mp_perf_env's add_perf; no reduction over the ranks), "
                             "taken as every rank's";
  if (counts_known) {
    run.messages_per_rank = messages;
    run.mpi_calls_per_rank = all_calls;
    run.derivations["messages_per_rank"] =
        tables + ": CALLS of the sends and collectives (Bcast, Allreduce, Gather, Sync, Alltoall, SendRecv, "
                 "ISendRecv, ISend, Send, Put, Get, IBcast, IAllreduce, IScatter, RGet, Isync), summed";
    run.derivations["mpi_calls_per_rank"] = tables + ": every CALLS, summed (waits, receives, groups included)";
    if (bytes_known) {
      run.bytes_sent_per_rank = bytes_sent;
      run.derivations["bytes_sent_per_rank"] =
          tables + ": CALLS x AVE VOLUME [Bytes] of those operations, summed; an alltoall's volume counts its "
                   "send and receive buffers together (message_passing.F: SUM(scount) + SUM(rcount)), halved";
    }
  } else if (!c.messages.empty()) {
    run.derivations["messages_per_rank"] = "not read: a CALLS field of the message passing tables overflowed";
  }

  // The problem: the project and what the input makes of it.
  std::vector<std::string> words = {c.project, c.run_type};
  if (c.atoms > 0) words.push_back(std::to_string(c.atoms) + " atoms");
  if (c.basis_functions > 0) words.push_back(std::to_string(c.basis_functions) + " basis functions");
  if (c.md_steps >= 0) words.push_back(std::to_string(c.md_steps) + " MD steps");
  if (c.max_scf >= 0) words.push_back("max_scf " + std::to_string(c.max_scf));
  run.problem_class = JoinNonEmpty(words, " ");
  run.derivations["problem_class"] =
      "CP2K's GLOBAL| Project name and Run type, the first '- Atoms' and '- Spherical basis functions', the MD "
      "number of time steps, the first max_scf";
  if (!c.input_file.empty()) run.details["cp2k_input_file"] = c.input_file;
  if (!c.revision.empty()) run.details["cp2k_revision"] = c.revision;
  if (!c.cpu_model.empty()) run.details["cp2k_cpu_model"] = c.cpu_model;
  if (c.md_steps_done > 0) {
    run.details["cp2k_perf_md_steps_done"] = std::to_string(c.md_steps_done);
    run.iterations = static_cast<int>(std::min<long long>(c.md_steps_done, 1LL << 30));
    run.derivations["iterations"] = "CP2K: the last MD step number";
  }
  if (c.scf_steps > 0) run.details["cp2k_perf_scf_steps"] = std::to_string(c.scf_steps);
  run.details["cp2k_start_line"] = std::to_string(c.start_line);
  // The build a run used is a setting: it splits a series only when a campaign varies it at one P.
  if (!c.compiled_for.empty()) run.details[std::string(kDeclaredSettingPrefix) + "cp2k_arch"] = c.compiled_for;
  if (!c.flags.empty()) {
    std::string flags;
    for (std::string_view flag : SplitWhitespace(c.flags)) flags += (flags.empty() ? "" : " ") + std::string(flag);
    run.details[std::string(kDeclaredSettingPrefix) + "cp2k_flags"] = flags;
  }
  run.Derive();
  return run;
}

bool SniffCp2kOutput(const std::string&, std::string_view text) { return LooksLikeCp2kOutput(text); }

ReaderOutput ReadCp2kOutput(const ReaderInput& input) {
  return FinishedRunsOutput(
      input, ParseCp2kOutput(input.text, input.path), Cp2kRunUnfinished,
      [&](const Cp2kRun& c) { return Cp2kRunToRunStats(c, input.path); },
      [](const Cp2kRun& c, RunStats* run) {
        // A GPU build runs other code than a CPU build of one version: its accelerator flags join the version.
        std::string build = VersionWord(c.version);
        for (const std::string& flag : c.accelerator_flags) build += "-" + flag;
        AppendConfiguration(build, run);
        run->derivations["variant"] = c.accelerator_flags.empty()
                                          ? "CP2K header's version"
                                          : "CP2K header's version and the GPU flags of its cp2kflags line";
      },
      "CP2K runs did not finish");
}

}  // namespace qnm
