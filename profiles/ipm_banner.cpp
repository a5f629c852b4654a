#include "profiles/ipm_banner.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "reader/series_identity.h"
#include "textio/text_lines.h"
#include "textio/time_stamps.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/plausible_range.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// Keys IPM prints in the banner's right-hand column ("# start : <date>   host : vm").
// ipm_parse's report of an XML log has the same header with host and mpi_tasks swapped.
constexpr std::string_view kRightKeys[] = {"host", "wallclock", "%comm", "gflop/sec", "mpi_tasks"};

/// "start     : Sun Nov 29 05:55:20 2026   host      : vm" -> {start: ..., host: vm}.
std::vector<std::pair<std::string, std::string>> KeyValues(std::string_view line) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return out;
  std::string_view key = Trim(line.substr(0, colon)), rest = line.substr(colon + 1);
  // The right-hand pair starts after a run of blanks with one of IPM's keys.
  std::size_t split = std::string_view::npos;
  for (std::string_view right : kRightKeys)
    for (std::size_t at = rest.find(right); at != std::string_view::npos; at = rest.find(right, at + 1)) {
      const std::string_view after = Trim(rest.substr(at + right.size()));
      if (at >= 2 && rest.substr(at - 2, 2) == "  " && !after.empty() && after.front() == ':') {
        split = std::min(split, at);
        break;
      }
    }
  out.emplace_back(std::string(key), std::string(Trim(rest.substr(0, split))));
  if (split != std::string_view::npos) {
    const auto right = KeyValues(rest.substr(split));
    out.insert(out.end(), right.begin(), right.end());
  }
  return out;
}

std::vector<double> Numbers(std::string_view text, std::size_t count, const std::string& path, int line,
                            const std::string& what) {
  std::vector<double> out;
  for (std::string_view word : SplitWhitespace(text)) {
    const auto value = ParseDouble(word);
    if (!value || !std::isfinite(*value) || *value < 0)
      throw InputError(path, line, what + ": '" + std::string(word).substr(0, 20) + "' is no non-negative number");
    out.push_back(*value);
  }
  if (out.size() != count)
    throw InputError(path, line, what + " needs " + std::to_string(count) + " numbers, has " + std::to_string(out.size()));
  return out;
}

}  // namespace

