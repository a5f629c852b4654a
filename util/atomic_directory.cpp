#include "util/atomic_directory.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/temp_registry.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

std::string ParentOf(const std::string& path) {
  std::string parent = fs::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

}  // namespace

TempDirectory::TempDirectory(const std::string& parent, const std::string& prefix) {
  std::error_code ec;
  std::string pattern = (fs::absolute(parent, ec) / (prefix + std::to_string(::getpid()) + "-XXXXXX")).string();
  if (ec) throw InputError(parent, 0, "cannot create a temporary directory: " + ec.message());
  if (::mkdtemp(pattern.data()) == nullptr)
    throw InputError(parent, 0, std::string("cannot create a temporary directory: ") + std::strerror(errno));
  path_ = pattern;
  slot_ = RegisterTemp(path_, TempKind::kDirectory);
}

TempDirectory::~TempDirectory() {
  if (path_.empty()) return;
  std::error_code ignored;
  fs::remove_all(path_, ignored);
  UnregisterTemp(slot_);
}

void TempDirectory::Release() {
  UnregisterTemp(slot_);
  path_.clear();
}

AtomicDirectory::AtomicDirectory(const std::string& target)
    : target_(ResolveOutputPath(target)),
      temp_(ParentOf(target_), "." + fs::path(target_).filename().string() + ".tmp.") {}

void AtomicDirectory::Commit() {
  struct stat st;
  if (::lstat(target_.c_str(), &st) != 0) {
    if (errno != ENOENT) throw InputError(target_, 0, std::string("cannot write: ") + std::strerror(errno));
  } else if (!S_ISDIR(st.st_mode)) {
    throw InputError(target_, 0, "cannot write the folder: something else than a folder is there");
  }
  if (::rename(temp_.path().c_str(), target_.c_str()) == 0) {  // nothing, or an empty folder
    temp_.Release();
    return;
  }
  if (errno != ENOTEMPTY && errno != EEXIST)
    throw InputError(target_, 0, std::string("cannot write: ") + std::strerror(errno));
  // A full folder: swap the two in one step; the old contents end up in the
  // temporary, which the destructor removes.
  if (::renameat2(AT_FDCWD, temp_.path().c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0)
    throw InputError(target_, 0, std::string("cannot replace the folder: ") + std::strerror(errno));
}

}  // namespace qnm
