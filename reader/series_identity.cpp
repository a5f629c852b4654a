#include "reader/series_identity.h"

#include <filesystem>
#include <cctype>
#include <map>
#include <set>

#include "reader/host_names.h"
#include "textio/text_lines.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// The folder a run's files are in (its first source; table rows cite "file:line").
std::string FolderOf(const RunStats& run) {
  if (run.sources.empty()) return "";
  std::filesystem::path folder = std::filesystem::path(run.sources.front()).parent_path();
  std::string name = folder.filename().string();
  return name.empty() ? folder.string() : name;
}

std::string Derivation(const RunStats& run, const std::string& key, const std::string& fallback) {
  auto found = run.derivations.find(key);
  return found == run.derivations.end() ? fallback : found->second;
}

}  // namespace

const char* ToString(GroupBy group_by) {
  switch (group_by) {
    case GroupBy::kContent: return "content";
    case GroupBy::kFolder: return "folder";
    case GroupBy::kFilePrefix: return "file-prefix";
  }
  return "content";
}

bool ParseGroupBy(const std::string& text, GroupBy* group_by) {
  for (GroupBy candidate : {GroupBy::kContent, GroupBy::kFolder, GroupBy::kFilePrefix})
    if (ToLower(text) == ToString(candidate)) {
      *group_by = candidate;
      return true;
    }
  return false;
}

void ApplyHosts(const std::vector<std::string>& hosts, const std::string& where, RunStats* run,
                const std::string& cpu_brand) {
  std::string machine = MachineFromHosts(hosts);
  if (machine.empty()) return;
  if (run->hosts.empty()) run->hosts = hosts;
  if (!run->machine.empty()) return;
  std::string derivation = where + ": " + DescribeHosts(hosts) + " -> " + machine;
  // "nid" alone would make ARCHER's and ARCHER2's runs of one input one series.
  if (const std::string model = CpuModelName(cpu_brand); IsGenericNodeStem(machine) && !model.empty()) {
    machine += " " + model;
    derivation += ", a node name shared by many machines, with the processor '" + model + "' -> " + machine;
  }
  run->machine = machine;
  run->derivations["machine"] = derivation;
}

void ApplyRankHosts(const std::vector<std::string>& hosts, const std::string& where, RunStats* run) {
  ApplyHosts(hosts, where, run);
  run->SetNodes(static_cast<int>(std::set<std::string>(hosts.begin(), hosts.end()).size()),
                "distinct host names of the ranks (" + where + ")");
}

void ApplyRunInfo(const RunInfoFile& info, RunStats* run) {
  std::string file = BaseName(info.path);
  if (!info.hosts.empty())
    ApplyHosts(info.hosts, "'" + file + "' file beside the run (" + info.hosts_from + ")", run);
  if (info.nodes > 0 && run->nodes == 0)  // the run's own files (mpiP hosts) win
    run->SetNodes(info.nodes, "'" + file + "' file beside the run: nodes [" + info.path + "]");
  if (run->derivations.count("threads_per_proc")) return;  // the run's own files said it
  int threads = info.threads_per_proc;
  std::string how = "'" + file + "' file beside the run: OMP_NUM_THREADS " + std::to_string(threads);
  if (threads == 0 && info.threads_per_node > 0 && run->procs > 0) {
    // "threads/node" with one process per node is the threads of that process;
    // with several processes per node they share the node's threads.
    long long total = static_cast<long long>(info.threads_per_node) * (info.nodes > 0 ? info.nodes : 1);
    if (total % run->procs == 0 && total >= run->procs) {
      threads = static_cast<int>(total / run->procs);
      how = "'" + file + "' file beside the run: threads/node " + std::to_string(info.threads_per_node) + " x nodes " +
            std::to_string(info.nodes > 0 ? info.nodes : 1) + " / " + std::to_string(run->procs) + " processes";
    }
  }
  if (threads <= 0) return;
  run->threads_per_proc = threads;
  run->derivations["threads_per_proc"] = how + " [" + info.path + "]";
}

