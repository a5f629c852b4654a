// Launch command lines (launch_command.h).
#include "launch/launch_command.h"

#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "textio/text_lines.h"

namespace qnm {
namespace {

constexpr long long kMaxCount = 1 << 24;  // more processes, nodes or threads than any machine has is no count

// ---- shell words ------------------------------------------------------------------------------

// The commands of a shell command list, each its words (ShellCommandWords).
std::vector<std::vector<std::string>> ShellCommands(std::string_view text) {
  std::vector<std::vector<std::string>> commands(1);
  std::string word;
  bool in_word = false;    // a word is open (an empty quoted word counts)
  bool drop_next = false;  // the next word is a redirection's target
  auto finish_word = [&] {
    if (!in_word) return;
    if (drop_next)
      drop_next = false;
    else
      commands.back().push_back(word);
    word.clear();
    in_word = false;
  };
  auto end_command = [&] {
    finish_word();
    drop_next = false;
    if (!commands.back().empty()) commands.emplace_back();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'') {
      in_word = true;
      const std::size_t close = text.find('\'', i + 1);
      const std::size_t end = close == std::string_view::npos ? text.size() : close;
      word.append(text.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      in_word = true;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size() &&
            std::string_view("\"\\$`").find(text[i + 1]) != std::string_view::npos)
          ++i;
        word += text[i];
      }
    } else if (c == '\\') {
      if (i + 1 < text.size() && text[i + 1] != '\n') word += text[i + 1], in_word = true;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      finish_word();
    } else if (c == '<' || c == '>') {
      if (in_word && AllDigits(word)) word.clear(), in_word = false;  // "2>": the descriptor is the operator's
      finish_word();
      std::size_t end = i + 1;
      while (end < text.size() && (text[end] == '>' || text[end] == '<' || text[end] == '|')) ++end;
      if (end < text.size() && text[end] == '&') {  // ">&2", "2>&1", ">&-": a descriptor, no word
        ++end;
        while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '-')) ++end;
      } else {
        drop_next = true;
      }
      i = end - 1;
    } else if (c == '&' && i + 1 < text.size() && text[i + 1] == '>') {  // "&>file": both outputs redirected
      finish_word();
      drop_next = true;
      i += (i + 2 < text.size() && text[i + 2] == '>') ? 2 : 1;
    } else if (c == ';' || c == '|' || c == '&' || c == '\n') {
      end_command();
      if (i + 1 < text.size() && (text[i + 1] == c || (c == '|' && text[i + 1] == '&'))) ++i;  // "&&", "||", "|&"
    } else {
      word += c;
      in_word = true;
    }
  }
  finish_word();
  if (commands.size() > 1 && commands.back().empty()) commands.pop_back();
  return commands;
}

// ---- wrappers before a program --------------------------------------------------------------------

// Programs that run the command after them, and their options that take a value (the word after);
// `positional`: words the wrapper takes before the command (taskset's mask, chrt's priority).
struct Wrapper {
  std::set<std::string> value_options;
  int positional = 0;
};
const std::map<std::string, Wrapper>& Wrappers() {
  static const std::map<std::string, Wrapper> kWrappers = {
      {"sudo", {{"-u", "-g", "-C", "-D", "-h", "-p", "-U"}, 0}},
      {"env", {{"-u", "-C", "-S", "--unset", "--chdir", "--split-string"}, 0}},
      {"time", {{"-f", "-o", "--format", "--output"}, 0}},
      {"numactl", {{"-N", "-m", "-C", "-i", "-p", "-P", "-w"}, 0}},
      {"taskset", {{}, 1}},
      {"nice", {{"-n"}, 0}},
      {"chrt", {{}, 1}},
      {"stdbuf", {{"-i", "-o", "-e"}, 0}},
      {"nohup", {{}, 0}},
      {"timeout", {{"-s", "-k", "--signal", "--kill-after"}, 1}},
      {"hwloc-bind", {{}, 1}},
      {"likwid-pin", {{"-c", "-s", "-S"}, 0}},
  };
  return kWrappers;
}

