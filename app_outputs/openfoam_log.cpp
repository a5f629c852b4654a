// OpenFOAM solver logs (openfoam_log.h, docs/formats/openfoam-log.md).
#include "app_outputs/openfoam_log.h"

#include <algorithm>
#include <cmath>
#include <optional>
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

constexpr std::size_t kSniffLines = 200;  // a job's own lines (module loads, RunFunctions' "Running ...") come first
constexpr std::size_t kMostFields = 64;   // fields whose linear solvers are kept (a log names a handful)
constexpr std::size_t kMostSolversPerField = 4;

// The value of a banner field "Build  : 7" (name, blanks, ':'); none when the line is not that field.
// The banner's "Time   : 10:26:43" is a field; a step's "Time = 42" is not.
std::optional<std::string_view> BannerField(std::string_view trimmed, std::string_view name) {
  if (!StartsWith(trimmed, name)) return std::nullopt;
  std::string_view rest = trimmed.substr(name.size());
  std::size_t k = 0;
  while (k < rest.size() && rest[k] == ' ') ++k;
  if (k == rest.size() || rest[k] != ':') return std::nullopt;
  return Trim(rest.substr(k + 1));
}

std::string Unquoted(std::string_view text) {
  text = Trim(text);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
  return std::string(text);
}

// The version in the banner's box: "|  \\    /   O peration     | Version:  v2012   |" (openfoam.com)
// or "   \\    /   O peration     | Version:  7" (openfoam.org); empty when the line is not it.
std::string BoxVersion(std::string_view line) {
  const std::size_t at = line.find("| Version:");
  if (at == std::string_view::npos) return {};
  std::vector<std::string_view> words = SplitWhitespace(line.substr(at + 10));
  if (words.empty() || words[0] == "|") return {};
  return std::string(words[0]);
}

// "host.pid" of a Slaves entry -> host; the pid is what follows the last '.'.
std::string HostOfSlave(const std::string& entry) {
  const std::size_t dot = entry.rfind('.');
  return dot == std::string::npos ? entry : entry.substr(0, dot);
}

// The value of a step line "Time = 0.002" (OpenFOAM 11 and later may add the unit: "Time = 1s").
std::string StepTime(std::string_view trimmed, const std::string& path, int line) {
  std::string_view value = Trim(trimmed.substr(trimmed.find('=') + 1));
  std::string_view number = value;
  if (!number.empty() && number.back() == 's') number = number.substr(0, number.size() - 1);
  auto parsed = ParseDouble(number);
  if (!parsed || !std::isfinite(*parsed))
    throw InputError(path, line, "a step's 'Time = <value>' needs a number, got '" + std::string(value) + "'");
  return std::string(value);
}

// The program of an "Exec" command: its first word without folder and without the ".exe" of a
// Windows build ("C:/.../bin/foamRun.exe" -> "foamRun").
std::string ProgramOf(std::string_view command) {
  std::vector<std::string_view> words = SplitWhitespace(command);
  if (words.empty()) return {};
  std::string program = BaseName(std::string(words[0]));
  if (program.size() > 4 && program.compare(program.size() - 4, 4, ".exe") == 0) program.resize(program.size() - 4);
  return program;
}

// "(8 ranks, 1 nodes)" at the end of the Pstream line "node communication : off [type=host] (8
// ranks, 1 nodes)" -> {8, 1}; none when the line does not end so.
std::optional<std::pair<int, int>> RanksAndNodes(std::string_view trimmed, const std::string& path, int line) {
  const std::size_t open = trimmed.rfind('(');
  if (open == std::string_view::npos || trimmed.back() != ')') return std::nullopt;
  std::vector<std::string_view> w = SplitWhitespace(trimmed.substr(open + 1, trimmed.size() - open - 2));
  if (w.size() != 4 || w[1] != "ranks," || w[3] != "nodes") return std::nullopt;
  return std::make_pair(WholeCount(w[0], path, line, "the Pstream line's rank count", 1),
                        WholeCount(w[2], path, line, "the Pstream line's node count", 1));
}

