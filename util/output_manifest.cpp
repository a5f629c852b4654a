#include "util/output_manifest.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

// Relative paths of everything below `folder`, folders with a trailing '/';
// symbolic links are listed, not followed. Sets `error` when a part cannot be read.
std::vector<std::string> EntriesBelow(const fs::path& folder, std::error_code* error) {
  std::vector<std::string> entries;
  for (fs::recursive_directory_iterator it(folder, *error), end; !*error && it != end; it.increment(*error)) {
    std::error_code status_error;
    std::string relative = it->path().lexically_relative(folder).generic_string();
    if (it->is_directory(status_error) && !it->is_symlink(status_error)) relative += "/";
    entries.push_back(relative);
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

}  // namespace

void WriteFolderManifest(const std::string& folder, const std::string& name) {
  std::error_code error;
  std::vector<std::string> entries = EntriesBelow(folder, &error);
  if (error) throw InputError(folder, 0, "cannot list what was written: " + error.message());
  entries.push_back(name);
  std::sort(entries.begin(), entries.end());
  std::string text =
      "# written by qnm-predict; a later run replaces this folder only if it holds nothing but these\n";
  for (const std::string& entry : entries) text += entry + "\n";
  WriteFileAtomically((fs::path(folder) / name).string(), text);
}

std::string FirstUnlistedEntry(const std::string& folder, const std::string& name) {
  std::set<std::string> listed;
  std::ifstream in(fs::path(folder) / name);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') listed.insert(line);
  std::error_code error;
  std::vector<std::string> entries = EntriesBelow(folder, &error);
  if (error) return "(cannot list the folder: " + error.message() + ")";
  for (const std::string& entry : entries)
    if (!listed.count(entry)) return entry;
  if (listed.empty()) return "(no manifest " + name + ")";
  return "";
}

}  // namespace qnm
