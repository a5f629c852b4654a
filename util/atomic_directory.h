#pragma once
// Folders as outputs: a private temporary directory that disappears with its
// owner (or on SIGINT/SIGTERM/SIGHUP, see temp_registry.h), and a folder
// built under a temporary name and renamed into place only when complete
// (e.g. an OTF2 archive or a set of charts), so readers never see half of it.
#include <string>

namespace qnm {

/// A new directory "<parent>/<prefix><pid>-XXXXXX" (mkdtemp), removed with
/// everything in it on destruction unless released. Nothing else is removed:
/// leftovers of killed runs are not guessed from their names (issue 19).
class TempDirectory {
 public:
  /// Throws InputError naming `parent` when the directory cannot be created.
  TempDirectory(const std::string& parent, const std::string& prefix);
  ~TempDirectory();
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;

  /// Absolute path of the directory.
  const std::string& path() const { return path_; }
  /// Keeps the directory (e.g. after renaming it elsewhere).
  void Release();

 private:
  std::string path_;
  int slot_ = -1;
};

/// Builds the folder `target` atomically: write into path(), then Commit().
/// Commit renames the temporary over `target` (following a symbolic link):
/// nothing there or an empty directory is replaced by rename, a non-empty
/// directory is exchanged atomically (renameat2 RENAME_EXCHANGE) and the old
/// contents removed; anything else at `target` is an error. Without Commit
/// the temporary is removed.
class AtomicDirectory {
 public:
  /// Throws InputError naming `target` when its parent cannot hold the temporary.
  explicit AtomicDirectory(const std::string& target);
  const std::string& path() const { return temp_.path(); }
  /// Throws InputError naming the target on failure (the target is untouched then).
  void Commit();

 private:
  std::string target_;
  TempDirectory temp_;
};

}  // namespace qnm
