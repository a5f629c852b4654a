#include "plots/gnuplot_available.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "plots/charts.h"

namespace qnm::plots {

std::string FindGnuplot() {
  const char* path_env = std::getenv("PATH");
  if (path_env == nullptr) return "";
  std::stringstream dirs(path_env);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) dir = ".";  // POSIX: an empty PATH entry means the current directory
    std::string candidate = dir + "/gnuplot";
    struct stat info {};
    if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return "";
}

bool GnuplotAvailable() { return !FindGnuplot().empty(); }

std::string GnuplotTerminals(const std::string& gnuplot_path) {
  if (gnuplot_path.empty()) return "";
  // `print` writes to stderr unless redirected; "-" sends it to stdout for popen.
  std::string command = "'" + gnuplot_path +
                        "' -e \"set print '-'; print GPVAL_TERMINALS\" 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[512];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  ::pclose(pipe);
  return out;
}

bool HasTerminal(const std::string& terminals, const std::string& name) {
  std::stringstream words(terminals);
  std::string word;
  while (words >> word) {
    if (word == name) return true;
  }
  return false;
}

}  // namespace qnm::plots
