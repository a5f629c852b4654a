// IBM mpitrace profiles (mpitrace_profile.h, docs/formats/mpitrace-profile.md).
#include "profiles/mpitrace_profile.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "profiles/profile_readers.h"
#include "reader/batch_job_text.h"
#include "reader/run_stats_check.h"
#include "reader/series_identity.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

// "Data for MPI rank 3 of 64:" (also "... of 64: (all communicators)"): rank and ranks; false otherwise.
bool ParseDataLine(std::string_view trimmed, int* rank, int* procs) {
  if (!StartsWith(trimmed, "Data for MPI rank ")) return false;
  const std::vector<std::string_view> words = SplitWhitespace(trimmed);
  if (words.size() < 7 || words[5] != "of") return false;
  std::string_view count = words[6];
  if (!count.empty() && count.back() == ':') count.remove_suffix(1);
  const std::optional<long long> r = ParseInteger(words[4]), n = ParseInteger(count);
  if (!r || !n) return false;
  *rank = static_cast<int>(std::min<long long>(*r, 1LL << 30));
  *procs = static_cast<int>(std::min<long long>(*n, 1LL << 30));
  return true;
}

// "label = 1.234 seconds." / "label = 61.09 MiB.": the number after '='.
double ValueAfterEquals(std::string_view trimmed, const std::string& path, int line, const char* what) {
  const std::size_t equals = trimmed.find('=');
  const std::vector<std::string_view> words =
      SplitWhitespace(equals == std::string_view::npos ? std::string_view() : trimmed.substr(equals + 1));
  return NonNegativeNumber(words.empty() ? std::string_view() : words[0], path, line, what);
}

// "mpi_profile.<jobid>.<rank>" (ADD_TIMESTAMP: "mpi_profile.<jobid>.<timestamp>.<rank>"): the name
// before the rank and the rank; false for other names.
bool ParseProfileName(const std::string& path, std::string* stem, int* rank) {
  const std::string name = fs::path(path).filename().string();
  if (!StartsWith(name, "mpi_profile.")) return false;
  const std::size_t dot = name.rfind('.');
  if (dot <= 11) return false;
  const std::optional<long long> r = ParseInteger(std::string_view(name).substr(dot + 1));
  if (!r || *r < 0) return false;
  *stem = name.substr(0, dot);
  *rank = static_cast<int>(std::min<long long>(*r, 1LL << 30));
  return true;
}

}  // namespace

bool LooksLikeMpitraceProfile(std::string_view text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return false;
  const std::size_t end = text.find('\n', start);
  return StartsWith(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start),
                    "Data for MPI rank ") &&
         text.find("MPI Routine") != std::string_view::npos;
}

