#include "reader/run_info_file.h"

#include <algorithm>
#include <cctype>

#include "reader/host_names.h"
#include "textio/text_lines.h"
#include "util/text_format.h"

namespace qnm {
namespace {

// A host name token: letters, digits, '-', '_', '.'; starts with a letter.
bool LooksLikeHost(std::string_view token) {
  if (token.empty() || token.size() > 255 || !std::isalpha(static_cast<unsigned char>(token[0]))) return false;
  return std::all_of(token.begin(), token.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

int PositiveCount(std::string_view text) {
  auto value = ParseInteger(Trim(text));
  return value && *value > 0 && *value < (1 << 24) ? static_cast<int>(*value) : 0;
}

// `uname -a`: "<kernel> <host> <release> ..."; the kernels `uname` reports.
bool IsUnameLine(const std::vector<std::string_view>& tokens) {
  static const char* const kKernels[] = {"Linux", "Darwin", "FreeBSD", "AIX", "SunOS", "CYGWIN_NT"};
  if (tokens.size() < 3) return false;
  for (const char* kernel : kKernels)
    if (StartsWith(tokens[0], kernel)) return true;
  return false;
}

void AddHost(RunInfoFile* info, std::string_view host, const char* from) {
  if (!LooksLikeHost(host)) return;
  info->hosts.emplace_back(host);
  if (info->hosts_from.find(from) == std::string::npos)
    info->hosts_from += (info->hosts_from.empty() ? "" : ", ") + std::string(from);
}

}  // namespace

bool IsRunInfoFileName(const std::string& path) {
  static const char* const kNames[] = {"info", "host_info", "hostinfo", "hostfile", "machinefile",
                                       "nodefile", "hostname", "env", "environment"};
  std::string base = ToLower(BaseName(path));
  for (const char* name : kNames)
    if (base == name) return true;
  return false;
}

RunInfoFile ParseRunInfoFile(std::string_view text, const std::string& path) {
  RunInfoFile info;
  info.path = path;
  bool host_list = true;  // every non-empty line is "host" or "host slots=N"
  std::vector<std::string_view> listed;
  int non_empty = 0;
  for (std::string_view raw : SplitLines(text.substr(0, 1 << 20))) {
    std::string_view line = Trim(raw);
    if (line.empty() || line[0] == '#') continue;
    ++non_empty;
    std::vector<std::string_view> tokens = SplitWhitespace(line);
    if (IsUnameLine(tokens)) {
      AddHost(&info, tokens[1], "uname line");
      host_list = false;
      continue;
    }
    std::size_t colon = line.find(':');
    std::size_t equals = line.find('=');
    std::size_t split = std::min(colon, equals);
    if (split != std::string_view::npos && split > 0) {
      std::string key = ToLower(Trim(line.substr(0, split)));
      std::string_view value = Trim(line.substr(split + 1));
      if (key == "threads/node" || key == "threads per node") info.threads_per_node = PositiveCount(value);
      else if (key == "nodes" || key == "slurm_nnodes" || key == "slurm_job_num_nodes")
        info.nodes = PositiveCount(value);
      else if (key == "omp_num_threads") info.threads_per_proc = PositiveCount(value);
      else if (key == "hostname" || key == "host" || key == "slurmd_nodename")
        AddHost(&info, value, key == "slurmd_nodename" ? "SLURMD_NODENAME" : "HOSTNAME");
      // "host slots=4" (an Open MPI hostfile) is a host line, not a key.
      if (!(tokens.size() == 2 && StartsWith(tokens[1], "slots"))) {
        host_list = false;
        continue;
      }
    }
    if (tokens.size() > 2 || !LooksLikeHost(tokens[0])) host_list = false;
    else listed.push_back(tokens[0]);
  }
  if (host_list && non_empty > 0)
    for (std::string_view host : listed) AddHost(&info, host, "host lines");
  return info;
}

}  // namespace qnm