bool IsContainerImage(const std::string& word) {
  return EndsWith(word, ".sif") || EndsWith(word, ".simg") || StartsWith(word, "docker://") ||
         StartsWith(word, "oras://") || StartsWith(word, "library://");
}

// A VAR=value word (an environment assignment), with the name in `*name`.
bool IsAssignment(const std::string& word, std::string* name) {
  const std::size_t eq = word.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  for (std::size_t i = 0; i < eq; ++i)
    if (!(std::isalnum(static_cast<unsigned char>(word[i])) || word[i] == '_')) return false;
  if (std::isdigit(static_cast<unsigned char>(word[0]))) return false;
  *name = word.substr(0, eq);
  return true;
}

// The first word at or after `begin` that is no wrapper (with its options and positional words), no
// container runtime with its image, no image and no VAR=value; the assignments passed over go into
// `environment`. `command.size()` when none is left.
std::size_t SkipWrappers(const std::vector<std::string>& command, std::size_t begin,
                         std::map<std::string, std::string>* environment) {
  std::size_t w = begin;
  while (w < command.size()) {
    const std::string& word = command[w];
    const std::string name = BaseName(word);
    std::string variable;
    if (IsAssignment(word, &variable)) {
      if (environment) (*environment)[variable] = word.substr(variable.size() + 1);
      ++w;
      continue;
    }
    if (const auto wrapper = Wrappers().find(name); wrapper != Wrappers().end()) {
      ++w;
      int positional = wrapper->second.positional;
      while (w < command.size()) {
        const std::string& option = command[w];
        if (option == "--") {
          ++w;
          break;
        }
        if (!option.empty() && option[0] == '-') {
          w += wrapper->second.value_options.count(option) ? 2 : 1;
          continue;
        }
        if (name == "env" && IsAssignment(option, &variable)) {
          if (environment) (*environment)[variable] = option.substr(variable.size() + 1);
          ++w;
          continue;
        }
        if (positional > 0) {
          --positional, ++w;
          continue;
        }
        break;
      }
      continue;
    }
    if (name == "singularity" || name == "apptainer" || name == "podman" || name == "docker") {
      std::size_t image = w + 1;
      while (image < command.size() && !IsContainerImage(command[image])) ++image;
      if (image == command.size()) return w;
      w = image + 1;
      continue;
    }
    if (IsContainerImage(word)) {
      ++w;
      continue;
    }
    return w;
  }
  return command.size();
}

// ---- launchers ----------------------------------------------------------------------------------

enum class Family { kMpirun, kMpirunRsh, kSrun, kFlux, kAprun, kJsrun, kIbrun };

struct LauncherOptions {
  std::set<std::string> one_value;   // options followed by one value word
  std::set<std::string> two_values;  // followed by two (-mca NAME VALUE; -genv NAME VALUE)
  std::set<std::string> flags;       // long options without a value where long options take one by default
  bool long_take_value = false;      // an unknown `--name` takes the next word (srun, flux, jsrun)
};

