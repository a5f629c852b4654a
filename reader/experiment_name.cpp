#include "reader/experiment_name.h"

#include <cctype>
#include <filesystem>
#include <vector>

namespace qnm {
namespace {

// "p64" -> 64 for prefix 'p'; false unless the rest is all digits.
bool NumberAfter(const std::string& token, char prefix, int* value) {
  if (token.size() < 2 || token.size() > 10 || token[0] != prefix) return false;
  for (std::size_t i = 1; i < token.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(token[i]))) return false;
  *value = std::stoi(token.substr(1));
  return true;
}

}  // namespace

bool ParseExperimentName(const std::string& folder, ExperimentName* name) {
  *name = ExperimentName{};
  if (folder.rfind("scorep-", 0) == 0 || folder.rfind("scorep_", 0) == 0) {
    name->scorep = true;
    return true;
  }
  std::vector<std::string> tokens;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = folder.find('.', start);
    tokens.push_back(folder.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (tokens.size() < 2 || tokens[0].empty()) return false;
  ExperimentName parsed;
  parsed.app = tokens[0];
  for (std::size_t t = 1; t < tokens.size(); ++t) {
    int value = 0;
    if (t + 1 == tokens.size() && NumberAfter(tokens[t], 'r', &value)) {
      parsed.repetition = value;
    } else if (parsed.procs == 0 && NumberAfter(tokens[t], 'p', &value) && value > 0) {
      parsed.procs = value;
    } else {
      if (tokens[t].empty()) return false;
      parsed.parameters += (parsed.parameters.empty() ? "" : ".") + tokens[t];
    }
  }
  // Extra-P's cube-set names always carry the process count.
  if (parsed.procs == 0) return false;
  *name = parsed;
  return true;
}

void ApplyExperimentFolder(const std::string& path, RunStats* run) {
  namespace fs = std::filesystem;
  std::string folder = fs::path(path).parent_path().filename().string();
  ExperimentName name;
  bool known = ParseExperimentName(folder, &name);
  if (known && !name.app.empty()) {
    run->app = name.app;
    run->problem_class = name.parameters;
    run->derivations["app"] = "Extra-P cube-set folder name <app>.p<procs>.<parameters>.r<repetition>";
    if (name.repetition >= 0) run->details["repetition"] = std::to_string(name.repetition);
    if (name.procs != run->procs) run->details["folder_procs"] = std::to_string(name.procs);
  }
  if (run->app.empty()) {
    run->app = known ? "scorep" : fs::path(path).stem().string();
    run->derivations["app"] = known ? "Score-P experiment folder without a program name in the profile"
                                    : "file name (no program name in the profile)";
  }
}

}  // namespace qnm