// Why a run stopped, when a line says so outside OpenFOAM's FATAL ERROR block: a batch system's
// cancellation, mpirun's or MPI's abort, a C++ exception, OpenFOAM's own signal handlers printing
// the stack; empty for any other line.
std::string StopReason(std::string_view trimmed) {
  for (std::string_view word : {std::string_view("DUE TO TIME LIMIT"), std::string_view("exited on signal"),
                                std::string_view("TERMINATED WITH THE EXIT STRING"),
                                std::string_view("MPI_ABORT was invoked"),
                                std::string_view("terminate called after throwing")})
    if (trimmed.find(word) != std::string_view::npos) return std::string(trimmed);
  if (trimmed.find("Foam::sigFpe::sigHandler") != std::string_view::npos) return "floating point exception (Foam::sigFpe)";
  if (trimmed.find("Foam::sigSegv::sigHandler") != std::string_view::npos) return "segmentation fault (Foam::sigSegv)";
  return {};
}

// State of the multi-line blocks of the banner.
enum class Block { kNone, kSlaves, kHosts };

struct Parser {
  explicit Parser(const std::string& file) : path(file) {}
  const std::string& path;
  std::vector<OpenfoamExecution> executions;
  std::string pending_version;  // the box's version, printed before its Build line
  Block block = Block::kNone;
  bool error_message_next = false;

  void Line(std::string_view raw, int line) {
    std::string_view trimmed = Trim(raw);
    if (trimmed.empty()) return;
    if (std::string version = BoxVersion(raw); !version.empty()) {
      pending_version = version;
      return;
    }
    if (auto build = BannerField(trimmed, "Build")) {
      executions.emplace_back();
      executions.back().line = line;
      executions.back().build = std::string(*build);
      executions.back().version = pending_version;
      pending_version.clear();
      block = Block::kNone;
      error_message_next = false;
      return;
    }
    if (executions.empty()) return;
    OpenfoamExecution& e = executions.back();
    e.last_line = line;
    if (block != Block::kNone && InBlock(trimmed, line, &e)) return;
    if (error_message_next) {
      error_message_next = false;
      if (!StartsWith(trimmed, "From ") && !StartsWith(trimmed, "in file")) {
        e.error += " " + std::string(trimmed);
        return;
      }
    }
    if (StartsWith(trimmed, "Time = ")) {
      const std::string value = StepTime(trimmed, path, line);
      if (e.steps++ == 0) e.first_time = value;
      e.last_time = value;
      e.last_step_line = line;
    } else if (StartsWith(trimmed, "ExecutionTime =")) {
      Timing(trimmed, line, &e);
    } else if (trimmed == "End") {
      e.end_line = line;
    } else if (StartsWith(trimmed, "--> FOAM FATAL")) {
      if (e.error.empty()) {
        e.error = std::string(trimmed.substr(4));
        if (const std::size_t colon = e.error.find(':'); colon != std::string::npos) e.error.resize(colon + 1);
        e.error_line = line;
        error_message_next = true;
      }
    } else if (std::string reason = e.error.empty() ? StopReason(trimmed) : std::string(); !reason.empty()) {
      e.error = reason;
      e.error_line = line;
    } else if (StartsWith(trimmed, "Selecting solver ") && e.solver_module.empty() && e.program == "foamRun") {
      e.solver_module = std::string(Trim(trimmed.substr(17)));  // foamRun without "-solver": controlDict's solver
    } else if (const std::size_t at = trimmed.find(":  Solving for "); at != std::string_view::npos) {
      Solver(trimmed, at, &e);
    } else if (e.steps == 0) {
      Banner(trimmed, line, &e);
    }
  }