MpitraceProfile ParseMpitraceProfile(std::string_view text, const std::string& path) {
  MpitraceProfile p;
  const std::vector<std::string_view> lines = SplitLines(text);
  enum class Section { kNone, kRoutines, kRanks, kSkip } section = Section::kNone;
  int dashes = 0;  // dashed lines seen after the routine table's heading
  bool routine_table_seen = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int n = static_cast<int>(i + 1);
    const std::string_view t = Trim(lines[i]);
    if (p.rank < 0) {
      if (t.empty()) continue;
      if (!ParseDataLine(t, &p.rank, &p.procs))
        throw InputError(
            path, n,
            "mpitrace 'Data for MPI rank R of N:' needs two whole numbers, got '" + std::string(t.substr(0, 60)) + "'");
      if (p.procs < 1 || p.rank < 0 || p.rank >= p.procs || p.procs > (1 << 24))
        throw InputError(path, n,
                         "mpitrace 'Data for MPI rank " + std::to_string(p.rank) + " of " + std::to_string(p.procs) +
                             "': no such rank");
      continue;
    }
    if (section == Section::kRoutines) {
      if (StartsWith(t, "---")) {
        if (++dashes == 2) section = Section::kNone;
        continue;
      }
      if (StartsWith(t, "MPI Routine")) continue;
      const std::vector<std::string_view> w = SplitWhitespace(t);
      if (w.size() != 4)
        throw InputError(path, n,
                         "mpitrace routine row needs a name, #calls, avg. bytes and time(sec), got '" +
                             std::string(t.substr(0, 60)) + "'");
      MpitraceRoutine routine;
      routine.name = std::string(w[0]);
      routine.calls = WholeNumber(w[1], path, n, "mpitrace #calls", 0, 1LL << 60);
      routine.average_bytes = NonNegativeNumber(w[2], path, n, "mpitrace avg. bytes");
      routine.time_s = NonNegativeNumber(w[3], path, n, "mpitrace time(sec)");
      p.routines.push_back(std::move(routine));
      continue;
    }
    if (section == Section::kRanks) {
      const std::vector<std::string_view> w = SplitWhitespace(t);
      if (w.empty()) {
        section = Section::kNone;
        continue;
      }
      if (w[0] == "taskid") continue;  // the heading
      if (w.size() < 9)
        throw InputError(path, n,
                         "mpitrace rank row needs taskid, host, cpu, comm(s), elapsed(s), user(s), "
                         "system(s), size(MiB) and switches, got '" +
                             std::string(t.substr(0, 60)) + "'");
      MpitraceRankRow row;
      row.rank = static_cast<int>(WholeNumber(w[0], path, n, "mpitrace taskid", 0, p.procs - 1));
      if (row.rank != static_cast<int>(p.ranks.size()))
        throw InputError(path, n,
                         "mpitrace rank row " + std::to_string(row.rank) + " where rank " +
                             std::to_string(p.ranks.size()) + " was due");
      // The host is every word between the taskid and the seven numbers (a host name has no blank,
      // but a damaged or unusual one is kept whole).
      for (std::size_t k = 1; k + 7 < w.size(); ++k) row.host += (row.host.empty() ? "" : " ") + std::string(w[k]);
      const std::size_t c = w.size() - 7;  // cpu, comm, elapsed, user, system, size, switches
      row.communication_s = NonNegativeNumber(w[c + 1], path, n, "mpitrace comm(s)");
      row.elapsed_s = NonNegativeNumber(w[c + 2], path, n, "mpitrace elapsed(s)");
      if (row.communication_s > row.elapsed_s + 0.01)
        throw InputError(path, n,
                         "mpitrace rank " + std::to_string(row.rank) + " spent " +
                             FormatDouble("%g", row.communication_s) + " s in MPI of its " +
                             FormatDouble("%g", row.elapsed_s) + " s");
      p.ranks.push_back(std::move(row));
      continue;
    }
    if (section == Section::kSkip && !t.empty()) continue;
    section = Section::kNone;
    if (StartsWith(t, "Times from ") || StartsWith(t, "Times and statistics from ")) {
      const std::size_t from = t.find(" from ");
      p.window = std::string(Trim(t.substr(from + 6)));
      if (!p.window.empty() && p.window.back() == '.') p.window.pop_back();
    } else if (StartsWith(t, "MPI Routine") && !routine_table_seen) {
      section = Section::kRoutines;  // the rows, between the dashed lines after the heading
      routine_table_seen = true;
    } else if (StartsWith(t, "total communication time")) {
      p.communication_s = ValueAfterEquals(t, path, n, "mpitrace 'total communication time'");
    } else if (StartsWith(t, "total elapsed time")) {
      p.elapsed_s = ValueAfterEquals(t, path, n, "mpitrace 'total elapsed time'");
      p.elapsed_line = n;
    } else if (StartsWith(t, "user cpu time")) {
      p.user_s = ValueAfterEquals(t, path, n, "mpitrace 'user cpu time'");
    } else if (StartsWith(t, "system time")) {
      p.system_s = ValueAfterEquals(t, path, n, "mpitrace 'system time'");
    } else if (StartsWith(t, "max resident set size")) {
      p.max_rss_mib = ValueAfterEquals(t, path, n, "mpitrace 'max resident set size'");
    } else if (StartsWith(t, "total MPI-IO time")) {
      p.mpi_io_s = ValueAfterEquals(t, path, n, "mpitrace 'total MPI-IO time'");
    } else if (StartsWith(t, "minimum communication time")) {
      p.min_communication_s = ValueAfterEquals(t, path, n, "mpitrace 'minimum communication time'");
    } else if (StartsWith(t, "median") && StartsWith(Trim(t.substr(6)), "communication time")) {
      p.median_communication_s = ValueAfterEquals(t, path, n, "mpitrace 'median communication time'");
    } else if (StartsWith(t, "maximum communication time")) {
      p.max_communication_s = ValueAfterEquals(t, path, n, "mpitrace 'maximum communication time'");
    } else if (StartsWith(t, "Rank ") && t.find("reported the largest elapsed time") != std::string_view::npos) {
      const std::size_t colon = t.rfind(':');
      const std::vector<std::string_view> w = SplitWhitespace(t.substr(colon + 1));
      p.largest_elapsed_s =
          NonNegativeNumber(w.empty() ? std::string_view() : w[0], path, n, "mpitrace 'largest elapsed time'");
    } else if (t == "Summary for all tasks:") {
      p.summary_line = n;
    } else if (t == "MPI timing summary for all ranks:") {
      section = Section::kRanks;
    } else if (StartsWith(t, "Histogram of times spent in MPI") || StartsWith(t, "Message size distributions")) {
      section = Section::kSkip;  // their rows, to the next blank line
    }
  }
  if (p.rank < 0) throw InputError(path, 0, "no mpitrace profile: no 'Data for MPI rank R of N:' line");
  if (section == Section::kRoutines)
    throw InputError(path, static_cast<int>(lines.size()),
                     "mpitrace routine table without its closing dashed line: the file was cut");
  if (p.elapsed_line == 0 || p.communication_s < 0)
    throw InputError(path, static_cast<int>(lines.size()),
                     "mpitrace profile without 'total communication time' and 'total elapsed time': the file was cut");
  if (p.summary_line > 0 && p.ranks.empty())
    throw InputError(path, static_cast<int>(lines.size()),
                     "mpitrace 'Summary for all tasks' (line " + std::to_string(p.summary_line) +
                         ") without its 'MPI timing summary for all ranks': the file was cut");
  if (!p.ranks.empty() && static_cast<int>(p.ranks.size()) != p.procs)
    throw InputError(path, static_cast<int>(lines.size()),
                     "mpitrace 'MPI timing summary for all ranks' has " + std::to_string(p.ranks.size()) +
                         " rows of the run's " + std::to_string(p.procs) + " ranks: the file was cut");
  return p;
}