const LauncherOptions& OptionsOf(Family family) {
  static const LauncherOptions kMpirun = {
      {"-n",
       "-np",
       "--np",
       "--n",
       "-c",
       "-N",
       "--npernode",
       "-npernode",
       "--npersocket",
       "-npersocket",
       "--map-by",
       "-map-by",
       "--rank-by",
       "-rank-by",
       "--bind-to",
       "-bind-to",
       "-x",
       "--hostfile",
       "-hostfile",
       "--machinefile",
       "-machinefile",
       "--default-hostfile",
       "-H",
       "--host",
       "-host",
       "-hosts",
       "--wdir",
       "-wdir",
       "-wd",
       "--prefix",
       "-prefix",
       "--output-filename",
       "-output-filename",
       "--tune",
       "--timeout",
       "--cpus-per-proc",
       "-cpus-per-proc",
       "--cpus-per-rank",
       "-cpus-per-rank",
       "--launch-agent",
       "--preload-files",
       "--path",
       "-path",
       "--display",
       "--output",
       "--personality",
       "--runtime-options",
       "--rankfile",
       "-rf",
       "-ppn",
       "-perhost",
       "-f",
       "-genvlist",
       "-envlist",
       "-configfile",
       "-launcher",
       "-launcher-exec",
       "-binding",
       "-iface",
       "-rmk",
       "-demux",
       "-errfile-pattern",
       "-outfile-pattern",
       "-prepend-pattern",
       "-bootstrap",
       "-bootstrap-exec",
       "-hostlist",
       "-machine",
       "--mapby",
       "--bind",
       "-gpus-per-proc"},
      {"-mca", "--mca", "-gmca", "--gmca", "--pmixmca", "--prtemca", "-genv", "-env"},
      {},
      false};
  static const LauncherOptions kMpirunRsh = {{"-np", "-n", "-hostfile", "-config", "-paramfile", "-sg"}, {}, {}, false};
  static const LauncherOptions kSrun = {
      {"-n", "-N", "-c", "-p", "-t", "-A", "-J", "-o", "-e", "-i", "-w", "-x", "-m",
       "-B", "-C", "-d", "-D", "-G", "-q", "-r", "-S", "-T", "-W", "-L", "-M"},
      {},
      {"--exclusive",     "--overcommit", "--unbuffered", "--label",          "--verbose",
       "--quiet",         "--pty",        "--multi-prog", "--no-kill",        "--kill-on-bad-exit",
       "--oversubscribe", "--test-only",  "--contiguous", "--disable-status", "--exact",
       "--spread-job",    "--overlap",    "--whole",      "--use-min-nodes",  "--no-allocate",
       "--preserve-env",  "--reboot",     "--hold",       "--immediate",      "--help",
       "--usage",         "--version"},
      true};
  static const LauncherOptions kFlux = {
      {"-n", "-N", "-c", "-g", "-t", "-o", "-S", "-q", "-B", "-u"},
      {},
      {"--exclusive", "--wait", "--watch", "--verbose", "--quiet", "--dry-run", "--unbuffered", "--label-io", "--debug",
       "--wait-event", "--progress", "--jps"},
      true};
  static const LauncherOptions kAprun = {{"-n", "-N", "-d", "-j", "-S", "-sl", "-sn", "-m", "-p", "-L", "-e", "-a",
                                          "-r", "-cc", "-D", "-F", "-R", "-E", "-t"},
                                         {},
                                         {},
                                         false};
  static const LauncherOptions kJsrun = {{"-n", "-a", "-c", "-g", "-r", "-b", "-d", "-l", "-p", "-E", "-F", "-h", "-k",
                                          "-K", "-M", "-e", "-o", "-U", "-X"},
                                         {},
                                         {},
                                         true};
  static const LauncherOptions kIbrun = {{"-n", "-o"}, {}, {}, false};
  switch (family) {
    case Family::kMpirun:
      return kMpirun;
    case Family::kMpirunRsh:
      return kMpirunRsh;
    case Family::kSrun:
      return kSrun;
    case Family::kFlux:
      return kFlux;
    case Family::kAprun:
      return kAprun;
    case Family::kJsrun:
      return kJsrun;
    case Family::kIbrun:
      return kIbrun;
  }
  return kMpirun;
}

