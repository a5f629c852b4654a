#pragma once
// Runs a shell command in the tests and captures its standard output.
#include <array>
#include <cstdio>
#include <string>

#include <sys/wait.h>

namespace qnm::testing {

/// Runs `command` through the shell; returns its exit code (-1 if it did not
/// exit normally) and fills `out` with its standard output.
inline int RunCommand(const std::string& command, std::string* out) {
  FILE* pipe = popen(command.c_str(), "r");
  out->clear();
  if (!pipe) return -1;
  std::array<char, 4096> buffer;
  std::size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out->append(buffer.data(), n);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#ifdef QNM_CLI_PATH
/// Runs `qnm-predict ARGUMENTS` with standard error joined to `out`; returns its exit code.
inline int RunCli(const std::string& arguments, std::string* out) {
  return RunCommand(std::string(QNM_CLI_PATH) + " " + arguments + " 2>&1", out);
}
#endif

}  // namespace qnm::testing
