#pragma once
// Runs qnm-predict as a child under an address-space limit and measures its
// peak resident memory with wait4 (the kernel's ru_maxrss): the memory tests
// of issue 19 assert what a run costs, not how long it takes.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace qnm::testing {

struct LimitedRun {
  int exit_code = -1;        // -1 when killed by a signal
  long peak_rss_kb = 0;      // ru_maxrss of the child
  std::string err;           // its standard error
};

/// `QNM_CLI_PATH args...` with RLIMIT_AS = `address_limit_bytes`; stdout is
/// discarded, stderr captured through `err_file`.
inline LimitedRun RunCliLimited(const std::vector<std::string>& args, long long address_limit_bytes,
                                const std::string& err_file) {
  std::vector<std::string> argv_text{QNM_CLI_PATH};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t child = ::fork();
  if (child == 0) {
    struct rlimit limit{static_cast<rlim_t>(address_limit_bytes), static_cast<rlim_t>(address_limit_bytes)};
    ::setrlimit(RLIMIT_AS, &limit);
    int null_fd = ::open("/dev/null", O_WRONLY);
    int err_fd = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(null_fd, 1);
    ::dup2(err_fd, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  LimitedRun run;
  int status = 0;
  struct rusage usage {};
  ::wait4(child, &status, 0, &usage);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.peak_rss_kb = usage.ru_maxrss;
  std::ifstream in(err_file);
  std::stringstream text;
  text << in.rdbuf();
  run.err = text.str();
  return run;
}

}  // namespace qnm::testing