// The launcher family of `command[w]` (and how many words name it: "flux run", "flux mini run").
std::optional<Family> LauncherAt(const std::vector<std::string>& command, std::size_t w, std::size_t* words,
                                 std::string* name) {
  static const std::map<std::string, Family> kNames = {{"mpirun", Family::kMpirun},
                                                       {"mpiexec", Family::kMpirun},
                                                       {"mpiexec.hydra", Family::kMpirun},
                                                       {"mpiexec.mpich", Family::kMpirun},
                                                       {"mpirun.mpich", Family::kMpirun},
                                                       {"mpiexec.openmpi", Family::kMpirun},
                                                       {"mpirun.openmpi", Family::kMpirun},
                                                       {"orterun", Family::kMpirun},
                                                       {"prterun", Family::kMpirun},
                                                       {"prun", Family::kMpirun},
                                                       {"oshrun", Family::kMpirun},
                                                       {"mpirun_rsh", Family::kMpirunRsh},
                                                       {"srun", Family::kSrun},
                                                       {"aprun", Family::kAprun},
                                                       {"jsrun", Family::kJsrun},
                                                       {"ibrun", Family::kIbrun}};
  const std::string base = BaseName(command[w]);
  *words = 1;
  *name = base;
  if (base == "flux") {
    std::size_t sub = w + 1;
    if (sub < command.size() && command[sub] == "mini") ++sub;
    if (sub < command.size() && (command[sub] == "run" || command[sub] == "submit")) {
      *words = sub - w + 1;
      *name = "flux " + command[sub];
      return Family::kFlux;
    }
    return std::nullopt;
  }
  const auto found = kNames.find(base);
  if (found == kNames.end()) return std::nullopt;
  return found->second;
}

// What one launcher's options said, before they are combined into counts.
struct LauncherCounts {
  std::map<std::string, std::pair<long long, std::string>> counts;  // "procs" -> (16, "-np 16")
  std::map<std::string, std::string> environment;                   // OMP_NUM_THREADS -> "4"
  std::string error;
};

// `value` as a count >= 1, else nullopt.
std::optional<long long> Count(const std::string& value) {
  const std::optional<long long> n = AllDigits(value) ? ParseInteger(value) : std::nullopt;
  if (!n || *n < 1 || *n > kMaxCount) return std::nullopt;
  return n;
}

void SetCount(LauncherCounts* out, const char* what, const std::string& option, const std::string& value,
              bool range_allowed = false) {
  const std::optional<long long> n = Count(value);
  const std::string said = option + (StartsWith(option, "--") && !StartsWith(option, "---") ? "=" : " ") + value;
  if (!n) {
    if (range_allowed && value.find_first_of("-,:") != std::string::npos) return;  // srun -N 2-4: a range, no count
    if (out->error.empty()) out->error = said + ": not a whole number of at least 1";
    return;
  }
  out->counts[what] = {*n, said};
}