  void Banner(std::string_view trimmed, int line, OpenfoamExecution* e) {
    if (auto exec = BannerField(trimmed, "Exec")) {
      e->command = std::string(*exec);
      e->program = ProgramOf(*exec);
      std::vector<std::string_view> words = SplitWhitespace(*exec);
      for (std::size_t k = 1; k + 1 < words.size(); ++k)
        if (words[k] == "-solver") e->solver_module = std::string(words[k + 1]);
    } else if (auto arch = BannerField(trimmed, "Arch")) {
      e->arch = Unquoted(*arch);
    } else if (auto host = BannerField(trimmed, "Host")) {
      e->host = Unquoted(*host);
    } else if (auto case_path = BannerField(trimmed, "Case")) {
      e->case_path = std::string(*case_path);
    } else if (auto io = BannerField(trimmed, "I/O")) {
      e->io = std::string(*io);
    } else if (auto nprocs = BannerField(trimmed, "nProcs")) {
      e->nprocs = WholeCount(*nprocs, path, line, "'nProcs : N'", 1);
      e->nprocs_line = line;
    } else if (auto slaves = BannerField(trimmed, "Slaves")) {
      e->hosts_line = line;
      const std::size_t open = slaves->find('(');
      if (open == std::string_view::npos) {
        block = Block::kSlaves;  // "N", "(", one "host.pid" a line, ")"
        return;
      }
      // A short list on one line: 'Slaves : 1("example.com.25162")'.
      const std::size_t close = slaves->rfind(')');
      if (close == std::string_view::npos || close < open)
        throw InputError(path, line, "a 'Slaves : N(...)' list without its closing ')'");
      const int count = WholeCount(Trim(slaves->substr(0, open)), path, line, "the 'Slaves' list's length", 0);
      std::string_view items = slaves->substr(open + 1, close - open - 1);
      std::size_t at = 0;
      while ((at = items.find('"', at)) != std::string_view::npos) {
        const std::size_t end = items.find('"', at + 1);
        if (end == std::string_view::npos) throw InputError(path, line, "a 'Slaves' entry without its closing '\"'");
        const std::string host = HostOfSlave(std::string(items.substr(at + 1, end - at - 1)));
        if (host.empty()) e->slave_hosts_blank = true;
        e->slave_hosts.push_back(host);
        at = end + 1;
      }
      if (static_cast<int>(e->slave_hosts.size()) != count)
        throw InputError(path, line, "the 'Slaves' list says " + std::to_string(count) + " entries and holds " +
                                         std::to_string(e->slave_hosts.size()));
    } else if (auto hosts = BannerField(trimmed, "Hosts")) {
      block = Block::kHosts;
      e->hosts_line = line;
    } else if (auto comms = BannerField(trimmed, "commsType")) {
      e->comms_type = std::string(*comms);
    } else if (auto transfer = BannerField(trimmed, "floatTransfer")) {
      e->float_transfer = std::string(*transfer);
    } else if (BannerField(trimmed, "node communication")) {
      if (auto counts = RanksAndNodes(trimmed, path, line)) {
        e->pstream_ranks = counts->first;
        e->pstream_nodes = counts->second;
        e->pstream_line = line;
      }
    }
  }

  // A line inside the Slaves or Hosts list; false when the list has ended (the line is read as usual).
  bool InBlock(std::string_view trimmed, int line, OpenfoamExecution* e) {
    if (trimmed == "(") return true;
    if (trimmed == ")") {
      block = Block::kNone;
      return true;
    }
    if (block == Block::kSlaves) {
      if (trimmed.find_first_not_of("0123456789") == std::string_view::npos) return true;  // the list's length
      if (trimmed.front() != '"') {
        block = Block::kNone;
        return false;
      }
      const std::string entry = Unquoted(trimmed);
      const std::string host = HostOfSlave(entry);
      if (host.empty()) e->slave_hosts_blank = true;
      e->slave_hosts.push_back(host);
      return true;
    }
    // "(node001 32)": a host and how many processes in a row ran there.
    if (trimmed.front() != '(' || trimmed.back() != ')') {
      block = Block::kNone;
      return false;
    }
    std::vector<std::string_view> words = SplitWhitespace(trimmed.substr(1, trimmed.size() - 2));
    if (words.size() < 2) {  // "(*****)": blanked by whoever published the log
      e->slave_hosts_blank = true;
      return true;
    }
    const int count = WholeCount(words.back(), path, line, "a 'Hosts' line's process count", 1);
    std::string name;
    for (std::size_t k = 0; k + 1 < words.size(); ++k) name += (name.empty() ? "" : " ") + std::string(words[k]);
    e->host_counts.emplace_back(name, count);
    return true;
  }

  // "ExecutionTime = 46.83 s  ClockTime = 47 s"
  void Timing(std::string_view trimmed, int line, OpenfoamExecution* e) {
    std::vector<std::string_view> w = SplitWhitespace(trimmed);
    if (w.size() < 3 || w[1] != "=") throw InputError(path, line, "malformed 'ExecutionTime = <seconds> s' line");
    const double execution = NonNegativeNumber(w[2], path, line, "'ExecutionTime'");
    if (Known(e->last_execution_s) && execution < e->last_execution_s)
      throw InputError(path, line, "ExecutionTime went back from " + NumberText(e->last_execution_s) + " s to " +
                                       NumberText(execution) + " s: two runs' output in one execution");
    double clock = kUnknown;
    for (std::size_t k = 3; k + 2 < w.size(); ++k)
      if (w[k] == "ClockTime" && w[k + 1] == "=") clock = NonNegativeNumber(w[k + 2], path, line, "'ClockTime'");
    if (e->timed_steps++ == 0) {
      e->first_execution_s = execution;
      e->first_clock_s = clock;
    }
    e->last_execution_s = execution;
    e->last_clock_s = clock;
    e->last_execution_line = line;
  }