IpmBanner ParseIpmBanner(std::string_view text, const std::string& path) {
  IpmBanner banner;
  const std::vector<std::string_view> lines = SplitLines(text);
  std::size_t first = lines.size();
  for (std::size_t k = 0; k < lines.size(); ++k)
    if (StartsWith(lines[k], "##IPMv")) {
      first = k;
      break;
    }
  if (first == lines.size()) throw InputError(path, 0, "no IPM banner (a line starting ##IPMv)");
  {
    const std::string_view head = lines[first].substr(6);
    banner.version = std::string(head.substr(0, head.find('#')));
  }
  // The banner (IPM at MPI_Finalize) and ipm_parse's report of the XML log differ in details:
  // "wallclock : 1.02" or "... : 1.029820 sec"; "MPI" or "mpi" rows, with or without ':'; a
  // function table of [time] [count] <%wall> or [time] [calls] <%mpi> <%wall>.
  enum class Block { kHeader, kStats, kFunctions } block = Block::kHeader;
  std::string qualifier;  // "#calls" or "%wall": what the next row counts
  std::set<std::string> functions;  // the function table's names so far
  bool closed = false;
  for (std::size_t k = first + 1; k < lines.size() && !closed; ++k) {
    const int line = static_cast<int>(k) + 1;
    const std::string_view raw = lines[k];
    if (!StartsWith(raw, "#")) throw InputError(path, line, "the banner ends without its closing line of #");
    if (raw.size() > 10 && raw.find_first_not_of('#') == std::string_view::npos) {
      closed = true;
      break;
    }
    const std::string_view body = Trim(raw.substr(1));
    if (body.empty()) continue;
    if (body.find("[total]") != std::string_view::npos) {
      block = Block::kStats;
      continue;
    }
    if (body.find("[time]") != std::string_view::npos &&
        (body.find("[count]") != std::string_view::npos || body.find("[calls]") != std::string_view::npos)) {
      block = Block::kFunctions;
      continue;
    }
    if (block == Block::kHeader) {
      for (const auto& [name, text_value] : KeyValues(body)) {
        const std::vector<std::string_view> words = SplitWhitespace(text_value);
        if (name == "command" && !words.empty()) banner.command = std::string(words.front());
        if (name == "start") banner.start = text_value;
        if (name == "host") banner.host = text_value;
        if (name == "wallclock" && !words.empty())
          banner.wallclock_s = Numbers(words.front(), 1, path, line, "wallclock")[0];
        if (name == "mpi_tasks") {
          int tasks = 0, nodes = 0;
          char on[3] = {}, word[16] = {};
          if (std::sscanf(text_value.c_str(), "%d %2s %d %15s", &tasks, on, &nodes, word) != 4 ||
              std::string(on) != "on" || tasks < 1 || tasks > (1 << 24) || nodes < 1 || nodes > tasks)
            throw InputError(path, line, "mpi_tasks needs '<tasks> on <nodes> nodes', got '" + text_value.substr(0, 40) + "'");
          banner.tasks = tasks;
          banner.nodes = nodes;
        }
      }
      continue;
    }
    // A row: its name, then its numbers: "name : numbers" (the banner), or the words up to the
    // first number (ipm_parse's rows and function tables).
    std::string key, numbers;
    if (const std::size_t colon = body.find(':'); colon != std::string_view::npos) {
      key = std::string(Trim(body.substr(0, colon)));
      numbers = std::string(Trim(body.substr(colon + 1)));
    } else {
      for (std::string_view word : SplitWhitespace(body)) {
        if (numbers.empty() && !ParseDouble(word)) key += (key.empty() ? "" : " ") + std::string(word);
        else numbers += std::string(word) + " ";
      }
    }
    if (block == Block::kFunctions) {
      const std::vector<std::string_view> values = SplitWhitespace(numbers);
      if (key.empty() || values.size() < 3 || values.size() > 4)
        throw InputError(path, line, "a function row needs its name, [time], the calls and the shares");
      const std::vector<double> v = Numbers(numbers, values.size(), path, line, key);
      if (!functions.insert(key).second) throw InputError(path, line, key + " a second time in the function table");
      banner.calls.push_back({key, v[0], v[1]});
      continue;
    }
    if (numbers.empty()) {  // "#calls :", "%wall :": the rows below count calls or shares
      qualifier = key;
      continue;
    }
    const std::string what = ToLower(key);
    auto once = [&](double known) {
      if (Known(known)) throw InputError(path, line, "a second " + key + " row over the ranks");
    };
    if (qualifier == "%wall" || what == "%comm") {
      qualifier.clear();  // shares of the rows above
    } else if (what == "mpi" && qualifier == "#calls") {
      once(banner.mpi_calls_mean);
      banner.mpi_calls_mean = Numbers(numbers, 4, path, line, "MPI calls")[1];
      qualifier.clear();
    } else if (what == "wallclock") {
      once(banner.wall_mean_s);
      const std::vector<double> v = Numbers(numbers, 4, path, line, "wallclock");
      banner.wall_total_s = v[0], banner.wall_mean_s = v[1], banner.wall_min_s = v[2], banner.wall_max_s = v[3];
    } else if (what == "mpi") {
      once(banner.mpi_mean_s);
      const std::vector<double> v = Numbers(numbers, 4, path, line, "MPI");
      banner.mpi_total_s = v[0], banner.mpi_mean_s = v[1], banner.mpi_min_s = v[2], banner.mpi_max_s = v[3];
    }
  }
  if (!closed) throw InputError(path, 0, "the IPM banner is cut short (no closing line of #)");
  if (banner.tasks == 0) throw InputError(path, 0, "the IPM banner has no mpi_tasks line");
  if (!Known(banner.wall_max_s) || !Known(banner.mpi_max_s))
    throw InputError(path, 0, "the IPM banner has no wallclock and MPI rows over the ranks");
  // Two decimals printed: MPI time within a rank's wall clock up to the rounding.
  if (banner.mpi_max_s > banner.wall_max_s + 0.01 || banner.mpi_mean_s > banner.wall_mean_s + 0.01 ||
      banner.wall_min_s > banner.wall_mean_s + 0.01 || banner.wall_mean_s > banner.wall_max_s + 0.01)
    throw InputError(path, 0, "the IPM banner's times do not fit together (MPI above wall clock, or min > avg > max)");
  return banner;
}