// Environment assignments a launcher option passes on ("OMP_NUM_THREADS=4", Slurm's
// "--export=ALL,OMP_NUM_THREADS=4").
void TakeAssignments(const std::string& value, std::map<std::string, std::string>* environment) {
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t comma = value.find(',', start);
    const std::string part = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::string name;
    if (IsAssignment(part, &name)) (*environment)[name] = part.substr(name.size() + 1);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

// Open MPI's --map-by "ppr:8:node:pe=2" / "slot:PE=4": processes per node and CPUs per process.
void ReadMapBy(const std::string& option, const std::string& value, LauncherCounts* out) {
  const std::string lower = ToLower(value);
  if (StartsWith(lower, "ppr:")) {
    const std::size_t colon = lower.find(':', 4);
    if (colon != std::string::npos && lower.compare(colon + 1, 4, "node") == 0) {
      if (const std::optional<long long> n = Count(value.substr(4, colon - 4)))
        out->counts["ranks_per_node"] = {*n, option + " " + value};
      else if (out->error.empty())
        out->error = option + " " + value + ": not a whole number of processes per node";
    }
  }
  const std::size_t pe = lower.find("pe=");
  if (pe != std::string::npos && (pe == 0 || lower[pe - 1] == ':' || lower[pe - 1] == ',')) {
    std::size_t end = pe + 3;
    while (end < lower.size() && std::isdigit(static_cast<unsigned char>(lower[end]))) ++end;
    const std::optional<long long> n = Count(value.substr(pe + 3, end - pe - 3));
    if (n) out->counts["cpus"] = {*n, option + " " + value};
  }
}

// One option of `family` with its value(s) into `out`.
void ReadOption(Family family, const std::string& option, const std::vector<std::string>& values, LauncherCounts* out) {
  const std::string& value = values.empty() ? std::string() : values.front();
  auto is = [&](std::initializer_list<const char*> names) {
    for (const char* name : names)
      if (option == name) return true;
    return false;
  };
  switch (family) {
    case Family::kMpirun:
      if (is({"-n", "-np", "--np", "--n", "-c"}))
        SetCount(out, "procs", option, value);
      else if (is({"-N", "--npernode", "-npernode", "-ppn", "-perhost"}))
        SetCount(out, "ranks_per_node", option, value);
      else if (is({"--map-by", "-map-by", "--mapby"}))
        ReadMapBy(option, value, out);
      else if (is({"--cpus-per-proc", "-cpus-per-proc", "--cpus-per-rank", "-cpus-per-rank"}))
        SetCount(out, "cpus", option, value);
      else if (is({"-x"}))
        TakeAssignments(value, &out->environment);
      else if (is({"-genv", "-env"}) && values.size() == 2)
        out->environment[values[0]] = values[1];
      else if (is({"-genv", "-env"}))
        TakeAssignments(value, &out->environment);
      break;
    case Family::kMpirunRsh:
      if (is({"-np", "-n"})) SetCount(out, "procs", option, value);
      break;
    case Family::kSrun:
    case Family::kFlux:
      if (is({"-n", "--ntasks"}))
        SetCount(out, "procs", option, value);
      else if (is({"-N", "--nodes"}))
        SetCount(out, "nodes", option, value, /*range_allowed=*/true);
      else if (is({"--ntasks-per-node", "--tasks-per-node"}))
        SetCount(out, "ranks_per_node", option, value);
      else if (is({"-c", "--cpus-per-task", "--cores-per-task"}))
        SetCount(out, "cpus", option, value);
      else if (is({"--export", "--env"}))
        TakeAssignments(value, &out->environment);
      break;
    case Family::kAprun:
      if (is({"-n"}))
        SetCount(out, "procs", option, value);
      else if (is({"-N"}))
        SetCount(out, "ranks_per_node", option, value);
      else if (is({"-d"}))
        SetCount(out, "cpus", option, value);
      else if (is({"-e"}))
        TakeAssignments(value, &out->environment);
      break;
    case Family::kJsrun:
      if (is({"-p", "--np"}))
        SetCount(out, "procs", option, value);
      else if (is({"-n", "--nrs"}))
        SetCount(out, "resource_sets", option, value);
      else if (is({"-a", "--tasks_per_rs"}))
        SetCount(out, "tasks_per_set", option, value);
      else if (is({"-r", "--rs_per_host"}))
        SetCount(out, "sets_per_host", option, value);
      else if (is({"-c", "--cpu_per_rs"}))
        SetCount(out, "cpus_per_set", option, value);
      else if (is({"-E", "--env"}))
        TakeAssignments(value, &out->environment);
      break;
    case Family::kIbrun:
      if (is({"-n"})) SetCount(out, "procs", option, value);
      break;
  }
}

// Reads the options of the launcher whose name ends at `begin`; returns the index of its first
// word that is no option (the command it launches).
std::size_t ReadLauncherOptions(Family family, const std::vector<std::string>& command, std::size_t begin,
                                LauncherCounts* out) {
  const LauncherOptions& options = OptionsOf(family);
  std::size_t w = begin;
  while (w < command.size()) {
    const std::string& word = command[w];
    if (word == "--") return w + 1;
    if (family == Family::kMpirunRsh) {  // mpirun_rsh -np 4 -hostfile h VAR=value ./app
      std::string name;
      if (IsAssignment(word, &name)) {
        out->environment[name] = word.substr(name.size() + 1);
        ++w;
        continue;
      }
    }
    if (word.size() < 2 || word[0] != '-') return w;
    if (options.two_values.count(word)) {
      const bool joined = w + 1 < command.size() && command[w + 1].find('=') != std::string::npos;  // -genv A=1
      const std::size_t count = joined ? 1 : 2;
      std::vector<std::string> values;
      for (std::size_t v = 1; v <= count && w + v < command.size(); ++v) values.push_back(command[w + v]);
      ReadOption(family, word, values, out);
      w += 1 + count;
      continue;
    }
    if (options.one_value.count(word)) {
      if (w + 1 < command.size()) ReadOption(family, word, {command[w + 1]}, out);
      w += 2;
      continue;
    }
    const std::size_t eq = word.find('=');
    if (StartsWith(word, "--") && eq != std::string::npos) {  // --ntasks=4
      ReadOption(family, word.substr(0, eq), {word.substr(eq + 1)}, out);
      ++w;
      continue;
    }
    if (!StartsWith(word, "--") && word.size() > 2 && options.one_value.count(word.substr(0, 2))) {  // -n4
      ReadOption(family, word.substr(0, 2), {word.substr(2)}, out);
      ++w;
      continue;
    }
    if (StartsWith(word, "--") && options.long_take_value && !options.flags.count(word) && w + 1 < command.size() &&
        !StartsWith(command[w + 1], "-")) {  // srun --ntasks 4
      ReadOption(family, word, {command[w + 1]}, out);
      w += 2;
      continue;
    }
    ++w;  // a flag, or an option these tables do not know
  }
  return w;
}

}  // namespace