  // "GAMG:  Solving for p, Initial residual = ..." -> p uses GAMG.
  static void Solver(std::string_view trimmed, std::size_t at, OpenfoamExecution* e) {
    const std::string_view name = trimmed.substr(0, at);
    if (name.empty() || name.find(' ') != std::string_view::npos) return;
    std::string_view field = trimmed.substr(at + 15);
    field = field.substr(0, field.find(','));
    if (field.empty() || field.find(' ') != std::string_view::npos) return;
    auto it = e->linear_solvers.find(std::string(field));
    if (it == e->linear_solvers.end()) {
      if (e->linear_solvers.size() >= kMostFields) return;
      it = e->linear_solvers.emplace(std::string(field), std::vector<std::string>{}).first;
    }
    std::vector<std::string>& solvers = it->second;
    if (solvers.size() < kMostSolversPerField && std::find(solvers.begin(), solvers.end(), name) == solvers.end())
      solvers.emplace_back(name);
  }
};

// The case's name: the last component of its path, less the words that are the run's own layout
// (its processes, nodes or processes per node: a campaign's "Openfoam_Mbike_2" on 2 nodes and
// "..._112_56" for 112 processes, 56 per node, are one case).
std::string CaseName(const std::string& case_path, const RunStats& run, std::vector<std::string>* dropped) {
  std::string last = case_path;
  while (!last.empty() && last.back() == '/') last.pop_back();
  last = BaseName(last);
  std::set<long long> layout = {run.procs};
  if (run.nodes > 0) layout.insert(run.nodes);
  if (run.ranks_per_node > 0) layout.insert(run.ranks_per_node);
  std::vector<std::pair<char, std::string>> words;  // each word with the separator before it
  char separator = 0;
  std::string word;
  for (char c : last + "_") {
    if (c != '_' && c != '-') {
      word += c;
      continue;
    }
    if (!word.empty()) words.emplace_back(separator, word);
    word.clear();
    separator = c;
  }
  std::string out;
  for (const auto& [before, text] : words) {
    const bool number = text.size() < 12 && text.find_first_not_of("0123456789") == std::string::npos;
    if (number && layout.count(std::stoll(text))) {
      dropped->push_back(text);
      continue;
    }
    if (!out.empty()) out += before;
    out += text;
  }
  return out.empty() ? last : out;
}

// The build's word for the run's configuration: "v2106" of "v2106 OPENFOAM=2106", "7" of "7",
// "v2606-_481094f-20260618" of "_481094f-20260618 OPENFOAM=2606 version=2606".
std::string BuildWord(const std::string& build) {
  std::vector<std::string_view> words = SplitWhitespace(build);
  if (words.empty()) return "unknown";
  std::string first(words[0]);
  for (std::string_view word : words)
    if (StartsWith(word, "OPENFOAM=") && !StartsWith(first, "v")) return "v" + std::string(word.substr(9)) + "-" + first;
  return first;
}

}  // namespace

