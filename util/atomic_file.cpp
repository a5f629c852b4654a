#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>

#include "util/input_error.h"
#include "util/temp_registry.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void Fail(const std::string& path, const std::string& what, int error_number) {
  throw InputError(path, 0, what + ": " + std::strerror(error_number));
}

/// Writes all of `contents` to `fd`; false with errno set on failure.
bool WriteAll(int fd, std::string_view contents) {
  const char* data = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) {
      errno = EIO;
      return false;
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

std::string DirectoryOf(const std::string& path) {
  std::string parent = fs::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

/// Temp file beside `target`, fsync, rename over it. `mode` of a replaced file is kept.
void ReplaceAtomically(const std::string& shown, const std::string& target, mode_t mode,
                       std::string_view contents) {
  // A fresh name created with O_EXCL: the file removed on failure or signal
  // is one this process created, never something found beside the target.
  std::string temp;
  int fd = -1;
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    temp = TempFileFor(target);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) Fail(shown, "cannot write", errno);
  const int slot = RegisterTemp(temp, TempKind::kFile);
  auto fail = [&](const std::string& what, int error_number) {
    ::unlink(temp.c_str());
    UnregisterTemp(slot);
    Fail(shown, what, error_number);
  };
  ::fchmod(fd, mode);  // not narrowed by the umask: a replaced file keeps its mode
  if (!WriteAll(fd, contents) || ::fsync(fd) != 0) {
    int saved = errno;
    ::close(fd);
    fail("cannot write", saved);
  }
  if (::close(fd) != 0) fail("cannot write", errno);
  if (::rename(temp.c_str(), target.c_str()) != 0) fail("cannot write", errno);
  UnregisterTemp(slot);
}

/// FIFOs and devices: written in place, never replaced (nothing to rename over them).
void WriteInPlace(const std::string& shown, const std::string& target, std::string_view contents) {
  int fd = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) Fail(shown, "cannot write", errno);
  if (!WriteAll(fd, contents)) {
    int saved = errno;
    ::close(fd);
    Fail(shown, "cannot write", saved);
  }
  if (::close(fd) != 0) Fail(shown, "cannot write", errno);
}

}  // namespace

std::string ResolveOutputPath(const std::string& path) {
  std::string current = path;
  for (int hops = 0; hops < 40; ++hops) {  // Linux's own limit (MAXSYMLINKS)
    struct stat st;
    if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return current;
    char buffer[PATH_MAX];
    ssize_t n = ::readlink(current.c_str(), buffer, sizeof buffer - 1);
    if (n < 0) Fail(path, "cannot read symbolic link", errno);
    std::string target(buffer, static_cast<std::size_t>(n));
    if (target.empty()) throw InputError(path, 0, "empty symbolic link");
    if (target.front() != '/') target = (fs::path(DirectoryOf(current)) / target).string();
    current = target;
  }
  throw InputError(path, 0, "too many levels of symbolic links (a link loop?)");
}

void WriteFileAtomically(const std::string& path, std::string_view contents) {
  if (path.empty()) throw InputError("", 0, "empty output path");
  const std::string target = ResolveOutputPath(path);
  struct stat st;
  if (::lstat(target.c_str(), &st) != 0) {
    if (errno != ENOENT) Fail(path, "cannot write", errno);
    ReplaceAtomically(path, target, 0644, contents);  // nothing there yet
    return;
  }
  if (S_ISDIR(st.st_mode)) throw InputError(path, 0, "cannot write: is a directory");
  if (S_ISREG(st.st_mode)) {
    ReplaceAtomically(path, target, st.st_mode & 07777, contents);
    return;
  }
  WriteInPlace(path, target, contents);  // FIFO, character or block device, socket
}

void FlushStandardOutput() {
  std::cout.flush();
  bool failed = !std::cout;
  failed |= std::fflush(stdout) != 0 || std::ferror(stdout);
  if (failed) Fail("standard output", "cannot write", errno != 0 ? errno : EIO);
}

void WriteOutput(const std::string& path, std::string_view contents) {
  if (!path.empty() && path != "-") {
    WriteFileAtomically(path, contents);
    return;
  }
  FlushStandardOutput();  // keep anything printed earlier in order
  if (!WriteAll(STDOUT_FILENO, contents)) Fail("standard output", "cannot write", errno);
}