std::string IpmRunOrigin(const std::string& command, const std::string& host, int tasks, long long start_s) {
  return std::string(kMeasurementOrigin) + "ipm|" + command + "|" + host + "|" + std::to_string(tasks) + "|" +
         std::to_string(((start_s % 900) + 900) % 900);
}

long long IpmBannerStartUtc(const IpmBanner& banner) {
  // The banner's "Sun Nov 29 05:55:18 2026", ipm_parse's "11/29/26/05:55:18".
  for (const char* format : {"%a %b %d %H:%M:%S %Y", "%m/%d/%y/%H:%M:%S"})
    if (const std::optional<long long> seconds = StampSeconds(banner.start, format)) return *seconds;
  return -1;
}

namespace {

/// The value of `attribute="..."` in the first `<element ` of `text`; empty when absent.
std::string AttributeOf(std::string_view text, std::string_view element, std::string_view attribute) {
  const std::size_t open = text.find(element);
  if (open == std::string_view::npos) return "";
  const std::string_view tag = text.substr(open, text.find('>', open) - open);
  const std::size_t at = tag.find(" " + std::string(attribute) + "=\"");
  if (at == std::string_view::npos) return "";
  const std::size_t begin = at + attribute.size() + 3;
  return std::string(tag.substr(begin, tag.find('"', begin) - begin));
}

}  // namespace

namespace {

/// What an XML log's head says of its job, to be matched with banners.
struct LogHead {
  std::string path, tasks, command;
  std::optional<double> start;
};

/// The *.ipm.xml logs of `folder`, their heads read once per folder and process: a campaign
/// folder of thousands of job outputs and logs is listed once, not once per banner. A folder
/// whose entries change (its modification time) is listed again.
const std::vector<LogHead>& LogsIn(const std::filesystem::path& folder) {
  namespace fs = std::filesystem;
  static std::mutex mutex;
  static std::map<std::string, std::pair<fs::file_time_type, std::vector<LogHead>>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  std::error_code error;
  const fs::file_time_type changed = fs::last_write_time(folder, error);
  auto& [when, logs] = cache[folder.string()];
  if (!logs.empty() && when == changed) return logs;
  when = changed;
  logs.clear();
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() < 8 || name.compare(name.size() - 8, 8, ".ipm.xml") != 0) continue;
    if (logs.size() >= 100000) break;  // heads of 64 KB: at most 6.4 GB read once, never more
    std::string head;
    try {
      head = ReadFileHead(it->path().string(), 1 << 16);
    } catch (const std::exception&) {
      continue;  // its own reader says why
    }
    logs.push_back({it->path().string(), AttributeOf(head, "<job ", "ntasks"), AttributeOf(head, "<cmdline ", "realpath"),
                    ParseDouble(AttributeOf(head, "<job ", "start"))});
  }
  return logs;
}

}  // namespace