std::vector<std::string> ShellCommandWords(std::string_view command) {
  std::vector<std::vector<std::string>> commands = ShellCommands(command);
  for (std::vector<std::string>& words : commands) {
    const std::size_t at = SkipWrappers(words, 0, nullptr);
    std::size_t name_words = 0;
    std::string name;
    if (at < words.size() && LauncherAt(words, at, &name_words, &name)) return std::move(words);
  }
  return std::move(commands.front());
}

std::size_t ProgramWord(const std::vector<std::string>& command) {
  static const std::set<std::string> kShells = {"bash", "sh", "dash", "zsh", "ksh", "csh", "tcsh"};
  std::size_t w = SkipWrappers(command, 0, nullptr);
  while (w < command.size() && !command[w].empty() && command[w][0] == '-') w = SkipWrappers(command, w + 1, nullptr);
  if (w >= command.size()) return 0;
  const std::string name = BaseName(command[w]);
  if (kShells.count(name) && w + 1 < command.size() && !command[w + 1].empty() && command[w + 1][0] != '-')
    return w + 1;
  return w;
}

namespace {

// ParseLaunchCommand of a command's words; `depth` counts the `sh -c '...'` strings read into.
LaunchCommand ParseLaunchCommandWords(const std::vector<std::string>& command, int depth) {
  static const std::set<std::string> kShells = {"bash", "sh", "dash", "zsh", "ksh", "csh", "tcsh"};
  LaunchCommand launch;
  if (command.empty()) return launch;
  LauncherCounts counts;
  std::size_t w = SkipWrappers(command, 0, &counts.environment);
  std::size_t program_begin = 0;
  std::size_t name_words = 0;
  std::string name;
  if (w < command.size()) {
    if (const std::optional<Family> family = LauncherAt(command, w, &name_words, &name)) {
      launch.launcher = name;
      program_begin = ReadLauncherOptions(*family, command, w + name_words, &counts);
      program_begin = SkipWrappers(command, program_begin, &counts.environment);
    }
  }
  if (launch.launcher.empty() && w + 2 < command.size() && kShells.count(BaseName(command[w])) && depth < 4 &&
      StartsWith(command[w + 1], "-") && command[w + 1].find('c') != std::string::npos && command[w + 1][1] != '-') {
    return ParseLaunchCommandWords(ShellCommandWords(command[w + 2]), depth + 1);  // sh -c 'mpirun -np 4 ./app'
  }
  if (launch.launcher.empty()) {
    program_begin = ProgramWord(command);
  } else if (program_begin < command.size()) {
    const std::vector<std::string> rest(command.begin() + program_begin, command.end());
    program_begin += ProgramWord(rest);
  }
  if (program_begin < command.size()) {
    launch.program_path = command[program_begin];
    launch.program = BaseName(launch.program_path);
    launch.arguments.assign(command.begin() + program_begin + 1, command.end());
  }
  launch.error = counts.error;
  auto take = [&](const char* what, int* count, std::string* from) {
    const auto found = counts.counts.find(what);
    if (found == counts.counts.end()) return false;
    *count = static_cast<int>(found->second.first);
    *from = found->second.second;
    return true;
  };
  take("procs", &launch.procs, &launch.procs_from);
  take("nodes", &launch.nodes, &launch.nodes_from);
  take("ranks_per_node", &launch.ranks_per_node, &launch.ranks_per_node_from);
  int cpus = 0;
  std::string cpus_from;
  take("cpus", &cpus, &cpus_from);
  // jsrun: resource sets of tasks each.
  int sets = 0, per_set = 0, per_host = 0, cpus_per_set = 0;
  std::string sets_from, per_set_from, per_host_from, cpus_per_set_from;
  if (take("resource_sets", &sets, &sets_from) | take("tasks_per_set", &per_set, &per_set_from) |
      take("sets_per_host", &per_host, &per_host_from) | take("cpus_per_set", &cpus_per_set, &cpus_per_set_from)) {
    const int tasks = per_set > 0 ? per_set : 1;
    const std::string tasks_from = per_set > 0 ? " x " + per_set_from : "";
    if (launch.procs == 0 && sets > 0 && static_cast<long long>(sets) * tasks <= kMaxCount)
      launch.procs = sets * tasks, launch.procs_from = sets_from + tasks_from;
    if (per_host > 0 && static_cast<long long>(per_host) * tasks <= kMaxCount)
      launch.ranks_per_node = per_host * tasks, launch.ranks_per_node_from = per_host_from + tasks_from;
    if (cpus_per_set > 0 && cpus_per_set % tasks == 0)
      cpus = cpus_per_set / tasks, cpus_from = cpus_per_set_from + (per_set > 0 ? " / " + per_set_from : "");
  }
  if (launch.procs == 0 && launch.nodes > 0 && launch.ranks_per_node > 0 &&
      static_cast<long long>(launch.nodes) * launch.ranks_per_node <= kMaxCount) {
    launch.procs = launch.nodes * launch.ranks_per_node;
    launch.procs_from = launch.nodes_from + " x " + launch.ranks_per_node_from;
  }
  if (const auto omp = counts.environment.find("OMP_NUM_THREADS"); omp != counts.environment.end()) {
    if (const std::optional<long long> n = Count(omp->second)) {
      launch.threads = static_cast<int>(*n);
      launch.threads_from = "OMP_NUM_THREADS=" + omp->second;
    } else if (launch.error.empty()) {
      launch.error = "OMP_NUM_THREADS=" + omp->second + ": not a whole number of at least 1";
    }
  }
  if (cpus > 0) launch.cpus_per_proc = cpus, launch.cpus_per_proc_from = cpus_from;
  if (launch.threads == 0 && cpus > 0) launch.threads = cpus, launch.threads_from = cpus_from + " (CPUs per process)";
  return launch;
}

}  // namespace

LaunchCommand ParseLaunchCommand(std::string_view text) { return ParseLaunchCommandWords(ShellCommandWords(text), 0); }

std::string LaunchDerivation(const LaunchCommand& launch, const std::string& from) {
  return launch.launcher.empty() ? from : launch.launcher + " " + from;
}

}  // namespace qnm