void RefuseOutputOverInputs(const std::string& path, const std::vector<std::string>& inputs) {
  if (path.empty() || path == "-") return;
  struct stat out;
  if (::stat(path.c_str(), &out) != 0 || !S_ISREG(out.st_mode)) return;  // nothing to overwrite
  std::error_code ec;
  const fs::path output = fs::canonical(path, ec);
  for (const std::string& input : inputs) {
    struct stat in;
    if (::stat(input.c_str(), &in) != 0) continue;
    bool same = in.st_dev == out.st_dev && in.st_ino == out.st_ino;
    if (!same && S_ISDIR(in.st_mode) && !ec) {
      const fs::path root = fs::canonical(input, ec);
      if (ec) continue;
      auto [r, o] = std::mismatch(root.begin(), root.end(), output.begin(), output.end());
      same = r == root.end();
    }
    if (same)
      throw InputError(path, 0, "refusing to write the output over an input (" + input + ")");
  }
}

void RefuseOneFileForTwoOutputs(const std::string& first, const char* first_option, const std::string& second,
                                const char* second_option) {
  if (first.empty() || first == "-" || second.empty() || second == "-") return;
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(ResolveOutputPath(first), ec);
  const fs::path b = ec ? fs::path() : fs::weakly_canonical(ResolveOutputPath(second), ec);
  bool same = !ec && a == b;
  struct stat sa, sb;
  if (::stat(first.c_str(), &sa) == 0 && ::stat(second.c_str(), &sb) == 0)
    same = same || (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
  if (same)
    throw InputError(second, 0, std::string(first_option) + " and " + second_option +
                                    " name the same file; one output would replace the other");
}

long long FileSizeBytes(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_size) : -1;
}

namespace {

/// Opens `path` for reading when it is a regular file; `st` receives its fstat. Throws InputError.
int OpenRegularFile(const std::string& path, struct stat* st) {
  // Check the type before opening: opening a FIFO blocks, a device may have effects.
  if (::stat(path.c_str(), st) != 0) Fail(path, "cannot open", errno);
  if (S_ISDIR(st->st_mode)) throw InputError(path, 0, "cannot read: is a directory");
  if (!S_ISREG(st->st_mode))
    throw InputError(path, 0, "cannot read: not a regular file (a FIFO, device or socket)");
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) Fail(path, "cannot open", errno);
  if (::fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {  // replaced between stat and open
    ::close(fd);
    throw InputError(path, 0, "cannot read: not a regular file");
  }
  return fd;
}

}  // namespace

std::string ReadFile(const std::string& path, long long max_bytes) {
  if (max_bytes < 0) max_bytes = std::numeric_limits<long long>::max() - 1;
  struct stat st;
  int fd = OpenRegularFile(path, &st);
  // Read straight into the string (one copy less than a bounce buffer); one
  // spare byte tells a file that grew since fstat from one that did not.
  auto too_large = [&] {
    ::close(fd);
    throw InputError(path, 0, "not read: larger than the limit of " + std::to_string(max_bytes) +
                                  " bytes (it holds or grew to more while being read)");
  };
  if (static_cast<long long>(st.st_size) > max_bytes) too_large();
  std::string text(static_cast<std::size_t>(st.st_size) + 1, '\0');
  std::size_t filled = 0;
  for (;;) {
    if (static_cast<long long>(filled) > max_bytes) too_large();
    if (filled == text.size())
      text.resize(static_cast<std::size_t>(std::min<long long>(static_cast<long long>(text.size()) * 2, max_bytes + 1)));
    ssize_t n = ::read(fd, text.data() + filled, text.size() - filled);
    if (n < 0) {
      if (errno == EINTR) continue;
      int saved = errno;
      ::close(fd);
      Fail(path, "read error", saved);
    }
    if (n == 0) break;
    filled += static_cast<std::size_t>(n);
  }
  text.resize(filled);
  ::close(fd);
  return text;
}

std::string ReadFileHead(const std::string& path, std::size_t max_bytes) {
  struct stat st;
  int fd = OpenRegularFile(path, &st);
  std::string head(max_bytes, '\0');
  std::size_t filled = 0;
  while (filled < max_bytes) {
    ssize_t n = ::read(fd, head.data() + filled, max_bytes - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int saved = errno;
      ::close(fd);
      Fail(path, "read error", saved);
    }
    if (n == 0) break;
    filled += static_cast<std::size_t>(n);
  }
  ::close(fd);
  head.resize(filled);
  return head;
}

}  // namespace qnm