namespace {

// A rank's point-to-point sends and collectives (Barrier included): calls and bytes (#calls x avg. bytes).
struct RankMessages {
  double sends = 0, send_bytes = 0, collectives = 0, collective_bytes = 0, calls = 0;
};

RankMessages MessagesOf(const MpitraceProfile& p) {
  RankMessages m;
  for (const MpitraceRoutine& r : p.routines) {
    const std::string function = StartsWith(r.name, "MPI_") ? r.name.substr(4) : r.name;
    const double calls = static_cast<double>(r.calls), bytes = calls * r.average_bytes;
    m.calls += calls;
    if (IsPointToPointSend(function)) {
      m.sends += calls;
      m.send_bytes += bytes;
    } else if (CountsAsCollective(ClassifyMpiCall(function))) {
      m.collectives += calls;
      m.collective_bytes += bytes;
    }
  }
  return m;
}

}  // namespace

RunStats MpitraceProfileToRunStats(const MpitraceProfile& p, const std::string& path,
                                   const std::vector<MpitraceProfile>& every_rank) {
  RunStats run;
  run.sources.push_back(path);
  run.procs = p.procs;
  run.derivations["procs"] = "mpitrace 'Data for MPI rank 0 of N'";
  run.tool_version = "mpitrace";
  if (!p.window.empty()) run.details["mpitrace_window"] = p.window;
  const std::string window = p.window.empty() ? "" : " (" + p.window + ")";
  if (!p.ranks.empty()) {
    std::vector<std::string> hosts;
    for (const MpitraceRankRow& row : p.ranks) {
      run.app_time_s_per_rank.push_back(row.elapsed_s);
      run.mpi_time_s_per_rank.push_back(row.communication_s);
      hosts.push_back(row.host);
    }
    run.derivations["app_time_s_per_rank"] = "mpitrace 'MPI timing summary for all ranks': elapsed(s)" + window;
    run.derivations["mpi_time_s_per_rank"] =
        "mpitrace 'MPI timing summary for all ranks': comm(s), the time in MPI routines (MPI-IO's not included)";
    ApplyRankHosts(hosts, "mpitrace 'MPI timing summary for all ranks' host", &run);
  } else {
    // A release without the summary of every rank: rank 0's own times (the others' are in their files).
    // (MPI_Finalize ends every rank's elapsed time together, so rank 0's stands for the longest.)
    run.app_time_mean_s = run.app_time_max_s = p.elapsed_s;
    run.mpi_time_mean_s = p.communication_s;
    run.derivations["app_time_mean_s"] = "mpitrace rank 0's 'total elapsed time'" + window + ", as every rank's";
    run.derivations["app_time_max_s"] = run.derivations["app_time_mean_s"];
    run.derivations["mpi_time_mean_s"] = "mpitrace rank 0's 'total communication time', as every rank's";
  }
  for (const MpitraceRoutine& r : p.routines)
    run.details["mpitrace_rank0." + r.name] =
        std::to_string(r.calls) + " calls, " + NumberText(r.average_bytes) + " B avg, " + NumberText(r.time_s) + " s";
  if (static_cast<int>(every_rank.size()) == p.procs && p.procs > 1) {
    // SAVE_ALL_TASKS=yes: every rank's own routine table.
    double calls = 0;
    for (const MpitraceProfile& rank : every_rank) {
      const RankMessages m = MessagesOf(rank);
      calls += m.calls;
      run.p2p_calls_per_rank.push_back(m.sends);
      run.p2p_bytes_sent_per_rank.push_back(m.send_bytes);
      run.collective_calls_per_rank.push_back(m.collectives);
      run.collective_bytes_sent_per_rank.push_back(m.collective_bytes);
    }
    run.derivations["p2p_calls_per_rank"] =
        "mpitrace: each rank's file (mpi_profile.<jobid>.<rank>, SAVE_ALL_TASKS), its point-to-point sends";
    run.derivations["collective_calls_per_rank"] =
        "mpitrace: each rank's file, its collectives (Barrier included); bytes #calls x avg. bytes";
    run.mpi_calls_per_rank = calls / p.procs;
    run.derivations["mpi_calls_per_rank"] = "mpitrace: the mean over every rank's file of its #calls of every routine";
  } else {
    // Rank 0's routines stand for every rank's (mpitrace writes the other ranks' tables only for the
    // ranks of least, median and most MPI time, unless SAVE_ALL_TASKS=yes).
    const RankMessages m = MessagesOf(p);
    if (p.procs > 1 && m.sends + m.collectives > 0) {
      run.messages_per_rank = m.sends + m.collectives;
      run.bytes_sent_per_rank = m.send_bytes + m.collective_bytes;
      run.derivations["messages_per_rank"] =
          "mpitrace rank 0's point-to-point sends (Send, Isend, Sendrecv, ...) and collectives (Barrier included), "
          "as every rank's";
      run.derivations["bytes_sent_per_rank"] =
          "mpitrace rank 0's #calls x avg. bytes of the same routines, as every rank's";
    }
    if (m.calls > 0) {
      run.mpi_calls_per_rank = m.calls;
      run.derivations["mpi_calls_per_rank"] = "mpitrace rank 0's #calls of every routine, as every rank's";
    }
  }
  if (p.min_communication_s >= 0 && p.median_communication_s >= 0 && p.max_communication_s >= 0)
    run.details["mpitrace_communication_s_min_median_max"] = NumberText(p.min_communication_s) + " / " +
                                                             NumberText(p.median_communication_s) + " / " +
                                                             NumberText(p.max_communication_s);
  if (p.largest_elapsed_s >= 0) run.details["mpitrace_largest_elapsed_s"] = NumberText(p.largest_elapsed_s);
  if (p.max_rss_mib >= 0) run.details["mpitrace_rank0_max_rss_mib"] = NumberText(p.max_rss_mib);
  if (p.user_s >= 0) run.details["mpitrace_rank0_user_cpu_s"] = NumberText(p.user_s);
  if (p.mpi_io_s >= 0) run.details["mpitrace_rank0_mpi_io_s"] = NumberText(p.mpi_io_s);
  run.Derive();
  RequirePlausibleRecord(run, path, p.elapsed_line);
  return run;
}