void ApplyTableIdentity(const std::string& column, const std::string& value, RunStats* run) {
  const std::string from = "statistics table column " + column;
  if (column == "app" || column == "benchmark") run->derivations["app"] = from;
  else if (column == "class") run->derivations["problem_class"] = from;
  else if (column == "threads") run->derivations["threads_per_proc"] = from;
  else if (column == "machine") {
    run->derivations["machine"] = from;
    run->details["machine"] = value;
  } else if (column == "system") {  // it may have overwritten the machine: a `machine` column wins
    run->details["system"] = value;
    auto named = run->details.find("machine");
    if (named != run->details.end()) {
      run->machine = named->second;
      return;
    }
    run->machine = MachineFromSystemText(value);
    run->derivations["machine"] =
        from + ": '" + value.substr(0, 60) + (value.size() > 60 ? "…" : "") + "' -> " + run->machine;
    if (run->variant.empty()) run->variant = ConfigurationFromSystemText(value);
  } else if (column == "source" && value.find(';') != std::string::npos && !run->sources.empty() &&
             run->sources.back() == value) {
    run->sources.pop_back();
    std::size_t start = 0;
    while (start <= value.size()) {
      std::size_t end = value.find(';', start);
      std::string part(Trim(std::string_view(value).substr(start, end == std::string::npos ? std::string::npos : end - start)));
      if (!part.empty()) run->sources.push_back(part);
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
}

std::string ConfigurationFromSystemText(const std::string& system) {
  std::string machine = MachineFromSystemText(system);
  std::string out;
  std::size_t start = 0;
  bool first = true;
  while (start <= system.size()) {
    std::size_t end = system.find(';', start);
    std::string field(Trim(system.substr(start, end == std::string::npos ? std::string::npos : end - start)));
    start = end == std::string::npos ? system.size() + 1 : end + 1;
    bool names_machine = first ? system.find("cluster=") == std::string::npos
                               : field == "cluster=" + machine;
    first = false;
    if (field.empty() || names_machine) continue;
    std::size_t equals = field.find('=');
    if (equals != std::string::npos) {
      std::string key = ToLower(field.substr(0, equals));
      // Counts that change with P (hosts=8, threads_total=128) and outcomes are no configuration.
      if (ParseInteger(field.substr(equals + 1)) || key == "verification") continue;
    }
    out += (out.empty() ? "" : ";") + field;
  }
  return out;
}

std::string MachineFromSystemText(const std::string& system) {
  std::string lower = ToLower(system);
  std::size_t cluster = lower.find("cluster=");
  if (cluster != std::string::npos) {
    std::size_t start = cluster + 8;
    std::size_t end = system.find_first_of(";, ", start);
    std::string name(Trim(system.substr(start, end == std::string::npos ? std::string::npos : end - start)));
    if (!name.empty()) return name;
  }
  std::string first = system.substr(0, system.find(';'));
  std::string kept;
  int depth = 0;
  for (char c : first) {
    if (c == '(') ++depth;
    else if (c == ')') depth = depth > 0 ? depth - 1 : 0;
    else if (depth == 0) kept += c;
  }
  std::string out;
  for (std::string_view word : SplitWhitespace(kept)) out += (out.empty() ? "" : " ") + std::string(word);
  return out;
}

void ReconcileMachineNames(std::vector<RunStats>* runs) {
  std::set<std::string> from_hosts;
  for (const RunStats& run : *runs)
    if (!run.hosts.empty() && !run.machine.empty()) from_hosts.insert(run.machine);
  if (from_hosts.empty()) return;
  for (RunStats& run : *runs) {
    if (!run.hosts.empty() || run.machine.empty() || from_hosts.count(run.machine)) continue;
    std::set<std::string> named;
    std::string word;
    for (char c : ToLower(run.machine.str()) + " ") {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') {
        word += c;
        continue;
      }
      if (from_hosts.count(word)) named.insert(word);
      word.clear();
    }
    if (named.size() != 1) continue;
    run.derivations["machine"] = Derivation(run, "machine", "machine '" + run.machine + "'") + " -> " +
                                 *named.begin() + " (the host-name stem of other runs read)";
    run.machine = *named.begin();
  }
}

SeriesKey IdentityKey(const RunStats& run, GroupBy group_by) {
  SeriesKey key = KeyOf(run);
  if (group_by == GroupBy::kFolder) key.group = FolderOf(run);
  if (group_by == GroupBy::kFilePrefix) key.group = run.data_set;
  return key;
}

std::vector<Series> GroupIntoSeries(std::vector<RunStats> runs, GroupBy group_by) {
  return GroupIntoSeries(std::move(runs), [group_by](const RunStats& run) { return IdentityKey(run, group_by); });
}

std::vector<std::string> ExplainSeriesIdentity(const Series& series) {
  // key -> (kind of source -> runs, first example); a derivation reads "<kind>: <specifics>".
  struct Origin {
    int runs = 0;
    std::string example;
  };
  std::map<std::string, std::map<std::string, Origin>> origins;
  auto note = [&](const std::string& key, const std::string& derivation) {
    std::size_t colon = derivation.find(": ");
    Origin& origin = origins[key][derivation.substr(0, colon)];
    if (origin.runs++ == 0 && colon != std::string::npos) origin.example = derivation.substr(colon + 2);
  };
  int runs = 0;
  for (const RunGroup& group : series.groups)
    for (const RunStats& run : group.runs) {
      ++runs;
      if (!series.key.series.empty()) {
        note("series " + series.key.series, "table column series");
        continue;
      }
      note("app " + (run.app.empty() ? std::string("(unknown)") : run.app.str()),
           Derivation(run, "app", run.app.empty() ? "no file names it" : "not recorded"));
      if (!run.problem_class.empty())
        note("class " + run.problem_class, Derivation(run, "problem_class", "not recorded"));
      note("threads/process " + std::to_string(run.threads_per_proc),
           Derivation(run, "threads_per_proc", "no file states it (1 assumed)"));
      note("machine " + (run.machine.empty() ? std::string("(unknown)") : run.machine.str()),
           Derivation(run, "machine", "no file names a host or machine"));
      if (!run.variant.empty())
        note("configuration " + run.variant, Derivation(run, "variant", "run-configuration words of the file name"));
    }
  std::vector<std::string> lines;
  for (const auto& [key, sources] : origins)
    for (const auto& [source, origin] : sources)
      lines.push_back(key + ": " + source + " (" + std::to_string(origin.runs) +
                      (origin.runs == 1 ? " run" : " runs") +
                      (origin.example.empty() ? ")" : "; e.g. " + origin.example + ")"));
  if (!series.key.group.empty())
    lines.push_back("group " + series.key.group + ": --group-by (" + std::to_string(runs) + " runs)");
  return lines;
}

}  // namespace qnm
