#include "profiles/tau_profile.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "reader/experiment_factors.h"
#include "reader/routine_call_sites.h"
#include "reader/series_identity.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/plausible_range.h"
#include "util/text_format.h"

namespace qnm {
namespace {

constexpr double kSecondsPerMicrosecond = 1e-6;  // TAU's TIME metric is in microseconds
constexpr std::string_view kTemplated = " templated_functions";

// "<count> <word>" (e.g. "0 aggregates"): the count, or -1 when the line is not that.
long long CountLine(std::string_view line, std::string_view word) {
  std::vector<std::string_view> words = SplitWhitespace(line);
  if (words.size() != 2 || words[1] != word) return -1;
  auto count = ParseDouble(words[0]);
  if (!count || *count < 0 || *count > 1e9 || *count != std::floor(*count)) return -1;
  return static_cast<long long>(*count);
}

// `"<name>" v1 .. vN<rest>`: the quoted name (TAU does not escape quotes inside it, so the name
// ends at the last quote before the numbers) and N finite, non-negative numbers.
std::string QuotedNameAndNumbers(std::string_view line, std::size_t count, std::vector<double>* numbers,
                                 const std::string& path, int line_number) {
  if (line.empty() || line.front() != '"') throw InputError(path, line_number, "a TAU entry starts with a quoted name");
  std::vector<std::string_view> words = SplitWhitespace(line.substr(line.rfind('"') + 1));
  if (words.size() < count)
    throw InputError(path, line_number, "a TAU entry needs " + std::to_string(count) + " numbers after its name");
  numbers->clear();
  for (std::size_t w = 0; w < count; ++w) {
    auto value = ParseDouble(words[w]);
    if (!value || !std::isfinite(*value) || *value < 0)
      throw InputError(path, line_number, "'" + std::string(words[w].substr(0, 40)) + "' is no non-negative number");
    numbers->push_back(*value);
  }
  return std::string(Trim(line.substr(1, line.rfind('"') - 1)));
}

void ParseMetadata(std::string_view line, TauProfile* profile) {
  const std::size_t begin = line.find("<metadata>");
  const std::size_t end = line.rfind("</metadata>");
  if (begin == std::string_view::npos || end == std::string_view::npos || end < begin) return;
  std::string xml(line.substr(begin, end + 11 - begin));
  pugi::xml_document document;
  if (!document.load_buffer(xml.data(), xml.size())) return;  // metadata is identity only: a damaged one is none
  for (pugi::xml_node attribute : document.child("metadata").children("attribute"))
    profile->metadata[attribute.child_value("name")] = attribute.child_value("value");
}

// "MPI_Send()  " -> "Send": the routine a flat MPI timer measures.
std::string MpiRoutine(const std::string& timer) {
  std::string name(Trim(timer.substr(0, timer.find('('))));
  return StartsWith(name, "MPI_") ? name.substr(4) : name;
}

std::string Metadata(const TauProfile& profile, const char* key) {
  auto it = profile.metadata.find(key);
  return it == profile.metadata.end() ? std::string() : it->second;
}

}  // namespace

bool TauTimer::InGroup(std::string_view group) const {
  for (std::string_view rest = groups; !rest.empty();) {
    const std::size_t bar = rest.find('|');
    if (Trim(rest.substr(0, bar)) == group) return true;
    rest = bar == std::string_view::npos ? std::string_view() : rest.substr(bar + 1);
  }
  return false;
}

bool LooksLikeTauProfile(std::string_view text) {
  const std::size_t space = text.find(' ');
  if (space == 0 || space == std::string_view::npos || space > 12) return false;
  for (std::size_t i = 0; i < space; ++i)
    if (text[i] < '0' || text[i] > '9') return false;
  return text.substr(space, kTemplated.size()) == kTemplated;
}

bool ParseTauProfileName(const std::string& file_name, int* node, int* context, int* thread) {
  const std::string base = std::filesystem::path(file_name).filename().string();
  if (!StartsWith(base, "profile.")) return false;
  std::vector<int> parts;
  std::string_view rest = std::string_view(base).substr(8);
  while (true) {
    const std::size_t dot = rest.find('.');
    std::string_view part = rest.substr(0, dot);
    if (part.empty() || part.size() > 9 || part.find_first_not_of("0123456789") != std::string_view::npos)
      return false;
    parts.push_back(std::stoi(std::string(part)));
    if (dot == std::string_view::npos) break;
    rest = rest.substr(dot + 1);
  }
  if (parts.size() != 3) return false;
  *node = parts[0], *context = parts[1], *thread = parts[2];
  return true;
}

TauProfile ParseTauProfile(std::string_view text, const std::string& path) {
  std::vector<std::string_view> lines = SplitLines(text);
  if (lines.empty() || !LooksLikeTauProfile(lines[0]))
    throw InputError(path, 1, "a TAU profile starts with '<n> templated_functions'");
  TauProfile profile;
  std::vector<std::string_view> first = SplitWhitespace(lines[0]);
  const long long timers = static_cast<long long>(*ParseDouble(first[0]));
  const std::string_view kind = first[1];
  if (StartsWith(kind, "templated_functions_MULTI_")) profile.metric = std::string(kind.substr(26));
  if (lines.size() < 2 || !StartsWith(Trim(lines[1]), "# Name Calls Subrs Excl Incl"))
    throw InputError(path, 2, "a TAU profile's second line is '# Name Calls Subrs Excl Incl ProfileCalls ...'");
  ParseMetadata(lines[1], &profile);
  if (static_cast<long long>(lines.size()) < 2 + timers)
    throw InputError(path, static_cast<int>(lines.size()),
                     "the profile names " + std::to_string(timers) + " timers but ends after " +
                         std::to_string(lines.size() - 2));
  std::vector<double> numbers;
  for (long long t = 0; t < timers; ++t) {
    const int line_number = static_cast<int>(t + 3);
    std::string_view line = Trim(lines[static_cast<std::size_t>(t + 2)]);
    TauTimer timer;
    const std::size_t group = line.rfind(" GROUP=\"");
    timer.name = QuotedNameAndNumbers(line.substr(0, group), 5, &numbers, path, line_number);
    if (group != std::string_view::npos) {
      std::string_view groups = line.substr(group + 8);
      timer.groups = std::string(groups.substr(0, groups.find('"')));
    }
    timer.calls = numbers[0], timer.subroutines = numbers[1], timer.exclusive = numbers[2];
    timer.inclusive = numbers[3], timer.line = line_number;
    if (timer.exclusive > timer.inclusive * (1 + 1e-9) + 1e-9)
      throw InputError(path, line_number, "exclusive time above inclusive time");
    profile.timers.push_back(std::move(timer));
  }
  // Aggregates (TAU's obsolete per-template aggregates; always 0 in practice), then user events.
  std::size_t at = static_cast<std::size_t>(2 + timers);
  if (at < lines.size()) {
    const long long aggregates = CountLine(lines[at], "aggregates");
    if (aggregates < 0) throw InputError(path, static_cast<int>(at + 1), "expected '<k> aggregates'");
    at += static_cast<std::size_t>(aggregates) + 1;
  }
  if (at < lines.size() && !Trim(lines[at]).empty()) {
    const long long events = CountLine(lines[at], "userevents");
    if (events < 0) throw InputError(path, static_cast<int>(at + 1), "expected '<m> userevents'");
    ++at;
    if (at < lines.size() && StartsWith(Trim(lines[at]), "#")) ++at;  // "# eventname numevents max min mean sumsqr"
    if (static_cast<long long>(lines.size() - at) < events)
      throw InputError(path, static_cast<int>(lines.size()), "the profile names " + std::to_string(events) +
                                                                 " user events but ends before them");
    for (long long e = 0; e < events; ++e, ++at) {
      TauUserEvent event;
      event.name = QuotedNameAndNumbers(Trim(lines[at]), 5, &numbers, path, static_cast<int>(at + 1));
      event.count = numbers[0], event.max = numbers[1], event.min = numbers[2], event.mean = numbers[3];
      event.sum_squares = numbers[4];
      profile.user_events.push_back(std::move(event));
    }
  }
  return profile;
}

RunStats TauProfilesToRunStats(const std::vector<TauProfile>& ranks, const std::vector<std::string>& paths,
                               int threads) {
  const std::size_t procs = ranks.size();
  if (procs == 0 || paths.size() != procs)
    throw InputError(paths.empty() ? std::string() : paths.front(), 0, "no TAU profile of rank 0");
  RunStats run = PerRankProfileRun(procs, threads, paths);
  run.p2p_calls_per_rank.assign(procs, 0.0);
  run.collective_calls_per_rank.assign(procs, 0.0);
  std::vector<double> p2p_bytes(procs, 0.0), collective_bytes(procs, 0.0);
  bool message_sizes = false;
  double mpi_calls = 0;
  RoutineCallSites sites(&run, procs, false);
  for (std::size_t r = 0; r < procs; ++r) {
    const TauProfile& profile = ranks[r];
    if (profile.metric != "TIME")
      throw InputError(paths[r], 1, "a TAU profile of metric " + profile.metric +
                                        ", not TIME: read the run from its MULTI__TIME folder");
    double top = 0;  // the top-level timer (".TAU application", or main): the largest inclusive time
    const double calls_before = mpi_calls;
    for (const TauTimer& timer : profile.timers) {
      if (timer.IsCallPath()) continue;
      top = std::max(top, timer.inclusive);
      if (!timer.InGroup("MPI")) continue;
      const std::string routine = MpiRoutine(timer.name);
      run.mpi_time_s_per_rank[r] += timer.exclusive * kSecondsPerMicrosecond;
      mpi_calls += timer.calls;
      CallSiteStats& site = sites.Of(routine, "TAU timer " + std::string(Trim(timer.name)));
      site.time_s_per_rank[r] += timer.exclusive * kSecondsPerMicrosecond;
      site.calls_per_rank[r] += timer.calls;
      // Sends and collectives as mpiP's records count them.
      if (IsPointToPointSend(routine)) run.p2p_calls_per_rank[r] += timer.calls;
      if (CountsAsCollective(site.activity)) run.collective_calls_per_rank[r] += timer.calls;
    }
    if (!(top > 0)) throw InputError(paths[r], 3, "a TAU profile without a timed top-level timer");
    run.app_time_s_per_rank[r] = top * kSecondsPerMicrosecond;
    // TAU's message-size events (TauMpi.cpp): sends to all nodes, and one per kind of collective; their
    // context-event twins ("<event> : <call path>", TAU_CALLPATH) repeat them and are not counted again.
    for (const TauUserEvent& event : profile.user_events) {
      if (event.name.find(" : ") != std::string::npos) continue;
      if (event.name == "Message size sent to all nodes") {
        p2p_bytes[r] += event.count * event.mean;
        message_sizes = true;
      } else if (StartsWith(event.name, "Message size for ")) {
        collective_bytes[r] += event.count * event.mean;
        message_sizes = true;
      }
    }
    // Each rank's values checked here, naming its own file (the record's check names the run's first).
    RequirePlausible(run.app_time_s_per_rank[r], kPartTimeS, "application time (top-level timer)", paths[r], 0);
    RequirePlausible(run.mpi_time_s_per_rank[r], kPartTimeS, "MPI time", paths[r], 0);
    RequirePlausible(mpi_calls - calls_before, kCount, "MPI calls", paths[r], 0);
    RequirePlausible(p2p_bytes[r], kCount, "point-to-point bytes", paths[r], 0);
    RequirePlausible(collective_bytes[r], kCount, "collective bytes", paths[r], 0);
  }
  sites.SumTotals();
  if (message_sizes) {
    run.p2p_bytes_sent_per_rank = p2p_bytes;
    run.collective_bytes_sent_per_rank = collective_bytes;
    run.derivations["p2p_bytes_sent_per_rank"] = "TAU user event 'Message size sent to all nodes': count x mean";
    run.derivations["collective_bytes_sent_per_rank"] = "TAU user events 'Message size for <collective>': count x mean";
  }
  run.mpi_calls_per_rank = mpi_calls / static_cast<double>(procs);
  run.derivations["procs"] = "TAU: one profile.<rank>.0.0 per MPI rank";
  run.derivations["app_time_s_per_rank"] = "TAU: inclusive time of the top-level timer (.TAU application), per rank";
  run.derivations["mpi_time_s_per_rank"] = "TAU: exclusive time of the flat timers of group MPI (incl. MPI_Init, "
                                           "MPI_Finalize), per rank";
  run.derivations["p2p_calls_per_rank"] = "TAU: calls of the flat MPI send timers (Send, Isend, Sendrecv, ...)";
  run.derivations["collective_calls_per_rank"] = "TAU: calls of the flat MPI collective and Barrier timers";
  run.derivations["call_sites"] = "TAU: one per flat MPI timer";
  if (threads > 1) run.derivations["threads_per_proc"] = "TAU: profile.<rank>.0.<thread> files of rank 0";

  // Identity from rank 0's metadata; host names from every rank's.
  const TauProfile& first = ranks.front();
  const std::string command = Metadata(first, "Command Line");
  SetCommandArguments(command, &run);  // the input it ran: a setting
  std::string program = Metadata(first, "Executable");
  if (program.empty()) {
    const std::vector<std::string_view> words = SplitWhitespace(command);
    if (!words.empty()) program = std::string(words.front());
  }
  if (!program.empty()) {
    run.app = BaseName(program);
    run.derivations["app"] = "TAU metadata Executable / Command Line: " + program;
  }
  if (std::string version = Metadata(first, "TAU Version"); !version.empty()) run.tool_version = "TAU " + version;
  std::vector<std::string> hosts;
  for (const TauProfile& profile : ranks) {
    std::string host = Metadata(profile, "Hostname");
    if (host.empty()) host = Metadata(profile, "Node Name");
    if (host.empty()) {
      hosts.clear();
      break;
    }
    hosts.push_back(host);
  }
  if (!hosts.empty()) ApplyRankHosts(hosts, "TAU metadata Hostname", &run);
  run.Derive();
  return run;
}

}  // namespace qnm