bool IsMpitraceCompanion(const std::string& path, const std::function<bool(const std::string&)>& beside) {
  std::string stem;
  int rank = 0;
  return ParseProfileName(path, &stem, &rank) && rank != 0 && beside(stem + ".0");
}

bool IsMpitraceOfAnchor(const std::string& path) {
  const fs::path folder = fs::path(path).parent_path();
  return IsMpitraceCompanion(path, [&](const std::string& name) {
    std::error_code error;
    return fs::is_regular_file(folder / name, error);
  });
}

bool SniffMpitraceProfile(const std::string&, std::string_view text) { return LooksLikeMpitraceProfile(text); }

ReaderOutput ReadMpitraceProfile(const ReaderInput& input) {
  const MpitraceProfile profile = ParseMpitraceProfile(input.text, input.path);
  if (profile.rank != 0)
    throw InputError(input.path, 1,
                     "mpitrace profile of rank " + std::to_string(profile.rank) + " of " +
                         std::to_string(profile.procs) +
                         ": the run's summary (every rank's times) is in rank 0's file, "
                         "mpi_profile.<jobid>.0, which is not beside it");
  // Every rank's file beside it (SAVE_ALL_TASKS=yes): their routine tables give each rank's messages.
  std::vector<MpitraceProfile> every_rank;
  double bytes_beside = 0;
  std::string stem;
  int rank = 0;
  if (profile.procs > 1 && ParseProfileName(input.path, &stem, &rank)) {
    const fs::path folder = fs::path(input.path).parent_path();
    std::vector<std::string> files;
    for (int r = 1; r < profile.procs; ++r) {
      std::error_code error;
      const fs::path file = folder / (stem + "." + std::to_string(r));
      if (!fs::is_regular_file(file, error)) break;
      files.push_back(file.string());
    }
    if (static_cast<int>(files.size()) == profile.procs - 1) {
      every_rank.push_back(profile);
      for (const std::string& file : files) {
        const std::string text = ReadFile(file, 64LL << 20);  // a text format's limit
        bytes_beside += static_cast<double>(text.size());
        every_rank.push_back(ParseMpitraceProfile(text, file));
        if (every_rank.back().rank != static_cast<int>(every_rank.size()) - 1 ||
            every_rank.back().procs != profile.procs)
          throw InputError(file, 1,
                           "mpitrace profile of rank " + std::to_string(every_rank.back().rank) + " of " +
                               std::to_string(every_rank.back().procs) + " beside rank 0's of " +
                               std::to_string(profile.procs) + " ranks (" + input.path + ")");
      }
    }
  }
  RunStats run = MpitraceProfileToRunStats(profile, input.path, every_rank);
  // No program in the profile: the run's folder names it, without the words of its own size
  // ("clover-np4" -> "clover"); a folder named by the count alone ("4") gives its parent's name.
  fs::path folder = fs::absolute(fs::path(input.path)).lexically_normal().parent_path();  // "./x": the folder's name
  std::string name = JobNameWithoutCounts(folder.filename().string(), run.procs, run.nodes);
  if (name.empty() && folder.has_parent_path())
    name = JobNameWithoutCounts(folder.parent_path().filename().string(), run.procs, run.nodes);
  ReaderOutput output = FolderRunOutput(std::move(run), input.name, name.empty() ? "mpitrace" : name,
                                        "mpitrace: the profile's folder name, without the words naming the run's "
                                        "process or node count (the profile names no program)",
                                        bytes_beside);
  output.role = PairingRole::kMpiProfile;
  return output;
}

}  // namespace qnm