std::string IpmLogOfBanner(const IpmBanner& banner, const std::string& path) {
  const long long start = IpmBannerStartUtc(banner);
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  for (const LogHead& log : LogsIn(folder.empty() ? "." : folder)) {
    if (log.tasks != std::to_string(banner.tasks) || log.command != banner.command) continue;
    if (start >= 0 && log.start) {
      const long long offset = start - static_cast<long long>(*log.start);
      if (offset % 900 != 0 || offset > 14 * 3600 || offset < -14 * 3600) continue;
    }
    return log.path;
  }
  return "";
}

RunStats IpmBannerToRunStats(const IpmBanner& banner, const std::string& path) {
  RunStats run;
  run.procs = banner.tasks;
  run.sources = {path};
  run.tool_version = "IPM " + banner.version;
  run.wall_time_s = Known(banner.wallclock_s) ? banner.wallclock_s : banner.wall_max_s;
  run.app_time_mean_s = banner.wall_mean_s;
  run.app_time_max_s = banner.wall_max_s;
  run.mpi_time_mean_s = banner.mpi_mean_s;
  run.mpi_time_max_s = banner.mpi_max_s;
  run.mpi_calls_per_rank = banner.mpi_calls_mean;
  RequirePlausible(run.wall_time_s, kPartTimeS, "wallclock", path, 0);
  for (const IpmBanner::Call& call : banner.calls) {
    if (!StartsWith(call.function, "MPI_")) continue;  // other modules' rows (POSIX I/O, CUDA)
    CallSiteStats site;
    site.id = static_cast<int>(run.call_sites.size()) + 1;
    site.mpi_function = call.function.substr(4);
    site.source_location = "IPM banner";
    site.activity = ClassifyMpiCall(site.mpi_function);
    site.ranks_complete = false;  // totals over the ranks, no rank rows
    site.total_time_s = call.time_s;
    site.total_calls = call.count;
    run.call_sites.push_back(std::move(site));
  }
  if (!run.call_sites.empty()) run.per_rank_complete = false;
  // Messages as mpiP's records count them: point-to-point sends and collective calls, per rank.
  double messages = 0;
  for (const CallSiteStats& site : run.call_sites)
    if (IsPointToPointSend(site.mpi_function) || CountsAsCollective(site.activity)) messages += site.total_calls;
  if (!run.call_sites.empty()) {
    run.messages_per_rank = messages / banner.tasks;
    run.derivations["messages_per_rank"] =
        "IPM banner: [count] of the send and collective rows, summed, over the tasks (no bytes: the banner counts none)";
  }
  if (!banner.command.empty()) {
    run.app = BaseName(banner.command);
    run.derivations["app"] = "IPM banner command: " + banner.command;
  }
  // The host of rank 0 names the machine, as the XML log's hosts do (series_identity.h).
  if (!banner.host.empty()) ApplyHosts({banner.host}, "IPM banner host (rank 0's)", &run);
  const std::string stats = "IPM banner, over the ranks (two decimals)";
  run.derivations["procs"] = "IPM banner mpi_tasks";
  run.derivations["wall_time_s"] = Known(banner.wallclock_s) ? "IPM banner wallclock (the job's)" : stats + ": max";
  run.derivations["app_time_mean_s"] = stats + ": <avg> wallclock";
  run.derivations["app_time_max_s"] = stats + ": max wallclock";
  run.derivations["mpi_time_mean_s"] = stats + ": <avg> MPI";
  run.derivations["mpi_time_max_s"] = stats + ": max MPI";
  run.derivations["mpi_calls_per_rank"] = stats + ": <avg> #calls MPI";
  run.derivations["call_sites"] = "IPM banner: one per MPI function, its [time] and [count] summed over the ranks";
  run.SetNodes(banner.nodes, "IPM banner: mpi_tasks on <nodes> nodes");
  // The job's banner, ipm_parse's report and the XML log are one run: counted once (duplicate_runs.h).
  if (const long long start = IpmBannerStartUtc(banner); start >= 0)
    run.origin = IpmRunOrigin(banner.command, banner.host, banner.tasks, start);
  run.Derive();
  return run;
}

}  // namespace qnm
