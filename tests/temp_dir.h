#pragma once
// A fresh temporary directory for one test, removed at scope exit.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace qnm::testing {

struct TempDir {
  std::filesystem::path path;
  /// `<tmp>/<prefix>-<name>-<pid>`, emptied first.
  TempDir(const std::string& prefix, const std::string& name) {
    path = std::filesystem::temp_directory_path() / (prefix + "-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace qnm::testing
