#pragma once
// Whole files as bytes, and writable copies of trace directories, for the
// tests that damage copies of real inputs.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace qnm::testing {

inline std::string ReadBytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void WriteBytes(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << bytes;
}

/// Copies the directory `from` to `to`, owner-writable (the inputs may be read-only).
inline void CopyWritable(const std::filesystem::path& from, const std::filesystem::path& to) {
  namespace fs = std::filesystem;
  fs::copy(from, to, fs::copy_options::recursive);
  for (auto& entry : fs::recursive_directory_iterator(to))
    fs::permissions(entry.path(), fs::perms::owner_read | fs::perms::owner_write |
                                      (entry.is_directory() ? fs::perms::owner_exec : fs::perms::none));
}

}  // namespace qnm::testing
