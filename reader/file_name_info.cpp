#include "reader/file_name_info.h"

#include <cctype>
#include <filesystem>

#include "textio/text_lines.h"

namespace qnm {
namespace {

bool IsClassLetter(const std::string& token) {
  return token.size() == 1 && std::string("SWABCDEFU").find(token[0]) != std::string::npos;
}

bool IsRoman(const std::string& token) {
  static const char* const kRoman[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"};
  for (const char* roman : kRoman)
    if (token == roman) return true;
  return false;
}

// Number with a unit-like prefix or suffix: "np16" -> 16 for prefix "np".
int NumberAfter(const std::string& token, const std::string& prefix) {
  if (token.size() <= prefix.size() || token.compare(0, prefix.size(), prefix) != 0) return 0;
  auto value = ParseInteger(token.substr(prefix.size()));
  return value && *value > 0 && *value < (1 << 24) ? static_cast<int>(*value) : 0;
}

int NumberBefore(const std::string& token, const std::string& suffix) {
  if (token.size() <= suffix.size() || !EndsWith(token, suffix)) return 0;
  auto value = ParseInteger(token.substr(0, token.size() - suffix.size()));
  return value && *value > 0 && *value < (1 << 24) ? static_cast<int>(*value) : 0;
}

std::vector<std::string> Tokens(const std::string& stem) {
  // "-mz" belongs to the benchmark name; every other '.', '_', '-' separates.
  std::vector<std::string> tokens;
  std::string current;
  for (std::size_t i = 0; i < stem.size(); ++i) {
    char c = stem[i];
    if (c == '-' && ToLower(stem.substr(i, 3)) == "-mz" &&
        (i + 3 == stem.size() || std::string("._-").find(stem[i + 3]) != std::string::npos)) {
      current += stem.substr(i, 3);
      i += 2;
      continue;
    }
    if (c == '.' || c == '_' || c == '-') {
      if (!current.empty()) tokens.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) tokens.push_back(current);
  return tokens;
}

std::string StripExtensions(std::string name) {
  static const char* const kExtensions[] = {".out.dat", ".mpiP", ".mpip", ".out", ".dat", ".log",
                                            ".txt", ".csv", ".json"};
  for (const char* extension : kExtensions)
    if (EndsWith(name, extension)) return name.substr(0, name.size() - std::string(extension).size());
  return name;
}

}  // namespace

bool IsNpbBenchmark(const std::string& lower_name) {
  static const char* const kNames[] = {"bt", "cg", "dt", "ep", "ft", "is", "lu", "mg", "sp", "ua",
                                       "bt-mz", "lu-mz", "sp-mz"};
  for (const char* name : kNames)
    if (lower_name == name) return true;
  return false;
}

bool SplitNpbBinaryName(const std::string& name, std::string* app, std::string* problem_class) {
  std::size_t dot = name.find('.');
  if (dot == std::string::npos) return false;
  std::string bench = ToLower(name.substr(0, dot));
  std::string rest = name.substr(dot + 1);
  std::string letter = rest.substr(0, rest.find('.'));
  if (!IsNpbBenchmark(bench) || !IsClassLetter(letter)) return false;
  *app = bench;
  *problem_class = letter;
  return true;
}

std::string FileNameInfo::Variant() const {
  std::string out;
  for (const std::string& word : variant_words) out += (out.empty() ? "" : "-") + word;
  if (nodes > 0 && procs > 0 && procs % nodes == 0)
    out += (out.empty() ? "" : "-") + std::string("ppn") + std::to_string(procs / nodes);
  return out;
}

FileNameInfo ParseFileName(const std::string& path) {
  FileNameInfo info;
  std::string base = BaseName(path);
  std::size_t tag_end = base.find("__");
  if (tag_end != std::string::npos && tag_end > 0) {
    info.data_set = base.substr(0, tag_end);
    info.original_name = base.substr(tag_end + 2);
  } else {
    std::size_t underscore = base.find('_');
    std::string head = underscore == std::string::npos ? "" : base.substr(0, underscore);
    if (!head.empty() && head.find('-') != std::string::npos && head.find('.') == std::string::npos) {
      info.data_set = head;
      info.original_name = base.substr(underscore + 1);
    } else {
      info.original_name = base;
    }
  }
  // mpiP names: <appName>.<tasks>.<pid>.<index>.mpiP (docs/formats/mpip-format.md §1);
  // the NPB stdout companions keep the stem with ".out.dat".
  std::string stem = StripExtensions(info.original_name);
  {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
      std::size_t dot = stem.find('.', start);
      parts.push_back(stem.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    if (parts.size() >= 4) {
      auto index = ParseInteger(parts[parts.size() - 1]);
      auto pid = ParseInteger(parts[parts.size() - 2]);
      auto tasks = ParseInteger(parts[parts.size() - 3]);
      if (index && pid && tasks && *tasks > 0 && *tasks < (1 << 24) && *pid >= 0) {
        info.mpip_pid = *pid;
        info.mpip_tasks = static_cast<int>(*tasks);
        std::string app_name;
        for (std::size_t k = 0; k + 3 < parts.size(); ++k) app_name += (k ? "." : "") + parts[k];
        info.mpip_app = app_name;
      }
    }
  }
  std::vector<std::string> tokens = Tokens(stem);
  std::size_t app_at = tokens.size();
  for (std::size_t k = 0; k < tokens.size(); ++k)
    if (IsNpbBenchmark(ToLower(tokens[k]))) {
      app_at = k;
      break;
    }
  std::size_t class_at = tokens.size();
  if (app_at < tokens.size()) {
    info.app = ToLower(tokens[app_at]);
    for (std::size_t k = app_at + 1; k < tokens.size(); ++k)
      if (IsClassLetter(tokens[k])) {
        class_at = k;
        info.problem_class = tokens[k];
        break;
      }
  }
  std::vector<int> numbers_after_class;
  bool dash_separated = stem.find('-') != std::string::npos && stem.find('.') == std::string::npos;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const std::string& token = tokens[k];
    if (k == app_at || k == class_at) continue;
    if (int np = NumberAfter(token, "np")) { info.procs = np; continue; }
    if (int th = NumberAfter(token, "th")) { info.threads_total = th; continue; }
    if (int ranks = NumberBefore(token, "ranks")) { info.procs = ranks; continue; }
    // The run's node count: "16nodes", "1node", and "32n" as job names and Arm's report names write it
    // (kripke-32n-25-iter-1.out, benchmark_44p_1n_<date>.txt).
    int nodes = 0;
    for (const char* suffix : {"nodes", "node", "n"})
      if ((nodes = NumberBefore(ToLower(token), suffix)) > 0) break;
    if (nodes > 0) {
      info.nodes_word = nodes;
      info.nodes_token = token;
      continue;
    }
    if (IsRoman(token)) { info.repetition = token; continue; }
    auto number = ParseInteger(token);
    if (number) {
      if (class_at < tokens.size() && k > class_at) {
        if (*number > 0 && *number < (1 << 24)) numbers_after_class.push_back(static_cast<int>(*number));
      } else if (k < app_at || (app_at < tokens.size() && k < class_at)) {
        info.variant_words.push_back(token);  // node type "662", "sigdiff.2"
      }
      continue;
    }
    if (token == "x" || token == "out" || token == "dat") continue;
    info.variant_words.push_back(token);
  }
  if (app_at == tokens.size()) info.variant_words.clear();  // words of a non-NPB name are its app
  if (info.mpip_pid >= 0) {
    info.procs = info.mpip_tasks;
  } else if (!numbers_after_class.empty() && info.procs == 0) {
    info.procs = numbers_after_class[0];
    if (numbers_after_class.size() == 2 && dash_separated && numbers_after_class[1] <= info.procs)
      info.nodes = numbers_after_class[1];
  }
  return info;
}

namespace {

// Words a file or folder name uses for an output, not a program ("slurm-123.out", "np16/out.log").
bool IsOutputWord(const std::string& word) {
  static const char* const kWords[] = {"out",   "output", "outputs", "log",  "logs",  "stdout", "stderr", "job",
                                       "jobs",  "run",    "runs",    "result", "results", "slurm", "pbs", "lsf",
                                       "flux",  "np",     "p",       "n",    "ranks", "procs",  "nodes",  "test",
                                       "tests", "data",   "tmp",     "x",
                                       // How it ran, not what: "MPI-16_slurm-123.out", "strong_np8.log".
                                       "mpi", "omp", "openmp", "hybrid", "serial", "strong", "weak", "scaling"};
  for (const char* known : kWords)
    if (word == known) return true;
  return false;
}

// The leading letters of a name ("sedovflat.out" -> "sedovflat", "leblancx16" -> "leblancx").
std::string FirstWord(const std::string& name) {
  std::string word;
  for (char c : name) {
    if (!std::isalpha(static_cast<unsigned char>(c))) break;
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return word;
}

}  // namespace

std::string ApplicationFromPath(const std::string& path) {
  const std::filesystem::path file(path);
  const std::string own = FirstWord(file.filename().string());
  if (!own.empty() && !IsOutputWord(own)) return own;
  const std::string folder = FirstWord(file.parent_path().filename().string());
  if (!folder.empty() && !IsOutputWord(folder)) return folder;
  return "output";
}

}  // namespace qnm