bool LooksLikeOpenfoamLog(std::string_view text) {
  std::size_t start = 0;
  bool build = false;
  for (std::size_t n = 0; n < kSniffLines && start < text.size(); ++n) {
    std::size_t end = text.find('\n', start);
    std::string_view trimmed = Trim(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (BannerField(trimmed, "Build")) build = true;
    else if (build && BannerField(trimmed, "Exec")) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

std::vector<OpenfoamExecution> ParseOpenfoamLog(std::string_view text, const std::string& path) {
  Parser parser(path);
  std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) parser.Line(lines[i], static_cast<int>(i + 1));
  if (parser.executions.empty()) throw InputError(path, 0, "OpenFOAM log without a banner ('Build  :' line)");
  for (OpenfoamExecution& e : parser.executions)
    if (e.end_line > 0 && e.end_line < e.last_execution_line) e.end_line = 0;  // an "End" before the last step
  return parser.executions;
}

RunStats OpenfoamExecutionToRunStats(const OpenfoamExecution& e, const std::string& path) {
  RunStats run;
  run.sources.push_back(path);
  run.app = e.Application().empty() ? "openfoam" : e.Application();
  run.tool_version = "OpenFOAM " + (e.version.empty() ? e.build : e.version);
  // OpenFOAM 11+ runs every solver module with one program, foamRun: the module is what ran.
  run.derivations["app"] = std::string(e.solver_module.empty() ? "OpenFOAM banner 'Exec', its program"
                                       : e.command.find("-solver") != std::string::npos
                                           ? "OpenFOAM foamRun's solver module ('Exec' ... -solver NAME)"
                                           : "OpenFOAM foamRun's solver module ('Selecting solver NAME', from controlDict)") +
                           (e.version.empty() ? std::string() : " (OpenFOAM " + e.version + ")");
  if (!e.solver_module.empty()) run.details["openfoam_program"] = e.program;

  // Processes: "nProcs", else the master and its Slaves, else a serial run.
  const int listed = static_cast<int>(e.slave_hosts.size()) + 1;
  if (e.nprocs > 0) {
    run.procs = e.nprocs;
    run.derivations["procs"] = "OpenFOAM banner 'nProcs : N'";
  } else if (!e.slave_hosts.empty()) {
    run.procs = listed;
    run.derivations["procs"] = "OpenFOAM banner: the master and its 'Slaves' (no 'nProcs' line)";
  } else if (e.command.find("-parallel") != std::string::npos) {
    throw InputError(path, e.line, "a parallel OpenFOAM run ('-parallel') whose banner has neither 'nProcs' nor 'Slaves'");
  } else {
    run.procs = 1;
    run.derivations["procs"] = "OpenFOAM banner: no 'nProcs' line and no '-parallel', a serial run";
  }

  // Hosts: the master's and every slave's (older banners), or openfoam.com's "(host count)" lines.
  std::vector<std::pair<std::string, int>> counts;  // host -> processes, in order of first appearance
  auto add = [&counts](const std::string& host, int n) {
    for (auto& [name, count] : counts)
      if (name == host) {
        count += n;
        return;
      }
    counts.emplace_back(host, n);
  };
  std::string hosts_from;
  if (!e.slave_hosts.empty() && !e.slave_hosts_blank && !e.host.empty()) {
    if (listed != run.procs)
      throw InputError(path, e.hosts_line, "'Slaves' lists " + std::to_string(listed - 1) +
                                               " processes besides the master, 'nProcs' says " + std::to_string(run.procs));
    add(e.host, 1);
    for (const std::string& host : e.slave_hosts) add(host, 1);
    hosts_from = "OpenFOAM banner 'Host' and 'Slaves'";
  } else if (!e.host_counts.empty() && !e.slave_hosts_blank) {
    long long sum = 0;
    for (const auto& [host, n] : e.host_counts) sum += n;
    if (sum != run.procs)
      throw InputError(path, e.hosts_line, "'Hosts' counts " + std::to_string(sum) + " processes, 'nProcs' says " +
                                               std::to_string(run.procs));
    for (const auto& [host, n] : e.host_counts) add(host, n);
    hosts_from = "OpenFOAM banner 'Hosts'";
  }
  if (counts.empty() && !e.host.empty() && run.procs == 1) {
    add(e.host, 1);  // a serial run: its one host
    hosts_from = "OpenFOAM banner 'Host' of a serial run";
  }
  if (e.pstream_ranks > 0 && e.pstream_ranks != run.procs)
    throw InputError(path, e.pstream_line, "the Pstream line counts " + std::to_string(e.pstream_ranks) +
                                               " ranks, the banner " + std::to_string(run.procs) + " processes");
  if (e.pstream_nodes > 0 && !counts.empty() && e.pstream_nodes != static_cast<int>(counts.size()))
    throw InputError(path, e.pstream_line, "the Pstream line counts " + std::to_string(e.pstream_nodes) +
                                               " nodes, the banner's hosts are " + std::to_string(counts.size()));
  if (counts.empty() && !e.host.empty()) {
    // The other ranks' hosts were blanked: the master's still names the machine, as rank 0's host
    // does in a GROMACS log, but not how many nodes ran.
    ApplyHosts({e.host}, "OpenFOAM banner 'Host' (the master's; the other ranks' not given)", &run);
    if (e.pstream_nodes > 0)  // openfoam.com groups ranks by host ("[type=host]"): its node count stands
      run.SetNodes(e.pstream_nodes, "OpenFOAM Pstream line '(N ranks, M nodes)' (line " + std::to_string(e.pstream_line) + ")");
  } else if (!counts.empty()) {
    std::vector<std::string> hosts;
    std::string listing;
    bool equal = true;
    for (const auto& [host, n] : counts) {
      hosts.push_back(host);
      listing += (listing.empty() ? "" : " ") + host + ":" + std::to_string(n);
      equal = equal && n == counts.front().second;
    }
    ApplyHosts(hosts, hosts_from, &run);
    run.SetNodes(static_cast<int>(counts.size()), "distinct host names (" + hosts_from + ")");
    if (!equal && run.ranks_per_node > 0) {  // procs / nodes would be an average no node ran
      run.ranks_per_node = 0;
      run.derivations.erase("ranks_per_node");
    }
    if (listing.size() <= 2000) run.details["openfoam_processes_per_host"] = listing;
  }

  // The run's time: the last ExecutionTime, the solver's own clock from its start to its last step,
  // as benchmark harnesses record it (docs/formats/openfoam-log.md says why not ClockTime).
  run.wall_time_s = e.last_execution_s;
  run.app_time_mean_s = e.last_execution_s;
  run.derivations["wall_time_s"] = "OpenFOAM: the last 'ExecutionTime' (line " + std::to_string(e.last_execution_line) +
                                   "), the master's elapsed CPU seconds from the start to the last of " +
                                   std::to_string(e.steps) + " time steps, start-up (mesh and fields read) included";
  if (Known(e.last_clock_s) && e.last_clock_s > 1.1 * e.last_execution_s + 2)
    run.derivations["wall_time_s"] += "; its ClockTime (" + NumberText(e.last_clock_s) +
                                      " s) is longer: the master waited off the CPU (I/O or blocking MPI)";
  run.derivations["app_time_mean_s"] = "OpenFOAM: the last ExecutionTime, as wall_time_s (the master's; ranks' own not printed)";
  run.iterations = e.steps;
  run.details["openfoam_build"] = e.build;
  if (!e.arch.empty()) run.details["openfoam_arch"] = e.arch;
  if (!e.command.empty()) run.details["command"] = e.command;
  if (!e.case_path.empty()) run.details["openfoam_case"] = e.case_path;
  run.details["openfoam_time_steps"] = std::to_string(e.steps);
  run.details["openfoam_first_time"] = e.first_time;
  run.details["openfoam_last_time"] = e.last_time;
  run.details["openfoam_first_execution_time_s"] = NumberText(e.first_execution_s);
  run.details["openfoam_last_execution_time_s"] = NumberText(e.last_execution_s);
  run.details["openfoam_after_first_step_s"] = NumberText(e.last_execution_s - e.first_execution_s);
  if (Known(e.first_clock_s)) run.details["openfoam_first_clock_time_s"] = NumberText(e.first_clock_s);
  if (Known(e.last_clock_s)) run.details["openfoam_last_clock_time_s"] = NumberText(e.last_clock_s);
  run.details["openfoam_banner_line"] = std::to_string(e.line);

  // The problem: the case, the steps run and their time values (foamRun's solver module is the app).
  std::vector<std::string> dropped;
  const std::string case_name = e.case_path.empty() ? "" : CaseName(e.case_path, run, &dropped);
  run.problem_class = JoinNonEmpty({case_name, std::to_string(e.steps) + (e.steps == 1 ? " step" : " steps"),
                            "time " + e.first_time + ".." + e.last_time},
                           " ");
  run.derivations["problem_class"] =
      std::string(e.case_path.empty() ? "OpenFOAM banner without a 'Case' path (blanked): the case is unknown; "
                                      : "OpenFOAM banner 'Case' (its last folder") +
      (dropped.empty() || e.case_path.empty() ? "" : ", less the layout words " + JoinNonEmpty(dropped, ",")) +
      (e.case_path.empty() ? "" : "); ") + "the 'Time =' steps run, the first and last time values";

  // Settings of the run (experiment_factors.h): they split a series only when a campaign varies them
  // at one process count (the linear solvers of a solver study, collated or uncollated I/O).
  std::vector<std::string> solvers;
  for (const auto& [field, names] : e.linear_solvers) {
    std::string joined;
    for (const std::string& name : names) joined += (joined.empty() ? "" : "/") + name;
    solvers.push_back(field + ":" + joined);
  }
  const std::string prefix = kDeclaredSettingPrefix;
  if (!solvers.empty()) run.details[prefix + "openfoam_linear_solvers"] = JoinNonEmpty(solvers, " ");
  if (!e.io.empty()) run.details[prefix + "openfoam_io"] = e.io;
  if (!e.comms_type.empty()) run.details[prefix + "openfoam_comms_type"] = e.comms_type;
  if (!e.float_transfer.empty()) run.details[prefix + "openfoam_float_transfer"] = e.float_transfer;
  if (!e.arch.empty()) run.details[prefix + "openfoam_arch"] = e.arch;
  run.Derive();
  return run;
}

bool SniffOpenfoamLog(const std::string&, std::string_view text) { return LooksLikeOpenfoamLog(text); }

namespace {

// The execution's name in messages: "simpleFoam", "foamRun (incompressibleFluid)".
std::string ExecutionName(const OpenfoamExecution& e) {
  const std::string program = e.program.empty() ? "?" : e.program;
  return e.solver_module.empty() ? program : program + " (" + e.solver_module + ")";
}

// The refusal of an execution without "End": OpenFOAM's (or MPI's, or the batch system's) reason at
// its line when the log gives one, else where the output stops: after the last timed step, in the
// first step, or before any step (a solver that failed while reading its case stops there too).
[[noreturn]] void RefuseUnfinished(const OpenfoamExecution& e, const std::string& path) {
  const std::string name = "OpenFOAM " + ExecutionName(e);
  if (!e.error.empty())
    throw InputError(path, e.error_line, name + " stopped before it finished (no 'End'): '" + e.error + "'");
  const std::string cut = " log without its closing 'End': the run did not finish (killed, out of time, or the log was cut) ";
  if (e.timed_steps > 0)
    throw InputError(path, e.last_execution_line, name + cut + "after " + std::to_string(e.steps) + " time steps");
  if (e.steps > 0)
    throw InputError(path, e.last_step_line, name + cut + "in its first time step (no 'ExecutionTime' yet)");
  throw InputError(path, std::max(e.line, e.last_line), name + cut + "before its first time step");
}

}  // namespace

ReaderOutput ReadOpenfoamLog(const ReaderInput& input) {
  const std::vector<OpenfoamExecution> executions = ParseOpenfoamLog(input.text, input.path);
  ReaderOutput output;
  std::vector<std::string> utilities;
  std::vector<const OpenfoamExecution*> unfinished;
  // An execution without "End" did not finish, whatever it is: a solver that failed before its first
  // timed step is no utility. One with "End" and no timed step is a utility (blockMesh, decomposePar).
  for (const OpenfoamExecution& e : executions) {
    if (!e.Finished()) {
      unfinished.push_back(&e);
      continue;
    }
    if (!e.IsSolver()) {
      utilities.push_back(e.program.empty() ? "?" : e.program);
      continue;
    }
    RunStats run = OpenfoamExecutionToRunStats(e, input.path);
    ApplyFileName(input.name, &run);
    const std::string build = "openfoam-" + BuildWord(e.build);
    AppendConfiguration(build, &run);
    run.derivations["variant"] = "OpenFOAM banner 'Build'";
    output.runs.push_back(std::move(run));
  }
  DropNameNodesOfDifferingRuns(input.name, &output.runs);
  if (output.runs.empty() && !unfinished.empty()) RefuseUnfinished(*unfinished.front(), input.path);
  if (output.runs.empty())
    throw InputError(input.path, executions.front().line,
                     "OpenFOAM output of " + JoinNonEmpty(utilities, ", ") +
                         " without a solver's time steps ('Time =' then 'ExecutionTime ='): not a solver run");
  if (!unfinished.empty())
    output.notes.push_back(input.path + ": " + std::to_string(unfinished.size()) + " of its " +
                           std::to_string(executions.size()) + " executions did not finish (no 'End'; the first, " +
                           ExecutionName(*unfinished.front()) + ", began at line " +
                           std::to_string(unfinished.front()->line) + "): not read");
  if (!utilities.empty())
    for (RunStats& run : output.runs) run.details["openfoam_other_executions"] = JoinNonEmpty(utilities, ", ") + " (utilities, not runs)";
  return output;
}

}  // namespace qnm
